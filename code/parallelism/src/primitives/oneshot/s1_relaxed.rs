//! Stage 1 (broken): the flag is set and read with `Relaxed`.

use std::mem::MaybeUninit;

use crate::sync::{Arc, AtomicBool, Ordering, UnsafeCell, hint};

// ANCHOR: relaxed_oneshot
struct Slot<T> {
    message: UnsafeCell<MaybeUninit<T>>,
    ready: AtomicBool,
}

// SAFETY: claimed, but wrong: with Relaxed the write and the read of the message are not
// ordered; loom proves it.
unsafe impl<T: Send> Sync for Slot<T> {}

pub struct RelaxedSender<T>(Arc<Slot<T>>);
pub struct RelaxedReceiver<T>(Arc<Slot<T>>);

pub fn relaxed_channel<T>() -> (RelaxedSender<T>, RelaxedReceiver<T>) {
    let slot = Arc::new(Slot {
        message: UnsafeCell::new(MaybeUninit::uninit()),
        ready: AtomicBool::new(false),
    });
    (RelaxedSender(slot.clone()), RelaxedReceiver(slot))
}

impl<T> RelaxedSender<T> {
    /// Sends the message. Taking `self` by value makes a second send a compile error.
    pub fn send(self, message: T) {
        self.0.message.with_mut(|p| unsafe { (*p).write(message) });
        // BUG: Relaxed: the flag can become visible before the message is.
        self.0.ready.store(true, Ordering::Relaxed);
    }
}

impl<T> RelaxedReceiver<T> {
    /// The message if it has arrived. Takes it: a second call returns `None`.
    pub fn try_receive(&mut self) -> Option<T> {
        // A plain load first: a waiting receiver only reads the flag's cache line, and writes
        // it once, when there is something to take.
        if !self.0.ready.load(Ordering::Relaxed) {
            return None;
        }
        // swap, not load + store: the flag is cleared in the same step that claims the message.
        // BUG: Relaxed: seeing the flag does not mean seeing the message.
        if self.0.ready.swap(false, Ordering::Relaxed) {
            // SAFETY (the claim this version gets wrong): ready was true, so the message was written;
            // with Relaxed, that write need not be visible to this thread yet.
            Some(self.0.message.with(|p| unsafe { (*p).assume_init_read() }))
        } else {
            None
        }
    }

    /// Waits for the message by spinning. (A sender dropped unsent would leave this spinning:
    /// a full channel adds a "sender gone" state for that; this one stays minimal.)
    pub fn receive(mut self) -> T {
        loop {
            if let Some(message) = self.try_receive() {
                return message;
            }
            hint::spin_loop();
        }
    }
}
// ANCHOR_END: relaxed_oneshot

impl<T> Drop for Slot<T> {
    fn drop(&mut self) {
        // A message sent but never received is dropped here.
        if self.ready.load(Ordering::Acquire) {
            self.message
                .with_mut(|p| unsafe { (*p).assume_init_drop() });
        }
    }
}
