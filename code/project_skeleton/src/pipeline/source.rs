//! A generated sensor: grey-level frames of a bright bar moving over noise, one per period.
//! The same seed and index always give the same frame, so any stage can be checked against a
//! frame made again from its index.

use std::time::Duration;

use crate::pipeline::pool::Pixels;

/// What was wrong with a source's settings, and what to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SourceError {
    #[error("a frame of {width} x {height} pixels is empty: give both sides at least 4 pixels")]
    Empty { width: u32, height: u32 },
    #[error(
        "a frame width of {width} is not a multiple of 4: the GPU stage packs 4 pixels into a \
         32-bit word, so pick a width like {}",
        width.next_multiple_of(4)
    )]
    WidthNotMultipleOf4 { width: u32 },
    #[error("a frame period of zero makes frames as fast as the machine can: give a period > 0")]
    ZeroPeriod,
}

/// One captured frame: 8-bit grey pixels, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// 0, 1, 2, … in the order the source made them.
    pub index: u64,
    /// When the source made it, on the pipeline's clock.
    pub captured_at: Duration,
    pub width: u32,
    pub height: u32,
    /// `width * height` bytes, usually from the pipeline's frame pool.
    pub pixels: Pixels,
}

/// The source's settings: a seed, a frame size and a fixed frame period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceConfig {
    pub seed: u64,
    pub width: u32,
    pub height: u32,
    pub period: Duration,
}

impl SourceConfig {
    /// 60 frames per second of 64 × 48 pixels.
    pub const DEFAULT: Self = Self {
        seed: 1,
        width: 64,
        height: 48,
        period: Duration::from_nanos(16_666_667),
    };
}

// ANCHOR: source_trait
/// Where frames come from: a generator, a camera, or a recording played back ([`Player`]).
/// The pipeline asks when frame `index` is due, sleeps until then on its clock, and captures it
/// into an empty buffer from its frame pool.
///
/// [`Player`]: crate::pipeline::player::Player
pub trait Source: Send + 'static {
    type Error: std::error::Error + Send + Sync + 'static;

    /// When frame `index` is due on the pipeline's clock, or `None` when there are no more
    /// (the end of a recording). Due times never decrease.
    fn due_at(&self, index: u64) -> Option<Duration>;

    /// Frame `index`, stamped `captured_at`, its bytes written into `pixels` (empty, with the
    /// capacity of its last use: filling it allocates nothing once the pool is warm). An error
    /// ends the source; the pipeline drains the frames already sent, reports it at shutdown.
    fn capture(
        &mut self,
        index: u64,
        captured_at: Duration,
        pixels: Pixels,
    ) -> Result<Frame, Self::Error>;
}
// ANCHOR_END: source_trait

/// Makes frames. Stateless: frame `index` depends only on the seed and the index.
#[derive(Clone, Debug)]
pub struct FrameSource {
    config: SourceConfig,
}

impl FrameSource {
    pub fn new(config: SourceConfig) -> Result<Self, SourceError> {
        let SourceConfig { width, height, .. } = config;
        if width < 4 || height < 4 {
            return Err(SourceError::Empty { width, height });
        }
        if !width.is_multiple_of(4) {
            return Err(SourceError::WidthNotMultipleOf4 { width });
        }
        if config.period.is_zero() {
            return Err(SourceError::ZeroPeriod);
        }
        Ok(Self { config })
    }

    pub fn config(&self) -> SourceConfig {
        self.config
    }

    /// When frame `index` is due: computed from the index, so lateness never accumulates.
    pub fn due(&self, index: u64) -> Duration {
        // In u128 nanoseconds: a u32 multiplier would stop growing after 2^32 frames (49.7 days
        // at 1 ms), and a source skipping ahead to `now` would then never catch up.
        let nanos = self.config.period.as_nanos() * u128::from(index);
        Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }

    /// Frame `index` in a new buffer (for tests: the pipeline fills pooled ones).
    pub fn frame(&self, index: u64, captured_at: Duration) -> Frame {
        self.frame_in(index, captured_at, Pixels::default())
    }

    // ANCHOR: frame
    /// Frame `index` written into `pixels`: noise from a hash of (seed, index, pixel), plus a
    /// bright vertical bar that moves one column per frame.
    pub fn frame_in(&self, index: u64, captured_at: Duration, mut pixels: Pixels) -> Frame {
        let SourceConfig {
            seed,
            width,
            height,
            ..
        } = self.config;
        let bar = (index % u64::from(width)) as u32;
        pixels.clear();
        pixels.reserve((width * height) as usize);
        for y in 0..height {
            for x in 0..width {
                let noise =
                    (mix(seed ^ index.rotate_left(32) ^ u64::from(y * width + x)) >> 59) as u8; // 0..=31
                let level = if x.abs_diff(bar) <= 1 { 200 } else { 40 };
                pixels.push(level + noise);
            }
        }
        Frame {
            index,
            captured_at,
            width,
            height,
            pixels,
        }
    }
    // ANCHOR_END: frame
}

/// The generator cannot fail and never ends.
impl Source for FrameSource {
    type Error = std::convert::Infallible;

    fn due_at(&self, index: u64) -> Option<Duration> {
        Some(self.due(index))
    }

    fn capture(
        &mut self,
        index: u64,
        captured_at: Duration,
        pixels: Pixels,
    ) -> Result<Frame, Self::Error> {
        Ok(self.frame_in(index, captured_at, pixels))
    }
}

/// A 64-bit mixing function (SplitMix64's finaliser): neighbouring inputs give unrelated bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_index_give_the_same_frame_and_another_seed_does_not() {
        let a = FrameSource::new(SourceConfig::DEFAULT).unwrap();
        let b = FrameSource::new(SourceConfig {
            seed: 2,
            ..SourceConfig::DEFAULT
        })
        .unwrap();
        assert_eq!(a.frame(7, Duration::ZERO), a.frame(7, Duration::ZERO));
        assert_ne!(
            a.frame(7, Duration::ZERO).pixels,
            a.frame(8, Duration::ZERO).pixels
        );
        assert_ne!(
            a.frame(7, Duration::ZERO).pixels,
            b.frame(7, Duration::ZERO).pixels
        );
    }

    #[test]
    fn frames_are_due_at_whole_periods() {
        let s = FrameSource::new(SourceConfig::DEFAULT).unwrap();
        assert_eq!(s.due(0), Duration::ZERO);
        assert_eq!(s.due(3), SourceConfig::DEFAULT.period * 3);
        // Past 2^32 frames the due time still grows.
        assert!(s.due(1 << 33) > s.due(1 << 32));
    }

    #[test]
    fn bad_settings_are_errors_that_say_what_to_do() {
        let bad = |width, height, period| {
            FrameSource::new(SourceConfig {
                width,
                height,
                period,
                ..SourceConfig::DEFAULT
            })
            .unwrap_err()
        };
        let p = SourceConfig::DEFAULT.period;
        assert_eq!(
            bad(0, 8, p),
            SourceError::Empty {
                width: 0,
                height: 8
            }
        );
        let odd = bad(30, 8, p);
        assert!(odd.to_string().contains("like 32"), "{odd}");
        assert_eq!(bad(8, 8, Duration::ZERO), SourceError::ZeroPeriod);
    }
}
