//! The configurations the autotuner tries for one Linear shape.
//!
//! A configuration is the part of a [`Tuning`] that is a free choice: the workgroup's shape,
//! the block of C each invocation computes, the k-step and whether to prefetch. Whether the
//! kernel reads vec4s and drops its edge tests follows from the shape ([`Tuning::for_shape`]),
//! and the epilogue from the graph, so neither is tuned. A configuration with `split_k` above 1
//! runs the [`split_k`](super::split_k) kernel instead of the ladder's (`KernelConfig::kernel`,
//! defined there).

use gpu_context::wgpu;

use crate::matmul_ladder::tuned::{Epilogue, Tuning};

// ANCHOR: config
/// One point of the search space (what the cache stores).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct KernelConfig {
    /// Invocations per workgroup along x (columns) and y (rows).
    pub threads: (u32, u32),
    /// Rows of C per invocation (a multiple of 4).
    pub rows: u32,
    /// vec4 columns of C per invocation.
    pub vec_cols: u32,
    /// Steps of k per tile.
    pub bk: u32,
    pub prefetch: bool,
    /// Slices of k computed by separate workgroups and added up by a second dispatch; 1 is
    /// the ladder's kernel in one dispatch.
    #[serde(default = "one_slice")]
    pub split_k: u32,
}
// ANCHOR_END: config

/// Cache files written before split-K existed hold single-pass configurations.
fn one_slice() -> u32 {
    1
}

impl KernelConfig {
    /// The configuration inside a tuning (the inverse of [`KernelConfig::tuning`]).
    pub fn of(t: &Tuning) -> Self {
        KernelConfig {
            threads: t.threads,
            rows: t.rows,
            vec_cols: t.vec_cols,
            bk: t.bk,
            prefetch: t.prefetch,
            split_k: 1,
        }
    }

    /// The kernel for an m×k · k×n product with this configuration and epilogue.
    pub fn tuning(self, m: usize, k: usize, n: usize, epilogue: Epilogue) -> Tuning {
        Tuning {
            threads: self.threads,
            rows: self.rows,
            vec_cols: self.vec_cols,
            bk: self.bk,
            prefetch: self.prefetch,
            exact: false,
            aligned: false,
            epilogue,
        }
        .for_shape(m, k, n)
    }

    /// Rows and columns of C that one workgroup covers.
    pub fn block(self) -> (u32, u32) {
        (
            self.threads.1 * self.rows,
            self.threads.0 * 4 * self.vec_cols,
        )
    }

    /// Why this configuration cannot run on a device with `limits`, if it cannot. A
    /// configuration read from a cache file passes through here before it is compiled.
    pub fn unusable(self, limits: &wgpu::Limits) -> Option<String> {
        let (tx, ty) = self.threads;
        let invocations = u64::from(tx) * u64::from(ty);
        // vec4s of workgroup memory: the A tile (one padding vec4 per k row) and the B tile.
        let (bm, bn) = (
            u64::from(ty) * u64::from(self.rows),
            u64::from(tx) * 4 * u64::from(self.vec_cols),
        );
        let tile_bytes = 16 * u64::from(self.bk) * ((bm / 4 + 1) + bn / 4);
        if tx == 0 || ty == 0 || self.vec_cols == 0 || self.bk == 0 || self.rows == 0 {
            Some("every size must be at least 1".into())
        } else if self.split_k == 0 || self.split_k > 64 {
            Some(format!(
                "{} slices of k: give between 1 and 64",
                self.split_k
            ))
        } else if !self.rows.is_multiple_of(4) || self.rows > 16 || self.vec_cols > 4 {
            Some("rows must be 4, 8, 12 or 16 and vec_cols at most 4".into())
        } else if self.bk > 64 {
            Some(format!("a k-step of {} is larger than 64", self.bk))
        } else if tx > limits.max_compute_workgroup_size_x
            || ty > limits.max_compute_workgroup_size_y
            || invocations > u64::from(limits.max_compute_invocations_per_workgroup)
        {
            Some(format!(
                "a {tx}×{ty} workgroup is larger than the device allows"
            ))
        } else if tile_bytes > u64::from(limits.max_compute_workgroup_storage_size) {
            Some(format!(
                "tiles of {tile_bytes} bytes exceed workgroup memory"
            ))
        } else {
            None
        }
    }
}

/// Workgroup shapes and per-invocation blocks, from 16×32 blocks of C to 128×128.
const SHAPES: [((u32, u32), u32, u32); 12] = [
    ((16, 16), 8, 2), // 128×128
    ((16, 16), 8, 1), // 128×64
    ((16, 16), 4, 2), // 64×128
    ((16, 16), 4, 1), // 64×64, 4×4 each
    ((8, 8), 8, 2),   // 64×64, 8×8 each
    ((16, 8), 8, 1),  // 64×64, 8×4 each
    ((8, 16), 4, 1),  // 64×32
    ((16, 8), 4, 1),  // 32×64
    ((8, 8), 4, 2),   // 32×64, 4×8 each
    ((8, 8), 4, 1),   // 32×32
    ((16, 4), 4, 1),  // 16×64
    ((8, 4), 4, 1),   // 16×32
];

/// Every configuration the tuner may try: each block shape with k-steps of 16 and 8, and the
/// largest blocks (where registers are scarcest) also without prefetch.
pub fn search_space() -> Vec<KernelConfig> {
    let mut out = Vec::new();
    for (threads, rows, vec_cols) in SHAPES {
        for (bk, prefetch) in [(16, true), (8, true), (16, false)] {
            let c = KernelConfig {
                threads,
                rows,
                vec_cols,
                bk,
                prefetch,
                split_k: 1,
            };
            if prefetch || c.block().0 * c.block().1 >= 64 * 128 {
                out.push(c);
            }
        }
    }
    out.extend(split_k_space());
    out
}

/// Split-K configurations: blocks of 128×128, 64×64 and 16×32 (scalar reads, k-step 16), k cut
/// into 2, 4 or 8 slices.
pub fn split_k_space() -> Vec<KernelConfig> {
    let mut out = Vec::new();
    for (threads, rows, vec_cols) in [((16, 16), 8, 2), ((16, 16), 4, 1), ((8, 4), 4, 1)] {
        for split_k in [2, 4, 8] {
            out.push(KernelConfig {
                threads,
                rows,
                vec_cols,
                bk: 16,
                prefetch: false,
                split_k,
            });
        }
    }
    out
}

// ANCHOR: split_k_fits
/// Fewer workgroups than this leave part of a large GPU idle (an H100 or H200 has 132
/// multiprocessors), so split-K is worth a try below it.
const FEW_WORKGROUPS: usize = 128;

/// Whether splitting k is worth timing for this shape and configuration: the product alone
/// would run on too few workgroups, each slice keeps at least two k-steps of work, and the
/// slices together stay within a few waves of workgroups.
fn split_k_fits(c: &KernelConfig, m: usize, k: usize, n: usize) -> bool {
    let (bm, bn) = c.block();
    let blocks = m.div_ceil(bm as usize) * n.div_ceil(bn as usize);
    let slices = c.split_k as usize;
    bm as usize <= m.next_power_of_two().max(16)
        && bn as usize <= n.next_power_of_two().max(32)
        && blocks < FEW_WORKGROUPS
        && k >= slices * 2 * c.bk as usize
        && blocks * slices <= 8 * FEW_WORKGROUPS
}
// ANCHOR_END: split_k_fits

// ANCHOR: candidates
/// The candidates for an m×k · k×n product, the heuristic's choice first.
///
/// Blocks larger than the product (rounded up to a power of two) only compute padding, so they
/// are left out: at 64² only blocks up to 64×64 remain. What is left ranges from a few large
/// workgroups to many small ones, and which grid fills the GPU best is what the timing decides.
/// Split-K joins them where the blocks alone are too few to fill a large GPU.
pub fn candidates(m: usize, k: usize, n: usize, heuristic: &Tuning) -> Vec<KernelConfig> {
    let fits = |c: &KernelConfig| {
        if c.split_k > 1 {
            return split_k_fits(c, m, k, n);
        }
        let (bm, bn) = c.block();
        bm as usize <= m.next_power_of_two().max(16)
            && bn as usize <= n.next_power_of_two().max(32)
            && c.bk as usize <= k.next_power_of_two().max(8)
    };
    let mut out = vec![KernelConfig::of(heuristic)];
    for c in search_space().into_iter().filter(fits) {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}
// ANCHOR_END: candidates
