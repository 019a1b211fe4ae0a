//! The register-blocked kernels, generated as strings with every register loop unrolled.
//!
//! Written with private arrays (`var acc: array<f32, 16>` indexed in loops), the first version
//! of these kernels ran *slower* than the naive one on an H200: the arrays were not kept in
//! registers. Generating straight-line code with one named variable per accumulator leaves
//! the shader compiler nothing to guess. Each invocation's patch is strided by 16 rows and 16
//! columns, so neighbouring invocations touch neighbouring addresses in every load and store.

use crate::Error;
use crate::compiler::specialise::fill;

// ANCHOR: blocking
/// Rows of C per invocation (strided by 16) and columns per invocation (strided by 16; vec4s
/// when `vec4`), with workgroups of 16×16 invocations and `bk` steps of k per tile.
pub struct Blocking {
    pub rows: u32,
    pub cols: u32,
    pub bk: u32,
    pub vec4: bool,
}

// ANCHOR_END: blocking

impl Blocking {
    /// Rows and columns of C that one workgroup covers.
    pub fn block(&self) -> (u32, u32) {
        (
            16 * self.rows,
            16 * self.cols * if self.vec4 { 4 } else { 1 },
        )
    }
}

const TEMPLATE: &str = include_str!("wgsl/unrolled.wgsl");

/// The WGSL source of one register-blocked kernel (after the shared `Dims` struct).
pub fn source(b: &Blocking) -> Result<String, Error> {
    let (bm, bn) = b.block();
    let (tm, tn, bk) = (b.rows, b.cols, b.bk);
    let ty = if b.vec4 { "vec4<f32>" } else { "f32" };
    let lanes = if b.vec4 { 4 } else { 1 }; // floats per element of b_tile and c
    let accumulators: Vec<String> = (0..tm)
        .flat_map(|i| (0..tn).map(move |j| format!("    var acc_{i}_{j} = {ty}(0.0);")))
        .collect();
    fill(
        TEMPLATE,
        &[],
        &[
            ("TY", &ty),
            ("A_TILE_LEN", &(bk * bm)),
            ("B_TILE_LEN", &(bk * bn / lanes)),
            ("BM", &bm),
            ("BN_ELEMENTS", &(bn / lanes)),
            ("LANES", &lanes),
            ("BK", &bk),
            ("ACCUMULATORS", &accumulators.join("\n")),
            ("LOAD_TILES", &load_tiles(b).join("\n")),
            ("MULTIPLY", &multiply(b).join("\n")),
            ("STORE_C", &store_c(b).join("\n")),
        ],
    )
    .map_err(|e| Error::Unsupported {
        kernel: "register-blocked",
        detail: e.to_string(),
    })
}

/// Loading the tiles: 256 invocations, each a fixed number of elements of A and of B.
fn load_tiles(b: &Blocking) -> Vec<String> {
    let (bm, bn) = b.block();
    let bk = b.bk;
    let ty = if b.vec4 { "vec4<f32>" } else { "f32" };
    let lanes = if b.vec4 { 4 } else { 1 };
    let mut lines = Vec::new();
    let a_elems = bm * bk / lanes; // elements of A's tile, in loads of `ty`
    for l in 0..a_elems / 256 {
        let per_row = bk / lanes;
        lines.push(format!(
            "        {{ let e = tid + {}u; let r = e / {per_row}u; let q = e % {per_row}u;",
            l * 256
        ));
        lines.push(format!("          var v = {ty}(0.0);"));
        lines.push(format!(
            "          if row0 + r < dims.m && k0 / {lanes}u + q < ka {{ v = a[(row0 + r) * ka + k0 / {lanes}u + q]; }}"
        ));
        if b.vec4 {
            lines.extend(
                (0..4).map(|e| format!("          a_tile[(q * 4u + {e}u) * {bm}u + r] = v[{e}];")),
            );
        } else {
            lines.push(format!("          a_tile[q * {bm}u + r] = v;"));
        }
        lines.push("        }".into());
    }
    let b_elems = bk * bn / lanes;
    for l in 0..b_elems / 256 {
        let per_row = bn / lanes;
        lines.push(format!(
            "        {{ let e = tid + {}u; let p = e / {per_row}u; let q = e % {per_row}u;",
            l * 256
        ));
        lines.push(format!("          var v = {ty}(0.0);"));
        lines.push(
            "          if k0 + p < dims.k && col0 + q < nb { v = b[(k0 + p) * nb + col0 + q]; }"
                .into(),
        );
        lines.push("          b_tile[e] = v;".into());
        lines.push("        }".into());
    }
    lines
}

/// One step `p` of k: one named value per row of A and per column of B, one multiply-add per
/// accumulator.
fn multiply(b: &Blocking) -> Vec<String> {
    let (bm, bn) = b.block();
    let lanes = if b.vec4 { 4 } else { 1 };
    let mut lines: Vec<String> = (0..b.cols)
        .map(|j| {
            format!(
                "            let b{j} = b_tile[p * {}u + local.x + {}u];",
                bn / lanes,
                16 * j
            )
        })
        .collect();
    for i in 0..b.rows {
        lines.push(format!(
            "            let a{i} = a_tile[p * {bm}u + local.y + {}u];",
            16 * i
        ));
        lines.extend((0..b.cols).map(|j| format!("            acc_{i}_{j} += a{i} * b{j};")));
    }
    lines
}

/// The stores of C, each behind an edge test.
fn store_c(b: &Blocking) -> Vec<String> {
    let mut lines = Vec::new();
    for i in 0..b.rows {
        lines.push(format!("    {{ let r = row0 + local.y + {}u;", 16 * i));
        lines.extend((0..b.cols).map(|j| format!(
            "      if r < dims.m && col0 + local.x + {0}u < nb {{ c[r * nb + col0 + local.x + {0}u] = acc_{i}_{j}; }}",
            16 * j
        )));
        lines.push("    }".into());
    }
    lines
}
