//! Threads: spawn and join, scoped threads, and what `Send` and `Sync` promise.

use std::thread;

// ANCHOR: spawn_join
/// Sums `data` on `threads` spawned threads. Each thread owns its part (moved in), so the
/// closures are `'static`, as `thread::spawn` requires.
pub fn sum_with_spawn(data: Vec<u64>, threads: usize) -> u64 {
    let threads = threads.max(1);
    let chunk = data.len().div_ceil(threads).max(1);
    let handles: Vec<thread::JoinHandle<u64>> = data
        .chunks(chunk)
        .map(|part| {
            let part = part.to_vec(); // a copy the thread can own
            thread::spawn(move || part.iter().sum())
        })
        .collect();
    // join() waits and hands back the thread's result (or its panic, as an Err).
    handles.into_iter().map(|h| h.join().unwrap()).sum()
}
// ANCHOR_END: spawn_join

// ANCHOR: scoped
/// The same sum with scoped threads: they may borrow `data`, because the scope joins them all
/// before it returns, so no thread can outlive the borrow. No copies.
pub fn sum_with_scope(data: &[u64], threads: usize) -> u64 {
    let chunk = data.len().div_ceil(threads.max(1)).max(1);
    thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().sum::<u64>()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}
// ANCHOR_END: scoped

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sums_agree_with_the_sequential_one() {
        for n in [0, 1, 7, 1000] {
            let data: Vec<u64> = (0..n).collect();
            let expected: u64 = data.iter().sum();
            for threads in [1, 2, 3, 8] {
                assert_eq!(sum_with_spawn(data.clone(), threads), expected);
                assert_eq!(sum_with_scope(&data, threads), expected);
            }
        }
    }
}
