//! The WGSL written around a student's `puzzle` function: the constants, the buffers, one
//! accessor per input that counts the calling thread's global reads, and the entry point.
//!
//! The student's code comes first and the harness after it, so the compiler's line numbers in
//! the student's code are the lines the student sees.

use std::fmt::Write;

use crate::puzzle::Puzzle;

/// Inputs are bound under this prefix; the student reads them through the accessors only.
pub const HIDDEN: &str = "hidden_";

/// The harness for `puzzle` (appended after the student's code).
pub fn harness(puzzle: &Puzzle) -> String {
    let mut w = String::new();
    let [wx, wy] = puzzle.workgroup_size;
    let [tx, _] = puzzle.threads();
    // Writing into a String cannot fail.
    let _ = writeln!(w, "\n// ---- harness (written for you) ----");
    for (name, value) in &puzzle.constants {
        let _ = writeln!(w, "const {name}: u32 = {value}u;");
    }
    for (i, input) in puzzle.inputs.iter().enumerate() {
        let _ = writeln!(
            w,
            "@group(0) @binding({i}) var<storage, read> {HIDDEN}{}: array<{}>;",
            input.name,
            input.elem.wgsl()
        );
    }
    let out = &puzzle.output;
    let elem = if out.atomic {
        format!("atomic<{}>", out.elem.wgsl())
    } else {
        out.elem.wgsl().to_owned()
    };
    let n = puzzle.inputs.len();
    let _ = writeln!(
        w,
        "@group(0) @binding({n}) var<storage, read_write> {}: array<{elem}>;",
        out.name
    );
    let _ = writeln!(
        w,
        "@group(0) @binding({}) var<storage, read_write> {HIDDEN}reads: array<atomic<u32>>;",
        n + 1
    );
    let _ = writeln!(w, "var<private> {HIDDEN}thread: u32;");
    for input in &puzzle.inputs {
        let _ = writeln!(
            w,
            "fn {0}(i: u32) -> {1} {{ atomicAdd(&{HIDDEN}reads[{HIDDEN}thread], 1u); return {HIDDEN}{0}[i]; }}",
            input.name,
            input.elem.wgsl()
        );
    }
    let _ = writeln!(w, "@compute @workgroup_size({wx}, {wy})");
    let _ = writeln!(
        w,
        "fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) b: vec3<u32>) {{"
    );
    let _ = writeln!(w, "    {HIDDEN}thread = g.y * {tx}u + g.x;");
    let _ = writeln!(w, "    puzzle(g.xy, l.xy, b.xy);");
    let _ = writeln!(w, "}}");
    w
}

/// The module the GPU compiles: the student's code, then the harness.
pub fn full_source(puzzle: &Puzzle, student: &str) -> String {
    format!("{student}\n{}", harness(puzzle))
}
