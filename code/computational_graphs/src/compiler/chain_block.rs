//! Block chains: the chain kernel with a block of R rows per workgroup.
//!
//! The one-row kernel ([`super::chain`]) reads every weight matrix of the chain once per row:
//! at 256 rows of 256 columns and 34 Linears, 256 × 34 × 256 KiB ≈ 2.3 GB of reads per run. A
//! workgroup that carries R rows reads each weight once for all of them, R times less traffic,
//! at the price of R times fewer workgroups. Which layout wins depends on the rows, the widths
//! and the GPU, so the autotuner times the layouts ([`ChainLayout::candidates`]) and a
//! heuristic picks one where nothing is timed. On an H200, two rows per workgroup with W
//! streamed straight into registers won on every chain of the sweeps; the tiled layouts, whose
//! workgroups wait at a barrier for every tile, lost to one row per workgroup.

use gpu_context::wgpu;

use super::chain::{ChainKernel, Link, MAX_WIDTH, pack_chain};
use super::specialise::fill;
use crate::Error;
use crate::graph::VerifiedGraph;

const TEMPLATE: &str = include_str!("chain_block_kernel.wgsl");

/// Invocations per workgroup of the block kernel.
const THREADS: usize = 256;

// ANCHOR: layout
/// Which chain kernel runs a chain, and its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ChainLayout {
    /// One workgroup per row, one invocation per column (chain_kernel.wgsl).
    RowPerWorkgroup,
    /// One workgroup per block of `rows` rows; W streamed through workgroup memory in tiles of
    /// `k_step` rows (chain_block_kernel.wgsl).
    Block { rows: u32, k_step: u32 },
    /// One workgroup per block of `rows` rows; each invocation streams its columns of W for a
    /// slice of k straight into registers, and the slices' sums meet in workgroup memory (the
    /// same template with `STREAM` defined).
    Stream { rows: u32 },
}
// ANCHOR_END: layout

impl ChainLayout {
    /// Every layout the autotuner times for a chain of `rows` rows, the heuristic's first.
    pub fn candidates(rows: usize) -> Vec<ChainLayout> {
        let mut out = vec![Self::preferred(rows)];
        let blocks = [(2, 32), (4, 32), (8, 32), (8, 16), (16, 16)]
            .map(|(r, k_step)| ChainLayout::Block { rows: r, k_step });
        let streams = [2, 4, 8].map(|r| ChainLayout::Stream { rows: r });
        let all = [ChainLayout::RowPerWorkgroup]
            .into_iter()
            .chain(blocks)
            .chain(streams);
        for layout in all {
            // A block much taller than the chain only computes padding.
            let fits = match layout {
                ChainLayout::Block { rows: r, .. } | ChainLayout::Stream { rows: r } => {
                    (r as usize) < 2 * rows.max(1)
                }
                ChainLayout::RowPerWorkgroup => true,
            };
            if fits && !out.contains(&layout) {
                out.push(layout);
            }
        }
        out
    }

    // ANCHOR: heuristic
    /// The layout without measurement for a chain of `rows` rows, `widest` columns at its
    /// widest, on a device with `limits`: blocks of two rows with W streamed into registers,
    /// which an NVIDIA H200 timed fastest on every chain of the sweeps (64 to 256 rows up to 256
    /// wide, depths 4 to 256: 1.08 to 1.47 times faster than one row per workgroup); one row per
    /// workgroup for a single row, or where the device cannot hold the block
    /// ([`ChainLayout::or_one_row`]).
    pub fn heuristic(rows: usize, widest: usize, limits: &wgpu::Limits) -> ChainLayout {
        Self::preferred(rows).or_one_row(widest, limits)
    }

    /// The heuristic's choice before the device's limits are asked.
    fn preferred(rows: usize) -> ChainLayout {
        if rows >= 2 {
            ChainLayout::Stream { rows: 2 }
        } else {
            ChainLayout::RowPerWorkgroup
        }
    }

    /// This layout if the device holds it for a chain `widest` columns wide, else one row per
    /// workgroup (which always fits).
    pub fn or_one_row(self, widest: usize, limits: &wgpu::Limits) -> ChainLayout {
        match self.unusable(widest, limits) {
            None => self,
            Some(_) => ChainLayout::RowPerWorkgroup,
        }
    }
    // ANCHOR_END: heuristic

    /// Why this layout cannot run a chain `widest` columns wide on a device with `limits`.
    pub fn unusable(self, widest: usize, limits: &wgpu::Limits) -> Option<String> {
        let (rows, k_step, stream) = match self {
            ChainLayout::RowPerWorkgroup => return None,
            ChainLayout::Block { rows, k_step } => (rows, k_step, false),
            ChainLayout::Stream { rows } => (rows, 1, true),
        };
        if !rows.is_power_of_two() || rows > 16 {
            return Some(format!("blocks of {rows} rows: give 1, 2, 4, 8 or 16"));
        }
        if k_step == 0 || k_step > 64 {
            return Some(format!("a k-step of {k_step}: give 1 to 64"));
        }
        if (limits.max_compute_invocations_per_workgroup as usize) < THREADS
            || (limits.max_compute_workgroup_size_x as usize) < THREADS
        {
            return Some(format!("the device runs fewer than {THREADS} invocations"));
        }
        let bytes = Sizes::of(widest, rows as usize, k_step as usize, stream).workgroup_bytes();
        let limit = limits.max_compute_workgroup_storage_size as usize;
        (bytes > limit).then(|| format!("{bytes} bytes of workgroup memory exceed the {limit}"))
    }
}

/// The block kernel's compile-time sizes for a chain `widest` columns wide.
struct Sizes {
    rows: usize,
    k_step: usize,
    widest: usize,
    /// vec4 column groups (a power of two), row groups (THREADS / groups), rows per invocation.
    groups: usize,
    rows_per_invocation: usize,
    /// vec4s of the tile each invocation loads ahead.
    prefetched: usize,
    /// No tiles: slices of k, their partial sums in workgroup memory.
    stream: bool,
}

impl Sizes {
    fn of(widest: usize, rows: usize, k_step: usize, stream: bool) -> Sizes {
        let groups = widest.div_ceil(4).next_power_of_two().min(THREADS / 4);
        let row_groups = THREADS / groups;
        Sizes {
            rows,
            k_step,
            widest,
            groups,
            rows_per_invocation: if stream {
                rows
            } else {
                rows.div_ceil(row_groups).max(1)
            },
            prefetched: if stream {
                0
            } else {
                (k_step * groups).div_ceil(THREADS)
            },
            stream,
        }
    }

    /// Floats of the slices' partial sums (stream) or of the tile of W.
    fn scratch_floats(&self) -> usize {
        if self.stream {
            (THREADS / self.groups) * self.rows * self.widest
        } else {
            self.k_step * self.groups * 4
        }
    }

    fn workgroup_bytes(&self) -> usize {
        4 * (self.rows * self.widest + self.scratch_floats() + THREADS)
    }
}

/// The block kernel for links `first..=last` (a run from `find_chains`), `rows` rows per
/// workgroup, W in tiles of `k_step` rows, or (`stream`) read straight into registers.
pub fn generate_block_chain(
    graph: &VerifiedGraph,
    links: &[Link],
    rows: u32,
    k_step: u32,
    stream: bool,
) -> Result<ChainKernel, Error> {
    let packed = pack_chain(graph, links)?;
    if packed.widest > MAX_WIDTH {
        return Err(Error::Unsupported {
            kernel: "block chain",
            detail: format!(
                "{} columns: a chain takes at most {MAX_WIDTH}",
                packed.widest
            ),
        });
    }
    let s = Sizes::of(packed.widest, rows as usize, k_step as usize, stream);
    let lines = |count: usize, line: &dyn Fn(usize) -> String| {
        (0..count).map(line).collect::<Vec<_>>().join("\n")
    };
    let rpt = s.rows_per_invocation;
    // Function-local variables, one per accumulator and per prefetched vec4, in straight-line
    // code: the driver's compiler keeps them in registers and issues the loads back to back.
    let acc_zero = lines(rpt, &|i| format!("    var acc{i} = vec4<f32>(0.0);"));
    let fma =
        |i: usize, a: &str, wv: &str| format!("acc{i} = fma(vec4<f32>(act[{a}]), {wv}, acc{i});");
    let acc_fma = lines(rpt, &|i| {
        format!(
            "                {}",
            fma(i, &format!("a + {i}u * WIDEST"), "wv")
        )
    });
    let acc_store = lines(rpt, &|i| match stream {
        true => format!("    keep({i}u, slice, c, acc{i}, n);"),
        false => format!("        put(r0 + {i}u, cg, acc{i}, n, b, relu);"),
    });
    let tile_vec4s = s.k_step * s.groups;
    let pf_first = lines(s.prefetched, &|i| {
        format!("    var pf{i} = tile_load(t + {i}u * T, 0u, k, n, w);")
    });
    let pf_next = lines(s.prefetched, &|i| {
        format!("            pf{i} = tile_load(t + {i}u * T, p0 + BK, k, n, w);")
    });
    // A guard only where the tile does not split evenly among the invocations.
    let pf_store = lines(s.prefetched, &|i| {
        let store = format!("tile[t + {i}u * T] = pf{i};");
        if tile_vec4s.is_multiple_of(THREADS) {
            format!("        {store}")
        } else {
            format!("        if (t + {i}u * T < {tile_vec4s}u) {{ {store} }}")
        }
    });
    // The stream kernel's loop body: `unroll` rows of W loaded, then their multiply-adds.
    let stream_body = |unroll: usize| {
        let mut out = Vec::new();
        for u in 0..unroll {
            out.push(format!(
                "            let w{u} = weight4(w + (p + {u}u) * n + c, n - c);"
            ));
        }
        for u in 0..unroll {
            for i in 0..s.rows {
                let a = format!("{i}u * WIDEST + p + {u}u");
                out.push(format!("            {}", fma(i, &a, &format!("w{u}"))));
            }
        }
        out.join("\n")
    };
    let (stream_four, stream_one) = if stream {
        (stream_body(4), stream_body(1))
    } else {
        (String::new(), String::new())
    };
    let defines: &[&str] = if stream { &["STREAM"] } else { &[] };
    let source = fill(
        TEMPLATE,
        defines,
        &[
            ("R", &s.rows),
            ("BK", &s.k_step),
            ("CG", &s.groups),
            ("RPT", &rpt),
            ("WIDEST", &s.widest),
            ("ROWS", &packed.rows),
            ("ACT", &(s.rows * s.widest)),
            ("TILE", &(s.k_step * s.groups)),
            ("PART", &s.scratch_floats()),
            ("PF_FIRST", &pf_first),
            ("PF_NEXT", &pf_next),
            ("PF_STORE", &pf_store),
            ("STREAM_FOUR", &stream_four),
            ("STREAM_ONE", &stream_one),
            ("ACC_ZERO", &acc_zero),
            ("ACC_FMA", &acc_fma),
            ("ACC_STORE", &acc_store),
            ("WIDTH_IN", &packed.width_in),
            ("WIDTH_OUT", &packed.width_out),
            ("STEPS", &packed.steps),
        ],
    )
    .map_err(|e| Error::Unsupported {
        kernel: "block chain",
        detail: e.to_string(),
    })?;
    let blocks = packed.rows.div_ceil(rows.max(1) as usize);
    let blocks = u32::try_from(blocks).map_err(|_| Error::Unsupported {
        kernel: "block chain",
        detail: format!("{blocks} blocks of rows do not fit a grid"),
    })?;
    Ok(ChainKernel {
        source,
        params: packed.params,
        workgroups: [blocks, 1, 1],
        input: packed.input,
        output: packed.output,
    })
}

/// The kernel for a chain in `layout`.
pub fn generate_with_layout(
    graph: &VerifiedGraph,
    links: &[Link],
    layout: ChainLayout,
) -> Result<ChainKernel, Error> {
    match layout {
        ChainLayout::RowPerWorkgroup => super::chain::generate_chain(graph, links),
        ChainLayout::Block { rows, k_step } => {
            generate_block_chain(graph, links, rows, k_step, false)
        }
        ChainLayout::Stream { rows } => generate_block_chain(graph, links, rows, 1, true),
    }
}
