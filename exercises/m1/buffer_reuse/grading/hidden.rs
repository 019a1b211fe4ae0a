//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last,
//! which prints this run's token for that test.

use ex_m1_buffer_reuse::{BufferPlan, Graph, PlanError, Step, last_uses, plan_buffers};

fn step(name: &str, inputs: &[usize], output: usize) -> Step {
    Step {
        name: name.into(),
        inputs: inputs.to_vec(),
        output,
    }
}

fn chain(len: usize, bytes: u64) -> Graph {
    Graph {
        tensor_bytes: vec![bytes; len + 1],
        steps: (0..len).map(|i| step("relu", &[i], i + 1)).collect(),
        outputs: vec![len],
    }
}

/// No two tensors that are alive at the same time share a buffer, no step writes a buffer it
/// reads, and every buffer is large enough for its tensors.
fn assert_valid(graph: &Graph, plan: &BufferPlan) {
    let producers = graph.producers().unwrap();
    let born: Vec<i64> = producers
        .iter()
        .map(|p| p.map_or(-1, |s| s as i64))
        .collect();
    let mut last: Vec<i64> = born.clone();
    for (i, s) in graph.steps.iter().enumerate() {
        for &t in &s.inputs {
            last[t] = last[t].max(i as i64);
        }
    }
    for &o in &graph.outputs {
        last[o] = graph.steps.len() as i64;
    }
    let n = graph.tensor_bytes.len();
    assert_eq!(plan.buffer_of.len(), n, "one buffer per tensor");
    for t in 0..n {
        let b = plan.buffer_of[t];
        assert!(b < plan.buffer_bytes.len(), "tensor {t} has no buffer");
        assert!(
            plan.buffer_bytes[b] >= graph.tensor_bytes[t],
            "buffer {b} too small for {t}"
        );
        for u in (t + 1)..n {
            if plan.buffer_of[u] == b {
                let apart = last[t] < born[u] || last[u] < born[t];
                assert!(
                    apart,
                    "tensors {t} and {u} are alive together in buffer {b}"
                );
            }
        }
    }
}

#[test]
fn buffer_reuse_hidden_last_use_chain() {
    assert_eq!(last_uses(&chain(4, 8)).unwrap(), vec![0, 1, 2, 3, 4]);
    grade_ok!("buffer_reuse_hidden_last_use_chain");
}

#[test]
fn buffer_reuse_hidden_last_use_outputs_and_unused() {
    // t0, t1 inputs; t1 never read; t2 = f(t0) is an output but also read by step 1;
    // t3 = g(t0, t2) is never read.
    let graph = Graph {
        tensor_bytes: vec![4; 4],
        steps: vec![step("f", &[0], 2), step("g", &[0, 2], 3)],
        outputs: vec![2],
    };
    assert_eq!(last_uses(&graph).unwrap(), vec![1, 0, 2, 1]);
    grade_ok!("buffer_reuse_hidden_last_use_outputs_and_unused");
}

#[test]
fn buffer_reuse_hidden_use_before_definition() {
    let graph = Graph {
        tensor_bytes: vec![4; 4],
        steps: vec![step("a", &[0], 1), step("b", &[3], 2), step("c", &[2], 3)],
        outputs: vec![3],
    };
    let expected = PlanError::UseBeforeDefinition { step: 1, tensor: 3 };
    assert_eq!(last_uses(&graph).unwrap_err(), expected);
    assert_eq!(plan_buffers(&graph).unwrap_err(), expected);
    grade_ok!("buffer_reuse_hidden_use_before_definition");
}

#[test]
fn buffer_reuse_hidden_chain_needs_two_buffers() {
    for len in [1usize, 2, 5, 16] {
        let graph = chain(len, 100);
        let plan = plan_buffers(&graph).unwrap();
        assert_valid(&graph, &plan);
        assert_eq!(
            plan.buffer_bytes.len(),
            2,
            "a chain of {len} needs two buffers"
        );
        assert_eq!(plan.peak_bytes(), 200);
    }
    grade_ok!("buffer_reuse_hidden_chain_needs_two_buffers");
}

#[test]
fn buffer_reuse_hidden_no_step_writes_what_it_reads() {
    // Every input dies at the step that reads it: freeing before allocating would hand the
    // output the input's buffer.
    let graph = Graph {
        tensor_bytes: vec![32, 32, 32, 32],
        steps: vec![step("add", &[0, 1], 2), step("neg", &[2], 3)],
        outputs: vec![3],
    };
    let plan = plan_buffers(&graph).unwrap();
    assert_valid(&graph, &plan);
    assert_eq!(plan.buffer_of, vec![0, 1, 2, 0]);
    grade_ok!("buffer_reuse_hidden_no_step_writes_what_it_reads");
}

#[test]
fn buffer_reuse_hidden_best_fit_and_peak() {
    // Inputs 300 and 100 bytes; then 50, 80 and 250. Best fit puts the 80 in the 100-byte
    // buffer and keeps the 300-byte one for the 250; first fit would need a fourth buffer.
    let graph = Graph {
        tensor_bytes: vec![300, 100, 50, 80, 250],
        steps: vec![
            step("a", &[0, 1], 2),
            step("b", &[2], 3),
            step("c", &[3], 4),
        ],
        outputs: vec![4],
    };
    let plan = plan_buffers(&graph).unwrap();
    assert_valid(&graph, &plan);
    assert_eq!(plan.buffer_of, vec![0, 1, 2, 1, 0]);
    assert_eq!(plan.buffer_bytes, vec![300, 100, 50]);
    assert_eq!(plan.peak_bytes(), 450);
    assert_eq!(graph.naive_peak_bytes(), 780);
    grade_ok!("buffer_reuse_hidden_best_fit_and_peak");
}

#[test]
fn buffer_reuse_hidden_plan_is_valid_on_a_diamond() {
    // x -> a, x -> b, (a, b) -> c, c -> d, (c, d) -> e; outputs c and e.
    let graph = Graph {
        tensor_bytes: vec![64, 64, 64, 64, 64, 64],
        steps: vec![
            step("a", &[0], 1),
            step("b", &[0], 2),
            step("c", &[1, 2], 3),
            step("d", &[3], 4),
            step("e", &[3, 4], 5),
        ],
        outputs: vec![3, 5],
    };
    let plan = plan_buffers(&graph).unwrap();
    assert_valid(&graph, &plan);
    assert!(plan.peak_bytes() < graph.naive_peak_bytes());
    grade_ok!("buffer_reuse_hidden_plan_is_valid_on_a_diamond");
}
