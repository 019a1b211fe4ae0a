//! Frame buffers that go back to the source when a frame is dropped, wherever that happens: at
//! the consumer, in a queue that throws its oldest frame away, or in a stage that gives up on
//! one. The return path is a bounded channel, so taking and returning a buffer never allocates.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_channel::{Receiver, Sender};

// ANCHOR: pixels
/// A frame's pixel bytes. Made by a [`FramePool`], it goes back to the pool when dropped, with
/// its capacity, so the next frame reuses the memory; made with `From<Vec<u8>>`, it is a plain
/// `Vec` (a test's frame, a recording loaded into memory).
#[derive(Default)]
pub struct Pixels {
    bytes: Vec<u8>,
    home: Option<Sender<Vec<u8>>>,
}

impl Drop for Pixels {
    fn drop(&mut self) {
        if let Some(home) = &self.home {
            let mut bytes = std::mem::take(&mut self.bytes);
            bytes.clear();
            // A full pool (buffers made when it was empty) or a pipeline gone: the bytes are
            // freed instead, which is what a plain `Vec` would do.
            let _ = home.try_send(bytes);
        }
    }
}
// ANCHOR_END: pixels

// ANCHOR: pool
/// The buffers frames are made in: `buffers` empty `Vec`s at start-up, each allocated by the
/// first frame made in it and reused after that. When none is free (the stages and the consumer
/// hold them all), [`FramePool::take`] makes a new one and counts it: the source never waits
/// for memory, and a count that keeps growing says the pool is too small for the pipeline.
pub struct FramePool {
    free: Receiver<Vec<u8>>,
    home: Sender<Vec<u8>>,
    made_when_empty: Arc<AtomicU64>,
}

impl FramePool {
    /// A pool of `buffers` buffers, with room for as many again made when it was empty.
    pub fn new(buffers: usize) -> Self {
        let (home, free) = crossbeam_channel::bounded(2 * buffers.max(1));
        for _ in 0..buffers {
            let _ = home.try_send(Vec::new()); // an empty `Vec` allocates nothing yet
        }
        Self {
            free,
            home,
            made_when_empty: Arc::default(),
        }
    }

    /// An empty buffer that keeps the capacity of its last use.
    pub fn take(&self) -> Pixels {
        let bytes = self.free.try_recv().unwrap_or_else(|_| {
            self.made_when_empty.fetch_add(1, Ordering::Relaxed);
            Vec::new()
        });
        Pixels {
            bytes,
            home: Some(self.home.clone()),
        }
    }
}
// ANCHOR_END: pool

impl FramePool {
    /// Buffers made because none was free, so far.
    pub fn made_when_empty(&self) -> u64 {
        self.made_when_empty.load(Ordering::Relaxed)
    }

    /// Buffers free now.
    pub fn free(&self) -> usize {
        self.free.len()
    }
}

impl From<Vec<u8>> for Pixels {
    fn from(bytes: Vec<u8>) -> Self {
        Self { bytes, home: None }
    }
}

impl Deref for Pixels {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.bytes
    }
}

impl DerefMut for Pixels {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.bytes
    }
}

/// A copy is a plain `Vec`: only the frame that came from the pool goes back to it.
impl Clone for Pixels {
    fn clone(&self) -> Self {
        Self::from(self.bytes.clone())
    }
}

/// Equal when the bytes are: where the memory came from does not matter.
impl PartialEq for Pixels {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl std::fmt::Debug for Pixels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.bytes.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::queue::{Policy, bounded};

    #[test]
    fn a_dropped_buffer_goes_back_with_its_capacity() {
        let pool = FramePool::new(1);
        let mut pixels = pool.take();
        assert_eq!(pool.free(), 0);
        pixels.extend_from_slice(&[1; 100]);
        let memory = pixels.as_ptr();
        drop(pixels);
        assert_eq!(pool.free(), 1);
        let again = pool.take();
        assert!(again.is_empty(), "a returned buffer comes back cleared");
        assert!(again.capacity() >= 100);
        assert_eq!(again.as_ptr(), memory, "the same memory, not a new block");
        assert_eq!(pool.made_when_empty(), 0);
    }

    #[test]
    fn an_empty_pool_makes_a_buffer_counts_it_and_keeps_it_afterwards() {
        let pool = FramePool::new(1);
        let held = [pool.take(), pool.take(), pool.take()];
        assert_eq!(pool.made_when_empty(), 2);
        drop(held);
        // Room for twice the start: two are kept for the next frames, the third is freed.
        assert_eq!(pool.free(), 2);
    }

    #[test]
    fn a_frame_a_drop_oldest_queue_throws_away_goes_back_to_the_pool() {
        let pool = FramePool::new(4);
        let (tx, rx) = bounded(1, Policy::DropOldest);
        for _ in 0..4 {
            tx.send(pool.take()).unwrap();
        }
        // One waits in the queue; the three the queue threw away are free again.
        assert_eq!((tx.stats().dropped, pool.free()), (3, 3));
        drop((tx, rx));
        assert_eq!(pool.free(), 4);
        assert_eq!(pool.made_when_empty(), 0);
    }
}
