//! Trees and graphs stored in arenas: nodes live in a `Vec` and refer to each other by index.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

// ANCHOR: tree
/// An index into a [`Tree`]'s arena. A plain number: `Copy`, 4 bytes, no lifetime, no `Rc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeId(u32);

pub struct TreeNode<T> {
    pub value: T,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
}

/// A tree whose nodes all live in one vector. Parent and child links are indices, so a node
/// can point "up" and "down" without the ownership cycles that `Rc<RefCell<…>>` would need.
pub struct Tree<T> {
    nodes: Vec<TreeNode<T>>,
}

// ANCHOR_END: tree

// ANCHOR: tree_links
impl<T> Tree<T> {
    /// Adds a child under `parent` and returns its id.
    pub fn add_child(&mut self, parent: NodeId, value: T) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(TreeNode {
            value,
            parent: Some(parent),
            children: Vec::new(),
        });
        self.nodes[parent.0 as usize].children.push(id);
        id
    }

    /// The path from `id` up to the root, following parent indices.
    pub fn path_to_root(&self, mut id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        while let Some(parent) = self.node(id).parent {
            path.push(parent);
            id = parent;
        }
        path
    }
}
// ANCHOR_END: tree_links

impl<T> Tree<T> {
    pub fn new(root: T) -> Self {
        Self {
            nodes: vec![TreeNode {
                value: root,
                parent: None,
                children: Vec::new(),
            }],
        }
    }

    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    pub fn node(&self, id: NodeId) -> &TreeNode<T> {
        &self.nodes[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// An edge that names a node the graph does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "edge ({from}, {to}) names a node outside 0..{nodes}: give the graph more nodes or fix the edge"
)]
pub struct EdgeOutOfRange {
    pub from: u32,
    pub to: u32,
    pub nodes: usize,
}

// ANCHOR: graph
/// A directed graph in compressed sparse row (CSR) form: the neighbours of node `v` are
/// `targets[offsets[v]..offsets[v + 1]]`. Two flat arrays, no per-node allocation.
pub struct Graph {
    offsets: Vec<usize>,
    targets: Vec<u32>,
}

impl Graph {
    /// Builds the graph from an edge list; an edge naming a node `>= nodes` is an error.
    pub fn from_edges(nodes: usize, edges: &[(u32, u32)]) -> Result<Self, EdgeOutOfRange> {
        let mut degree = vec![0usize; nodes + 1];
        for &(from, to) in edges {
            if from as usize >= nodes || to as usize >= nodes {
                return Err(EdgeOutOfRange { from, to, nodes });
            }
            degree[from as usize + 1] += 1;
        }
        for v in 0..nodes {
            degree[v + 1] += degree[v];
        }
        let offsets = degree;
        let mut next = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(from, to) in edges {
            targets[next[from as usize]] = to;
            next[from as usize] += 1;
        }
        Ok(Self { offsets, targets })
    }

    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn neighbours(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }
}
// ANCHOR_END: graph

pub const UNREACHED: u32 = u32::MAX;

/// Breadth-first search distances from `source`, one node at a time.
pub fn bfs_sequential(graph: &Graph, source: u32) -> Vec<u32> {
    let mut dist = vec![UNREACHED; graph.nodes()];
    let mut queue = std::collections::VecDeque::from([source]);
    dist[source as usize] = 0;
    while let Some(v) = queue.pop_front() {
        for &w in graph.neighbours(v) {
            if dist[w as usize] == UNREACHED {
                dist[w as usize] = dist[v as usize] + 1;
                queue.push_back(w);
            }
        }
    }
    dist
}

// ANCHOR: parallel_bfs
/// Level-synchronous parallel BFS: the whole frontier (all nodes at distance d) is expanded in
/// parallel; a node joins the next frontier only if this thread wins the compare-exchange that
/// sets its distance, so each node is claimed exactly once even when two parents race for it.
pub fn bfs_parallel(graph: &Graph, source: u32) -> Vec<u32> {
    let dist: Vec<AtomicU32> = (0..graph.nodes())
        .map(|_| AtomicU32::new(UNREACHED))
        .collect();
    dist[source as usize].store(0, Ordering::Relaxed);
    let mut frontier = vec![source];
    let mut level = 0;
    while !frontier.is_empty() {
        level += 1;
        frontier = frontier
            .par_iter()
            .flat_map_iter(|&v| graph.neighbours(v).iter().copied())
            .filter(|&w| {
                dist[w as usize]
                    .compare_exchange(UNREACHED, level, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            })
            .collect();
        // Between levels, rayon's join is the barrier: every write of level d is done
        // before any node of level d + 1 is expanded.
    }
    dist.into_iter().map(AtomicU32::into_inner).collect()
}
// ANCHOR_END: parallel_bfs

/// A reproducible random graph: each node gets `degree` out-edges from the seeded generator.
pub fn random_graph(nodes: usize, degree: usize, seed: u64) -> Graph {
    let mut rng = bench_harness::rng::SplitMix64::new(seed);
    let mut edges = Vec::with_capacity(nodes * degree);
    for v in 0..nodes {
        for _ in 0..degree {
            edges.push((v as u32, rng.below(nodes as u64) as u32));
        }
    }
    Graph::from_edges(nodes, &edges).expect("every generated edge is in range")
}

/// A `side` × `side` grid whose every node links to its right and lower neighbours: from node 0
/// the frontiers are the grid's anti-diagonals, at most `side` nodes each, over `2·side − 1`
/// levels (a narrow, deep graph, the opposite of [`random_graph`]).
pub fn grid_graph(side: usize) -> Graph {
    let mut edges = Vec::with_capacity(2 * side * side);
    for y in 0..side {
        for x in 0..side {
            let v = (y * side + x) as u32;
            if x + 1 < side {
                edges.push((v, v + 1));
            }
            if y + 1 < side {
                edges.push((v, v + side as u32));
            }
        }
    }
    Graph::from_edges(side * side, &edges).expect("every grid edge is in range")
}

/// How many nodes each BFS level holds (the frontier sizes), from the distances.
pub fn frontier_sizes(dist: &[u32]) -> Vec<usize> {
    let mut sizes = Vec::new();
    for &d in dist.iter().filter(|&&d| d != UNREACHED) {
        let d = d as usize;
        if sizes.len() <= d {
            sizes.resize(d + 1, 0);
        }
        sizes[d] += 1;
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_walks_back_to_the_root() {
        let mut tree = Tree::new("root");
        let a = tree.add_child(tree.root(), "a");
        let b = tree.add_child(a, "b");
        assert_eq!(tree.path_to_root(b), [b, a, tree.root()]);
        assert_eq!(tree.node(a).children, [b]);
        assert_eq!(tree.len(), 3);
    }

    #[test]
    fn parallel_bfs_matches_sequential_bfs() {
        for (nodes, degree, seed) in [(1, 0, 1), (50, 1, 2), (2_000, 3, 3), (5_000, 8, 4)] {
            let g = random_graph(nodes, degree, seed);
            assert_eq!(bfs_parallel(&g, 0), bfs_sequential(&g, 0));
        }
    }

    #[test]
    fn a_chain_has_increasing_distances() {
        let edges: Vec<(u32, u32)> = (0..9).map(|i| (i, i + 1)).collect();
        let g = Graph::from_edges(10, &edges).unwrap();
        assert_eq!(bfs_parallel(&g, 0), (0..10).collect::<Vec<u32>>());
        assert_eq!(bfs_parallel(&g, 5)[..5], [UNREACHED; 5]);
    }

    #[test]
    fn a_bad_edge_is_an_error_that_says_what_to_fix() {
        let err = Graph::from_edges(3, &[(0, 3)]).err().unwrap();
        assert_eq!(
            err,
            EdgeOutOfRange {
                from: 0,
                to: 3,
                nodes: 3
            }
        );
        assert!(err.to_string().contains("outside 0..3"), "{err}");
    }

    #[test]
    fn a_grid_has_its_anti_diagonals_as_frontiers() {
        let grid = grid_graph(4);
        let dist = bfs_parallel(&grid, 0);
        assert_eq!(dist, bfs_sequential(&grid, 0));
        assert_eq!(frontier_sizes(&dist), [1, 2, 3, 4, 3, 2, 1]);
    }
}
