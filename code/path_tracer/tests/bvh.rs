//! The BVH on the CPU: it covers every triangle once, its boxes nest, and walking it finds the
//! same nearest hit as testing every triangle.

use bench_harness::rng::SplitMix64;
use path_tracer::RenderSettings;
use path_tracer::bvh::{
    BuildMethod, Bvh, LEAF_SIZE, Node, STACK_SIZE, WalkCounts, brute_force_hit,
};
use path_tracer::reference::{camera_lane_use, count_walks, render};
use path_tracer::scene::{Ray, Scene, normalize};

fn contains(outer: &Node, lo: [f32; 3], hi: [f32; 3]) -> bool {
    (0..3).all(|i| outer.min[i] <= lo[i] && hi[i] <= outer.max[i])
}

#[test]
fn every_triangle_is_in_exactly_one_leaf() {
    for method in BuildMethod::ALL {
        covers_every_triangle_once(method);
    }
}

fn covers_every_triangle_once(method: BuildMethod) {
    let scene = Scene::room(3000, 11);
    let bvh = Bvh::build_with(method, &scene.triangles);
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
        "{method:?}: some triangle is missing or repeated"
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
    for method in BuildMethod::ALL {
        boxes_nest(&Bvh::build_with(method, &Scene::room(3000, 12).triangles));
    }
}

fn boxes_nest(bvh: &Bvh) {
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
    for method in BuildMethod::ALL {
        finds_the_brute_force_hit(method);
    }
}

fn finds_the_brute_force_hit(method: BuildMethod) {
    let bvh = Bvh::build_with(method, &Scene::room(2000, 13).triangles);
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
        assert_eq!(bvh.closest_hit(&ray), expected, "{method:?}, ray {ray:?}");
        hits += usize::from(expected.is_some());
    }
    assert!(
        hits > 1000,
        "too few rays hit anything ({hits}) for the test to mean much"
    );
}

#[test]
fn an_empty_scene_has_no_hits() {
    for method in BuildMethod::ALL {
        let bvh = Bvh::build_with(method, &[]);
        let ray = Ray {
            origin: [0.0; 3],
            dir: [0.0, 0.0, 1.0],
        };
        assert_eq!(bvh.closest_hit(&ray), None);
        assert_eq!(bvh.depth(), 0);
        assert_eq!(bvh.sah_cost(), 0.0);
    }
}

/// Rays from inside the room in every direction: the two trees give the same distance and the
/// same triangle (compared by its corners, since each build orders the triangles its own way).
#[test]
fn both_trees_find_the_same_hits() {
    let scene = Scene::room(3000, 15);
    let morton = Bvh::build_with(BuildMethod::Morton, &scene.triangles);
    let sah = Bvh::build_with(BuildMethod::BinnedSah, &scene.triangles);
    let mut rng = SplitMix64::new(16);
    for _ in 0..5000 {
        let origin = [
            rng.symmetric(0.45) + 0.5,
            rng.symmetric(0.45) + 0.5,
            rng.symmetric(0.45) + 0.5,
        ];
        let dir = normalize([rng.symmetric(1.0), rng.symmetric(1.0), rng.symmetric(1.0)]);
        let ray = Ray { origin, dir };
        let (a, b) = (morton.closest_hit(&ray), sah.closest_hit(&ray));
        assert_eq!(a.map(|h| h.t), b.map(|h| h.t), "ray {ray:?}");
        let corners = |bvh: &Bvh, h: Option<path_tracer::bvh::Hit>| {
            h.map(|h| bvh.triangles[h.triangle as usize].corners())
        };
        assert_eq!(corners(&morton, a), corners(&sah, b), "ray {ray:?}");
    }
}

/// The CPU path tracer renders the very same image over either tree.
#[test]
fn both_trees_render_the_same_image() {
    let scene = Scene::room(500, 17);
    let settings = RenderSettings::new(24, 24, 2, 4);
    let [a, b] = BuildMethod::ALL.map(|m| {
        render(
            &Bvh::build_with(m, &scene.triangles),
            &scene.materials,
            &settings,
        )
    });
    assert_eq!(a, b);
}

/// The SAH tree is cheaper by its own measure, and its walks visit fewer nodes on the same rays.
#[test]
fn the_sah_tree_costs_less_and_walks_fewer_nodes() {
    let scene = Scene::room(3000, 18);
    let morton = Bvh::build_with(BuildMethod::Morton, &scene.triangles);
    let sah = Bvh::build_with(BuildMethod::BinnedSah, &scene.triangles);
    assert!(
        sah.sah_cost() < morton.sah_cost(),
        "{} vs {}",
        sah.sah_cost(),
        morton.sah_cost()
    );
    let mut rng = SplitMix64::new(19);
    let (mut cm, mut cs) = (WalkCounts::default(), WalkCounts::default());
    for _ in 0..2000 {
        let origin = [
            rng.symmetric(0.45) + 0.5,
            rng.symmetric(0.45) + 0.5,
            rng.symmetric(0.45) + 0.5,
        ];
        let ray = Ray {
            origin,
            dir: normalize([rng.symmetric(1.0), rng.symmetric(1.0), rng.symmetric(1.0)]),
        };
        morton.closest_hit_counted(&ray, &mut cm);
        sah.closest_hit_counted(&ray, &mut cs);
    }
    assert_eq!((cm.rays, cs.rays), (2000, 2000));
    assert!(cs.nodes < cm.nodes, "{cs:?} vs {cm:?}");
}

/// Lane use is 1 when every walk in a group is as long as the longest, and it is counted in
/// groups of consecutive pixels: one lane per group means no lane ever waits.
#[test]
fn lane_use_is_a_share_of_busy_lanes() {
    let scene = Scene::room(300, 20);
    let bvh = Bvh::build(&scene.triangles);
    let settings = RenderSettings::new(16, 16, 1, 1);
    assert_eq!(camera_lane_use(&bvh, &settings, 1), 1.0);
    let use32 = camera_lane_use(&bvh, &settings, 32);
    assert!(use32 > 0.0 && use32 < 1.0, "{use32}");
    // Wider groups wait on longer walks.
    assert!(camera_lane_use(&bvh, &settings, 256) <= use32);
    let counts = count_walks(&bvh, &scene.materials, &settings);
    assert_eq!(
        counts.rays, 256,
        "one camera ray per pixel at bounce limit 1"
    );
}
