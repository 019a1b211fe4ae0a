use computational_graphs::graph::VerifiedGraph;

use crate::InPlaceError;

/// Whether node `node` may write its output over its input. `Ok(())` if it may; otherwise the
/// first reason, checked in this order:
///
/// 1. there is no such node: [`InPlaceError::NoSuchNode`];
/// 2. the node is not a ReLU (`NodeKind::Relu`): [`InPlaceError::NotRelu`];
/// 3. its input is a parameter (`Contents::Parameter`): [`InPlaceError::InputIsParameter`];
/// 4. its input is filled by the caller (`Contents::Input`): [`InPlaceError::InputIsCallerInput`];
/// 5. a later node reads its input, a DeviceToHost included: [`InPlaceError::ReadLater`], naming
///    the first such node.
///
/// What remains is a device intermediate written by a node and read by no one after this ReLU:
/// nobody will miss its values.
pub fn check_in_place(_graph: &VerifiedGraph, _node: usize) -> Result<(), InPlaceError> {
    todo!("the five checks of the rule, in order")
}
