//! A second BVH build: top-down, splitting each range where the surface area heuristic (SAH)
//! says a ray pays least, with the candidate planes taken from a few bins per axis.
//!
//! The SAH (Goldsmith and Salmon 1987; MacDonald and Booth 1990) prices a split by the chance
//! that a ray which hits the parent box also hits each child box — the ratio of their surface
//! areas — times the triangles in that child. Binning, after Wald, "On fast Construction of
//! SAH-based Bounding Volume Hierarchies" (IEEE Symposium on Interactive Ray Tracing, 2007),
//! evaluates only `BINS - 1` planes per axis instead of one per triangle, so that a level costs
//! one pass over its triangles. Pharr, Jakob and Humphreys, *Physically Based Rendering*
//! (4th ed., §7.3), build the same way.

use crate::bvh::{Bvh, LEAF_SIZE, Node};
use crate::scene::Triangle;

/// Candidate planes per axis: one fewer than this.
pub const BINS: usize = 12;
/// Below this depth the split always follows the SAH; deeper ranges split at their median, so
/// that the tree stays within the shaders' traversal stack whatever the scene.
const MEDIAN_BELOW_DEPTH: usize = 40;

/// An axis-aligned box that can grow; empty (inverted) at first.
#[derive(Clone, Copy, Debug)]
struct Aabb {
    lo: [f32; 3],
    hi: [f32; 3],
}

impl Aabb {
    const EMPTY: Self = Self {
        lo: [f32::INFINITY; 3],
        hi: [f32::NEG_INFINITY; 3],
    };

    fn grow(&mut self, p: [f32; 3]) {
        *self = self.merge(&Self { lo: p, hi: p });
    }

    /// The box around both (an empty box changes nothing).
    fn merge(&self, other: &Self) -> Self {
        Self {
            lo: [0, 1, 2].map(|i| self.lo[i].min(other.lo[i])),
            hi: [0, 1, 2].map(|i| self.hi[i].max(other.hi[i])),
        }
    }

    /// Surface area; 0 for an empty box.
    fn area(&self) -> f32 {
        let d = [0, 1, 2].map(|i| (self.hi[i] - self.lo[i]).max(0.0));
        2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])
    }
}

/// The triangles' boxes and centroids, computed once.
struct Prims {
    boxes: Vec<Aabb>,
    centroids: Vec<[f32; 3]>,
}

impl Bvh {
    /// Builds the tree top-down with the binned SAH. The node layout is the same as
    /// [`Bvh::build`]'s, so the same traversal (on the CPU and in the shaders) walks both trees.
    pub fn build_sah(triangles: &[Triangle]) -> Self {
        let prims = Prims {
            boxes: triangles
                .iter()
                .map(|t| {
                    t.corners().iter().fold(Aabb::EMPTY, |mut b, &p| {
                        b.grow(p);
                        b
                    })
                })
                .collect(),
            centroids: triangles.iter().map(Triangle::centroid).collect(),
        };
        let mut order: Vec<u32> = (0..triangles.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * triangles.len() / LEAF_SIZE + 1);
        if !triangles.is_empty() {
            build_range(&prims, &mut order, 0, &mut nodes, 0);
        }
        Bvh {
            nodes,
            triangles: order.iter().map(|&i| triangles[i as usize]).collect(),
        }
    }
}

/// Appends the subtree over `order[first..first + len]` (`range` is that slice) and returns its
/// node's index.
fn build_range(
    prims: &Prims,
    range: &mut [u32],
    first: usize,
    nodes: &mut Vec<Node>,
    depth: usize,
) -> u32 {
    let index = nodes.len();
    let bounds = range
        .iter()
        .fold(Aabb::EMPTY, |b, &i| b.merge(&prims.boxes[i as usize]));
    nodes.push(Node {
        min: bounds.lo,
        max: bounds.hi,
        ..Default::default()
    });
    if range.len() <= LEAF_SIZE {
        nodes[index].right_or_first = first as u32;
        nodes[index].count = range.len() as u32;
        return index as u32;
    }
    let split = if depth < MEDIAN_BELOW_DEPTH {
        partition_by_sah(prims, range)
    } else {
        None
    }
    .unwrap_or_else(|| partition_at_median(prims, range));
    let (left, right) = range.split_at_mut(split);
    build_range(prims, left, first, nodes, depth + 1); // lands at index + 1
    let right = build_range(prims, right, first + split, nodes, depth + 1);
    nodes[index].right_or_first = right;
    index as u32
}

/// Bins the centroids along each axis, prices the `BINS - 1` planes between bins with the SAH,
/// and partitions `range` at the cheapest. Returns the size of the left part, or `None` when
/// every centroid is the same point (no plane separates them).
// ANCHOR: sah
fn partition_by_sah(prims: &Prims, range: &mut [u32]) -> Option<usize> {
    let mut centre = Aabb::EMPTY;
    for &i in range.iter() {
        centre.grow(prims.centroids[i as usize]);
    }
    let bin_of = |axis: usize, i: u32| {
        let extent = centre.hi[axis] - centre.lo[axis];
        let x = (prims.centroids[i as usize][axis] - centre.lo[axis]) / extent;
        ((x * BINS as f32) as usize).min(BINS - 1)
    };
    let mut best: Option<(f32, usize, usize)> = None; // (cost, axis, first bin on the right)
    for axis in (0..3).filter(|&a| centre.hi[a] > centre.lo[a]) {
        let mut boxes = [Aabb::EMPTY; BINS];
        let mut counts = [0u32; BINS];
        for &i in range.iter() {
            let b = bin_of(axis, i);
            boxes[b] = boxes[b].merge(&prims.boxes[i as usize]);
            counts[b] += 1;
        }
        // Sweep from the right: the area and count of everything at or after each bin.
        let (mut right_area, mut acc, mut n) = ([0f32; BINS], Aabb::EMPTY, 0);
        for b in (1..BINS).rev() {
            (acc, n) = (acc.merge(&boxes[b]), n + counts[b]);
            right_area[b] = acc.area() * n as f32;
        }
        let (mut acc, mut n) = (Aabb::EMPTY, 0);
        for b in 1..BINS {
            (acc, n) = (acc.merge(&boxes[b - 1]), n + counts[b - 1]);
            let cost = acc.area() * n as f32 + right_area[b];
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, b));
            }
        }
    }
    let (_, axis, split_bin) = best?;
    // The lowest centroid lands in bin 0 and the highest in the last, so both sides are filled.
    Some(partition(range, |i| bin_of(axis, i) < split_bin))
}
// ANCHOR_END: sah

/// Puts the elements for which `left` holds first (keeping each side's order) and returns
/// how many there are.
fn partition(range: &mut [u32], left: impl Fn(u32) -> bool) -> usize {
    let (l, r): (Vec<u32>, Vec<u32>) = range.iter().partition(|&&i| left(i));
    range[..l.len()].copy_from_slice(&l);
    range[l.len()..].copy_from_slice(&r);
    l.len()
}

/// Splits at the median centroid along the widest axis of the centroids (ties by index).
fn partition_at_median(prims: &Prims, range: &mut [u32]) -> usize {
    let mut centre = Aabb::EMPTY;
    for &i in range.iter() {
        centre.grow(prims.centroids[i as usize]);
    }
    let axis = (0..3)
        .max_by(|&a, &b| (centre.hi[a] - centre.lo[a]).total_cmp(&(centre.hi[b] - centre.lo[b])))
        .unwrap_or(0);
    let key = |i: &u32| (prims.centroids[*i as usize][axis], *i);
    let mid = range.len() / 2;
    range.select_nth_unstable_by(mid, |a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.total_cmp(&kb.0).then(ka.1.cmp(&kb.1))
    });
    mid
}
