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
}
