//! The BVH on the CPU: it covers every triangle once, its boxes nest, and walking it finds the
//! same nearest hit as testing every triangle.

use bench_harness::rng::SplitMix64;
use path_tracer::bvh::{Bvh, LEAF_SIZE, Node, STACK_SIZE, brute_force_hit};
use path_tracer::scene::{Ray, Scene, normalize};

fn contains(outer: &Node, lo: [f32; 3], hi: [f32; 3]) -> bool {
    (0..3).all(|i| outer.min[i] <= lo[i] && hi[i] <= outer.max[i])
}

#[test]
fn every_triangle_is_in_exactly_one_leaf() {
    let scene = Scene::room(3000, 11);
    let bvh = Bvh::build(&scene.triangles);
    let mut seen = vec![0u32; bvh.triangles.len()];
    for node in bvh.nodes.iter().filter(|n| n.is_leaf()) {
        assert!(node.count as usize <= LEAF_SIZE);
        let first = node.right_or_first as usize;
        for s in &mut seen[first..first + node.count as usize] {
            *s += 1;
        }
    }
    assert!(
        seen.iter().all(|&s| s == 1),
        "some triangle is missing or repeated"
    );
    // Reordering keeps the same triangles.
    let mut before: Vec<_> = scene.triangles.iter().map(|t| format!("{t:?}")).collect();
    let mut after: Vec<_> = bvh.triangles.iter().map(|t| format!("{t:?}")).collect();
    before.sort();
    after.sort();
    assert_eq!(before, after);
}

#[test]
fn every_box_holds_its_children_and_triangles() {
    let bvh = Bvh::build(&Scene::room(3000, 12).triangles);
    for (i, node) in bvh.nodes.iter().enumerate() {
        if node.is_leaf() {
            let first = node.right_or_first as usize;
            for tri in &bvh.triangles[first..first + node.count as usize] {
                for p in tri.corners() {
                    assert!(contains(node, p, p), "node {i} misses a corner {p:?}");
                }
            }
        } else {
            for child in [i + 1, node.right_or_first as usize] {
                assert!(child > i, "children come after their parent");
                let c = &bvh.nodes[child];
                assert!(
                    contains(node, c.min, c.max),
                    "node {i} does not hold child {child}"
                );
            }
        }
    }
    assert!(bvh.depth() < STACK_SIZE, "depth {}", bvh.depth());
}

#[test]
fn walking_the_tree_finds_the_brute_force_hit() {
    let bvh = Bvh::build(&Scene::room(2000, 13).triangles);
    let mut rng = SplitMix64::new(14);
    let mut hits = 0;
    for _ in 0..3000 {
        // From anywhere in the room (and from outside it), in any direction.
        let origin = [
            rng.symmetric(1.0) + 0.5,
            rng.symmetric(1.0) + 0.5,
            rng.symmetric(2.0),
        ];
        let dir = normalize([rng.symmetric(1.0), rng.symmetric(1.0), rng.symmetric(1.0)]);
        let ray = Ray { origin, dir };
        let expected = brute_force_hit(&bvh.triangles, &ray);
        assert_eq!(bvh.closest_hit(&ray), expected, "ray {ray:?}");
        hits += usize::from(expected.is_some());
    }
    assert!(
        hits > 1000,
        "too few rays hit anything ({hits}) for the test to mean much"
    );
}

#[test]
fn an_empty_scene_has_no_hits() {
    let bvh = Bvh::build(&[]);
    let ray = Ray {
        origin: [0.0; 3],
        dir: [0.0, 0.0, 1.0],
    };
    assert_eq!(bvh.closest_hit(&ray), None);
    assert_eq!(bvh.depth(), 0);
}
