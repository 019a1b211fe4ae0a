//! A future written by hand: the enum of states that the compiler writes for an `async fn`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::memory;

// ANCHOR: yield_once
/// A leaf future: the first poll says "not yet" (after asking to be polled again), the second
/// says "ready". Real leaves (sockets, timers) say "not yet" until the OS has news.
pub struct YieldOnce {
    value: u32,
    yielded: bool,
}

impl Future for YieldOnce {
    type Output = u32;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        if self.yielded {
            Poll::Ready(self.value)
        } else {
            self.yielded = true;
            // The contract: before returning Pending, arrange for the waker to be called.
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

pub fn yield_once(value: u32) -> YieldOnce {
    YieldOnce {
        value,
        yielded: false,
    }
}
// ANCHOR_END: yield_once

// ANCHOR: async_fn
/// What we would write: two awaits, and `x` lives across the second one.
pub async fn add_two(a: YieldOnce, b: YieldOnce) -> u32 {
    let x = a.await;
    let y = b.await;
    x + y
}
// ANCHOR_END: async_fn

// ANCHOR: state_machine
/// What the compiler makes of `add_two`, written out: one variant per place the function can
/// be paused, holding exactly the variables still needed after that point.
pub enum AddTwo {
    AwaitingA { a: YieldOnce, b: YieldOnce },
    AwaitingB { x: u32, b: YieldOnce },
    Done,
}

impl Future for AddTwo {
    type Output = u32;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        loop {
            // `YieldOnce` is `Unpin`, so plain `&mut` access to the fields is allowed.
            match &mut *self {
                AddTwo::AwaitingA { a, b } => match Pin::new(a).poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(x) => {
                        let b = std::mem::replace(b, yield_once(0));
                        *self = AddTwo::AwaitingB { x, b };
                    }
                },
                AddTwo::AwaitingB { x, b } => match Pin::new(b).poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(y) => {
                        let sum = *x + y;
                        *self = AddTwo::Done;
                        return Poll::Ready(sum);
                    }
                },
                AddTwo::Done => panic!("AddTwo polled after it returned Ready"),
            }
        }
    }
}
// ANCHOR_END: state_machine

pub fn add_two_by_hand(a: YieldOnce, b: YieldOnce) -> AddTwo {
    AddTwo::AwaitingA { a, b }
}

// ANCHOR: sizes
/// Holds a 1 KiB buffer across an await: the buffer becomes part of the future.
pub async fn buffer_across_await(byte: u8) -> u8 {
    let buffer = [byte; 1024];
    yield_once(0).await;
    buffer[1023]
}

/// Uses the same buffer before the await only: it need not be stored.
pub async fn buffer_before_await(byte: u8) -> u8 {
    let last = [byte; 1024][1023];
    yield_once(0).await;
    last
}

// ANCHOR_END: sizes

/// The size in bytes of each future, by name: these are what a task stores while it waits.
pub fn future_sizes() -> Vec<(&'static str, usize)> {
    let y = || yield_once(1);
    let notify = std::sync::Arc::new(tokio::sync::Notify::new());
    let started = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    vec![
        ("YieldOnce (leaf, by hand)", size_of_val(&y())),
        (
            "AddTwo (state machine by hand)",
            size_of_val(&add_two_by_hand(y(), y())),
        ),
        ("add_two (async fn)", size_of_val(&add_two(y(), y()))),
        (
            "buffer_across_await (async fn)",
            size_of_val(&buffer_across_await(7)),
        ),
        (
            "buffer_before_await (async fn)",
            size_of_val(&buffer_before_await(7)),
        ),
        ("tokio::time::Sleep", size_of::<tokio::time::Sleep>()),
        (
            "tokio Notified (a wait on a Notify)",
            size_of::<tokio::sync::futures::Notified<'static>>(),
        ),
        (
            "waiter (async fn, memory figure)",
            size_of_val(&memory::waiter(notify.clone())),
        ),
        (
            "counted_waiter (async fn, memory figure)",
            size_of_val(&memory::counted_waiter(notify, started)),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    // ANCHOR: poll_by_hand
    #[test]
    fn the_hand_written_machine_pauses_twice_then_adds() {
        // A waker that does nothing: we poll by hand, so nobody needs waking.
        let mut cx = Context::from_waker(Waker::noop());
        let mut future = add_two_by_hand(yield_once(2), yield_once(3));
        let mut future = Pin::new(&mut future);
        assert_eq!(future.as_mut().poll(&mut cx), Poll::Pending); // inside a.await
        assert_eq!(future.as_mut().poll(&mut cx), Poll::Pending); // inside b.await
        assert_eq!(future.as_mut().poll(&mut cx), Poll::Ready(5));
    }
    // ANCHOR_END: poll_by_hand

    #[test]
    fn the_async_fn_behaves_like_the_hand_written_one() {
        let mut cx = Context::from_waker(Waker::noop());
        let mut future = std::pin::pin!(add_two(yield_once(2), yield_once(3)));
        assert_eq!(future.as_mut().poll(&mut cx), Poll::Pending);
        assert_eq!(future.as_mut().poll(&mut cx), Poll::Pending);
        assert_eq!(future.as_mut().poll(&mut cx), Poll::Ready(5));
    }

    #[test]
    fn an_unpolled_future_does_nothing() {
        // Creating the future runs none of its body: the buffer is not even built yet.
        let future = buffer_across_await(9);
        drop(future);
    }

    #[test]
    fn a_buffer_held_across_an_await_is_stored_in_the_future() {
        let sizes: std::collections::HashMap<_, _> = future_sizes().into_iter().collect();
        assert!(sizes["buffer_across_await (async fn)"] >= 1024);
        assert!(sizes["buffer_before_await (async fn)"] < 1024);
        // The hand-written machine stores no more than its largest state plus a tag.
        assert!(
            sizes["AddTwo (state machine by hand)"] <= 2 * sizes["YieldOnce (leaf, by hand)"] + 8
        );
    }
}
