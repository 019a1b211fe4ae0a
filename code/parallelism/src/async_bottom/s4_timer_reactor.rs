//! A reactor: a thread that waits for events on behalf of every task and calls their wakers.
//! Here the events are deadlines; in tokio they are also sockets and files, whose readiness
//! the OS reports through epoll (Linux), kqueue (macOS, BSD) or IOCP (Windows).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Waker};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

// ANCHOR: reactor
#[derive(Default)]
struct Shared {
    /// Deadlines and the wakers of the tasks waiting for them.
    timers: Mutex<(Vec<(Instant, Waker)>, bool)>, // (timers, shut down?)
    changed: Condvar,
}

/// Owns the reactor thread; dropping it stops the thread.
pub struct TimerReactor {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

// ANCHOR_END: reactor
// ANCHOR: reactor_loop
impl TimerReactor {
    pub fn start() -> Self {
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        let thread = thread::spawn(move || {
            let mut guard = s.timers.lock().expect("no panics while holding the lock");
            while !guard.1 {
                let now = Instant::now();
                // Wake every task whose deadline has passed, keep the others.
                guard.0.retain(|(deadline, waker)| {
                    let due = *deadline <= now;
                    if due {
                        waker.wake_by_ref();
                    }
                    !due
                });
                // Sleep until the earliest deadline, or until a new timer arrives.
                let next = guard.0.iter().map(|(d, _)| *d).min();
                let wait = next.map_or(Duration::from_secs(3600), |d| d - now);
                guard = s.changed.wait_timeout(guard, wait).expect("no panics").0;
            }
        });
        TimerReactor {
            shared,
            thread: Some(thread),
        }
    }

    /// A future that is ready once `duration` has passed.
    pub fn sleep(&self, duration: Duration) -> Sleep {
        Sleep {
            deadline: Instant::now() + duration,
            shared: self.shared.clone(),
            registered: false,
        }
    }
}
// ANCHOR_END: reactor_loop

impl Drop for TimerReactor {
    fn drop(&mut self) {
        self.shared
            .timers
            .lock()
            .expect("no panics while holding the lock")
            .1 = true;
        self.shared.changed.notify_one();
        if let Some(t) = self.thread.take() {
            t.join().expect("the reactor thread does not panic");
        }
    }
}

// ANCHOR: sleep
pub struct Sleep {
    deadline: Instant,
    shared: Arc<Shared>,
    registered: bool,
}

impl Future for Sleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.deadline {
            return Poll::Ready(());
        }
        if !self.registered {
            // Hand the deadline and our waker to the reactor, and tell it to recompute its wait.
            self.registered = true;
            let mut timers = self
                .shared
                .timers
                .lock()
                .expect("no panics holding the lock");
            timers.0.push((self.deadline, cx.waker().clone()));
            self.shared.changed.notify_one();
        }
        // (A future moved to another executor would need its new waker stored; ours stay put.)
        Poll::Pending
    }
}
// ANCHOR_END: sleep

#[cfg(test)]
mod tests {
    use super::*;
    use crate::async_bottom::s2_waker::block_on;
    use crate::async_bottom::s3_executor::Executor;

    #[test]
    fn sleep_waits_at_least_its_duration() {
        let reactor = TimerReactor::start();
        let start = Instant::now();
        block_on(reactor.sleep(Duration::from_millis(30)));
        assert!(start.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn a_thousand_sleeping_tasks_share_one_thread_and_overlap() {
        let reactor = TimerReactor::start();
        let finished = Arc::new(Mutex::new(Vec::new()));
        let mut executor = Executor::new();
        let start = Instant::now();
        for i in 0..1000u64 {
            let sleep = reactor.sleep(Duration::from_millis(50 + i % 3));
            let finished = finished.clone();
            executor.spawn(async move {
                sleep.await;
                finished.lock().unwrap().push(i);
            });
        }
        executor.run();
        assert_eq!(finished.lock().unwrap().len(), 1000);
        // Sequential sleeps would take 50 s; overlapped they take about 50 ms. Generous bound
        // for a busy machine.
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "took {:?}",
            start.elapsed()
        );
    }

    #[test]
    fn shorter_sleeps_finish_first() {
        let reactor = TimerReactor::start();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut executor = Executor::new();
        for ms in [60u64, 20, 40] {
            let (sleep, order) = (reactor.sleep(Duration::from_millis(ms)), order.clone());
            executor.spawn(async move {
                sleep.await;
                order.lock().unwrap().push(ms);
            });
        }
        executor.run();
        assert_eq!(*order.lock().unwrap(), [20, 40, 60]);
    }
}
