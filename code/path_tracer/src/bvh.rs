//! A bounding volume hierarchy built from Morton codes (an "LBVH"), flattened into one array
//! that the CPU and the shaders walk the same way.
//!
//! Building: sort the triangles by the Morton code of their centroid, then split each range
//! where the highest bit that differs between its first and last code flips (Karras, "Maximizing
//! Parallelism in the Construction of BVHs, Octrees, and k-d Trees", HPG 2012, builds the same
//! tree in parallel; here it is built top-down, recursively, which is shorter to read).

use bytemuck::{Pod, Zeroable};

use crate::morton::{morton3, unit};
use crate::scene::{Ray, Triangle};

/// At most this many triangles in a leaf.
pub const LEAF_SIZE: usize = 4;
/// The traversal stack's length in the shaders; a tree deeper than this cannot be walked.
pub const STACK_SIZE: usize = 64;

// ANCHOR: node
/// One node, 32 bytes. An inner node's left child is the next node in the array (the tree is
/// stored depth first) and `right_or_first` is its right child; a leaf (`count > 0`) holds the
/// triangles `right_or_first .. right_or_first + count`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Node {
    pub min: [f32; 3],
    pub right_or_first: u32,
    pub max: [f32; 3],
    pub count: u32,
}
// ANCHOR_END: node

impl Node {
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }
}

/// The tree and the triangles, reordered so that every leaf's triangles are contiguous.
#[derive(Clone, Debug)]
pub struct Bvh {
    pub nodes: Vec<Node>,
    pub triangles: Vec<Triangle>,
}

/// The nearest hit: how far along the ray, and which triangle (an index into `Bvh::triangles`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub t: f32,
    pub triangle: u32,
}

fn bounds(triangles: &[Triangle]) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in triangles.iter().flat_map(|t| t.corners()) {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    (lo, hi)
}

/// How to build the tree: both give the same node layout and the same hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildMethod {
    /// Split where the centroids' Morton codes change their highest bit ([`Bvh::build`]).
    Morton,
    /// Split at the cheapest of a few planes per axis by the surface area heuristic
    /// ([`Bvh::build_sah`]).
    BinnedSah,
}

impl BuildMethod {
    pub const ALL: [BuildMethod; 2] = [BuildMethod::Morton, BuildMethod::BinnedSah];

    pub fn name(self) -> &'static str {
        match self {
            BuildMethod::Morton => "Morton",
            BuildMethod::BinnedSah => "binned SAH",
        }
    }
}

impl Bvh {
    /// Builds the tree the way `method` says.
    pub fn build_with(method: BuildMethod, triangles: &[Triangle]) -> Self {
        match method {
            BuildMethod::Morton => Self::build(triangles),
            BuildMethod::BinnedSah => Self::build_sah(triangles),
        }
    }
}

impl Bvh {
    /// Sorts the triangles by Morton code and builds the tree over them.
    pub fn build(triangles: &[Triangle]) -> Self {
        let centroids: Vec<[f32; 3]> = triangles.iter().map(Triangle::centroid).collect();
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for c in &centroids {
            for i in 0..3 {
                lo[i] = lo[i].min(c[i]);
                hi[i] = hi[i].max(c[i]);
            }
        }
        let mut keyed: Vec<(u32, u32)> = centroids
            .iter()
            .enumerate()
            .map(|(i, &c)| (morton3(unit(c, lo, hi)), i as u32))
            .collect();
        keyed.sort_unstable(); // by code, then by index: the same order on every machine
        let codes: Vec<u32> = keyed.iter().map(|&(code, _)| code).collect();
        let mut bvh = Bvh {
            nodes: Vec::with_capacity(2 * triangles.len() / LEAF_SIZE + 1),
            triangles: keyed.iter().map(|&(_, i)| triangles[i as usize]).collect(),
        };
        if !triangles.is_empty() {
            bvh.build_range(&codes, 0, triangles.len());
        }
        bvh
    }

    // ANCHOR: build
    /// Appends the subtree over sorted triangles `first..end` and returns its node's index.
    fn build_range(&mut self, codes: &[u32], first: usize, end: usize) -> u32 {
        let index = self.nodes.len();
        let (min, max) = bounds(&self.triangles[first..end]);
        self.nodes.push(Node {
            min,
            max,
            ..Default::default()
        });
        if end - first <= LEAF_SIZE {
            self.nodes[index].right_or_first = first as u32;
            self.nodes[index].count = (end - first) as u32;
            return index as u32;
        }
        let split = split_point(codes, first, end);
        self.build_range(codes, first, split); // the left child lands at index + 1
        let right = self.build_range(codes, split, end);
        self.nodes[index].right_or_first = right;
        index as u32
    }
    // ANCHOR_END: build
}

// ANCHOR: split
/// Where the range's highest differing code bit flips from 0 to 1; the middle when every code
/// in the range is the same (triangles in one grid cell).
fn split_point(codes: &[u32], first: usize, end: usize) -> usize {
    let (a, b) = (codes[first], codes[end - 1]);
    if a == b {
        return (first + end) / 2;
    }
    let bit = 31 - (a ^ b).leading_zeros();
    // Codes are sorted, so the ones with `bit` set form the tail of the range.
    first + codes[first..end].partition_point(|&c| c & (1 << bit) == 0)
}
// ANCHOR_END: split

// ANCHOR: traverse
/// `1 / d` per axis, with exact zeros nudged so that the slab test never computes 0 · ∞.
pub fn inverse_dir(d: [f32; 3]) -> [f32; 3] {
    d.map(|x| 1.0 / if x.abs() < 1e-20 { 1e-20 } else { x })
}

/// Slab test: does the ray enter the box before `t_max` (and not behind its origin)?
fn hits_box(node: &Node, origin: [f32; 3], inv_dir: [f32; 3], t_max: f32) -> bool {
    let mut t_near = 0.0f32;
    let mut t_far = t_max;
    for i in 0..3 {
        let t0 = (node.min[i] - origin[i]) * inv_dir[i];
        let t1 = (node.max[i] - origin[i]) * inv_dir[i];
        t_near = t_near.max(t0.min(t1));
        t_far = t_far.min(t0.max(t1));
    }
    t_near <= t_far
}

impl Bvh {
    /// The nearest triangle along `ray`, walking the tree with a small stack (the shaders'
    /// `closest_hit` is this function in WGSL).
    pub fn closest_hit(&self, ray: &Ray) -> Option<Hit> {
        self.closest_hit_counted(ray, &mut WalkCounts::default())
    }

    /// [`Bvh::closest_hit`], adding to `counts` what the walk did.
    pub fn closest_hit_counted(&self, ray: &Ray, counts: &mut WalkCounts) -> Option<Hit> {
        let inv_dir = inverse_dir(ray.dir);
        let mut best: Option<Hit> = None;
        let mut t_max = f32::INFINITY;
        let mut stack = [0u32; STACK_SIZE];
        let mut top = usize::from(!self.nodes.is_empty()); // the root, node 0, is on the stack
        while top > 0 {
            top -= 1;
            let index = stack[top];
            let node = &self.nodes[index as usize];
            counts.nodes += 1; // one trip round the loop, one box test
            if !hits_box(node, ray.origin, inv_dir, t_max) {
                continue;
            }
            if node.is_leaf() {
                let first = node.right_or_first as usize;
                counts.triangles += u64::from(node.count);
                for i in first..first + node.count as usize {
                    if let Some(t) = self.triangles[i].intersect(ray, t_max) {
                        t_max = t;
                        best = Some(Hit {
                            t,
                            triangle: i as u32,
                        });
                    }
                }
            } else {
                // Right below left, so the left child is visited first.
                stack[top] = node.right_or_first;
                stack[top + 1] = index + 1;
                top += 2;
            }
        }
        counts.rays += 1;
        best
    }
}
// ANCHOR_END: traverse

/// What walks did, summed over rays: the walk's loop runs once per node popped, and each trip
/// tests that node's box; a leaf's triangles are each tested.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkCounts {
    pub rays: u64,
    pub nodes: u64,
    pub triangles: u64,
}

impl std::ops::AddAssign for WalkCounts {
    fn add_assign(&mut self, o: Self) {
        self.rays += o.rays;
        self.nodes += o.nodes;
        self.triangles += o.triangles;
    }
}

/// The same nearest hit by testing every triangle: what the tree must agree with.
pub fn brute_force_hit(triangles: &[Triangle], ray: &Ray) -> Option<Hit> {
    let mut best = None;
    let mut t_max = f32::INFINITY;
    for (i, tri) in triangles.iter().enumerate() {
        if let Some(t) = tri.intersect(ray, t_max) {
            t_max = t;
            best = Some(Hit {
                t,
                triangle: i as u32,
            });
        }
    }
    best
}

impl Bvh {
    /// The number of nodes on the longest root-to-leaf path.
    pub fn depth(&self) -> usize {
        fn walk(nodes: &[Node], i: usize) -> usize {
            let n = &nodes[i];
            if n.is_leaf() {
                1
            } else {
                1 + walk(nodes, i + 1).max(walk(nodes, n.right_or_first as usize))
            }
        }
        if self.nodes.is_empty() {
            0
        } else {
            walk(&self.nodes, 0)
        }
    }
}

impl Bvh {
    /// The tree's SAH cost: each node's surface area over the root's, times one for its box
    /// test, plus its triangle count for a leaf. It is the expected number of box and triangle
    /// tests of a ray that crosses the root's box in a uniformly random direction, if it never
    /// stopped early at a hit.
    pub fn sah_cost(&self) -> f64 {
        let area = |n: &Node| {
            let d = [0, 1, 2].map(|i| f64::from(n.max[i] - n.min[i]).max(0.0));
            2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])
        };
        let Some(root) = self.nodes.first() else {
            return 0.0;
        };
        let root_area = area(root);
        self.nodes
            .iter()
            .map(|n| area(n) / root_area * (1.0 + f64::from(n.count)))
            .sum()
    }
}
