//! The program to profile: a long recorded trace and a wide window, as a monitoring service
//! would run it. Prints the alarms found, the readings taken and the time.
//!
//! ```console
//! cargo run --release -p ex_m4_find_the_hot_spot --example profile_alarms
//! ```

use std::time::Instant;

use ex_m4_find_the_hot_spot::{Trace, alarms};

/// A reproducible trace: a slow wave plus noise from a small xorshift generator, with bursts.
fn recording(len: usize) -> Vec<u16> {
    let mut x = 0x2545_f491_u32;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let wave = 20_000.0 + 8_000.0 * (i as f64 / 5_000.0).sin();
            let burst = if (i / 20_000) % 7 == 3 { 15_000.0 } else { 0.0 };
            (wave + burst + f64::from(x % 4_000)) as u16
        })
        .collect()
}

fn main() {
    let trace = Trace::new(recording(200_000));
    let start = Instant::now();
    let found = alarms(&trace, 2_000, 30_000);
    let took = start.elapsed();
    println!(
        "{} alarms in {} readings; {} reads of the trace ({:.1} per reading) in {took:.2?}",
        found.len(),
        trace.len(),
        trace.reads(),
        trace.reads() as f64 / trace.len() as f64
    );
}
