//! Mutex, RwLock and atomics: three ways to share a counter or a table between threads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};
use std::thread;

// ANCHOR: counters
/// `threads` threads each add 1, `n` times, to a counter behind a mutex.
pub fn count_with_mutex(threads: usize, n: u64) -> u64 {
    let total = Mutex::new(0u64);
    thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                for _ in 0..n {
                    *total.lock().unwrap() += 1;
                }
            });
        }
    });
    total.into_inner().unwrap()
}

/// The same with one atomic: no lock, one read-modify-write instruction per increment.
pub fn count_with_atomic(threads: usize, n: u64) -> u64 {
    let total = AtomicU64::new(0);
    thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                for _ in 0..n {
                    total.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    total.into_inner()
}
// ANCHOR_END: counters

// ANCHOR: rwlock
/// A read-mostly table: many readers may hold the read lock at once; a writer waits for them
/// and then has the table alone.
pub struct Settings {
    table: RwLock<HashMap<String, f64>>,
}

impl Settings {
    pub fn new() -> Self {
        Self {
            table: RwLock::new(HashMap::new()),
        }
    }

    pub fn get(&self, key: &str) -> Option<f64> {
        self.table.read().unwrap().get(key).copied()
    }

    pub fn set(&self, key: &str, value: f64) {
        self.table.write().unwrap().insert(key.to_owned(), value);
    }
}
// ANCHOR_END: rwlock

impl Default for Settings {
    fn default() -> Self {
        Self::new()
    }
}

// ANCHOR: message_passing
/// Release/Acquire in its smallest form: one thread writes data, then raises a flag with
/// Release; the other waits for the flag with Acquire and is then sure to see the data.
pub fn publish_with_flag() -> u64 {
    use std::sync::atomic::AtomicBool;
    let data = AtomicU64::new(0);
    let ready = AtomicBool::new(false);
    thread::scope(|s| {
        s.spawn(|| {
            data.store(42, Ordering::Relaxed);
            ready.store(true, Ordering::Release);
        });
        while !ready.load(Ordering::Acquire) {
            std::hint::spin_loop();
        }
        data.load(Ordering::Relaxed)
    })
}
// ANCHOR_END: message_passing

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutex_and_atomic_counters_lose_nothing() {
        assert_eq!(count_with_mutex(4, 5_000), 20_000);
        assert_eq!(count_with_atomic(4, 5_000), 20_000);
    }

    #[test]
    fn readers_see_what_the_writer_set() {
        let settings = Settings::new();
        thread::scope(|s| {
            s.spawn(|| settings.set("gain", 2.0));
        });
        let seen: Vec<_> = thread::scope(|s| {
            let readers: Vec<_> = (0..3).map(|_| s.spawn(|| settings.get("gain"))).collect();
            readers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(seen, [Some(2.0); 3]);
        assert_eq!(settings.get("missing"), None);
    }

    #[test]
    fn the_flag_publishes_the_data() {
        for _ in 0..100 {
            assert_eq!(publish_with_flag(), 42);
        }
    }
}
