//! The register-blocked kernels, generated as strings with every register loop unrolled.
//!
//! Written with private arrays (`var acc: array<f32, 16>` indexed in loops), the first version
//! of these kernels ran *slower* than the naive one on an H200: the arrays were not kept in
//! registers. Generating straight-line code with one named variable per accumulator leaves
//! the shader compiler nothing to guess. Each invocation's patch is strided by 16 rows and 16
//! columns, so neighbouring invocations touch neighbouring addresses in every load and store.

use std::fmt::Write as _;

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

pub fn source(b: &Blocking) -> String {
    let (bm, bn) = b.block();
    let (tm, tn, bk) = (b.rows, b.cols, b.bk);
    let ty = if b.vec4 { "vec4<f32>" } else { "f32" };
    let lanes = if b.vec4 { 4 } else { 1 }; // floats per element of b_tile and c
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "@group(0) @binding(0) var<storage, read> dims: Dims;");
    let _ = writeln!(
        w,
        "@group(0) @binding(1) var<storage, read> a: array<{ty}>;"
    );
    let _ = writeln!(
        w,
        "@group(0) @binding(2) var<storage, read> b: array<{ty}>;"
    );
    let _ = writeln!(
        w,
        "@group(0) @binding(3) var<storage, read_write> c: array<{ty}>;"
    );
    let _ = writeln!(w, "var<workgroup> a_tile: array<f32, {}>;", bk * bm);
    let _ = writeln!(
        w,
        "var<workgroup> b_tile: array<{ty}, {}>;",
        bk * bn / lanes
    );
    let _ = writeln!(w, "@compute @workgroup_size(16, 16)");
    let _ = writeln!(
        w,
        "fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>, @builtin(local_invocation_index) tid: u32) {{"
    );
    let _ = writeln!(w, "    let row0 = group.y * {bm}u;");
    let _ = writeln!(w, "    let col0 = group.x * {}u;", bn / lanes);
    let _ = writeln!(w, "    let ka = dims.k / {lanes}u;");
    let _ = writeln!(w, "    let nb = dims.n / {lanes}u;");
    for i in 0..tm {
        for j in 0..tn {
            let _ = writeln!(w, "    var acc_{i}_{j} = {ty}(0.0);");
        }
    }
    let _ = writeln!(w, "    for (var k0 = 0u; k0 < dims.k; k0 += {bk}u) {{");
    // Loading the tiles: 256 invocations, each a fixed number of elements.
    let a_elems = bm * bk / lanes; // elements of A's tile, in loads of `ty`
    for l in 0..a_elems / 256 {
        let per_row = bk / lanes;
        let _ = writeln!(
            w,
            "        {{ let e = tid + {}u; let r = e / {per_row}u; let q = e % {per_row}u;",
            l * 256
        );
        let _ = writeln!(w, "          var v = {ty}(0.0);");
        let _ = writeln!(
            w,
            "          if row0 + r < dims.m && k0 / {lanes}u + q < ka {{ v = a[(row0 + r) * ka + k0 / {lanes}u + q]; }}"
        );
        if b.vec4 {
            for e in 0..4 {
                let _ = writeln!(w, "          a_tile[(q * 4u + {e}u) * {bm}u + r] = v[{e}];");
            }
        } else {
            let _ = writeln!(w, "          a_tile[q * {bm}u + r] = v;");
        }
        let _ = writeln!(w, "        }}");
    }
    let b_elems = bk * bn / lanes;
    for l in 0..b_elems / 256 {
        let per_row = bn / lanes;
        let _ = writeln!(
            w,
            "        {{ let e = tid + {}u; let p = e / {per_row}u; let q = e % {per_row}u;",
            l * 256
        );
        let _ = writeln!(w, "          var v = {ty}(0.0);");
        let _ = writeln!(
            w,
            "          if k0 + p < dims.k && col0 + q < nb {{ v = b[(k0 + p) * nb + col0 + q]; }}"
        );
        let _ = writeln!(w, "          b_tile[e] = v;");
        let _ = writeln!(w, "        }}");
    }
    let _ = writeln!(w, "        workgroupBarrier();");
    let _ = writeln!(w, "        for (var p = 0u; p < {bk}u; p++) {{");
    for j in 0..tn {
        let _ = writeln!(
            w,
            "            let b{j} = b_tile[p * {}u + local.x + {}u];",
            bn / lanes,
            16 * j
        );
    }
    for i in 0..tm {
        let _ = writeln!(
            w,
            "            let a{i} = a_tile[p * {bm}u + local.y + {}u];",
            16 * i
        );
        for j in 0..tn {
            let _ = writeln!(w, "            acc_{i}_{j} += a{i} * b{j};");
        }
    }
    let _ = writeln!(w, "        }}");
    let _ = writeln!(w, "        workgroupBarrier();");
    let _ = writeln!(w, "    }}");
    for i in 0..tm {
        let _ = writeln!(w, "    {{ let r = row0 + local.y + {}u;", 16 * i);
        for j in 0..tn {
            let _ = writeln!(
                w,
                "      if r < dims.m && col0 + local.x + {0}u < nb {{ c[r * nb + col0 + local.x + {0}u] = acc_{i}_{j}; }}",
                16 * j
            );
        }
        let _ = writeln!(w, "    }}");
    }
    s.push_str("}\n");
    s
}
