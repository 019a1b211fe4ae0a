//! What a puzzle is: data (WGSL sources, inputs, sizes) plus the CPU reference's answer.

use serde::Serialize;

/// The element type of a buffer, as WGSL declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Elem {
    F32,
    U32,
}

impl Elem {
    pub fn wgsl(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::U32 => "u32",
        }
    }
}

/// Numbers of one buffer. Kept as f64 so one type serves f32 and u32 data (both fit exactly).
#[derive(Debug, Clone, Serialize)]
pub struct Input {
    pub name: &'static str,
    pub elem: Elem,
    pub data: Vec<f64>,
}

/// The buffer the kernel writes.
#[derive(Debug, Clone, Serialize)]
pub struct Output {
    pub name: &'static str,
    pub elem: Elem,
    /// Declared as `array<atomic<u32>>` (the histogram).
    pub atomic: bool,
    /// Elements the answer has; the buffer is longer (see [`Puzzle::padded_len`]).
    pub len: usize,
}

/// A wrong solution (`puzzles/<id>/<name>.wgsl`) and how it must fail.
#[derive(Debug, Clone, Copy)]
pub struct Wrong {
    pub name: &'static str,
    pub fails_by: Failure,
}

/// The ways a run can fail a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Failure {
    /// Some output element differs from the CPU reference.
    Mismatch,
    /// Some thread read global memory more often than the puzzle allows.
    Reads,
}

/// One puzzle. Everything the page needs is exported to JSON by `export_puzzles`.
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub id: &'static str,
    pub title: &'static str,
    pub hint: &'static str,
    /// `const NAME: u32 = value;` lines given to the student.
    pub constants: Vec<(&'static str, u32)>,
    pub workgroup_size: [u32; 2],
    pub workgroups: [u32; 2],
    pub inputs: Vec<Input>,
    pub output: Output,
    /// The most global reads (calls of an input's accessor) one thread may make.
    pub read_limit: Option<u32>,
    /// Allowed error: |got - expected| <= tolerance * max(1, |expected|).
    pub tolerance: f64,
    pub stub: &'static str,
    /// Read from `puzzles/<id>/` when needed ([`Puzzle::source`]): the student edition ships
    /// without these files, and the crate builds without them.
    pub wrongs: Vec<Wrong>,
    /// The CPU reference's answer (without the padding).
    pub expected: Vec<f64>,
}

impl Puzzle {
    /// The folder of this puzzle's WGSL files.
    pub fn dir(&self) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(self.id)
    }

    /// `puzzles/<id>/<name>.wgsl`, e.g. `solution` or a wrong solution's name.
    pub fn source(&self, name: &str) -> std::io::Result<String> {
        std::fs::read_to_string(self.dir().join(format!("{name}.wgsl")))
    }

    pub fn threads(&self) -> [u32; 2] {
        [
            self.workgroup_size[0] * self.workgroups[0],
            self.workgroup_size[1] * self.workgroups[1],
        ]
    }

    pub fn total_threads(&self) -> usize {
        let [x, y] = self.threads();
        (x * y) as usize
    }

    /// The output buffer is at least one element per thread, zero-filled, so that a write past
    /// the answer's end (a missing guard) lands in checked padding instead of being clamped away.
    pub fn padded_len(&self) -> usize {
        self.output.len.max(self.total_threads())
    }

    /// The whole expected buffer: the answer, then zeros that no thread may touch.
    pub fn expected_padded(&self) -> Vec<f64> {
        let mut all = self.expected.clone();
        all.resize(self.padded_len(), 0.0);
        all
    }
}
