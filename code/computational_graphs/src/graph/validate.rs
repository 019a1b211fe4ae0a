//! Validation: an operator list becomes a [`VerifiedGraph`] or an error naming the node and the
//! rule it broke. Everything a runner would otherwise discover halfway through is checked here.

use crate::error::{GraphError, Rule, ShapeError};

use super::{BufferId, Contents, Node, NodeKind, OpList, Operator, Place, VerifiedGraph};

/// Who wrote a buffer so far.
#[derive(Clone, Copy, PartialEq)]
enum Writer {
    Nobody,
    Caller,
    Node(usize),
}

// ANCHOR: validate
/// Checks every rule, node by node, in execution order.
pub fn validate(list: &OpList) -> Result<VerifiedGraph, GraphError> {
    let mut writer: Vec<Writer> = list
        .buffers
        .iter()
        .map(|b| match b.contents {
            Contents::Empty => Writer::Nobody,
            Contents::Input | Contents::Parameter(_) => Writer::Caller,
        })
        .collect();
    let mut nodes = Vec::with_capacity(list.ops.len());
    let mut softmax_at: Option<usize> = None;
    for (i, op) in list.ops.iter().enumerate() {
        let fail = |rule, detail: String| GraphError {
            node: i,
            operator: op.name(),
            rule,
            detail,
        };
        let ids = op.buffers();
        if let Some(&bad) = ids.iter().find(|&&id| id >= list.buffers.len()) {
            let n = list.buffers.len();
            return Err(fail(
                Rule::UnknownBuffer,
                format!("buffer {bad} does not exist (the list declares {n})"),
            ));
        }
        if let (Some(s), false) = (softmax_at, matches!(op, Operator::DeviceToHost { .. })) {
            return Err(GraphError {
                node: s,
                operator: list.ops[s].name(),
                rule: Rule::SoftmaxNotLast,
                detail: format!(
                    "node {i} ({}) runs after it; put softmax at the end",
                    op.name()
                ),
            });
        }
        check_places(list, op, &ids).map_err(|e| fail(Rule::MissingTransfer, e.to_string()))?;
        check_shapes(list, op).map_err(|e| fail(Rule::ShapeMismatch, e.to_string()))?;
        // After the shape rule, so that an operator's own shape error is the one reported.
        if let Some(&z) = ids
            .iter()
            .find(|&&id| list.buffers[id].rows == 0 || list.buffers[id].cols == 0)
        {
            let b = &list.buffers[z];
            return Err(fail(
                Rule::ShapeMismatch,
                format!(
                    "buffer \"{}\" is {}×{}: every tensor needs at least one row and one column \
                     (zero-sized tensors are not supported by any runner)",
                    b.name, b.rows, b.cols
                ),
            ));
        }
        let (output, reads) = ids.split_last().expect("every operator writes one buffer");
        for &r in reads {
            if writer[r] == Writer::Nobody {
                let name = &list.buffers[r].name;
                return Err(fail(
                    Rule::ReadBeforeWrite,
                    format!("it reads \"{name}\", which no earlier node writes"),
                ));
            }
        }
        match writer[*output] {
            Writer::Nobody => writer[*output] = Writer::Node(i),
            earlier => {
                let by = match earlier {
                    Writer::Node(j) => format!("node {j} ({})", list.ops[j].name()),
                    _ => "the caller (it is an input or a parameter)".into(),
                };
                let name = &list.buffers[*output].name;
                return Err(fail(
                    Rule::TwoWriters,
                    format!("it writes \"{name}\", already written by {by}"),
                ));
            }
        }
        if op.has_softmax() {
            softmax_at = Some(i);
        }
        nodes.push(Node {
            kind: kind_of(op),
            buffers: ids,
        });
    }
    if !nodes.iter().any(|n| n.kind == NodeKind::DeviceToHost) {
        let last = list.ops.len().saturating_sub(1);
        return Err(GraphError {
            node: last,
            operator: list.ops.get(last).map_or("(empty graph)", Operator::name),
            rule: Rule::MissingTransfer,
            detail: "the graph never sends a result back: end it with a DeviceToHost".into(),
        });
    }
    Ok(VerifiedGraph {
        buffers: list.buffers.clone(),
        nodes,
    })
}
// ANCHOR_END: validate

fn kind_of(op: &Operator) -> NodeKind {
    match op {
        Operator::HostToDevice { .. } => NodeKind::HostToDevice,
        Operator::DeviceToHost { .. } => NodeKind::DeviceToHost,
        Operator::Linear { .. } => NodeKind::Linear,
        Operator::Relu { .. } => NodeKind::Relu,
        Operator::Softmax { .. } => NodeKind::Softmax,
        Operator::LinearRelu { .. } => NodeKind::LinearRelu,
        Operator::LinearReluSoftmax { .. } => NodeKind::LinearReluSoftmax,
        Operator::Custom { op, .. } => NodeKind::Custom(op.clone()),
    }
}

/// A buffer on the wrong side of the host–device line for the node that touches it.
#[derive(Debug, thiserror::Error)]
#[error("\"{name}\" lives on the {actual:?} but must be on the {wanted:?}: {fix}")]
struct Misplaced {
    name: String,
    actual: Place,
    wanted: Place,
    fix: &'static str,
}

fn check_places(list: &OpList, op: &Operator, ids: &[BufferId]) -> Result<(), Misplaced> {
    let place = |id: BufferId| list.buffers[id].place;
    let name = |id: BufferId| &list.buffers[id].name;
    let want: Vec<Place> = match op {
        Operator::HostToDevice { .. } => vec![Place::Host, Place::Device],
        Operator::DeviceToHost { .. } => vec![Place::Device, Place::Host],
        _ => vec![Place::Device; ids.len()],
    };
    for (&id, &w) in ids.iter().zip(&want) {
        if place(id) != w {
            let fix = if w == Place::Device {
                "add a HostToDevice before this node"
            } else {
                "transfers go between the host and the device"
            };
            return Err(Misplaced {
                name: name(id).clone(),
                actual: place(id),
                wanted: w,
                fix,
            });
        }
    }
    Ok(())
}

fn check_shapes(list: &OpList, op: &Operator) -> Result<(), ShapeError> {
    let shape = |id: BufferId| (list.buffers[id].rows, list.buffers[id].cols);
    let show = |(r, c): (usize, usize)| format!("{r}×{c}");
    let expect_out = |out: BufferId, want: (usize, usize)| {
        if shape(out) == want {
            Ok(())
        } else {
            Err(ShapeError::invalid(format!(
                "the output \"{}\" is {} but must be {}",
                list.buffers[out].name,
                show(shape(out)),
                show(want)
            )))
        }
    };
    match *op {
        Operator::HostToDevice { from, to } | Operator::DeviceToHost { from, to } => {
            expect_out(to, shape(from))
        }
        Operator::Custom {
            ref op,
            ref inputs,
            output,
        } => {
            let shapes: Vec<_> = inputs.iter().map(|&id| shape(id)).collect();
            expect_out(output, op.0.output_shape(&shapes)?)
        }
        Operator::Relu { input, output } | Operator::Softmax { input, output } => {
            expect_out(output, shape(input))
        }
        Operator::Linear {
            input,
            weights,
            bias,
            output,
        }
        | Operator::LinearRelu {
            input,
            weights,
            bias,
            output,
        }
        | Operator::LinearReluSoftmax {
            input,
            weights,
            bias,
            output,
        } => {
            let out = crate::ops::linear_output_shape(shape(input), shape(weights), shape(bias))?;
            expect_out(output, out)
        }
    }
}
