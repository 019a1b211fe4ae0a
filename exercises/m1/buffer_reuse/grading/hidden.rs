//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last,
//! which prints this run's token for that test. `grade_record!` prints what the student's code
//! returned; the grader compares it with the reference solution's, outside this process.

use computational_graphs::compiler::fuse;
use computational_graphs::graph::{
    BufferDecl, BufferId, Contents, GraphBuilder, NodeKind, OpList, Operator, Place, VerifiedGraph,
    runner_cpu, validate,
};
use computational_graphs::ops::cpu;
use computational_graphs::random_graph::random_graph;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_buffer_reuse::{
    BufferPlan, PlanError, buffer_bytes, last_uses, naive_peak_bytes, plan_buffers, run_planned,
};

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 0.5, &mut SplitMix64::new(seed))
}

/// The span of nodes over which a buffer must hold its value, or `None` if no node uses it.
fn life(graph: &VerifiedGraph, b: BufferId, keep: &[BufferId]) -> Option<(usize, usize)> {
    let users: Vec<usize> = (0..graph.nodes().len())
        .filter(|&i| graph.nodes()[i].buffers.contains(&b))
        .collect();
    let first = *users.first()?;
    let last = if keep.contains(&b) {
        graph.nodes().len()
    } else {
        *users.last()?
    };
    Some((first, last))
}

fn sent_back(graph: &VerifiedGraph, b: BufferId) -> bool {
    graph
        .nodes()
        .iter()
        .any(|n| n.kind == NodeKind::DeviceToHost && n.reads().contains(&b))
}

/// Checked independently of the exercise: used device buffers have an allocation large enough,
/// others none; two buffers share one only if their lives do not overlap (a buffer born at the
/// node where another dies overlaps it; a kept one lives past the last node); parameters and
/// sent-back buffers are alone.
fn assert_valid(graph: &VerifiedGraph, plan: &BufferPlan, keep: &[BufferId]) {
    let count = graph.buffers().len();
    assert_eq!(plan.allocation_of.len(), count, "one entry per buffer");
    for b in 0..count {
        let used = life(graph, b, keep).is_some();
        let Some(a) = plan.allocation_of[b] else {
            assert!(
                !(graph.is_device(b) && used),
                "device buffer {b} has no allocation"
            );
            continue;
        };
        assert!(graph.is_device(b), "host buffer {b} has an allocation");
        assert!(plan.allocation_bytes[a] >= buffer_bytes(graph, b));
        let alone = graph.buffer(b).contents != Contents::Empty || sent_back(graph, b);
        for c in (b + 1)..count {
            if plan.allocation_of[c] != Some(a) {
                continue;
            }
            assert!(
                !alone,
                "buffer {b} must have its allocation alone, but {c} shares it"
            );
            let (f1, l1) = life(graph, b, keep).unwrap();
            let (f2, l2) = life(graph, c, keep).unwrap_or((usize::MAX, 0));
            assert!(
                l1 < f2 || l2 < f1,
                "buffers {b} and {c} are alive together in allocation {a}"
            );
        }
    }
}

fn assert_same_results(graph: &VerifiedGraph, plan: &BufferPlan, inputs: &[Tensor2D]) {
    let want = runner_cpu::run(graph, inputs).unwrap();
    let got = run_planned(graph, plan, inputs, &[]).unwrap();
    grade_record!("planned_outputs", got.outputs, 1e-6);
    assert_eq!(got.outputs, want, "the planned run changed the results");
}

/// x → HostToDevice → Linear → ReLU → DeviceToHost.
/// Buffers: 0 x, 1 device copy, 2 w, 3 b, 4 Linear output, 5 ReLU output, 6 y.
fn linear_relu() -> VerifiedGraph {
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 3);
    let d = g.to_device(x);
    let w = g.parameter("w", random(3, 3, 1));
    let b = g.parameter("b", random(1, 3, 2));
    let h = g.linear(d, w, b);
    let r = g.relu(h);
    g.to_host(r);
    validate(&g.finish()).unwrap()
}

#[test]
fn buffer_reuse_hidden_last_use_chain() {
    let last = last_uses(&linear_relu(), &[]).unwrap();
    grade_record!("last_uses", last, 0.0);
    let want: Vec<Option<usize>> = [0, 1, 1, 1, 2, 3, 3].into_iter().map(Some).collect();
    assert_eq!(last, want);
    // Against a direct count on random graphs (fused ones leave unused buffers behind).
    for seed in 1..=4 {
        let (list, _) = random_graph(seed, 4, 12);
        let plain = validate(&list).unwrap();
        for graph in [fuse(&plain), plain] {
            let last = last_uses(&graph, &[]).unwrap();
            grade_record!("random_last_uses", last, 0.0);
            for (b, &got) in last.iter().enumerate() {
                assert_eq!(got, life(&graph, b, &[]).map(|(_, l)| l), "buffer {b}");
            }
        }
    }
    grade_ok!("buffer_reuse_hidden_last_use_chain");
}

/// Written by hand: an unused parameter (2) and an unused intermediate (5, "spare").
fn with_unused_buffers() -> VerifiedGraph {
    let decl = |name: &str, place, contents| BufferDecl {
        name: name.into(),
        rows: 1,
        cols: 2,
        place,
        contents,
    };
    let list = OpList {
        buffers: vec![
            decl("x", Place::Host, Contents::Input),
            decl("d", Place::Device, Contents::Empty),
            decl("w", Place::Device, Contents::Parameter(random(1, 2, 3))),
            decl("h", Place::Device, Contents::Empty),
            decl("y", Place::Host, Contents::Empty),
            decl("spare", Place::Device, Contents::Empty),
        ],
        ops: vec![
            Operator::HostToDevice { from: 0, to: 1 },
            Operator::Relu {
                input: 1,
                output: 3,
            },
            Operator::DeviceToHost { from: 3, to: 4 },
        ],
    };
    validate(&list).unwrap()
}

#[test]
fn buffer_reuse_hidden_last_use_kept_and_unused() {
    let graph = with_unused_buffers();
    for keep in [&[][..], &[1, 2], &[9], &[5], &[1, 5, 9], &[9, 5]] {
        grade_record!("last_uses_with_keep", last_uses(&graph, keep), 0.0);
    }
    let plain = vec![Some(0), Some(1), None, Some(2), Some(2), None];
    assert_eq!(last_uses(&graph, &[]).unwrap(), plain);
    let mut kept = plain.clone();
    kept[1] = Some(3);
    kept[2] = Some(3);
    assert_eq!(last_uses(&graph, &[1, 2]).unwrap(), kept);
    let unknown = PlanError::UnknownBuffer {
        buffer: 9,
        buffers: 6,
    };
    let never = PlanError::NeverWritten {
        buffer: 5,
        name: "spare".into(),
    };
    assert_eq!(last_uses(&graph, &[9]), Err(unknown.clone()));
    assert_eq!(last_uses(&graph, &[5]), Err(never.clone()));
    assert_eq!(last_uses(&graph, &[1, 5, 9]), Err(never), "first bad entry");
    assert_eq!(last_uses(&graph, &[9, 5]), Err(unknown), "first bad entry");
    grade_ok!("buffer_reuse_hidden_last_use_kept_and_unused");
}

#[test]
fn buffer_reuse_hidden_keep() {
    let graph = with_unused_buffers();
    grade_record!("plan_errors", (plan_buffers(&graph, &[4, 6]), plan_buffers(&graph, &[5]).err()), 0.0);
    assert_eq!(
        plan_buffers(&graph, &[4, 6]),
        Err(PlanError::UnknownBuffer {
            buffer: 6,
            buffers: 6
        })
    );
    assert!(matches!(
        plan_buffers(&graph, &[5]),
        Err(PlanError::NeverWritten { buffer: 5, .. })
    ));
    // A chain long enough that the Linear output's allocation is reused, unless it is kept.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 3, 4);
    let d = g.to_device(x);
    let w = g.parameter("w", random(4, 4, 4));
    let b = g.parameter("b", random(1, 4, 5));
    let h = g.linear(d, w, b);
    let mut r = h;
    for _ in 0..4 {
        r = g.relu(r);
    }
    g.to_host(r);
    let graph = validate(&g.finish()).unwrap();
    let xv = random(3, 4, 6);
    let want_h = cpu::linear(&xv, &random(4, 4, 4), &random(1, 4, 5)).unwrap();
    let inputs = [xv];
    let plan = plan_buffers(&graph, &[h]).unwrap();
    assert_valid(&graph, &plan, &[h]);
    let run = run_planned(&graph, &plan, &inputs, &[h]).unwrap();
    grade_record!("kept_and_outputs", (&run.kept, &run.outputs), 1e-6);
    assert_eq!(run.kept, vec![want_h.clone()]);
    assert_eq!(run.outputs, runner_cpu::run(&graph, &inputs).unwrap());
    let reused = plan_buffers(&graph, &[]).unwrap();
    let run = run_planned(&graph, &reused, &inputs, &[h]).unwrap();
    assert_ne!(
        run.kept,
        vec![want_h],
        "without keep, a later buffer reuses the Linear output's allocation"
    );
    grade_ok!("buffer_reuse_hidden_keep");
}

#[test]
fn buffer_reuse_hidden_chain_needs_two_allocations() {
    let size = 4;
    let square = (size * size * 4) as u64;
    for seed in 1..=4 {
        for depth in 1..=12 {
            let (list, x) = random_graph(seed, size, depth);
            let graph = validate(&list).unwrap();
            let plan = plan_buffers(&graph, &[]).unwrap();
            assert_valid(&graph, &plan, &[]);
            let count = |want: &dyn Fn(&BufferDecl) -> bool| {
                graph.buffers().iter().filter(|d| want(d)).count()
            };
            let parameters = count(&|d| matches!(d.contents, Contents::Parameter(_)));
            // Device intermediates: the last one is sent back, the others form the chain.
            let chain = count(&|d| d.place == Place::Device && d.contents == Contents::Empty) - 1;
            let shared = chain.min(2);
            grade_record!("allocations_and_peak", (plan.allocation_bytes.len(), plan.peak_bytes()), 0.0);
            assert_eq!(
                plan.allocation_bytes.len(),
                parameters + 1 + shared,
                "seed {seed}, depth {depth}: a chain needs two allocations"
            );
            assert_eq!(
                plan.peak_bytes(),
                naive_peak_bytes(&graph) - (chain - shared) as u64 * square
            );
            assert_same_results(&graph, &plan, &[x]);
        }
    }
    grade_ok!("buffer_reuse_hidden_chain_needs_two_allocations");
}

#[test]
fn buffer_reuse_hidden_no_node_writes_what_it_reads() {
    // Buffers: 0 x, 1 d, 2 w1, 3 b1, 4 h1, 5 w2, 6 b2, 7 h2, 8 r (sent back), 9 y.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 3, 3);
    let d = g.to_device(x);
    let w1 = g.parameter("w1", random(3, 3, 7));
    let b1 = g.parameter("b1", random(1, 3, 8));
    let h1 = g.linear(d, w1, b1);
    let w2 = g.parameter("w2", random(3, 3, 9));
    let b2 = g.parameter("b2", random(1, 3, 10));
    let h2 = g.linear(h1, w2, b2);
    let r = g.relu(h2);
    g.to_host(r);
    let graph = validate(&g.finish()).unwrap();
    let plan = plan_buffers(&graph, &[]).unwrap();
    for node in graph.nodes() {
        let out = plan.allocation_of[node.output()];
        for &input in node.reads() {
            assert!(
                out.is_none() || plan.allocation_of[input] != out,
                "{:?} writes the allocation of its input {input}",
                node.kind
            );
        }
    }
    // Alone first (w1, b1, w2, b2, r); then d, h1, and h2 back in d's allocation.
    let want = [
        None,
        Some(5),
        Some(0),
        Some(1),
        Some(6),
        Some(2),
        Some(3),
        Some(5),
        Some(4),
        None,
    ];
    grade_record!("allocation_of", plan.allocation_of, 0.0);
    assert_eq!(plan.allocation_of, want);
    assert_valid(&graph, &plan, &[]);
    assert_same_results(&graph, &plan, &[random(3, 3, 11)]);
    grade_ok!("buffer_reuse_hidden_no_node_writes_what_it_reads");
}

#[test]
fn buffer_reuse_hidden_best_fit_and_peak() {
    // Two rows; widths 4 → 32 → 8 → 4 → (ReLU) 4 → 32 → 4. When the ReLU's output (32 bytes)
    // is placed, the free allocations hold 256 and 64 bytes: best fit takes the 64, so the
    // 256 is free for the next 32-wide layer; first fit would take the 256 and need a new one.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 4);
    let mut h = g.to_device(x);
    let mut seed = 20;
    let mut layer = |g: &mut GraphBuilder, h: BufferId, from: usize, to: usize| {
        seed += 2;
        let w = g.parameter("w", random(from, to, seed));
        let b = g.parameter("b", random(1, to, seed + 1));
        g.linear(h, w, b)
    };
    h = layer(&mut g, h, 4, 32);
    h = layer(&mut g, h, 32, 8);
    h = layer(&mut g, h, 8, 4);
    h = g.relu(h);
    h = layer(&mut g, h, 4, 32);
    h = layer(&mut g, h, 32, 4);
    g.to_host(h);
    let graph = validate(&g.finish()).unwrap();
    let plan = plan_buffers(&graph, &[]).unwrap();
    assert_valid(&graph, &plan, &[]);
    // Buffers: 1 d; 4, 7, 10 layer outputs; 11 ReLU; 14, 17 layer outputs (17 is sent back).
    // Alone, in buffer order: the ten parameters (0..=9), then 17 (10).
    let mut want = vec![None; graph.buffers().len()];
    for (i, b) in [2, 3, 5, 6, 8, 9, 12, 13, 15, 16, 17]
        .into_iter()
        .enumerate()
    {
        want[b] = Some(i);
    }
    for (b, a) in [(1, 11), (4, 12), (7, 13), (10, 11), (11, 13), (14, 12)] {
        want[b] = Some(a);
    }
    grade_record!("best_fit", (&plan.allocation_of, plan.peak_bytes()), 0.0);
    assert_eq!(plan.allocation_of, want);
    let parameters: u64 = (0..graph.buffers().len())
        .filter(|&b| matches!(graph.buffer(b).contents, Contents::Parameter(_)))
        .map(|b| buffer_bytes(&graph, b))
        .sum();
    assert_eq!(plan.peak_bytes(), parameters + 32 + (32 + 256 + 64));
    assert_eq!(
        naive_peak_bytes(&graph),
        parameters + 32 + (32 + 256 + 64 + 32 + 32 + 256)
    );
    assert_same_results(&graph, &plan, &[random(2, 4, 40)]);
    grade_ok!("buffer_reuse_hidden_best_fit_and_peak");
}

#[test]
fn buffer_reuse_hidden_sent_back_and_parameters_stay_alone() {
    // h1 is sent back halfway and read on; the same w and b serve two layers.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 5);
    let d = g.to_device(x);
    let w = g.parameter("w", random(5, 5, 50));
    let b = g.parameter("b", random(1, 5, 51));
    let h1 = g.linear(d, w, b);
    g.to_host(h1);
    let mut h = g.relu(h1);
    h = g.linear(h, w, b);
    for _ in 0..3 {
        h = g.relu(h);
    }
    g.to_host(h);
    let graph = validate(&g.finish()).unwrap();
    let plan = plan_buffers(&graph, &[]).unwrap();
    assert_valid(&graph, &plan, &[]);
    for alone in [w, b, h1, h] {
        let a = plan.allocation_of[alone].unwrap();
        assert_eq!(plan.buffers_in(a), vec![alone], "buffer {alone} shares");
    }
    assert!(plan.peak_bytes() < naive_peak_bytes(&graph));
    assert_same_results(&graph, &plan, &[random(2, 5, 52)]);
    grade_ok!("buffer_reuse_hidden_sent_back_and_parameters_stay_alone");
}

#[test]
fn buffer_reuse_hidden_results_match_runner_cpu() {
    for seed in 1..=6 {
        for depth in [1, 2, 3, 7, 16] {
            let (list, x) = random_graph(seed, 5, depth);
            let plain = validate(&list).unwrap();
            for graph in [fuse(&plain), plain] {
                let plan = plan_buffers(&graph, &[]).unwrap();
                assert_valid(&graph, &plan, &[]);
                assert!(plan.peak_bytes() <= naive_peak_bytes(&graph));
                assert_same_results(&graph, &plan, std::slice::from_ref(&x));
            }
        }
    }
    grade_ok!("buffer_reuse_hidden_results_match_runner_cpu");
}
