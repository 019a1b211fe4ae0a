//! The error of a run that keeps each buffer where a memory plan puts it: module 1's buffer-plan
//! and in-place exercises give such runners, one plan kind each, and both fail the same ways.

use crate::Error;

/// Why a run through a memory plan did not happen.
#[derive(Debug, thiserror::Error)]
pub enum PlanRunError {
    /// The plan does not fit this graph: `plan` says which kind ("buffer plan", "alias plan"),
    /// `why` which buffer or node, and what is wrong with it.
    #[error("the {plan} does not fit the graph: {why}")]
    BadPlan { plan: &'static str, why: String },
    /// The graph itself failed (inputs of the wrong shape, a custom operator's error).
    #[error(transparent)]
    Graph(#[from] Error),
}
