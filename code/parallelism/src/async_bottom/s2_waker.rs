//! A waker is a handle the future keeps to say "poll me again". Here it is built from an `Arc`
//! with [`std::task::Wake`], first to count wake-ups, then to unpark a sleeping thread.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Counts how often it is woken: shows who calls the waker and when.
#[derive(Default)]
pub struct CountingWaker {
    pub wakes: AtomicUsize,
}

impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.wakes.fetch_add(1, Ordering::SeqCst);
    }
}

// ANCHOR: block_on
/// Wakes the thread that waits in `block_on`.
struct ThreadWaker(Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs one future to completion on this thread: poll; if it is not ready, sleep until its
/// waker is called, then poll again. This is all an executor is, for a single future.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(output) => return output,
            // A wake that came before this park leaves a token, so park returns at once.
            Poll::Pending => thread::park(),
        }
    }
}
// ANCHOR_END: block_on

#[cfg(test)]
mod tests {
    use super::*;
    use crate::async_bottom::s1_future_by_hand::{add_two, yield_once};
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn each_pending_leaf_wakes_once() {
        let counter = Arc::new(CountingWaker::default());
        let waker = Waker::from(counter.clone());
        let mut cx = Context::from_waker(&waker);
        let mut future = pin!(add_two(yield_once(1), yield_once(2)));
        while future.as_mut().poll(&mut cx).is_pending() {}
        assert_eq!(counter.wakes.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn block_on_runs_an_async_fn() {
        assert_eq!(block_on(add_two(yield_once(20), yield_once(22))), 42);
    }

    /// A future whose value arrives from another thread, which calls the waker it was given.
    struct FromThread {
        rx: mpsc::Receiver<u32>,
        waker_tx: Option<mpsc::Sender<Waker>>,
    }

    impl Future for FromThread {
        type Output = u32;
        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if let Ok(v) = self.rx.try_recv() {
                return Poll::Ready(v);
            }
            if let Some(tx) = self.waker_tx.take() {
                tx.send(cx.waker().clone())
                    .expect("the sender thread is alive");
            }
            Poll::Pending
        }
    }

    #[test]
    fn block_on_sleeps_until_another_thread_wakes_it() {
        let (value_tx, rx) = mpsc::channel();
        let (waker_tx, waker_rx) = mpsc::channel::<Waker>();
        let sender = thread::spawn(move || {
            let waker = waker_rx.recv().expect("the future sends its waker");
            thread::sleep(Duration::from_millis(20));
            value_tx.send(7).expect("the future is alive");
            waker.wake();
        });
        let got = block_on(FromThread {
            rx,
            waker_tx: Some(waker_tx),
        });
        sender.join().expect("the sender does not panic");
        assert_eq!(got, 7);
    }
}
