//! Async is for many tasks that mostly wait, not for CPU work.

use std::time::{Duration, Instant};

// ANCHOR: waiting
/// `tasks` tasks each wait `wait` (a stand-in for a network reply) on a tokio runtime with
/// `workers` threads. A waiting task is a small heap object, not a thread.
pub fn wait_with_tokio(tasks: usize, wait: Duration, workers: usize) -> Duration {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers.max(1))
        .enable_time()
        .build()
        .expect("a tokio runtime with a timer can always be built");
    let start = Instant::now();
    runtime.block_on(async {
        let handles: Vec<_> = (0..tasks)
            .map(|_| tokio::spawn(tokio::time::sleep(wait)))
            .collect();
        for h in handles {
            h.await.expect("the sleeping task does not panic");
        }
    });
    start.elapsed()
}

/// The same with one OS thread per waiting task: each costs a stack and a kernel thread.
pub fn wait_with_threads(tasks: usize, wait: Duration) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..tasks {
            s.spawn(|| std::thread::sleep(wait));
        }
    });
    start.elapsed()
}
// ANCHOR_END: waiting

// ANCHOR: cpu
/// CPU work inside async tasks: the runtime has `workers` threads, and a task that never
/// awaits holds its thread until it is done. Async adds no cores.
pub fn cpu_work_with_tokio(jobs: u64, rounds: u32, workers: usize) -> u64 {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers.max(1))
        .build()
        .expect("a tokio runtime can always be built");
    runtime.block_on(async {
        let handles: Vec<_> = (0..jobs)
            .map(|j| tokio::spawn(async move { crate::data_parallel::work(j, rounds) }))
            .collect();
        let mut total = 0u64;
        for h in handles {
            total = total.wrapping_add(h.await.expect("the job does not panic"));
        }
        total
    })
}
// ANCHOR_END: cpu

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_parallel::{sequential_sum, work};

    #[test]
    fn every_waiting_task_finishes() {
        // Correctness only: both return once every task has waited (timings are for figures).
        assert!(wait_with_tokio(200, Duration::from_millis(1), 2) >= Duration::from_millis(1));
        assert!(wait_with_threads(20, Duration::from_millis(1)) >= Duration::from_millis(1));
    }

    #[test]
    fn cpu_work_in_tasks_gives_the_sequential_result() {
        let data: Vec<u64> = (0..500).collect();
        assert_eq!(cpu_work_with_tokio(500, 4, 2), sequential_sum(&data, 4));
        assert_eq!(work(0, 0), 0);
    }
}
