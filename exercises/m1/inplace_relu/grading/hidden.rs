//! Hidden tests. `grade_record!` prints what the student's code returned; the grader compares it
//! with the reference solution's, outside this process.
//! The grader puts a `grade_ok!` macro above this file; each test calls it last.

use computational_graphs::compiler::fuse;
use computational_graphs::graph::{
    BufferDecl, BufferId, Contents, GraphBuilder, NodeKind, OpList, Operator, Place, VerifiedGraph,
    runner_cpu, validate,
};
use computational_graphs::random_graph::{Layer, layers, random_graph};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_inplace_relu::{
    AliasPlan, AliasedRunner, InPlaceError, check_in_place, plan_in_place, run_aliased,
};

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

fn name(graph: &VerifiedGraph, b: BufferId) -> String {
    graph.buffer(b).name.clone()
}

/// The plan's results on two runs in a row equal `runner_cpu`'s.
fn assert_same_results(graph: &VerifiedGraph, plan: &AliasPlan, inputs: &[Tensor2D]) {
    let want = runner_cpu::run(graph, inputs).unwrap();
    let mut runner = AliasedRunner::new(graph, plan).unwrap();
    for run in 1..=2 {
        let got = runner.run(inputs);
        grade_record!("outputs", &got, 1e-6);
        assert_eq!(got.unwrap(), want, "run {run}");
    }
}

#[test]
fn inplace_relu_hidden_relu_after_a_transfer_runs_in_place() {
    // The device copy of the caller's input is written by a node: the ReLU may take it over.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 3, 2);
    let d = g.to_device(x);
    let r = g.relu(d);
    g.to_host(r);
    let graph = validate(&g.finish()).unwrap();
    assert_eq!(check_in_place(&graph, 1), Ok(()));
    let plan = plan_in_place(&graph);
    grade_record!("plan", &plan, 0.0);
    assert_eq!(
        plan,
        AliasPlan {
            storage_of: vec![0, 1, 1, 3],
            in_place: vec![1]
        }
    );
    assert_same_results(&graph, &plan, &[random(3, 2, 1)]);
    grade_ok!("inplace_relu_hidden_relu_after_a_transfer_runs_in_place");
}

#[test]
fn inplace_relu_hidden_refuses_parameters_and_caller_inputs() {
    // relu(w) feeds the second Linear, while the first Linear reads w itself.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 4);
    let d = g.to_device(x);
    let w = g.parameter("w", random(4, 4, 2));
    let b = g.parameter("b", random(1, 4, 3));
    let h = g.linear(d, w, b);
    let rw = g.relu(w);
    let y = g.linear(h, rw, b);
    g.to_host(y);
    let graph = validate(&g.finish()).unwrap();
    let want = InPlaceError::InputIsParameter {
        node: 2,
        input: w,
        name: "w".into(),
    };
    assert_eq!(check_in_place(&graph, 2), Err(want));
    let plan = plan_in_place(&graph);
    grade_record!("plan", &plan, 0.0);
    assert_eq!(plan, AliasPlan::separate(&graph));
    assert_same_results(&graph, &plan, &[random(2, 4, 4)]);
    // Overwriting w is invisible in the first run and wrong in the second.
    let mut unsafe_plan = AliasPlan::separate(&graph);
    unsafe_plan.storage_of[rw] = w;
    unsafe_plan.in_place = vec![2];
    let mut runner = AliasedRunner::new(&graph, &unsafe_plan).unwrap();
    let inputs = [random(2, 4, 4)];
    let want = runner_cpu::run(&graph, &inputs).unwrap();
    assert_eq!(runner.run(&inputs).unwrap(), want);
    assert_ne!(runner.run(&inputs).unwrap(), want);

    // Written by hand: a device buffer the caller fills, read by a ReLU.
    let decl = |name: &str, place, contents| BufferDecl {
        name: name.into(),
        rows: 1,
        cols: 3,
        place,
        contents,
    };
    let list = OpList {
        buffers: vec![
            decl("direct", Place::Device, Contents::Input),
            decl("r", Place::Device, Contents::Empty),
            decl("y", Place::Host, Contents::Empty),
        ],
        ops: vec![
            Operator::Relu {
                input: 0,
                output: 1,
            },
            Operator::DeviceToHost { from: 1, to: 2 },
        ],
    };
    let graph = validate(&list).unwrap();
    assert_eq!(
        check_in_place(&graph, 0),
        Err(InPlaceError::InputIsCallerInput {
            node: 0,
            input: 0,
            name: "direct".into()
        })
    );
    assert!(plan_in_place(&graph).in_place.is_empty());
    grade_ok!("inplace_relu_hidden_refuses_parameters_and_caller_inputs");
}

#[test]
fn inplace_relu_hidden_refuses_a_later_reader() {
    // h feeds two ReLUs and is sent back after both: none of them may overwrite it.
    // Nodes: 0 HostToDevice, 1 Linear (h), 2 ReLU, 3 ReLU, 4 DeviceToHost (h),
    // 5 ReLU of node 3's output, 6 and 7 DeviceToHost.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 3);
    let d = g.to_device(x);
    let w = g.parameter("w", random(3, 3, 5));
    let b = g.parameter("b", random(1, 3, 6));
    let h = g.linear(d, w, b);
    let r1 = g.relu(h);
    let r2 = g.relu(h);
    g.to_host(h);
    let r3 = g.relu(r2);
    g.to_host(r1);
    g.to_host(r3);
    let graph = validate(&g.finish()).unwrap();
    let later = |node, reader| InPlaceError::ReadLater {
        node,
        input: h,
        name: name(&graph, h),
        reader,
    };
    assert_eq!(
        check_in_place(&graph, 2),
        Err(later(2, 3)),
        "the first reader"
    );
    assert_eq!(
        check_in_place(&graph, 3),
        Err(later(3, 4)),
        "a DeviceToHost reads"
    );
    assert_eq!(check_in_place(&graph, 5), Ok(()));
    // A reader further on: the error names it, not the node after the ReLU.
    // Nodes: 0 HostToDevice, 1 Linear (h2), 2 ReLU of h2, 3 and 4 ReLUs, 5 DeviceToHost (h2), 6.
    let mut g2 = GraphBuilder::new();
    let x2 = g2.input("x", 2, 3);
    let d2 = g2.to_device(x2);
    let w2 = g2.parameter("w", random(3, 3, 8));
    let b2 = g2.parameter("b", random(1, 3, 9));
    let h2 = g2.linear(d2, w2, b2);
    let s1 = g2.relu(h2);
    let s2 = g2.relu(s1);
    let s3 = g2.relu(s2);
    g2.to_host(h2);
    g2.to_host(s3);
    let far = validate(&g2.finish()).unwrap();
    let got = check_in_place(&far, 2);
    grade_record!("far_reader", &got, 0.0);
    assert_eq!(
        got,
        Err(InPlaceError::ReadLater {
            node: 2,
            input: h2,
            name: name(&far, h2),
            reader: 5,
        }),
        "the later reader is node 5"
    );
    let plan = plan_in_place(&graph);
    grade_record!("plan", &plan, 0.0);
    assert_eq!(plan.in_place, vec![5]);
    assert_eq!(plan.storage_of[r3], r2);
    assert_eq!(plan.saved_buffers(), 1);
    assert_same_results(&graph, &plan, &[random(2, 3, 7)]);
    // The same graph with node 2 forced in place: node 3 reads ReLU'd values.
    let mut unsafe_plan = plan.clone();
    unsafe_plan.storage_of[r1] = h;
    unsafe_plan.in_place = vec![2, 5];
    let inputs = [random(2, 3, 7)];
    assert_ne!(
        run_aliased(&graph, &unsafe_plan, &inputs).unwrap(),
        runner_cpu::run(&graph, &inputs).unwrap()
    );
    grade_ok!("inplace_relu_hidden_refuses_a_later_reader");
}

#[test]
fn inplace_relu_hidden_not_relu_and_no_such_node() {
    let (list, _) = random_graph(4, 4, 6);
    let graph = validate(&list).unwrap();
    let count = graph.nodes().len();
    for (i, node) in graph.nodes().iter().enumerate() {
        if node.kind != NodeKind::Relu {
            let want = InPlaceError::NotRelu {
                node: i,
                kind: node.kind.clone(),
            };
            assert_eq!(check_in_place(&graph, i), Err(want));
        }
    }
    for bad in [count, count + 1, usize::MAX] {
        assert_eq!(
            check_in_place(&graph, bad),
            Err(InPlaceError::NoSuchNode {
                node: bad,
                nodes: count
            })
        );
    }
    // Fusion turns Linear + ReLU into one LinearRelu node, which is not a ReLU.
    let fused = fuse(&graph);
    let at = fused
        .nodes()
        .iter()
        .position(|n| n.kind == NodeKind::LinearRelu)
        .expect("seed 4 has a Linear followed by a ReLU");
    assert_eq!(
        check_in_place(&fused, at),
        Err(InPlaceError::NotRelu {
            node: at,
            kind: NodeKind::LinearRelu
        })
    );
    grade_ok!("inplace_relu_hidden_not_relu_and_no_such_node");
}

#[test]
fn inplace_relu_hidden_chain_shares_one_buffer() {
    // Buffers: 0 x, 1 d, 2 w, 3 b, 4 h, 5..=8 four ReLU outputs, 9 y.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 3, 3);
    let d = g.to_device(x);
    let w = g.parameter("w", random(3, 3, 8));
    let b = g.parameter("b", random(1, 3, 9));
    let mut r = g.linear(d, w, b);
    for _ in 0..4 {
        r = g.relu(r);
    }
    g.to_host(r);
    let graph = validate(&g.finish()).unwrap();
    let plan = plan_in_place(&graph);
    grade_record!("plan", &plan, 0.0);
    assert_eq!(
        plan,
        AliasPlan {
            storage_of: vec![0, 1, 2, 3, 4, 4, 4, 4, 4, 9],
            in_place: vec![2, 3, 4, 5]
        }
    );
    assert_eq!(plan.saved_buffers(), 4);
    assert_eq!(plan.saved_bytes(&graph), 4 * 9 * 4);
    assert_same_results(&graph, &plan, &[random(3, 3, 10)]);
    grade_ok!("inplace_relu_hidden_chain_shares_one_buffer");
}

#[test]
fn inplace_relu_hidden_results_match_runner_cpu() {
    for seed in 1..=6 {
        for depth in [1, 2, 5, 16] {
            let (list, x) = random_graph(seed, 5, depth);
            let plain = validate(&list).unwrap();
            for graph in [fuse(&plain), plain] {
                let plan = plan_in_place(&graph);
    grade_record!("plan", &plan, 0.0);
                assert_same_results(&graph, &plan, std::slice::from_ref(&x));
            }
        }
    }
    grade_ok!("inplace_relu_hidden_results_match_runner_cpu");
}

#[test]
fn inplace_relu_hidden_saves_one_buffer_per_relu_on_random_graphs() {
    // In a random graph every ReLU reads the previous layer's output and nobody else does.
    let size = 4;
    for seed in 1..=8 {
        for depth in [3, 10, 40] {
            let relus = layers(seed, depth)
                .into_iter()
                .filter(|l| *l == Layer::Relu)
                .count();
            let (list, _) = random_graph(seed, size, depth);
            let graph = validate(&list).unwrap();
            let plan = plan_in_place(&graph);
    grade_record!("plan", &plan, 0.0);
            assert_eq!(plan.saved_buffers(), relus, "seed {seed}, depth {depth}");
            assert_eq!(plan.saved_bytes(&graph), (relus * size * size * 4) as u64);
        }
    }
    grade_ok!("inplace_relu_hidden_saves_one_buffer_per_relu_on_random_graphs");
}
