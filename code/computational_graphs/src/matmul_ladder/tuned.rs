//! The top rungs: a generated kernel specialised for one shape.
//!
//! Three things change against the register-blocked kernels of [`super::unrolled`]:
//!
//! - **Shapes are `override` constants** (`M`, `N`, `K`), set when the pipeline is created. The
//!   driver compiles the loop bounds and every edge test against known numbers, and no storage
//!   buffer of dimensions is read.
//! - **A k-step of 16, vec4 reads of both tiles.** A's tile is stored transposed, four rows to
//!   a `vec4`, so that an invocation's eight rows come out of workgroup memory in two reads.
//! - **Register prefetch.** While the tiles of step `k0` are multiplied, the values of step
//!   `k0 + 16` are already on their way from global memory into registers; they go into the
//!   tiles after the multiply. The load latency hides behind 16 steps of arithmetic.
//!
//! When the shape is a multiple of the block (and of 4), the kernel is generated with no edge
//! tests at all, and its module is created without wgpu's runtime checks. The proof that this
//! is safe is in [`Tuning::is_in_bounds_by_construction`].

use crate::Error;
use crate::compiler::specialise::fill;

// ANCHOR: tuning
/// How one generated kernel splits the work. Workgroups are `threads.0 × threads.1`
/// invocations; each invocation computes `rows` consecutive rows by `vec_cols` vec4 columns
/// (strided by `threads.0` vec4s, so neighbours store neighbouring addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tuning {
    pub threads: (u32, u32),
    /// Rows of C per invocation: a multiple of 4 (they are read from the A tile as vec4s).
    pub rows: u32,
    /// vec4 columns of C per invocation.
    pub vec_cols: u32,
    /// Steps of k per tile.
    pub bk: u32,
    /// Load the next tiles into registers while the current ones are multiplied.
    pub prefetch: bool,
    /// Leave out every edge test: only for shapes where [`Tuning::fits_exactly`] holds.
    pub exact: bool,
    /// B, C and the bias read and written as vec4s (needs N % 4 == 0).
    pub aligned: bool,
    pub epilogue: Epilogue,
}

/// What happens to each element of C before it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Epilogue {
    /// C = A · B
    None,
    /// C = A · B + bias (bias is 1×N)
    Bias,
    /// C = max(A · B + bias, 0)
    BiasRelu,
}
// ANCHOR_END: tuning

// ANCHOR: pipelining
/// How the ladder's last rungs change the way a tuned kernel moves its tiles. The default is the
/// kernel of [`Tuning`] alone (what the compiler uses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pipelining {
    /// Two sets of tiles: while step k is multiplied from one, the prefetched step k + 1 is
    /// stored into the other, so one barrier per step suffices instead of two (needs `prefetch`).
    pub double_buffer: bool,
    /// With `double_buffer`: the loop does two steps of k per trip, the first reading set 0 and
    /// the second set 1, so every tile index is a constant (otherwise the set being read is a
    /// variable that the indices add).
    pub two_steps_per_trip: bool,
    /// Rows of the transposed A tile without their spare vec4 (for a device whose workgroup
    /// memory cannot hold two padded sets of tiles).
    pub unpadded_a: bool,
    /// A never goes through workgroup memory: each lane loads a slice of its row group's A
    /// values into registers, and the others read them with `subgroupShuffle`. The kernel is
    /// generated for exactly this subgroup size.
    pub subgroup: Option<u32>,
}
// ANCHOR_END: pipelining

impl Tuning {
    /// 128×128 blocks, 8×8 per invocation: for large products.
    pub const LARGE: Tuning = Tuning {
        threads: (16, 16),
        rows: 8,
        vec_cols: 2,
        bk: 16,
        prefetch: true,
        exact: false,
        aligned: true,
        epilogue: Epilogue::None,
    };

    /// 64×64 blocks, 4×4 per invocation: more workgroups for middle sizes.
    pub const MEDIUM: Tuning = Tuning {
        rows: 4,
        vec_cols: 1,
        ..Tuning::LARGE
    };

    /// 32×32 blocks of 64 invocations, 4×4 each: enough workgroups to fill a GPU at 256².
    pub const SMALL: Tuning = Tuning {
        threads: (8, 8),
        ..Tuning::MEDIUM
    };

    /// Rows and columns of C that one workgroup covers.
    pub fn block(&self) -> (u32, u32) {
        (
            self.threads.1 * self.rows,
            self.threads.0 * 4 * self.vec_cols,
        )
    }

    fn invocations(&self) -> u32 {
        self.threads.0 * self.threads.1
    }

    /// True when the grid covers the product with no partial block and no partial k-step.
    pub fn fits_exactly(&self, m: usize, k: usize, n: usize) -> bool {
        let (bm, bn) = self.block();
        m > 0
            && n > 0
            && k > 0
            && m.is_multiple_of(bm as usize)
            && n.is_multiple_of(bn as usize)
            && k.is_multiple_of(self.bk as usize)
    }

    /// The variant of this tuning for an m×k · k×n product: vec4 memory access when N allows
    /// it, no edge tests when the blocks tile the product exactly.
    pub fn for_shape(self, m: usize, k: usize, n: usize) -> Tuning {
        let aligned = n.is_multiple_of(4);
        let exact = aligned && self.fits_exactly(m, k, n);
        Tuning {
            aligned,
            exact,
            ..self
        }
    }

    /// Whether this kernel's indices stay in bounds by construction, so that its module may be
    /// created without wgpu's runtime checks. The argument, for an `exact` kernel with
    /// M = gy·BM, N = gx·BN, K = t·BK and buffers of exactly M·K, K·N, N and M·N floats:
    ///
    /// - global loads of A read row `row0 + r` with `row0 = group.y·BM`, `r < BM`, so the row is
    ///   below gy·BM = M, and column `k0 + p` with `k0 ≤ K − BK`, `p < BK`, so below K;
    /// - global loads of B read row `k0 + p < K` and vec4 column `col0/4 + q < N/4` the same way;
    ///   the prefetch of step `k0 + BK` sits inside `if k0 + BK < K`;
    /// - C and the bias are written at rows below M and vec4 columns below N/4, likewise;
    /// - workgroup-memory indices are sums of constants and `local` ids smaller than the
    ///   workgroup size, and their largest value is checked against the array length below;
    /// - the one loop runs `k0` from 0 to K in steps of BK > 0: it terminates, and there is no
    ///   division by anything but nonzero constants.
    ///
    /// Partial blocks are not covered by this argument, so `exact` is false for them and they
    /// keep the checks.
    pub fn is_in_bounds_by_construction(&self) -> bool {
        self.is_in_bounds_with(&Pipelining::default())
    }

    // ANCHOR: proof
    /// [`Tuning::is_in_bounds_by_construction`] for a kernel with pipelining `p`. Two more
    /// points: a second tile set starts at the first one's length, and a read or write offset
    /// is 0 or that length; a subgroup kernel's invocation number is its subgroup's number
    /// times the size it was generated for plus its lane only when that product is below the
    /// workgroup size (its local index otherwise), and its lanes' A slices (BK / G steps of
    /// G lanes) cover exactly BK steps.
    pub fn is_in_bounds_with(&self, p: &Pipelining) -> bool {
        let (bm, bn) = self.block();
        let largest_a_index = self.a_tile_len(p).saturating_sub(1);
        let a_read = (self.bk - 1) * self.a_stride(p)
            + (self.threads.1 - 1) * (self.rows / 4)
            + (self.rows / 4 - 1);
        let b_read =
            (self.bk - 1) * (bn / 4) + (self.threads.0 - 1) + self.threads.0 * (self.vec_cols - 1);
        let a_tile_ok = match p.subgroup {
            Some(s) => self.subgroup_fit(s).is_ok(),
            None => {
                a_read <= largest_a_index && self.a_loads() * self.invocations() == self.bk * bm / 4
            }
        };
        self.exact
            && self.aligned
            && bm.is_multiple_of(4)
            && (!p.double_buffer || self.prefetch)
            && a_tile_ok
            && b_read < self.b_tile_len()
            && self.b_loads() * self.invocations() == self.bk * bn / 4
    }
    // ANCHOR_END: proof

    /// Whether a kernel generated for subgroups of `size` lanes can run this tuning: the lanes
    /// that share a row of invocations (G = min(size, threads.0) of them) must lie in one
    /// subgroup, and they split BK steps evenly.
    pub fn subgroup_fit(&self, size: u32) -> Result<(), String> {
        let tx = self.threads.0;
        let g = self.group_lanes(size);
        if size == 0 || !self.invocations().is_multiple_of(size) {
            return Err(format!(
                "subgroups of {size} lanes do not divide a workgroup of {} invocations",
                self.invocations()
            ));
        }
        if !(size.is_multiple_of(tx) || tx.is_multiple_of(size)) {
            return Err(format!(
                "subgroups of {size} lanes do not split rows of {tx} invocations evenly"
            ));
        }
        if !self.bk.is_multiple_of(g) {
            return Err(format!(
                "{g} lanes per row cannot share a k-step of {} evenly",
                self.bk
            ));
        }
        Ok(())
    }

    /// Lanes of one subgroup that compute the same rows of C (and so need the same A values).
    fn group_lanes(&self, size: u32) -> u32 {
        size.min(self.threads.0).max(1)
    }

    /// vec4s per row of the transposed A tile: one more than needed, so that the 16 values of
    /// one column written by neighbouring invocations land in different banks.
    fn a_stride(&self, p: &Pipelining) -> u32 {
        self.block().0 / 4 + u32::from(!p.unpadded_a)
    }

    /// vec4s of one A tile (0 when A goes through subgroup shuffles instead).
    fn a_tile_len(&self, p: &Pipelining) -> u32 {
        if p.subgroup.is_some() {
            0
        } else {
            self.bk * self.a_stride(p)
        }
    }

    fn b_tile_len(&self) -> u32 {
        self.bk * self.block().1 / 4
    }

    /// Bytes of workgroup memory the kernel declares (compare with the device's
    /// `max_compute_workgroup_storage_size`).
    pub fn workgroup_bytes(&self, p: &Pipelining) -> u32 {
        let sets = if p.double_buffer { 2 } else { 1 };
        16 * sets * (self.a_tile_len(p) + self.b_tile_len())
    }

    /// vec4s of the A tile each invocation loads (rounded up).
    fn a_loads(&self) -> u32 {
        (self.bk * self.block().0 / 4).div_ceil(self.invocations())
    }

    fn b_loads(&self) -> u32 {
        (self.bk * self.block().1 / 4).div_ceil(self.invocations())
    }

    /// Bindings, in order: a, b, (bias,) c.
    pub fn has_bias(&self) -> bool {
        self.epilogue != Epilogue::None
    }
}

const TEMPLATE: &str = include_str!("wgsl/tuned.wgsl");

/// The WGSL source of one tuned kernel. Shapes come in as `override` constants M, N, K.
pub fn source(t: &Tuning) -> Result<String, Error> {
    source_with(t, &Pipelining::default())
}

/// Where the multiply reads the tiles and where the tile stores write them: offsets into the
/// arrays (empty with one tile set).
#[derive(Default)]
struct Offsets {
    read_a: String,
    read_b: String,
    write_a: String,
    write_b: String,
}

impl Offsets {
    /// Read tile set `read`, write the other one: constant offsets.
    fn constant(t: &Tuning, p: &Pipelining, read: u32) -> Self {
        let (a, b) = (t.a_tile_len(p), t.b_tile_len());
        let at = |set: u32, len: u32| format!("{}u + ", set * len);
        Offsets {
            read_a: at(read, a),
            read_b: at(read, b),
            write_a: at(1 - read, a),
            write_b: at(1 - read, b),
        }
    }
}

/// The WGSL source of one tuned kernel with the ladder's pipelining `p`.
pub fn source_with(t: &Tuning, p: &Pipelining) -> Result<String, Error> {
    let fail = |detail: String| Error::Unsupported {
        kernel: "tuned",
        detail,
    };
    if p.double_buffer && !t.prefetch {
        return Err(fail(
            "double buffering stores the prefetched registers: it needs prefetch".into(),
        ));
    }
    if let Some(size) = p.subgroup {
        t.subgroup_fit(size).map_err(fail)?;
    }
    let (bm, bn) = t.block();
    let mut defines = Vec::new();
    if t.has_bias() {
        defines.push("BIAS");
    }
    if t.prefetch {
        defines.push("PREFETCH");
    }
    if p.double_buffer && p.two_steps_per_trip {
        defines.push("DOUBLE_PAIRS");
    } else if p.double_buffer {
        defines.push("DOUBLE");
    }
    if p.subgroup.is_some() {
        defines.push("SUBGROUP");
    }
    let size = p.subgroup.unwrap_or(0);
    let g = t.group_lanes(size);
    let vec = if t.aligned { "vec4<f32>" } else { "f32" };
    let a_registers: Vec<String> = match p.subgroup {
        Some(_) => (0..t.bk / g)
            .flat_map(|h| {
                (0..t.rows / 4).flat_map(move |i4| {
                    [
                        format!("    var sa{h}_{i4} = vec4<f32>(0.0);"),
                        format!("    var na{h}_{i4} = vec4<f32>(0.0);"),
                    ]
                })
            })
            .collect(),
        None => (0..t.a_loads())
            .map(|l| format!("    var la{l} = vec4<f32>(0.0);"))
            .collect(),
    };
    let registers: Vec<String> = a_registers
        .into_iter()
        .chain((0..t.b_loads()).map(|l| format!("    var lb{l} = vec4<f32>(0.0);")))
        .chain((0..t.rows).flat_map(|i| {
            (0..t.vec_cols).map(move |j| format!("    var acc_{i}_{j} = vec4<f32>(0.0);"))
        }))
        .collect();
    let sets = if p.double_buffer { 2 } else { 1 };
    let in_loop = if p.double_buffer {
        Offsets {
            read_a: "ra + ".into(),
            read_b: "rb + ".into(),
            write_a: "wa + ".into(),
            write_b: "wb + ".into(),
        }
    } else {
        Offsets::default()
    };
    let (set0, set1) = (Offsets::constant(t, p, 0), Offsets::constant(t, p, 1));
    fill(
        TEMPLATE,
        &defines,
        &[
            ("VEC", &vec),
            ("A_TILE_LEN", &t.a_tile_len(p)),
            ("B_TILE_LEN", &t.b_tile_len()),
            ("A_ARRAY_LEN", &(sets * t.a_tile_len(p))),
            ("B_ARRAY_LEN", &(sets * t.b_tile_len())),
            ("TX", &t.threads.0),
            ("TY", &t.threads.1),
            ("INVOCATIONS", &t.invocations()),
            ("SUBGROUP_SIZE", &size),
            ("GROUP_LANES", &g),
            ("BM", &bm),
            ("BN", &bn),
            ("BK", &t.bk),
            ("REGISTERS", &registers.join("\n")),
            ("LOAD", &load(t, p, "k0").join("\n")),
            ("LOAD_FIRST", &load(t, p, "0u").join("\n")),
            (
                "LOAD_NEXT",
                &load(t, p, &format!("k0 + {}u", t.bk)).join("\n"),
            ),
            ("BK2", &(2 * t.bk)),
            (
                "LOAD_AFTER_NEXT",
                &load(t, p, &format!("k0 + {}u", 2 * t.bk)).join("\n"),
            ),
            ("MULTIPLY_SET0", &multiply(t, p, &set0).join("\n")),
            ("MULTIPLY_SET1", &multiply(t, p, &set1).join("\n")),
            ("STORE_INTO_SET1", &store_tiles(t, p, &set0).join("\n")),
            ("STORE_INTO_SET0", &store_tiles(t, p, &set1).join("\n")),
            (
                "STORE_FIRST",
                &store_tiles(t, p, &Offsets::default()).join("\n"),
            ),
            ("STORE_TILES", &store_tiles(t, p, &in_loop).join("\n")),
            ("MULTIPLY", &multiply(t, p, &in_loop).join("\n")),
            ("STORE_C", &store_c(t).join("\n")),
        ],
    )
    .map_err(|e| fail(e.to_string()))
}

/// Global memory → registers, for the step of k that starts at `kk`.
fn load(t: &Tuning, p: &Pipelining, kk: &str) -> Vec<String> {
    let (bm, bn) = t.block();
    let (bk, inv, bn4) = (t.bk, t.invocations(), bn / 4);
    let mut lines = Vec::new();
    if let Some(size) = p.subgroup {
        // Lane `gl` of a row group loads k-steps gl, gl + G, …: neighbouring lanes read
        // neighbouring floats of each of the group's rows.
        let g = t.group_lanes(size);
        for h in 0..bk / g {
            for i4 in 0..t.rows / 4 {
                lines.push(format!(
                    "        {{ let kc = {kk} + {}u + gl; var v = vec4<f32>(0.0);",
                    h * g
                ));
                for q in 0..4 {
                    let row = format!("row0 + ly * {}u + {}u", t.rows, i4 * 4 + q);
                    let idx = format!("({row}) * K + kc");
                    lines.push(if t.exact {
                        format!("          v[{q}] = a[{idx}];")
                    } else {
                        format!("          if {row} < M && kc < K {{ v[{q}] = a[{idx}]; }}")
                    });
                }
                lines.push(format!("          na{h}_{i4} = v; }}"));
            }
        }
    }
    for l in 0..t.a_loads() {
        if p.subgroup.is_some() {
            break;
        }
        // k varies fastest between neighbours: they read neighbouring floats of one row.
        lines.push(format!(
            "        {{ let e = tid + {}u; let p = e % {bk}u; let g = e / {bk}u; let kc = {kk} + p;",
            l * inv
        ));
        lines.push("          var v = vec4<f32>(0.0);".into());
        for q in 0..4 {
            let idx = format!("(row0 + g * 4u + {q}u) * K + kc");
            lines.push(if t.exact {
                format!("          v[{q}] = a[{idx}];")
            } else {
                format!(
                    "          if g < {}u && row0 + g * 4u + {q}u < M && kc < K {{ v[{q}] = a[{idx}]; }}",
                    bm / 4
                )
            });
        }
        lines.push(format!("          la{l} = v; }}"));
    }
    for l in 0..t.b_loads() {
        lines.push(format!(
            "        {{ let e = tid + {}u; let p = e / {bn4}u; let q = e % {bn4}u; let kr = {kk} + p;",
            l * inv
        ));
        lines.push("          var v = vec4<f32>(0.0);".into());
        if t.exact {
            lines.push("          v = b[kr * (N / 4u) + col0 / 4u + q];".into());
        } else if t.aligned {
            lines.push(format!(
                "          if p < {bk}u && kr < K && col0 + q * 4u < N {{ v = b[kr * (N / 4u) + col0 / 4u + q]; }}"
            ));
        } else {
            lines.extend((0..4).map(|e| format!(
                "          if p < {bk}u && kr < K && col0 + q * 4u + {e}u < N {{ v[{e}] = b[kr * N + col0 + q * 4u + {e}u]; }}"
            )));
        }
        lines.push(format!("          lb{l} = v; }}"));
    }
    lines
}

/// Registers → workgroup memory (A: the lanes' own registers, in a subgroup kernel); the last
/// load of a tile is guarded when the invocations outnumber its remaining vec4s.
fn store_tiles(t: &Tuning, p: &Pipelining, at: &Offsets) -> Vec<String> {
    let (bm, bn) = t.block();
    let (bk, inv, a_stride) = (t.bk, t.invocations(), t.a_stride(p));
    let guard = |l: u32, elems: u32| {
        if (l + 1) * inv > elems {
            format!("if tid + {}u < {elems}u ", l * inv)
        } else {
            String::new()
        }
    };
    let a: Vec<String> = match p.subgroup {
        Some(size) => (0..bk / t.group_lanes(size))
            .flat_map(|h| (0..t.rows / 4).map(move |i4| format!("        sa{h}_{i4} = na{h}_{i4};")))
            .collect(),
        None => (0..t.a_loads())
            .map(|l| {
                format!(
                    "        {}{{ let e = tid + {}u; a_tile[{}(e % {bk}u) * {a_stride}u + e / {bk}u] = la{l}; }}",
                    guard(l, bk * bm / 4),
                    l * inv,
                    at.write_a,
                )
            })
            .collect(),
    };
    let b = (0..t.b_loads()).map(|l| {
        format!(
            "        {}{{ b_tile[{}tid + {}u] = lb{l}; }}",
            guard(l, bk * bn / 4),
            at.write_b,
            l * inv
        )
    });
    a.into_iter().chain(b).collect()
}

/// One step of k per unrolled block: read the tiles (or shuffle A between lanes) into named
/// values, then one `fma` per accumulator.
fn multiply(t: &Tuning, p: &Pipelining, at: &Offsets) -> Vec<String> {
    let (a_stride, bn4, tx) = (t.a_stride(p), t.block().1 / 4, t.threads.0);
    let mut lines = Vec::new();
    for step in 0..t.bk {
        for i4 in 0..t.rows / 4 {
            lines.push(match p.subgroup {
                Some(size) => {
                    let g = t.group_lanes(size);
                    format!(
                        "        let a{step}_{i4} = subgroupShuffle(sa{}_{i4}, group_lane0 + {}u);",
                        step / g,
                        step % g
                    )
                }
                None => format!(
                    "        let a{step}_{i4} = a_tile[{}{}u + ly * {}u];",
                    at.read_a,
                    step * a_stride + i4,
                    t.rows / 4
                ),
            });
        }
        for j in 0..t.vec_cols {
            lines.push(format!(
                "        let b{step}_{j} = b_tile[{}{}u + lx];",
                at.read_b,
                step * bn4 + tx * j
            ));
        }
        for i in 0..t.rows {
            for j in 0..t.vec_cols {
                lines.push(format!(
                    "        acc_{i}_{j} = fma(vec4<f32>(a{step}_{}[{}]), b{step}_{j}, acc_{i}_{j});",
                    i / 4,
                    i % 4
                ));
            }
        }
    }
    lines
}

/// The epilogue and the stores of C, each behind an edge test unless the kernel is exact.
fn store_c(t: &Tuning) -> Vec<String> {
    let finish = |v: &str, bias: &str| match t.epilogue {
        Epilogue::None => v.to_owned(),
        Epilogue::Bias => format!("{v} + {bias}"),
        Epilogue::BiasRelu => format!(
            "max({v} + {bias}, {}(0.0))",
            if t.aligned { "vec4<f32>" } else { "f32" }
        ),
    };
    let mut lines = Vec::new();
    for i in 0..t.rows {
        lines.push(format!("    {{ let r = row0 + ly * {}u + {i}u;", t.rows));
        for j in 0..t.vec_cols {
            let vc = format!("(col0 / 4u + lx + {}u)", t.threads.0 * j);
            if t.aligned {
                let value = finish(&format!("acc_{i}_{j}"), &format!("bias[{vc}]"));
                let store = format!("c[r * (N / 4u) + {vc}] = {value};");
                lines.push(if t.exact {
                    format!("      {store}")
                } else {
                    format!("      if r < M && {vc} * 4u < N {{ {store} }}")
                });
            } else {
                for e in 0..4 {
                    let col = format!("({vc} * 4u + {e}u)");
                    let value = finish(&format!("acc_{i}_{j}[{e}]"), &format!("bias[{col}]"));
                    lines.push(format!(
                        "      if r < M && {col} < N {{ c[r * N + {col}] = {value}; }}"
                    ));
                }
            }
        }
        lines.push("    }".into());
    }
    lines
}
