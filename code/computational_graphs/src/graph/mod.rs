//! The computational graph: one operator list ([`OpList`]) that both runners accept.
//!
//! Stages: build or write an [`OpList`] → [`validate`] it into a [`VerifiedGraph`] of nodes that
//! hold buffer indices → (optionally) fuse it with [`fuse`] → run it with
//! [`runner_cpu`] or [`runner_gpu`].

mod builder;
mod custom;
mod ops_list;
mod validate;
mod verified;

pub use crate::error::{GraphError, Rule, ShapeError};
pub use builder::GraphBuilder;
pub use custom::{Custom, CustomKernel, CustomOperator};
// Where the back end and the fusion pass were before they had modules of their own: the paths
// other crates and the exercises name.
pub use crate::backend::{PlanRunError, gpu_program, runner_cpu, runner_gpu};
pub use crate::compiler::fuse::{self, count_readers, fuse};
pub use ops_list::{BufferDecl, BufferId, Contents, OpList, Operator, Place};
pub use validate::validate;
pub use verified::{Node, NodeKind, VerifiedGraph};
