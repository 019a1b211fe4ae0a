use computational_graphs::graph::VerifiedGraph;

use crate::{AliasPlan, check_in_place};

/// Every ReLU the rule allows runs in place (solution).
pub fn plan_in_place(graph: &VerifiedGraph) -> AliasPlan {
    let mut plan = AliasPlan::separate(graph);
    for (index, node) in graph.nodes().iter().enumerate() {
        if check_in_place(graph, index).is_ok() {
            // Nodes run in order, so the input's storage is already final: chains collapse.
            plan.storage_of[node.output()] = plan.storage_of[node.reads()[0]];
            plan.in_place.push(index);
        }
    }
    plan
}
