//! Public tests: run them with `cargo nextest run -p ex_m1_buffer_reuse`.

use ex_m1_buffer_reuse::{Graph, PlanError, Step, last_uses, plan_buffers};

fn step(name: &str, inputs: &[usize], output: usize) -> Step {
    Step {
        name: name.into(),
        inputs: inputs.to_vec(),
        output,
    }
}

/// x -> relu -> relu -> y, every tensor 64 bytes.
fn chain3() -> Graph {
    Graph {
        tensor_bytes: vec![64; 3],
        steps: vec![step("relu0", &[0], 1), step("relu1", &[1], 2)],
        outputs: vec![2],
    }
}

#[test]
fn buffer_reuse_public_last_uses_of_a_chain() {
    assert_eq!(last_uses(&chain3()).unwrap(), vec![0, 1, 2]);
}

#[test]
fn buffer_reuse_public_chain_reuses_the_input_buffer() {
    let graph = chain3();
    let plan = plan_buffers(&graph).unwrap();
    assert_eq!(plan.buffer_of, vec![0, 1, 0]);
    assert_eq!(plan.peak_bytes(), 128);
    assert!(plan.peak_bytes() < graph.naive_peak_bytes());
}

#[test]
fn buffer_reuse_public_unknown_tensor_is_an_error() {
    let graph = Graph {
        tensor_bytes: vec![4, 4],
        steps: vec![step("bad", &[5], 1)],
        outputs: vec![1],
    };
    assert_eq!(
        plan_buffers(&graph).unwrap_err(),
        PlanError::UnknownTensor { step: 0, tensor: 5 }
    );
}
