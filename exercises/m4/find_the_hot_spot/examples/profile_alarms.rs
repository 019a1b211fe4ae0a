//! The program to profile: a day's recording at ten readings a second, as a monitoring service
//! receives it (text, one reading a line), read, searched for alarms with a ten-minute window,
//! and grouped into episodes.
//! Prints what it found, the operations on totals and the time.
//!
//! ```console
//! cargo run --release -p ex_m4_find_the_hot_spot --example profile_alarms
//! ```

use std::fmt::Write as _;
use std::time::Instant;

use ex_m4_find_the_hot_spot::{Trace, alarms, episodes};

/// A reproducible recording: a slow wave plus noise from a small xorshift generator, with
/// bursts, written as text.
fn recording(len: usize) -> String {
    let mut x = 0x2545_f491_u32;
    let mut text = String::with_capacity(len * 6);
    for i in 0..len {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let wave = 20_000.0 + 8_000.0 * (i as f64 / 5_000.0).sin();
        let burst = if (i / 20_000) % 7 == 3 { 15_000.0 } else { 0.0 };
        let reading = (wave + burst + f64::from(x % 4_000)) as u16;
        writeln!(text, "{reading}").expect("writing to a String cannot fail");
    }
    text
}

fn main() {
    let text = recording(864_000);
    let start = Instant::now();
    let trace = match Trace::parse(&text) {
        Ok(trace) => trace,
        Err(e) => {
            eprintln!("profile_alarms: {e}");
            std::process::exit(1);
        }
    };
    let found = alarms(&trace, 6_000, 30_000);
    let runs = episodes(&found);
    let took = start.elapsed();
    println!(
        "{} readings: {} alarms in {} episodes (longest {:?})",
        trace.len(),
        found.len(),
        runs.len(),
        runs.first()
    );
    println!(
        "{} operations on totals ({:.1} per reading) in {took:.2?}",
        trace.operations(),
        trace.operations() as f64 / trace.len() as f64
    );
}
