//! Habit: a counter says what happens at its limit. Rust has no `x++`, and `x += 1` is an
//! expression of type `()`, so an increment cannot hide inside an index or an argument; what is
//! left to decide is the counter's type and its overflow.

// ANCHOR: before
/// Before: a frame counter in a `u8`. At frame 256 `+= 1` overflows: a build with overflow
/// checks (the default debug and test profiles) panics, a release build silently wraps to 0.
/// The same code behaves differently in the two builds, and neither is what was meant.
pub struct FrameCounterU8 {
    pub frames: u8,
}

impl FrameCounterU8 {
    pub fn tick(&mut self) -> u8 {
        self.frames += 1;
        self.frames
    }
}
// ANCHOR_END: before

// ANCHOR: after
/// After, a count that must never wrap: a `u64`, which at a million ticks a second lasts more
/// than 500 000 years.
#[derive(Default)]
pub struct FrameCounter {
    frames: u64,
}

impl FrameCounter {
    pub fn tick(&mut self) -> u64 {
        self.frames += 1;
        self.frames
    }
}

/// After, a number that wraps by design (a 16-bit sequence number in a packet header): say so.
pub fn next_sequence(sequence: u16) -> u16 {
    sequence.wrapping_add(1)
}

/// Packets missing between two received sequence numbers, correct across the wrap.
pub fn missing_between(previous: u16, received: u16) -> u16 {
    received.wrapping_sub(previous).wrapping_sub(1)
}
// ANCHOR_END: after

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;
    use std::panic::catch_unwind;

    #[test]
    fn the_u8_counter_depends_on_the_build_at_frame_256() {
        let result = catch_unwind(|| {
            let mut counter = FrameCounterU8 {
                frames: black_box(255),
            };
            counter.tick()
        });
        // Overflow checks follow debug assertions unless a profile sets them apart.
        if cfg!(debug_assertions) {
            assert!(result.is_err(), "with overflow checks, frame 256 panics");
        } else {
            assert_eq!(result.ok(), Some(0), "without them, it wraps to 0");
        }
    }

    #[test]
    fn the_u64_counter_counts_on() {
        let mut counter = FrameCounter::default();
        for _ in 0..300 {
            counter.tick();
        }
        assert_eq!(counter.tick(), 301);
        let years = u64::MAX as f64 / 1e6 / (365.25 * 24.0 * 3600.0);
        assert!(years > 500_000.0, "{years} years at 1 MHz");
    }

    #[test]
    fn sequence_numbers_wrap_and_gaps_are_counted_across_the_wrap() {
        assert_eq!(next_sequence(u16::MAX), 0);
        assert_eq!(missing_between(10, 11), 0);
        assert_eq!(missing_between(10, 14), 3);
        assert_eq!(
            missing_between(u16::MAX - 1, 2),
            3,
            "65535, 0 and 1 are missing"
        );
    }
}
