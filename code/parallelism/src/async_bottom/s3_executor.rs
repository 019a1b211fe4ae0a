//! Many futures on one thread: each task sits in a queue when it can make progress, and its
//! waker puts it back in the queue. A task that waits is in no queue at all, only in the waker
//! that some leaf future (a timer, a socket, a channel) keeps.

use std::future::Future;
use std::pin::Pin;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::task::{Context, Wake, Waker};

type BoxedFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

// ANCHOR: task
/// A spawned future and the way back into the run queue.
struct Task {
    // `None` once the future has finished. The Mutex makes `Task` shareable between threads
    // (a waker may be called from any thread); only the executor's thread locks it to poll.
    future: Mutex<Option<BoxedFuture>>,
    queue: Sender<Arc<Task>>,
}

impl Wake for Task {
    fn wake(self: Arc<Self>) {
        // Waking is only re-queueing. If the executor is gone, there is nothing to run it.
        let queue = self.queue.clone();
        let _ = queue.send(self);
    }
}
// ANCHOR_END: task

// ANCHOR: executor
/// A single-threaded executor: a FIFO run queue of tasks.
pub struct Executor {
    queue: Sender<Arc<Task>>,
    ready: Receiver<Arc<Task>>,
    live: usize,
}

impl Executor {
    pub fn new() -> Self {
        let (queue, ready) = channel();
        Executor {
            queue,
            ready,
            live: 0,
        }
    }

    /// Queues a future to be polled for the first time by `run`.
    pub fn spawn(&mut self, future: impl Future<Output = ()> + Send + 'static) {
        self.live += 1;
        let task = Arc::new(Task {
            future: Mutex::new(Some(Box::pin(future))),
            queue: self.queue.clone(),
        });
        self.queue
            .send(task)
            .expect("the executor holds the receiver");
    }

    // ANCHOR_END: executor
    // ANCHOR: executor_run
    /// Polls ready tasks until every spawned task has finished; sleeps while none is ready.
    pub fn run(&mut self) {
        while self.live > 0 {
            let task = self.ready.recv().expect("the executor holds a sender");
            let mut slot = task.future.lock().expect("a task's poll never panics here");
            let Some(future) = slot.as_mut() else {
                continue; // woken again after it finished: nothing to do
            };
            let waker = Waker::from(task.clone());
            if future
                .as_mut()
                .poll(&mut Context::from_waker(&waker))
                .is_ready()
            {
                *slot = None; // drop the finished future now: its memory is freed
                self.live -= 1;
            }
        }
    }
}
// ANCHOR_END: executor_run

impl Default for Executor {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::async_bottom::s1_future_by_hand::{add_two, yield_once};
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn every_task_runs_to_completion() {
        let total = Arc::new(AtomicU32::new(0));
        let mut executor = Executor::new();
        for i in 0..100 {
            let total = total.clone();
            executor.spawn(async move {
                let sum = add_two(yield_once(i), yield_once(1)).await;
                total.fetch_add(sum, Ordering::SeqCst);
            });
        }
        executor.run();
        // Each task adds i + 1 for i in 0..100.
        assert_eq!(total.load(Ordering::SeqCst), (1..=100).sum::<u32>());
    }

    #[test]
    fn tasks_interleave_at_each_await() {
        // Two tasks that each yield twice: with a FIFO queue, their steps alternate.
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut executor = Executor::new();
        for name in ['a', 'b'] {
            let log = log.clone();
            executor.spawn(async move {
                for step in 0..3 {
                    log.lock().unwrap().push(format!("{name}{step}"));
                    yield_once(0).await;
                }
            });
        }
        executor.run();
        assert_eq!(*log.lock().unwrap(), ["a0", "b0", "a1", "b1", "a2", "b2"]);
    }

    #[test]
    fn a_waker_from_another_runtime_library_works_here() {
        // tokio's Notify needs no tokio runtime: it only stores and calls our wakers.
        let notify = Arc::new(tokio::sync::Notify::new());
        let done = Arc::new(AtomicU32::new(0));
        let mut executor = Executor::new();
        for _ in 0..10 {
            let (notify, done) = (notify.clone(), done.clone());
            executor.spawn(async move {
                notify.notified().await;
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        let n = notify.clone();
        executor.spawn(async move {
            yield_once(0).await; // by now all ten wait inside notified()
            n.notify_waiters();
        });
        executor.run();
        assert_eq!(done.load(Ordering::SeqCst), 10);
    }
}
