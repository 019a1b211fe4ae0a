use crate::{Graph, Plan, can_relu_in_place};

/// The plan with every allowed ReLU in place (solution).
pub fn apply_in_place(graph: &Graph) -> Plan {
    let count = graph.tensor_len.len();
    let mut alias: Vec<Option<usize>> = vec![None; count];
    let mut in_place_steps = Vec::new();
    for (index, step) in graph.steps.iter().enumerate() {
        if can_relu_in_place(graph, index) == Ok(true) {
            alias[step.output] = Some(step.inputs[0]);
            in_place_steps.push(index);
        }
    }
    let mut buffer_of = vec![usize::MAX; count];
    let mut next = 0;
    for tensor in 0..count {
        if alias[tensor].is_none() {
            buffer_of[tensor] = next;
            next += 1;
        }
    }
    // Steps run in order, so an aliased input's buffer is known before its output's.
    for step in &graph.steps {
        if let Some(source) = alias[step.output] {
            buffer_of[step.output] = buffer_of[source];
        }
    }
    Plan {
        buffer_of,
        in_place_steps,
    }
}
