//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m4_gpu_scope_tree::{RawScope, ScopeNode, Timestamps, TreeError};

/// The student's `build_tree`, its answer recorded for the grader (which compares it with the
/// reference solution's outside this process).
fn build_tree(scopes: &[RawScope], ts: Timestamps) -> Result<Vec<ScopeNode>, TreeError> {
    let tree = ex_m4_gpu_scope_tree::build_tree(scopes, ts);
    grade_record!("tree", tree.as_ref().map(|t| flat(t)), 1e-9);
    tree
}

fn raw(name: &str, parent: Option<usize>, begin: u64, end: u64) -> RawScope {
    RawScope {
        name: name.into(),
        parent,
        begin,
        end,
    }
}

const NS: Timestamps = Timestamps {
    period_ns: 1.0,
    valid_bits: 64,
};

/// (depth, name, start, duration) in depth-first order.
fn flat(nodes: &[ScopeNode]) -> Vec<(usize, String, f64, f64)> {
    fn go(nodes: &[ScopeNode], depth: usize, out: &mut Vec<(usize, String, f64, f64)>) {
        for n in nodes {
            out.push((depth, n.name.clone(), n.start_ns, n.duration_ns));
            go(&n.children, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    go(nodes, 0, &mut out);
    out
}

fn row(depth: usize, name: &str, start: f64, dur: f64) -> (usize, String, f64, f64) {
    (depth, name.into(), start, dur)
}

#[test]
fn gpu_scope_tree_hidden_a_frame_of_passes() {
    let scopes = [
        raw("frame", None, 1000, 1900),
        raw("shadow", Some(0), 1010, 1200),
        raw("cascade 0", Some(1), 1020, 1100),
        raw("main", Some(0), 1210, 1800),
        raw("cascade 1", Some(1), 1100, 1190),
        raw("ui", None, 1950, 1990),
    ];
    let tree = build_tree(&scopes, NS).unwrap();
    assert_eq!(
        flat(&tree),
        [
            row(0, "frame", 0.0, 900.0),
            row(1, "shadow", 10.0, 190.0),
            row(2, "cascade 0", 20.0, 80.0),
            row(2, "cascade 1", 100.0, 90.0),
            row(1, "main", 210.0, 590.0),
            row(0, "ui", 950.0, 40.0),
        ]
    );
    grade_ok!("gpu_scope_tree_hidden_a_frame_of_passes");
}

#[test]
fn gpu_scope_tree_hidden_period_scales_times() {
    let scopes = [raw("a", None, 0, 24), raw("b", Some(0), 6, 18)];
    let tree = build_tree(
        &scopes,
        Timestamps {
            period_ns: 41.5,
            valid_bits: 64,
        },
    )
    .unwrap();
    assert_eq!(
        flat(&tree),
        [row(0, "a", 0.0, 996.0), row(1, "b", 249.0, 498.0)]
    );
    grade_ok!("gpu_scope_tree_hidden_period_scales_times");
}

#[test]
fn gpu_scope_tree_hidden_counter_wraps_inside_the_frame() {
    let top = (1u64 << 36) - 1;
    let scopes = [
        raw("frame", None, top - 100, 50),
        raw("before the wrap", Some(0), top - 90, top - 10),
        raw("across the wrap", Some(0), top - 5, 20),
        raw("after the wrap", Some(0), 21, 40),
    ];
    let tree = build_tree(
        &scopes,
        Timestamps {
            period_ns: 1.0,
            valid_bits: 36,
        },
    )
    .unwrap();
    assert_eq!(
        flat(&tree),
        [
            row(0, "frame", 0.0, 151.0),
            row(1, "before the wrap", 10.0, 80.0),
            row(1, "across the wrap", 95.0, 26.0),
            row(1, "after the wrap", 122.0, 19.0),
        ]
    );
    grade_ok!("gpu_scope_tree_hidden_counter_wraps_inside_the_frame");
}

#[test]
fn gpu_scope_tree_hidden_bits_above_the_valid_ones_are_ignored() {
    let junk = 0xABCD_u64 << 40;
    let scopes = [
        raw("a", None, junk | 100, 300),
        raw("b", Some(0), 150, junk | 250),
    ];
    let tree = build_tree(
        &scopes,
        Timestamps {
            period_ns: 2.0,
            valid_bits: 40,
        },
    )
    .unwrap();
    assert_eq!(
        flat(&tree),
        [row(0, "a", 0.0, 400.0), row(1, "b", 100.0, 200.0)]
    );
    grade_ok!("gpu_scope_tree_hidden_bits_above_the_valid_ones_are_ignored");
}

#[test]
fn gpu_scope_tree_hidden_sixty_four_bits_wrap_too() {
    let scopes = [
        raw("a", None, u64::MAX - 9, 10),
        raw("b", Some(0), u64::MAX, 0),
    ];
    let tree = build_tree(&scopes, NS).unwrap();
    assert_eq!(flat(&tree), [row(0, "a", 0.0, 20.0), row(1, "b", 9.0, 1.0)]);
    grade_ok!("gpu_scope_tree_hidden_sixty_four_bits_wrap_too");
}

#[test]
fn gpu_scope_tree_hidden_errors_name_the_problem() {
    let ok = [raw("a", None, 0, 10)];
    for bits in [0, 65] {
        let ts = Timestamps {
            period_ns: 1.0,
            valid_bits: bits,
        };
        assert_eq!(
            build_tree(&ok, ts),
            Err(TreeError::BadValidBits { valid_bits: bits })
        );
    }
    for period in [0.0, -1.0, f64::INFINITY] {
        let ts = Timestamps {
            period_ns: period,
            valid_bits: 64,
        };
        assert_eq!(
            build_tree(&ok, ts),
            Err(TreeError::BadPeriod { period_ns: period })
        );
    }
    let nan = build_tree(
        &ok,
        Timestamps {
            period_ns: f64::NAN,
            valid_bits: 64,
        },
    );
    assert!(matches!(nan, Err(TreeError::BadPeriod { .. })), "{nan:?}");
    let forward = [raw("a", Some(1), 0, 10), raw("b", None, 0, 10)];
    assert_eq!(
        build_tree(&forward, NS),
        Err(TreeError::BadParent {
            scope: 0,
            parent: 1
        })
    );
    let own = [raw("a", None, 0, 10), raw("b", Some(1), 2, 3)];
    assert_eq!(
        build_tree(&own, NS),
        Err(TreeError::BadParent {
            scope: 1,
            parent: 1
        })
    );
    let late = [raw("a", None, 0, 10), raw("b", Some(0), 5, 11)];
    assert_eq!(
        build_tree(&late, NS),
        Err(TreeError::NotNested {
            scope: 1,
            parent: 0
        })
    );
    let early = [
        raw("a", None, 0, 10),
        raw("b", Some(0), 4, 8),
        raw("c", Some(1), 3, 6),
    ];
    assert_eq!(
        build_tree(&early, NS),
        Err(TreeError::NotNested {
            scope: 2,
            parent: 1
        })
    );
    assert_eq!(build_tree(&[], NS), Ok(vec![]));
    grade_ok!("gpu_scope_tree_hidden_errors_name_the_problem");
}

#[test]
fn gpu_scope_tree_hidden_deep_generated_trees() {
    // Random nested scopes: each new scope opens inside a random open one. Checked against the
    // flat list: depth-first order is the input order, and every duration is end - begin.
    let mut s = 11u64;
    let mut next = |n: u64| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) % n
    };
    for trial in 0..30 {
        let base = (1u64 << 36) - 5000 + trial * 97;
        let mask = (1u64 << 36) - 1;
        // Intervals in "unwrapped" ticks, nested by construction.
        let mut scopes: Vec<(Option<usize>, u64, u64, usize)> = vec![(None, 0, 100_000, 0)];
        for _ in 0..200 {
            let p = next(scopes.len() as u64) as usize;
            let (_, ps, pe, depth) = scopes[p];
            if pe - ps < 4 {
                continue;
            }
            let a = ps + next(pe - ps);
            let b = a + next(pe - a + 1);
            scopes.push((Some(p), a, b, depth + 1));
        }
        // Depth-first order of the tree = order in which each parent lists its children
        // recursively; compute it to compare.
        let raws: Vec<RawScope> = scopes
            .iter()
            .enumerate()
            .map(|(i, &(p, a, b, _))| {
                raw(&format!("s{i}"), p, (base + a) & mask, (base + b) & mask)
            })
            .collect();
        let tree = build_tree(
            &raws,
            Timestamps {
                period_ns: 0.5,
                valid_bits: 36,
            },
        )
        .unwrap();
        let got = flat(&tree);
        assert_eq!(got.len(), scopes.len());
        fn order(i: usize, scopes: &[(Option<usize>, u64, u64, usize)], out: &mut Vec<usize>) {
            out.push(i);
            for (j, s) in scopes.iter().enumerate() {
                if s.0 == Some(i) {
                    order(j, scopes, out);
                }
            }
        }
        let mut want = Vec::new();
        order(0, &scopes, &mut want);
        for (g, &i) in got.iter().zip(&want) {
            let (_, a, b, depth) = scopes[i];
            assert_eq!(
                *g,
                row(
                    depth,
                    &format!("s{i}"),
                    a as f64 * 0.5,
                    (b - a) as f64 * 0.5
                )
            );
        }
    }
    grade_ok!("gpu_scope_tree_hidden_deep_generated_trees");
}
