//! The computational graph: one operator list ([`OpList`]) that both runners accept.
//!
//! Stages: build or write an [`OpList`] → [`validate`] it into a [`VerifiedGraph`] of nodes that
//! hold buffer indices → (optionally) fuse it with [`fuse`] → run it with
//! [`runner_cpu`] or [`runner_gpu`].

mod builder;
mod custom;
pub mod fuse;
pub mod gpu_program;
mod ops_list;
mod plan_run;
pub mod runner_cpu;
pub mod runner_gpu;
mod validate;
mod verified;

pub use crate::error::{GraphError, Rule, ShapeError};
pub use builder::GraphBuilder;
pub use custom::{Custom, CustomKernel, CustomOperator};
pub(crate) use custom::{
    dispatch as custom_dispatch, run_cpu as custom_run_cpu, run_immediate as custom_run_immediate,
};
pub use fuse::{count_readers, fuse};
pub use ops_list::{BufferDecl, BufferId, Contents, OpList, Operator, Place};
pub use plan_run::PlanRunError;
pub use validate::validate;
pub use verified::{Node, NodeKind, VerifiedGraph};
