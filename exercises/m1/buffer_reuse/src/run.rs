//! The given executor: runs a verified graph on the CPU with the operators of
//! `computational_graphs::ops::cpu`, keeping every device buffer inside the allocation the plan
//! gives it. Buffers that share an allocation really share it: if two of them are alive at the
//! same time, the later write clobbers the earlier value and the results change, as they would
//! on a GPU.

use computational_graphs::graph::{BufferId, Contents, Node, VerifiedGraph, runner_cpu};
use computational_graphs::tensor::Tensor2D;

use crate::{BufferPlan, buffer_bytes};

/// What one planned run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedRun {
    /// The results, in the order of `graph.outputs()` (as `runner_cpu::run` returns them).
    pub outputs: Vec<Tensor2D>,
    /// The values the `keep` buffers hold after the last node, in `keep` order.
    pub kept: Vec<Tensor2D>,
}

/// Why a planned run did not happen: the plan does not fit, or the graph failed.
pub use computational_graphs::graph::PlanRunError as RunError;

/// The plan does not fit the graph: `why` names the buffer or node.
fn bad_plan(why: String) -> RunError {
    RunError::BadPlan {
        plan: "buffer plan",
        why,
    }
}

/// Runs the graph once through the plan's allocations. `inputs` in the order of
/// `graph.inputs()`; `keep` names buffers whose final values the caller wants back (plan with
/// the same list, or their allocations may hold something else by the end).
pub fn run_planned(
    graph: &VerifiedGraph,
    plan: &BufferPlan,
    inputs: &[Tensor2D],
    keep: &[BufferId],
) -> Result<PlannedRun, RunError> {
    check_plan(graph, plan)?;
    let mut host = graph.bind_inputs(inputs)?;
    // NaN everywhere, so that reading memory nobody wrote shows up in the results.
    let mut memory: Vec<Vec<f32>> = plan
        .allocation_bytes
        .iter()
        .map(|&bytes| vec![f32::NAN; (bytes / 4) as usize])
        .collect();
    // What exists before the first node: parameters, and device buffers the caller fills.
    for (b, decl) in graph.buffers().iter().enumerate() {
        if let Some(a) = plan.allocation_of[b] {
            match &decl.contents {
                Contents::Parameter(t) => store(&mut memory[a], t),
                Contents::Input => store(&mut memory[a], graph.value(&host, b)),
                Contents::Empty => {}
            }
        }
    }
    for (index, node) in graph.nodes().iter().enumerate() {
        let output = node.output();
        if let Some(a) = plan.allocation_of[output]
            && let Some(&input) = node
                .reads()
                .iter()
                .find(|&&r| plan.allocation_of[r] == Some(a))
        {
            return Err(bad_plan(format!(
                "node {index} ({:?}) writes allocation {a}, which also holds its input \"{}\": \
                 a kernel may not read and write one buffer, so allocate a node's output before \
                 freeing its inputs",
                node.kind,
                graph.buffer(input).name
            )));
        }
        let args = node
            .reads()
            .iter()
            .map(|&r| load(graph, plan, &memory, &host, r))
            .collect::<Result<Vec<_>, _>>()?;
        let result = compute(node, &args)?;
        match plan.allocation_of[output] {
            Some(a) => store(&mut memory[a], &result),
            None => host[output] = Some(result),
        }
    }
    let outputs = graph
        .outputs()
        .into_iter()
        .map(|b| load(graph, plan, &memory, &host, b))
        .collect::<Result<_, _>>()?;
    let mut kept = Vec::with_capacity(keep.len());
    for &b in keep {
        if b >= graph.buffers().len() {
            return Err(bad_plan(format!(
                "keep names buffer {b}, but the graph has {} buffers",
                graph.buffers().len()
            )));
        }
        kept.push(load(graph, plan, &memory, &host, b)?);
    }
    Ok(PlannedRun { outputs, kept })
}

/// Every device buffer a node uses has an allocation large enough for it; nothing else has one.
fn check_plan(graph: &VerifiedGraph, plan: &BufferPlan) -> Result<(), RunError> {
    let count = graph.buffers().len();
    if plan.allocation_of.len() != count {
        return Err(bad_plan(format!(
            "it covers {} buffers but the graph has {count}: give every buffer an entry",
            plan.allocation_of.len()
        )));
    }
    for (b, decl) in graph.buffers().iter().enumerate() {
        let name = &decl.name;
        match (plan.allocation_of[b], graph.is_device(b)) {
            (None, true) if graph.is_used(b) => {
                return Err(bad_plan(format!(
                    "device buffer \"{name}\" (buffer {b}) has no allocation"
                )));
            }
            (Some(a), false) => {
                return Err(bad_plan(format!(
                    "host buffer \"{name}\" (buffer {b}) has allocation {a}: only device \
                     buffers are planned"
                )));
            }
            (Some(a), true) => {
                let Some(&have) = plan.allocation_bytes.get(a) else {
                    return Err(bad_plan(format!(
                        "buffer \"{name}\" is in allocation {a}, but there are only {}",
                        plan.allocation_bytes.len()
                    )));
                };
                let need = buffer_bytes(graph, b);
                if have < need {
                    return Err(bad_plan(format!(
                        "buffer \"{name}\" needs {need} bytes, but allocation {a} has {have}"
                    )));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn store(allocation: &mut [f32], value: &Tensor2D) {
    allocation[..value.data().len()].copy_from_slice(value.data());
}

/// A buffer's current value: from its allocation on the device, from the host table otherwise.
fn load(
    graph: &VerifiedGraph,
    plan: &BufferPlan,
    memory: &[Vec<f32>],
    host: &[Option<Tensor2D>],
    b: BufferId,
) -> Result<Tensor2D, RunError> {
    let decl = graph.buffer(b);
    match plan.allocation_of[b] {
        Some(a) => Ok(Tensor2D::new(
            decl.rows,
            decl.cols,
            memory[a][..decl.rows * decl.cols].to_vec(),
        )?),
        None => match (&decl.contents, &host[b]) {
            (Contents::Parameter(t), _) => Ok(t.clone()),
            (_, Some(t)) => Ok(t.clone()),
            (_, None) => Err(bad_plan(format!(
                "buffer \"{}\" (buffer {b}) was never written",
                decl.name
            ))),
        },
    }
}

/// The node's result, with the same CPU operators as `runner_cpu`.
fn compute(node: &Node, args: &[Tensor2D]) -> Result<Tensor2D, RunError> {
    let refs: Vec<&Tensor2D> = args.iter().collect();
    Ok(runner_cpu::run_node(node, &refs)?)
}
