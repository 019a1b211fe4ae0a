//! Public tests: run them with `cargo nextest run -p ex_m1_inplace_relu`.

use ex_m1_inplace_relu::{Graph, OpKind, Plan, Step, apply_in_place, can_relu_in_place, execute};

fn step(kind: OpKind, inputs: &[usize], output: usize) -> Step {
    Step {
        kind,
        inputs: inputs.to_vec(),
        output,
    }
}

/// x -> neg -> relu -> y
fn neg_relu() -> Graph {
    Graph {
        tensor_len: vec![4; 3],
        steps: vec![step(OpKind::Neg, &[0], 1), step(OpKind::Relu, &[1], 2)],
        inputs: vec![0],
        outputs: vec![2],
    }
}

#[test]
fn inplace_relu_public_relu_after_neg_runs_in_place() {
    assert_eq!(can_relu_in_place(&neg_relu(), 1), Ok(true));
    let plan = apply_in_place(&neg_relu());
    assert_eq!(
        plan,
        Plan {
            buffer_of: vec![0, 1, 1],
            in_place_steps: vec![1]
        }
    );
}

#[test]
fn inplace_relu_public_relu_of_a_graph_input_is_not_in_place() {
    let graph = Graph {
        tensor_len: vec![4; 2],
        steps: vec![step(OpKind::Relu, &[0], 1)],
        inputs: vec![0],
        outputs: vec![1],
    };
    assert_eq!(can_relu_in_place(&graph, 0), Ok(false));
}

#[test]
fn inplace_relu_public_same_results() {
    let graph = neg_relu();
    let x = vec![vec![1.0, -2.0, 3.0, -4.0]];
    let plain = execute(&graph, &Plan::one_buffer_per_tensor(&graph), &x);
    assert_eq!(execute(&graph, &apply_in_place(&graph), &x), plain);
}
