//! The given executor: runs a verified graph on the CPU with the operators of
//! `computational_graphs::ops::cpu`, keeping each buffer in the memory the plan names. Buffers
//! that share memory really share it: a node that writes over a value a later node still needs
//! changes that node's result. Parameters are placed once, when the runner is made, as a GPU
//! runner uploads them once; overwriting one changes every later run.

use computational_graphs::graph::{BufferId, Contents, Node, NodeKind, VerifiedGraph, runner_cpu};
use computational_graphs::tensor::Tensor2D;

use crate::AliasPlan;

/// Why a planned run did not happen: the plan does not fit, or the graph failed.
pub use computational_graphs::graph::PlanRunError as RunError;

/// The plan does not fit the graph: `why` names the buffer or node.
fn bad_plan(why: String) -> RunError {
    RunError::BadPlan {
        plan: "alias plan",
        why,
    }
}

/// A graph with its memory, ready to run any number of times.
pub struct AliasedRunner<'g> {
    graph: &'g VerifiedGraph,
    storage_of: Vec<BufferId>,
    /// Indexed by storage buffer: what that memory holds now (`None`: never written).
    memory: Vec<Option<Vec<f32>>>,
}

impl<'g> AliasedRunner<'g> {
    /// Checks the plan against the graph and places the parameters.
    pub fn new(graph: &'g VerifiedGraph, plan: &AliasPlan) -> Result<Self, RunError> {
        check_plan(graph, plan)?;
        let mut memory = vec![None; graph.buffers().len()];
        for (b, decl) in graph.buffers().iter().enumerate() {
            if let Contents::Parameter(t) = &decl.contents {
                memory[plan.storage_of[b]] = Some(t.data().to_vec());
            }
        }
        Ok(AliasedRunner {
            graph,
            storage_of: plan.storage_of.clone(),
            memory,
        })
    }

    /// One run: `inputs` in the order of `graph.inputs()`, results in the order of
    /// `graph.outputs()` (as `runner_cpu::run`).
    pub fn run(&mut self, inputs: &[Tensor2D]) -> Result<Vec<Tensor2D>, RunError> {
        let bound = self.graph.bind_inputs(inputs)?;
        for (b, value) in bound.into_iter().enumerate() {
            if let Some(t) = value {
                self.memory[self.storage_of[b]] = Some(t.data().to_vec());
            }
        }
        for node in self.graph.nodes() {
            let args = node
                .reads()
                .iter()
                .map(|&b| self.load(b))
                .collect::<Result<Vec<_>, _>>()?;
            let result = compute(node, &args)?;
            self.memory[self.storage_of[node.output()]] = Some(result.data().to_vec());
        }
        self.graph
            .outputs()
            .into_iter()
            .map(|b| self.load(b))
            .collect()
    }

    fn load(&self, b: BufferId) -> Result<Tensor2D, RunError> {
        let decl = self.graph.buffer(b);
        let Some(data) = &self.memory[self.storage_of[b]] else {
            return Err(bad_plan(format!(
                "buffer \"{}\" is read before anything was written to its memory",
                decl.name
            )));
        };
        Ok(Tensor2D::new(decl.rows, decl.cols, data.clone())?)
    }
}

/// Runs the graph once with the plan (a fresh runner: parameters placed, one run).
pub fn run_aliased(
    graph: &VerifiedGraph,
    plan: &AliasPlan,
    inputs: &[Tensor2D],
) -> Result<Vec<Tensor2D>, RunError> {
    AliasedRunner::new(graph, plan)?.run(inputs)
}

/// Storage chains end where they start, sharing buffers have the same place and size, and only
/// the ReLUs listed in `in_place` write the memory of their input.
fn check_plan(graph: &VerifiedGraph, plan: &AliasPlan) -> Result<(), RunError> {
    let count = graph.buffers().len();
    let bad = |why: String| Err(bad_plan(why));
    if plan.storage_of.len() != count {
        return bad(format!(
            "it covers {} buffers but the graph has {count}: give every buffer an entry",
            plan.storage_of.len()
        ));
    }
    for (b, &s) in plan.storage_of.iter().enumerate() {
        let name = &graph.buffer(b).name;
        if s >= count {
            return bad(format!(
                "buffer \"{name}\" is stored in buffer {s}, which does not exist"
            ));
        }
        if plan.storage_of[s] != s {
            return bad(format!(
                "buffer \"{name}\" is stored in buffer {s}, which is itself stored elsewhere: \
                 name the buffer at the start of the chain"
            ));
        }
        let (mine, theirs) = (graph.buffer(b), graph.buffer(s));
        if mine.place != theirs.place || mine.rows * mine.cols != theirs.rows * theirs.cols {
            return bad(format!(
                "buffer \"{name}\" cannot live in the memory of \"{}\": place or size differ",
                theirs.name
            ));
        }
    }
    let mut writes_own_input = Vec::new();
    for (index, node) in graph.nodes().iter().enumerate() {
        let out = plan.storage_of[node.output()];
        if node.reads().iter().any(|&r| plan.storage_of[r] == out) {
            if node.kind != NodeKind::Relu {
                return bad(format!(
                    "node {index} ({:?}) writes the memory of its own input: only an \
                     element-wise ReLU can",
                    node.kind
                ));
            }
            writes_own_input.push(index);
        }
    }
    if writes_own_input != plan.in_place {
        return bad(format!(
            "in_place lists nodes {:?}, but the nodes that write their input's memory are {:?}",
            plan.in_place, writes_own_input
        ));
    }
    Ok(())
}

/// The node's result, with the same CPU operators as `runner_cpu`.
fn compute(node: &Node, args: &[Tensor2D]) -> Result<Tensor2D, RunError> {
    let refs: Vec<&Tensor2D> = args.iter().collect();
    Ok(runner_cpu::run_node(node, &refs)?)
}
