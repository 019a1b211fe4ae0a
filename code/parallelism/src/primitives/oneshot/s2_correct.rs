//! Stage 2 (correct): the flag publishes the message with Release/Acquire.

use std::mem::MaybeUninit;

use crate::sync::{Arc, AtomicBool, Ordering, UnsafeCell, hint};

// ANCHOR: oneshot_slot
struct Slot<T> {
    message: UnsafeCell<MaybeUninit<T>>,
    ready: AtomicBool,
}

// SAFETY: the message is written once before `ready` is released, and read once after it is
// acquired; the two sides never touch it at the same time.
unsafe impl<T: Send> Sync for Slot<T> {}

pub struct Sender<T>(Arc<Slot<T>>);
pub struct Receiver<T>(Arc<Slot<T>>);

pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let slot = Arc::new(Slot {
        message: UnsafeCell::new(MaybeUninit::uninit()),
        ready: AtomicBool::new(false),
    });
    (Sender(slot.clone()), Receiver(slot))
}
// ANCHOR_END: oneshot_slot

// ANCHOR: oneshot_hand_over
impl<T> Sender<T> {
    /// Sends the message. Taking `self` by value makes a second send a compile error.
    pub fn send(self, message: T) {
        self.0.message.with_mut(|p| unsafe { (*p).write(message) });
        self.0.ready.store(true, Ordering::Release);
    }
}

impl<T> Receiver<T> {
    /// The message if it has arrived. Takes it: a second call returns `None`.
    pub fn try_receive(&mut self) -> Option<T> {
        // A plain load first: a waiting receiver only reads the flag's cache line, and writes
        // it once, when there is something to take.
        if !self.0.ready.load(Ordering::Relaxed) {
            return None;
        }
        // swap, not load + store: the flag is cleared in the same step that claims the message.
        if self.0.ready.swap(false, Ordering::Acquire) {
            // SAFETY: ready was true, so the message was written (and Acquire made it visible).
            Some(self.0.message.with(|p| unsafe { (*p).assume_init_read() }))
        } else {
            None
        }
    }
}
// ANCHOR_END: oneshot_hand_over

impl<T> Receiver<T> {
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

impl<T> Drop for Slot<T> {
    fn drop(&mut self) {
        // A message sent but never received is dropped here.
        if self.ready.load(Ordering::Acquire) {
            self.message
                .with_mut(|p| unsafe { (*p).assume_init_drop() });
        }
    }
}
