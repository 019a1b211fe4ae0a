//! What goes wrong with locks, shown and tested: a poisoned mutex and how to recover its data,
//! a deadlock from two locks taken in opposite orders (detected with a time limit) and the
//! lock ordering that removes it, and a condition variable waited on in a loop.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::thread;
use std::time::{Duration, Instant};

// ANCHOR: poison
/// Appends `values` one by one, and panics after the first if `fail` is set: the panic happens
/// while the guard is held, so the mutex is poisoned and the list is left half-updated.
pub fn append_all(list: &Mutex<Vec<u32>>, values: &[u32], fail: bool) {
    let mut guard = list.lock().unwrap_or_else(PoisonError::into_inner);
    for (i, v) in values.iter().enumerate() {
        guard.push(*v);
        if fail && i == 0 {
            panic!("failed half-way through append_all");
        }
    }
}

/// Reads the list even when a panicking thread poisoned the lock: the data is still there, and
/// the caller decides whether a half-finished update is acceptable.
pub fn snapshot(list: &Mutex<Vec<u32>>) -> (Vec<u32>, bool) {
    match list.lock() {
        Ok(guard) => (guard.clone(), false),
        Err(poisoned) => (poisoned.into_inner().clone(), true),
    }
}
// ANCHOR_END: poison

/// An account whose balance is behind a lock; `id` orders the locks.
pub struct Account {
    pub id: u32,
    balance: Mutex<i64>,
}

impl Account {
    pub fn new(id: u32, balance: i64) -> Self {
        Self {
            id,
            balance: Mutex::new(balance),
        }
    }

    pub fn balance(&self) -> i64 {
        *self.balance.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Why a transfer's lock could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LockError {
    /// Not free in time: probably a deadlock.
    #[error(
        "account {account}'s lock was not free within {waited:?}: the thread holding it is \
         probably waiting for a lock this thread holds; take locks in one global order"
    )]
    Timeout { account: u32, waited: Duration },
    /// A thread panicked while holding it, perhaps between a debit and its credit.
    #[error(
        "account {account}'s lock is poisoned: a thread panicked during a transfer, so the \
         balances may be half-updated; check the total before clearing the poison"
    )]
    Poisoned { account: u32 },
}

// ANCHOR: lock_within
/// `lock()` with a time limit, built from `try_lock`: std's Mutex has no timed lock.
/// A poisoned lock is an error too: a money transfer must not carry on from a half-done one.
fn lock_within(account: &Account, limit: Duration) -> Result<MutexGuard<'_, i64>, LockError> {
    let deadline = Instant::now() + limit;
    loop {
        match account.balance.try_lock() {
            Ok(guard) => return Ok(guard),
            Err(TryLockError::Poisoned(_)) => {
                return Err(LockError::Poisoned {
                    account: account.id,
                });
            }
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => thread::yield_now(),
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Timeout {
                    account: account.id,
                    waited: limit,
                });
            }
        }
    }
}
// ANCHOR_END: lock_within

// ANCHOR: transfers
/// Locks `from`, then `to`. Two threads moving money in opposite directions each hold their
/// first lock and wait forever for the other's. `between` runs while only the first is held.
pub fn transfer_naive(
    from: &Account,
    to: &Account,
    amount: i64,
    limit: Duration,
    between: impl FnOnce(),
) -> Result<(), LockError> {
    let mut source = lock_within(from, limit)?;
    between();
    let mut target = lock_within(to, limit)?;
    *source -= amount;
    *target += amount;
    Ok(())
}

/// Locks the account with the smaller id first, whichever direction the money goes: every
/// thread takes the locks in the same order, so no cycle of waiting threads can form.
pub fn transfer_ordered(
    from: &Account,
    to: &Account,
    amount: i64,
    limit: Duration,
    between: impl FnOnce(),
) -> Result<(), LockError> {
    let (first, second, sign) = if from.id < to.id {
        (from, to, 1)
    } else {
        (to, from, -1)
    };
    let mut first_balance = lock_within(first, limit)?;
    between();
    let mut second_balance = lock_within(second, limit)?;
    *first_balance -= sign * amount;
    *second_balance += sign * amount;
    Ok(())
}
// ANCHOR_END: transfers

// ANCHOR: condvar
/// A queue that consumers wait on without spinning: they sleep on a condition variable until a
/// producer pushes a job or closes the queue.
#[derive(Default)]
pub struct JobQueue {
    state: Mutex<(VecDeque<u64>, bool)>, // (jobs, closed)
    changed: Condvar,
}

impl JobQueue {
    pub fn push(&self, job: u64) {
        self.state.lock().unwrap().0.push_back(job);
        self.changed.notify_one();
    }

    pub fn close(&self) {
        self.state.lock().unwrap().1 = true;
        self.changed.notify_all();
    }

    /// The next job, or `None` once the queue is closed and empty.
    pub fn pop(&self) -> Option<u64> {
        let mut state = self.state.lock().unwrap();
        // A loop, never an `if`: a wake-up may be spurious, and another consumer may have taken
        // the job between the notify and this thread getting the lock back.
        loop {
            if let Some(job) = state.0.pop_front() {
                return Some(job);
            }
            if state.1 {
                return None;
            }
            state = self.changed.wait(state).unwrap();
        }
    }
}
// ANCHOR_END: condvar

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;

    // ANCHOR: poison_test
    #[test]
    fn a_panic_under_the_lock_poisons_it_and_the_data_survives() {
        let list = Mutex::new(vec![]);
        let joined = thread::scope(|s| s.spawn(|| append_all(&list, &[1, 2, 3], true)).join());
        assert!(joined.is_err(), "the thread panicked");
        assert!(list.is_poisoned());
        let error = list.lock().unwrap_err(); // a PoisonError...
        assert_eq!(*error.into_inner(), [1]); // ...that still holds the half-done update
        assert_eq!(snapshot(&list), (vec![1], true));
        list.clear_poison();
        append_all(&list, &[4], false);
        assert_eq!(snapshot(&list), (vec![1, 4], false));
    }
    // ANCHOR_END: poison_test

    // ANCHOR: deadlock_tests
    #[test]
    fn opposite_lock_orders_deadlock_and_the_time_limit_reports_it() {
        let (a, b) = (Account::new(1, 100), Account::new(2, 100));
        let both_hold_one = Barrier::new(2); // forces the bad interleaving every time
        let limit = Duration::from_millis(200);
        let (ab, ba) = thread::scope(|s| {
            let t = s.spawn(|| transfer_naive(&a, &b, 10, limit, || _ = both_hold_one.wait()));
            let ba = transfer_naive(&b, &a, 10, limit, || _ = both_hold_one.wait());
            (t.join().unwrap(), ba)
        });
        // Each thread held one lock and waited for the other's. The first to give up releases
        // its lock, which may let the other finish; at least one of them must have timed out.
        let timed_out: Vec<LockError> = [ab, ba].into_iter().filter_map(Result::err).collect();
        assert!(
            !timed_out.is_empty(),
            "the opposite order always deadlocks here"
        );
        assert!(timed_out[0].to_string().contains("one global order"));
        assert_eq!(a.balance() + b.balance(), 200, "nothing moved half-way");
    }

    #[test]
    fn one_lock_order_never_deadlocks() {
        let (a, b) = (Account::new(1, 1_000), Account::new(2, 1_000));
        let limit = Duration::from_secs(10);
        let pause = || thread::sleep(Duration::from_millis(20)); // holds the first lock a while
        thread::scope(|s| {
            let t = s.spawn(|| transfer_ordered(&a, &b, 10, limit, pause));
            transfer_ordered(&b, &a, 30, limit, pause).unwrap();
            t.join().unwrap().unwrap();
            let t =
                s.spawn(|| (0..5_000).try_for_each(|_| transfer_ordered(&a, &b, 1, limit, || {})));
            (0..5_000)
                .try_for_each(|_| transfer_ordered(&b, &a, 1, limit, || {}))
                .unwrap();
            t.join().unwrap().unwrap();
        });
        assert_eq!((a.balance(), b.balance()), (1_020, 980));
    }
    // ANCHOR_END: deadlock_tests

    #[test]
    fn a_transfer_refuses_a_poisoned_account() {
        let (a, b) = (Account::new(1, 100), Account::new(2, 100));
        let limit = Duration::from_millis(200);
        let panicked = thread::scope(|s| {
            s.spawn(|| transfer_ordered(&a, &b, 10, limit, || panic!("between the two locks")))
                .join()
        });
        assert!(
            panicked.is_err(),
            "the transfer panicked holding account 1's lock"
        );
        let refused = transfer_ordered(&a, &b, 10, limit, || {});
        assert_eq!(refused, Err(LockError::Poisoned { account: 1 }));
        assert!(refused.unwrap_err().to_string().contains("check the total"));
        assert_eq!(a.balance() + b.balance(), 200);
    }

    #[test]
    fn every_job_is_taken_exactly_once() {
        let queue = JobQueue::default();
        let mut taken: Vec<u64> = thread::scope(|s| {
            let consumers: Vec<_> = (0..4)
                .map(|_| s.spawn(|| std::iter::from_fn(|| queue.pop()).collect::<Vec<_>>()))
                .collect();
            for job in 0..1_000 {
                queue.push(job);
            }
            queue.close();
            consumers
                .into_iter()
                .flat_map(|c| c.join().unwrap())
                .collect()
        });
        taken.sort_unstable();
        assert_eq!(taken, (0..1_000).collect::<Vec<_>>());
        assert_eq!(queue.pop(), None);
    }
}
