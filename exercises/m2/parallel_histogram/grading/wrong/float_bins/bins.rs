use crate::{BinSpec, HistogramError, MAX_BINS, Slot};

impl BinSpec {
    /// `bins` equal bins over `lo..hi` (`hi` excluded), or the first problem, checked in this
    /// order: `lo >= hi` is `EmptyRange`, `bins == 0` is `NoBins`, and more than
    /// `min(MAX_BINS, hi - lo)` bins is `TooManyBins`.
    pub fn new(lo: u32, hi: u32, bins: usize) -> Result<BinSpec, HistogramError> {
        if lo >= hi {
            return Err(HistogramError::EmptyRange { lo, hi });
        }
        if bins == 0 {
            return Err(HistogramError::NoBins);
        }
        let max = MAX_BINS.min((hi - lo) as usize);
        if bins > max {
            return Err(HistogramError::TooManyBins { bins, max });
        }
        Ok(BinSpec { lo, hi, bins })
    }

    /// Where `value` is counted: `Below` under `lo`, `Above` at `hi` or over, and otherwise
    /// bin `(value - lo) * bins / (hi - lo)`, computed without overflow.
    pub fn slot(&self, value: u32) -> Slot {
        if value < self.lo {
            Slot::Below
        } else if value >= self.hi {
            Slot::Above
        } else {
            // In u64: value - lo < 2^32 and bins <= 2^20, so the product cannot overflow (in u32
            // it would as soon as (value - lo) * bins passed 4 billion). Integer division keeps
            // every bin's edges exact, so no value lands in a neighbour by rounding.
            // Wrong on purpose: f32 division, whose rounding moves values near a bin's edge
            // into its neighbour (and past the last bin for the widest ranges).
            let share = (value - self.lo) as f32 / (self.hi - self.lo) as f32;
            Slot::Bin(((share * self.bins as f32) as usize).min(self.bins - 1))
        }
    }
}
