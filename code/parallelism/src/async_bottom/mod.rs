//! Async from the bottom, in four stages, each small enough to read in one sitting:
//!
//! 1. [`s1_future_by_hand`]: a future written by hand as the state machine `async fn` makes.
//! 2. [`s2_waker`]: a [`std::task::Waker`] built from an `Arc` with [`std::task::Wake`], and the
//!    smallest `block_on`.
//! 3. [`s3_executor`]: a task queue that runs many futures on one thread.
//! 4. [`s4_timer_reactor`]: a reactor thread that wakes sleeping tasks when their time comes.
//!
//! [`memory`] and [`starvation`] hold what the figures measure: memory per waiting task against
//! memory per waiting thread, and a blocking call that delays every other task on its thread.

pub mod memory;
pub mod s1_future_by_hand;
pub mod s2_waker;
pub mod s3_executor;
pub mod s4_timer_reactor;
pub mod starvation;
