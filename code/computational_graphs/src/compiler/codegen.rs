//! Code generation: op codes in, WGSL source out. Programs are just strings.

use super::lower::{KernelIr, OpCode};
use super::specialise::fill;
use crate::Error;
use crate::graph::BufferId;

const ELEMENT_TEMPLATE: &str = include_str!("element_kernel.wgsl");
const ROW_TEMPLATE: &str = include_str!("row_kernel.wgsl");

/// A generated kernel: its source, the buffers to bind (binding 0, 1, …) and its grid.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedKernel {
    pub source: String,
    pub buffers: Vec<BufferId>,
    pub workgroups: [u32; 3],
    /// The node the kernel runs at (its last fused node).
    pub at: usize,
}

// ANCHOR: emit
/// One line of WGSL per op code. `name` maps a buffer to its binding's variable name.
fn emit(op: &OpCode, cols: usize, name: &dyn Fn(BufferId) -> String) -> String {
    match op {
        OpCode::Load { buffer } => format!("v = {}[row * COLS + col];", name(*buffer)),
        OpCode::MatMul { input, weights, k } => format!(
            "for (var p = 0u; p < {k}u; p++) {{ v += {}[row * {k}u + p] * {}[p * {cols}u + col]; }}",
            name(*input),
            name(*weights)
        ),
        OpCode::AddBias { bias } => format!("v += {}[col];", name(*bias)),
        OpCode::Relu => "v = max(v, 0.0);".into(),
        OpCode::Store { buffer } => format!("{}[row * COLS + col] = v;", name(*buffer)),
        // The row template implements these four itself.
        OpCode::RowMax | OpCode::ExpMinusMax | OpCode::RowSum | OpCode::DivBySum => String::new(),
    }
}
// ANCHOR_END: emit

// ANCHOR: generate
/// Choices the generator can make for a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Compute an element-wise kernel's matrix product through shared-memory tiles.
    pub tile_matmul: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self { tile_matmul: true }
    }
}

/// Generates the WGSL of one kernel, with its shapes written in as constants.
pub fn generate(ir: &KernelIr, options: Options) -> Result<GeneratedKernel, Error> {
    let unsupported = |detail: String| Error::Unsupported {
        kernel: "generated",
        detail,
    };
    // Bind every buffer once, in order of first use; the stored one is the only writable one.
    let mut buffers: Vec<BufferId> = Vec::new();
    let mut stored = None;
    for op in &ir.ops {
        let used = match *op {
            OpCode::Load { buffer } | OpCode::AddBias { bias: buffer } => vec![buffer],
            OpCode::MatMul { input, weights, .. } => vec![input, weights],
            OpCode::Store { buffer } => {
                stored = Some(buffer);
                vec![buffer]
            }
            _ => vec![],
        };
        for b in used {
            if !buffers.contains(&b) {
                buffers.push(b);
            }
        }
    }
    let stored = stored.ok_or_else(|| unsupported("a kernel must end with a Store".into()))?;
    // Bindings are named by position, not by buffer: two kernels that do the same thing to
    // different buffers get the same source, and so share one compiled pipeline.
    let binding_of = |b: BufferId| buffers.iter().position(|&x| x == b).unwrap_or(0);
    let name = |b: BufferId| format!("b{}", binding_of(b));
    let bindings: String = buffers
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let access = if b == stored { "read_write" } else { "read" };
            format!(
                "@group(0) @binding({i}) var<storage, {access}> {}: array<f32>;\n",
                name(b)
            )
        })
        .collect();
    let reduces = ir.ops.iter().any(OpCode::is_row_reduction);
    let rows = u32::try_from(ir.rows).map_err(|_| unsupported(format!("{} rows", ir.rows)))?;
    let cols = u32::try_from(ir.cols).map_err(|_| unsupported(format!("{} columns", ir.cols)))?;
    let body_ops = ir.ops.iter().filter(|op| !op.is_row_reduction());
    // Specialisation: the bounds check is compiled in only when the grid overhangs the tensor,
    // and the tiled matrix product only for element-wise kernels that start with one.
    let mut defines = Vec::new();
    if !rows.is_multiple_of(16) || !cols.is_multiple_of(16) {
        defines.push("BOUNDS_CHECK");
    }
    let matmul = match ir.ops.first() {
        Some(&OpCode::MatMul { input, weights, k }) => Some((input, weights, k)),
        _ => None,
    };
    let tiled = options.tile_matmul && !reduces && matmul.is_some();
    if tiled {
        defines.push("TILED");
    }
    let (template, workgroups, body) = if reduces {
        // In the row template, the value is stored by the template itself.
        let body: Vec<String> = body_ops
            .filter(|op| !matches!(op, OpCode::Store { .. }))
            .map(|op| format!("        {}", emit(op, ir.cols, &name)))
            .collect();
        (ROW_TEMPLATE, [rows, 1, 1], body.join("\n"))
    } else {
        let body: Vec<String> = body_ops
            .filter(|op| !(tiled && matches!(op, OpCode::MatMul { .. })))
            .map(|op| format!("    {}", emit(op, ir.cols, &name)))
            .collect();
        (
            ELEMENT_TEMPLATE,
            [cols.div_ceil(16), rows.div_ceil(16), 1],
            body.join("\n"),
        )
    };
    let (a, b, k) = matmul.unwrap_or((0, 0, 0));
    let source = fill(
        template,
        &defines,
        &[
            ("A", &name(a)),
            ("B", &name(b)),
            ("K", &k),
            ("BINDINGS", &bindings),
            ("ROWS", &rows),
            ("COLS", &cols),
            ("OUT", &name(stored)),
            ("BODY", &body),
        ],
    )
    .map_err(|e| unsupported(e.to_string()))?;
    Ok(GeneratedKernel {
        source,
        buffers,
        workgroups,
        at: ir.at,
    })
}
// ANCHOR_END: generate
