//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m1_inplace_relu::{
    Graph, InPlaceError, OpKind, Plan, Step, apply_in_place, can_relu_in_place, execute,
};

fn step(kind: OpKind, inputs: &[usize], output: usize) -> Step {
    Step {
        kind,
        inputs: inputs.to_vec(),
        output,
    }
}

/// t1 = -x; t2 = relu(t1); t3 = t1 + t2 (t1 is read after the ReLU).
fn later_reader() -> Graph {
    Graph {
        tensor_len: vec![3; 4],
        steps: vec![
            step(OpKind::Neg, &[0], 1),
            step(OpKind::Relu, &[1], 2),
            step(OpKind::Add, &[1, 2], 3),
        ],
        inputs: vec![0],
        outputs: vec![3],
    }
}

/// x -> neg -> relu -> relu -> relu -> y
fn chain() -> Graph {
    Graph {
        tensor_len: vec![5; 5],
        steps: vec![
            step(OpKind::Neg, &[0], 1),
            step(OpKind::Relu, &[1], 2),
            step(OpKind::Relu, &[2], 3),
            step(OpKind::Relu, &[3], 4),
        ],
        inputs: vec![0],
        outputs: vec![4],
    }
}

#[test]
fn inplace_relu_hidden_rule_refuses_graph_inputs_and_outputs() {
    // t1 = relu(x) (x is the caller's); t2 = relu(t1) where t1 is also an output.
    let graph = Graph {
        tensor_len: vec![2; 3],
        steps: vec![step(OpKind::Relu, &[0], 1), step(OpKind::Relu, &[1], 2)],
        inputs: vec![0],
        outputs: vec![1, 2],
    };
    assert_eq!(
        can_relu_in_place(&graph, 0),
        Ok(false),
        "x belongs to the caller"
    );
    assert_eq!(
        can_relu_in_place(&graph, 1),
        Ok(false),
        "t1 is read back by the caller"
    );
    grade_ok!("inplace_relu_hidden_rule_refuses_graph_inputs_and_outputs");
}

#[test]
fn inplace_relu_hidden_rule_refuses_a_later_reader() {
    assert_eq!(can_relu_in_place(&later_reader(), 1), Ok(false));
    let plan = apply_in_place(&later_reader());
    assert!(plan.in_place_steps.is_empty());
    assert_eq!(plan.buffer_count(), 4);
    grade_ok!("inplace_relu_hidden_rule_refuses_a_later_reader");
}

#[test]
fn inplace_relu_hidden_rule_only_for_relu() {
    assert_eq!(
        can_relu_in_place(&chain(), 0),
        Ok(false),
        "a Neg is not a ReLU"
    );
    // Different sizes cannot share a buffer.
    let graph = Graph {
        tensor_len: vec![4, 4, 8],
        steps: vec![step(OpKind::Neg, &[0], 1), step(OpKind::Relu, &[1], 2)],
        inputs: vec![0],
        outputs: vec![2],
    };
    assert_eq!(can_relu_in_place(&graph, 1), Ok(false));
    grade_ok!("inplace_relu_hidden_rule_only_for_relu");
}

#[test]
fn inplace_relu_hidden_chain_shares_one_buffer() {
    let plan = apply_in_place(&chain());
    assert_eq!(
        plan,
        Plan {
            buffer_of: vec![0, 1, 1, 1, 1],
            in_place_steps: vec![1, 2, 3]
        }
    );
    assert_eq!(plan.buffer_count(), 2);
    grade_ok!("inplace_relu_hidden_chain_shares_one_buffer");
}

#[test]
fn inplace_relu_hidden_results_are_unchanged() {
    let x = vec![vec![0.5, -1.5, 2.0]];
    for graph in [later_reader(), chain_of_three()] {
        let plain = execute(&graph, &Plan::one_buffer_per_tensor(&graph), &x);
        let plan = apply_in_place(&graph);
        assert_eq!(execute(&graph, &plan, &x), plain);
    }
    // A mixed graph: relu(-x) in place, then added to x.
    let graph = Graph {
        tensor_len: vec![3; 4],
        steps: vec![
            step(OpKind::Neg, &[0], 1),
            step(OpKind::Relu, &[1], 2),
            step(OpKind::Add, &[0, 2], 3),
        ],
        inputs: vec![0],
        outputs: vec![3],
    };
    let plan = apply_in_place(&graph);
    assert_eq!(plan.in_place_steps, vec![1]);
    let plain = execute(&graph, &Plan::one_buffer_per_tensor(&graph), &x);
    assert_eq!(execute(&graph, &plan, &x), plain);
    grade_ok!("inplace_relu_hidden_results_are_unchanged");
}

fn chain_of_three() -> Graph {
    let mut g = chain();
    g.tensor_len = vec![3; 5];
    g
}

#[test]
fn inplace_relu_hidden_bad_step_is_an_error() {
    assert_eq!(
        can_relu_in_place(&later_reader(), 9),
        Err(InPlaceError::NoSuchStep { step: 9, steps: 3 })
    );
    grade_ok!("inplace_relu_hidden_bad_step_is_an_error");
}
