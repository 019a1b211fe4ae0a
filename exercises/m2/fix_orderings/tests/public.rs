//! Public test: `cargo nextest run -p ex_m2_fix_orderings`. One loom model; the hidden tests are
//! more models like it, each aimed at one pair of orderings.

use ex_m2_fix_orderings::{Snapshot, seqlock};
use loom::model::Builder;
use loom::thread;

/// Loom with a preemption bound: enough to find these bugs, small enough to take well under a
/// second (the cost grows quickly with the bound).
fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

#[test]
fn fix_orderings_public_reader_sees_a_whole_write() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || writer.write([1, 1]));
        // Before the write, or after it: never a mix, never a finished write with old words.
        let got = reader.read();
        let before = Snapshot {
            version: 0,
            words: [0, 0],
        };
        let after = Snapshot {
            version: 1,
            words: [1, 1],
        };
        assert!(
            got == before || got == after,
            "read() returned {got:?}: neither the value before the write nor the one after it"
        );
        t.join().unwrap();
    });
}
