//! What one sample costs for each way across a boundary, per element and per batch: Rust calling
//! a Rust function it may not inline, C++ calling Rust through `cxx`, Python calling Rust through
//! PyO3, and a plain Python loop for reference. Every variant computes the same frame (checked
//! before it is timed); the time of `reps` calls over `n` samples is divided by `reps · n`.

use std::ffi::CString;
use std::hint::black_box;
use std::time::{Duration, Instant};

use bench_harness::Stats;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use realtime::rules::batching::{per_frame, per_sample, scale_frame};

use crate::{LengthMismatch, cpp};

/// One way of scaling a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    RustPerElement,
    RustBatched,
    CppPerElement,
    CppPerElementHoisted,
    CppBatched,
    PythonPerElement,
    PythonBatchedList,
    PythonBatchedBuffer,
    PurePython,
}

impl Crossing {
    pub const ALL: [Crossing; 9] = [
        Crossing::RustPerElement,
        Crossing::RustBatched,
        Crossing::CppPerElement,
        Crossing::CppPerElementHoisted,
        Crossing::CppBatched,
        Crossing::PythonPerElement,
        Crossing::PythonBatchedList,
        Crossing::PythonBatchedBuffer,
        Crossing::PurePython,
    ];

    /// The name in the CSV.
    pub fn name(self) -> &'static str {
        match self {
            Crossing::RustPerElement => "rust_per_element",
            Crossing::RustBatched => "rust_batched",
            Crossing::CppPerElement => "cpp_per_element",
            Crossing::CppPerElementHoisted => "cpp_per_element_hoisted",
            Crossing::CppBatched => "cpp_batched",
            Crossing::PythonPerElement => "python_per_element",
            Crossing::PythonBatchedList => "python_batched_list",
            Crossing::PythonBatchedBuffer => "python_batched_buffer",
            Crossing::PurePython => "pure_python",
        }
    }

    /// The line's name in the chart.
    pub fn label(self) -> &'static str {
        match self {
            Crossing::RustPerElement => "Rust → Rust, a call per sample",
            Crossing::RustBatched => "Rust → Rust, a call per frame",
            Crossing::CppPerElement => "C++ → Rust (cxx), a call per sample",
            Crossing::CppPerElementHoisted => {
                "C++ → Rust (cxx), a call per sample, data pointers hoisted"
            }
            Crossing::CppBatched => "C++ → Rust (cxx), a call per frame",
            Crossing::PythonPerElement => "Python → Rust (PyO3), a call per sample",
            Crossing::PythonBatchedList => "Python → Rust (PyO3), a list per call",
            Crossing::PythonBatchedBuffer => "Python → Rust (PyO3), a float32 buffer per call",
            Crossing::PurePython => "plain Python loop",
        }
    }

    /// The figure program's `--only` part that measures it.
    pub fn part(self) -> &'static str {
        match self {
            Crossing::RustPerElement | Crossing::RustBatched => "rust",
            Crossing::CppPerElement | Crossing::CppPerElementHoisted | Crossing::CppBatched => {
                "cpp"
            }
            _ => "python",
        }
    }

    /// The function of `call_cost.py` that runs it, for the Python variants.
    fn python_function(self) -> Option<&'static str> {
        match self {
            Crossing::PythonPerElement => Some("per_element"),
            Crossing::PythonBatchedList => Some("batched_list"),
            Crossing::PythonBatchedBuffer => Some("batched_buffer"),
            Crossing::PurePython => Some("pure_python"),
            _ => None,
        }
    }
}

/// Frame sizes and how long to time each.
#[derive(Clone, Debug)]
pub struct Plan {
    pub sizes: Vec<usize>,
    pub warmup: usize,
    pub samples: usize,
    /// Samples scaled per timed sample: a frame of `n` is scaled `max(1, this / n)` times, so a
    /// small frame is repeated enough to be timed.
    pub elements_per_sample: usize,
}

impl Plan {
    pub fn full() -> Self {
        Self {
            sizes: vec![1, 16, 256, 4096, 65536],
            warmup: 3,
            samples: 31,
            elements_per_sample: 1 << 16,
        }
    }

    pub fn quick() -> Self {
        Self {
            sizes: vec![16, 1024],
            warmup: 1,
            samples: 5,
            elements_per_sample: 1 << 12,
        }
    }

    pub fn reps(&self, n: usize) -> usize {
        (self.elements_per_sample / n.max(1)).max(1)
    }
}

/// ns per sample for one crossing and frame size.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub crossing: Crossing,
    pub n: usize,
    pub reps: usize,
    /// Seconds per sample.
    pub per_element: Stats,
}

/// Why a measurement could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CallCostError {
    #[error("the Python side failed: {0}")]
    Python(#[from] PyErr),
    #[error(transparent)]
    Length(#[from] LengthMismatch),
    #[error(
        "{crossing:?} computed {got} for sample {index} where Rust computes {want}: the binding is wrong, so it is not timed"
    )]
    WrongResult {
        crossing: Crossing,
        index: usize,
        got: f32,
        want: f32,
    },
}

/// The gain every variant applies.
pub const GAIN: f32 = 0.75;

/// The frame every variant scales: deterministic, neither all equal nor all round numbers.
pub fn frame(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 97) as f32 * 0.125 - 6.0).collect()
}

/// What every variant must compute for `input`.
pub fn expected(input: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0; input.len()];
    scale_frame(input, GAIN, &mut out);
    out
}

/// The Rust and C++ crossings (`Rust*`, `Cpp*`).
pub fn measure_native(
    crossing: Crossing,
    n: usize,
    plan: &Plan,
) -> Result<Measured, CallCostError> {
    let input = frame(n);
    let mut out = vec![0.0; n];
    let run = |out: &mut [f32]| -> Result<(), LengthMismatch> {
        match crossing {
            Crossing::RustPerElement => {
                black_box(per_sample(black_box(&input), GAIN, out));
            }
            Crossing::RustBatched => {
                black_box(per_frame(black_box(&input), GAIN, out));
            }
            Crossing::CppPerElement => cpp::per_element_from_cpp(black_box(&input), GAIN, out)?,
            Crossing::CppPerElementHoisted => {
                cpp::per_element_hoisted_from_cpp(black_box(&input), GAIN, out)?
            }
            Crossing::CppBatched => cpp::batched_from_cpp(black_box(&input), GAIN, out)?,
            other => unreachable!("{other:?} is measured by measure_python"),
        }
        Ok(())
    };
    run(&mut out)?;
    check(crossing, &out, &expected(&input))?;
    let reps = plan.reps(n);
    let per_element = time_samples(plan, reps * n, || {
        let start = Instant::now();
        for _ in 0..reps {
            run(&mut out)?;
        }
        Ok(start.elapsed())
    })?;
    Ok(Measured {
        crossing,
        n,
        reps,
        per_element,
    })
}

/// The Python side, loaded once into the embedded interpreter ([`crate::embedded::start`] must
/// have run).
pub struct PythonHarness<'py> {
    module: Bound<'py, PyModule>,
}

impl<'py> PythonHarness<'py> {
    pub fn load(py: Python<'py>) -> PyResult<Self> {
        let source = CString::new(include_str!("call_cost.py"))
            .expect("call_cost.py is text without NUL bytes");
        let module = crate::embedded::load(py, &source, c"call_cost")?;
        Ok(Self { module })
    }

    /// The Python crossings (`Python*`, `PurePython`).
    pub fn measure(
        &self,
        crossing: Crossing,
        n: usize,
        plan: &Plan,
    ) -> Result<Measured, CallCostError> {
        let name = crossing
            .python_function()
            .unwrap_or_else(|| unreachable!("{crossing:?} is measured by measure_native"));
        let function = self.module.getattr(name)?;
        let input = frame(n);
        let args: Bound<'py, PyTuple> = self
            .module
            .getattr("arguments")?
            .call1((name, input.clone(), GAIN))?
            .cast_into()
            .map_err(PyErr::from)?;
        let result: Vec<f64> = function.call1(&args)?.extract()?;
        // Python computes the plain loop in double precision; the rest returns f32 values.
        let got: Vec<f32> = result.iter().map(|&x| x as f32).collect();
        check(crossing, &got, &expected(&input))?;
        let reps = plan.reps(n);
        let timed_ns = self.module.getattr("timed_ns")?;
        let per_element = time_samples(plan, reps * n, || {
            let ns: u64 = timed_ns.call1((&function, &args, reps))?.extract()?;
            Ok(Duration::from_nanos(ns))
        })?;
        Ok(Measured {
            crossing,
            n,
            reps,
            per_element,
        })
    }
}

fn check(crossing: Crossing, got: &[f32], want: &[f32]) -> Result<(), CallCostError> {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(index) => Err(CallCostError::WrongResult {
            crossing,
            index,
            got: got[index],
            want: want[index],
        }),
        None if got.len() != want.len() => Err(LengthMismatch {
            input: want.len(),
            out: got.len(),
        }
        .into()),
        None => Ok(()),
    }
}

/// Warm-up, then `plan.samples` timings of `one_sample`, each divided by `elements`.
fn time_samples(
    plan: &Plan,
    elements: usize,
    mut one_sample: impl FnMut() -> Result<Duration, CallCostError>,
) -> Result<Stats, CallCostError> {
    for _ in 0..plan.warmup {
        one_sample()?;
    }
    let mut per_element = Vec::with_capacity(plan.samples);
    for _ in 0..plan.samples.max(1) {
        per_element.push(one_sample()?.as_secs_f64() / elements as f64);
    }
    Ok(
        Stats::from_seconds(&per_element)
            .expect("at least one sample, and durations are never NaN"),
    )
}
