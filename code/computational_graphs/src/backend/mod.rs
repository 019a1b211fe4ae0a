//! The back end: a verified graph run on a device. [`runner_cpu`] runs it node by node on the
//! CPU; [`runner_gpu`] records it as a [`gpu_program::GpuProgram`] of dispatches that the
//! compiler's generated kernels also use; custom nodes run through `custom_run`. Both the
//! runners and the compiler stand on this module, and it stands only on the graph.

mod custom_run;
pub mod gpu_program;
mod plan_run;
pub mod runner_cpu;
pub mod runner_gpu;

pub(crate) use custom_run::{
    dispatch as custom_dispatch, run_cpu as custom_run_cpu, run_immediate as custom_run_immediate,
};
pub use plan_run::PlanRunError;
