//! Joules from the GPU's own energy counter (NVIDIA's NVML), behind the `nvml` feature.
//!
//! The counter reports millijoules since the driver loaded. Energy for a piece of work is the
//! difference of two readings, minus what the idle GPU would have used in the same time.

use std::time::{Duration, Instant};

/// Why no energy can be read here.
#[derive(Debug, thiserror::Error)]
pub enum EnergyError {
    #[error(
        "this program was built without the `nvml` feature, so it cannot read an energy counter: \
         rebuild with `--features nvml` on a machine with an NVIDIA GPU"
    )]
    NotBuilt,
    #[error(
        "no GPU energy counter on this machine ({detail}); energy figures need an NVIDIA GPU with its driver"
    )]
    NoCounter { detail: String },
    #[error(
        "the energy counter changed only {changes} times during the measurement; measure for \
         longer (at least three of its periods)"
    )]
    TooShort { changes: usize },
}

/// Opens the first NVIDIA GPU's counter.
pub struct EnergyMeter {
    #[cfg(feature = "nvml")]
    nvml: nvml_wrapper::Nvml,
    pub gpu_name: String,
}

impl EnergyMeter {
    #[cfg(feature = "nvml")]
    pub fn open() -> Result<Self, EnergyError> {
        let fail = |e: nvml_wrapper::error::NvmlError| EnergyError::NoCounter {
            detail: e.to_string(),
        };
        let nvml = nvml_wrapper::Nvml::init().map_err(fail)?;
        let gpu_name = nvml
            .device_by_index(0)
            .and_then(|d| d.name())
            .map_err(fail)?;
        let meter = Self { nvml, gpu_name };
        meter.millijoules()?;
        Ok(meter)
    }

    #[cfg(not(feature = "nvml"))]
    pub fn open() -> Result<Self, EnergyError> {
        Err(EnergyError::NotBuilt)
    }

    /// The counter now, in millijoules.
    #[cfg(feature = "nvml")]
    pub fn millijoules(&self) -> Result<u64, EnergyError> {
        let fail = |e: nvml_wrapper::error::NvmlError| EnergyError::NoCounter {
            detail: e.to_string(),
        };
        self.nvml
            .device_by_index(0)
            .and_then(|d| d.total_energy_consumption())
            .map_err(fail)
    }

    #[cfg(not(feature = "nvml"))]
    pub fn millijoules(&self) -> Result<u64, EnergyError> {
        Err(EnergyError::NotBuilt)
    }

    /// The streaming multiprocessors' clock now, in MHz. A GPU time means little without it: the
    /// clock is not held fixed, and an idle GPU lowers it.
    #[cfg(feature = "nvml")]
    pub fn sm_clock_mhz(&self) -> Result<u32, EnergyError> {
        let fail = |e: nvml_wrapper::error::NvmlError| EnergyError::NoCounter {
            detail: e.to_string(),
        };
        self.nvml
            .device_by_index(0)
            .and_then(|d| d.clock_info(nvml_wrapper::enum_wrappers::device::Clock::SM))
            .map_err(fail)
    }

    #[cfg(not(feature = "nvml"))]
    pub fn sm_clock_mhz(&self) -> Result<u32, EnergyError> {
        Err(EnergyError::NotBuilt)
    }

    // ANCHOR: measure
    /// Joules and seconds used while `work` runs (it should take a few hundred milliseconds:
    /// the counter advances in steps of tens of milliseconds).
    pub fn measure(&self, work: impl FnOnce()) -> Result<(f64, f64), EnergyError> {
        let (e0, t0) = (self.millijoules()?, Instant::now());
        work();
        let (e1, seconds) = (self.millijoules()?, t0.elapsed().as_secs_f64());
        Ok((e1.saturating_sub(e0) as f64 / 1000.0, seconds))
    }

    /// The idle GPU's power in watts, from the counter over `span` of doing nothing.
    pub fn idle_watts(&self, span: Duration) -> Result<f64, EnergyError> {
        let (joules, seconds) = self.measure(|| std::thread::sleep(span))?;
        Ok(joules / seconds)
    }
    // ANCHOR_END: measure

    // ANCHOR: ticks
    /// Average power while `work` runs, over whole periods of the counter. The counter only
    /// advances every few tens of milliseconds, so two readings around the work are off by up
    /// to a period at each end. A watcher thread polls it every millisecond and keeps the times
    /// at which its value changed; the power is the energy between two changes over the time
    /// between them. The first change after the work starts is skipped (its period may hold
    /// idle time from before the start).
    pub fn watts_over_ticks(&self, work: impl FnOnce()) -> Result<TickPower, EnergyError> {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let start = Instant::now();
        let ticks = std::thread::scope(|s| {
            let watcher = s.spawn(|| -> Result<Vec<(f64, u64)>, EnergyError> {
                let (mut last, mut ticks) = (self.millijoules()?, Vec::new());
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let now = self.millijoules()?;
                    if now != last {
                        ticks.push((start.elapsed().as_secs_f64(), now));
                        last = now;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(ticks)
            });
            work();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            watcher
                .join()
                .expect("the counter's watcher thread does not panic")
        })?;
        TickPower::from_ticks(ticks.get(1..).unwrap_or(&[])).ok_or(EnergyError::TooShort {
            changes: ticks.len(),
        })
    }
    // ANCHOR_END: ticks
}

/// Power from the counter's changes: watts over whole periods, and how long a period was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TickPower {
    pub watts: f64,
    /// Mean time between two changes of the counter.
    pub period_s: f64,
    /// Whole periods the power is averaged over.
    pub periods: usize,
}

impl TickPower {
    /// From `(seconds, millijoules)` at each change of the counter; `None` with fewer than two.
    pub fn from_ticks(ticks: &[(f64, u64)]) -> Option<Self> {
        let (&(t0, e0), &(t1, e1)) = (ticks.first()?, ticks.last()?);
        let periods = ticks.len() - 1;
        (periods > 0 && t1 > t0).then(|| Self {
            watts: e1.saturating_sub(e0) as f64 / 1000.0 / (t1 - t0),
            period_s: (t1 - t0) / periods as f64,
            periods,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::TickPower;

    #[test]
    fn power_is_taken_between_the_first_and_last_change() {
        // 100 ms periods of 40 J each: 400 W, whatever happened before the first change.
        let ticks = [
            (0.05, 1_000_000),
            (0.15, 1_040_000),
            (0.25, 1_080_000),
            (0.35, 1_120_000),
        ];
        let p = TickPower::from_ticks(&ticks).unwrap();
        assert!((p.watts - 400.0).abs() < 1e-9, "{p:?}");
        assert!((p.period_s - 0.1).abs() < 1e-12);
        assert_eq!(p.periods, 3);
    }

    #[test]
    fn fewer_than_two_changes_give_no_power() {
        assert_eq!(TickPower::from_ticks(&[]), None);
        assert_eq!(TickPower::from_ticks(&[(0.1, 5)]), None);
    }
}
