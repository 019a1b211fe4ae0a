//! Public tests: `cargo nextest run -p ex_m4_gpu_scope_tree`.

use ex_m4_gpu_scope_tree::{RawScope, Timestamps, build_tree};

fn raw(name: &str, parent: Option<usize>, begin: u64, end: u64) -> RawScope {
    RawScope {
        name: name.into(),
        parent,
        begin,
        end,
    }
}

#[test]
fn gpu_scope_tree_public_one_pass_in_a_frame() {
    let scopes = [raw("frame", None, 500, 900), raw("pass", Some(0), 600, 700)];
    let tree = build_tree(
        &scopes,
        Timestamps {
            period_ns: 10.0,
            valid_bits: 64,
        },
    )
    .unwrap();
    assert_eq!(tree.len(), 1);
    assert_eq!((tree[0].start_ns, tree[0].duration_ns), (0.0, 4000.0));
    let pass = &tree[0].children[0];
    assert_eq!(
        (pass.name.as_str(), pass.start_ns, pass.duration_ns),
        ("pass", 1000.0, 1000.0)
    );
}

#[test]
fn gpu_scope_tree_public_the_counter_wraps() {
    let top = (1u64 << 36) - 1;
    let scopes = [raw("frame", None, top - 9, 10)];
    let tree = build_tree(
        &scopes,
        Timestamps {
            period_ns: 1.0,
            valid_bits: 36,
        },
    )
    .unwrap();
    assert_eq!(tree[0].duration_ns, 20.0);
}
