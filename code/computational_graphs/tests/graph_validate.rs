//! Invalid operator lists are rejected with an error naming the node and the rule.

use computational_graphs::graph::{
    BufferDecl, Contents, GraphBuilder, OpList, Operator, Place, Rule, validate,
};
use computational_graphs::tensor::Tensor2D;

/// x (host) → device → Linear → ReLU → Softmax → host, on 3×4 inputs and 4×2 weights.
fn valid() -> OpList {
    let mut g = GraphBuilder::new();
    let x = g.input("x", 3, 4);
    let xd = g.to_device(x);
    let w = g.parameter("w", Tensor2D::zeros(4, 2));
    let b = g.parameter("b", Tensor2D::zeros(1, 2));
    let h = g.linear(xd, w, b);
    let r = g.relu(h);
    let s = g.softmax(r);
    g.to_host(s);
    g.finish()
}

fn device(list: &mut OpList, name: &str, rows: usize, cols: usize) -> usize {
    list.buffers.push(BufferDecl {
        name: name.into(),
        rows,
        cols,
        place: Place::Device,
        contents: Contents::Empty,
    });
    list.buffers.len() - 1
}

fn rejected(list: &OpList) -> computational_graphs::graph::GraphError {
    validate(list).expect_err("this graph must be rejected")
}

#[test]
fn a_valid_graph_becomes_nodes_with_buffer_indices() {
    let graph = validate(&valid()).unwrap();
    assert_eq!(graph.nodes().len(), 5);
    // Linear reads x on the device (buffer 2), w (3), b (4) and writes buffer 5.
    assert_eq!(graph.nodes()[1].buffers, vec![1, 2, 3, 4]);
    assert_eq!(graph.inputs(), vec![0]);
    assert_eq!(graph.outputs().len(), 1);
}

// ANCHOR: shape_test
#[test]
fn shape_mismatch_names_the_node() {
    let mut list = valid();
    list.buffers[2].rows = 5; // the weights are now 5×2, but the input has 4 columns
    let err = rejected(&list);
    assert_eq!(
        (err.node, err.operator, err.rule),
        (1, "Linear", Rule::ShapeMismatch)
    );
    assert!(
        err.to_string()
            .starts_with("node 1 (Linear) breaks the rule \"shape mismatch\""),
        "{err}"
    );
}
// ANCHOR_END: shape_test

#[test]
fn softmax_must_be_last() {
    let mut list = valid();
    let out = device(&mut list, "after", 3, 2);
    // A ReLU after the softmax (node 3), before the transfer.
    list.ops.insert(
        4,
        Operator::Relu {
            input: 6,
            output: out,
        },
    );
    let err = rejected(&list);
    assert_eq!((err.node, err.rule), (3, Rule::SoftmaxNotLast), "{err}");
    assert!(err.detail.contains("node 4 (ReLU)"), "{err}");
}

#[test]
fn reading_a_host_buffer_in_a_kernel_is_a_missing_transfer() {
    let mut list = valid();
    list.ops.remove(0); // no HostToDevice: Linear now reads the host buffer x
    if let Operator::Linear { input, .. } = &mut list.ops[0] {
        *input = 0;
    }
    let err = rejected(&list);
    assert_eq!((err.node, err.rule), (0, Rule::MissingTransfer), "{err}");
    assert!(err.detail.contains("add a HostToDevice"), "{err}");
}

#[test]
fn a_graph_without_device_to_host_is_a_missing_transfer() {
    let mut list = valid();
    list.ops.pop();
    let err = rejected(&list);
    assert_eq!((err.node, err.rule), (3, Rule::MissingTransfer), "{err}");
}

#[test]
fn reading_a_buffer_nobody_wrote_is_rejected() {
    let mut list = valid();
    let never = device(&mut list, "never_written", 3, 2);
    if let Operator::Relu { input, .. } = &mut list.ops[2] {
        *input = never;
    }
    let err = rejected(&list);
    assert_eq!(
        (err.node, err.operator, err.rule),
        (2, "ReLU", Rule::ReadBeforeWrite),
        "{err}"
    );
    assert!(err.detail.contains("never_written"), "{err}");
}

// ANCHOR: two_writers_test
#[test]
fn two_writers_of_one_buffer_are_rejected() {
    let mut list = valid();
    // A second ReLU writes buffer 5, which the ReLU at node 2 already wrote.
    list.ops.insert(
        3,
        Operator::Relu {
            input: 4,
            output: 5,
        },
    );
    let err = rejected(&list);
    assert_eq!((err.node, err.rule), (3, Rule::TwoWriters), "{err}");
    assert!(
        err.detail.contains("already written by node 2 (ReLU)"),
        "{err}"
    );
}
// ANCHOR_END: two_writers_test

#[test]
fn writing_a_parameter_is_two_writers() {
    let mut list = valid();
    list.buffers.push(BufferDecl {
        name: "p".into(),
        rows: 3,
        cols: 2,
        place: Place::Device,
        contents: Contents::Parameter(Tensor2D::zeros(3, 2)),
    });
    let p = list.buffers.len() - 1;
    list.ops.insert(
        2,
        Operator::Relu {
            input: 4,
            output: p,
        },
    );
    let err = rejected(&list);
    assert_eq!((err.node, err.rule), (2, Rule::TwoWriters), "{err}");
    assert!(err.detail.contains("the caller"), "{err}");
}

#[test]
fn unknown_buffers_are_rejected() {
    let mut list = valid();
    list.ops[2] = Operator::Relu {
        input: 5,
        output: 99,
    };
    let err = rejected(&list);
    assert_eq!((err.node, err.rule), (2, Rule::UnknownBuffer), "{err}");
}
