//! The method's stages agree: the prototype's output on a fixed recording is the golden output;
//! the streaming components match it in any chunking; the optimised pipeline matches the
//! components on any input, and allocates nothing once warm.

use proptest::prelude::*;
use realtime::counting_alloc::{CountingAllocator, count_allocations};
use realtime::method::{
    Event, Settings, recording, s1_prototype, s2_components, s3_allocation_free,
};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

fn golden_text(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| format!("{} {} {}\n", e.start, e.end, e.peak))
        .collect()
}

// ANCHOR: golden
#[test]
fn the_prototype_matches_the_golden_output() {
    let events = s1_prototype::detect_events(&recording(3000, 1), Settings::default());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/events_3000_seed1.txt"
    );
    // A deliberate change of behaviour rewrites the file, and the diff is reviewed.
    if std::env::var_os("REALTIME_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, golden_text(&events)).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap();
    assert_eq!(golden_text(&events), golden);
}
// ANCHOR_END: golden

fn run_s2(raw: &[i16], chunk: usize, s: Settings) -> Vec<Event> {
    let mut p = s2_components::Pipeline::new(s);
    raw.chunks(chunk.max(1))
        .flat_map(|c| p.process(c))
        .collect()
}

fn run_s3(raw: &[i16], chunk: usize, s: Settings) -> Vec<Event> {
    let mut p = s3_allocation_free::Pipeline::new(s);
    let mut all = Vec::new();
    let mut events = Vec::new();
    for c in raw.chunks(chunk.max(1)) {
        events.clear();
        p.process(c, &mut events);
        all.extend_from_slice(&events);
    }
    all
}

#[test]
fn the_components_match_the_prototype() {
    let raw = recording(3000, 1);
    let expected = s1_prototype::detect_events(&raw, Settings::default());
    assert!(expected.len() >= 5, "the recording has events");
    for chunk in [1, 7, 64, 3000] {
        assert_eq!(
            run_s2(&raw, chunk, Settings::default()),
            expected,
            "chunk {chunk}"
        );
    }
}

#[test]
fn the_optimised_pipeline_allocates_nothing_once_warm() {
    let raw = recording(4096, 2);
    let mut p = s3_allocation_free::Pipeline::new(Settings::default());
    let mut events = Vec::with_capacity(64);
    let (_, allocs) = count_allocations(|| {
        for c in raw.chunks(256) {
            events.clear();
            p.process(c, &mut events);
        }
    });
    assert_eq!(allocs, 0);
}

// ANCHOR: proptest
proptest! {
    #[test]
    fn optimised_equals_components_on_any_input(
        raw in proptest::collection::vec(any::<i16>(), 0..600),
        chunk in 1usize..50,
        gain in -3i32..4,
        offset in -500i32..500,
        low in -2000i32..2000,
        gap in 0i32..2000,
    ) {
        let s = Settings { gain, offset, low, high: low + gap };
        prop_assert_eq!(run_s3(&raw, chunk, s), run_s2(&raw, 600, s));
    }
}
// ANCHOR_END: proptest
