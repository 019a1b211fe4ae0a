//! Stage 1: a prototype over the whole recording. Each step makes a new vector; clarity first.

use super::{Event, Settings, WINDOW};

// ANCHOR: prototype
// ANCHOR: prototype_steps
pub fn detect_events(raw: &[i16], s: Settings) -> Vec<Event> {
    let calibrated: Vec<i32> = raw
        .iter()
        .map(|&x| i32::from(x) * s.gain + s.offset)
        .collect();
    // Median of three removes single-sample spikes; the first two samples see a shorter past.
    let despiked: Vec<i32> = (0..calibrated.len())
        .map(|i| {
            let mut w = [
                calibrated[i.saturating_sub(2)],
                calibrated[i.saturating_sub(1)],
                calibrated[i],
            ];
            w.sort();
            w[1]
        })
        .collect();
    // Moving average over the last WINDOW samples (fewer at the start).
    let smoothed: Vec<i32> = (0..despiked.len())
        .map(|i| {
            let from = (i + 1).saturating_sub(WINDOW);
            let window = &despiked[from..=i];
            window.iter().sum::<i32>() / window.len() as i32
        })
        .collect();
    // ANCHOR_END: prototype_steps
    let mut events = Vec::new();
    let mut open: Option<Event> = None;
    for (i, &v) in smoothed.iter().enumerate() {
        let i = i as u64;
        match open.as_mut() {
            None if v >= s.high => {
                open = Some(Event {
                    start: i,
                    end: i,
                    peak: v,
                })
            }
            Some(e) if v < s.low => {
                e.end = i;
                events.push(*e);
                open = None;
            }
            Some(e) => e.peak = e.peak.max(v),
            None => {}
        }
    }
    events
}
// ANCHOR_END: prototype
