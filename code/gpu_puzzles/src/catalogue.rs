//! The puzzles, easiest first: sizes, inputs, the CPU reference and the WGSL files of each.

use crate::puzzle::{Elem, Failure, Input, Output, Puzzle, Wrong};

macro_rules! wgsl {
    ($id:literal, $file:literal) => {
        include_str!(concat!("../puzzles/", $id, "/", $file, ".wgsl"))
    };
}

macro_rules! wrong {
    ($id:literal, $file:literal, $fails:ident) => {
        Wrong {
            name: $file,
            fails_by: Failure::$fails,
        }
    };
}

fn f32s(name: &'static str, data: impl IntoIterator<Item = f64>) -> Input {
    Input {
        name,
        elem: Elem::F32,
        data: data.into_iter().collect(),
    }
}

fn out(len: usize) -> Output {
    Output {
        name: "out",
        elem: Elem::F32,
        atomic: false,
        len,
    }
}

/// Fields every puzzle shares, with the exact tolerance that small-integer data allows.
struct Base {
    id: &'static str,
    title: &'static str,
    hint: &'static str,
    stub: &'static str,
}

fn puzzle(
    b: Base,
    constants: Vec<(&'static str, u32)>,
    [workgroup_size, workgroups]: [[u32; 2]; 2],
    inputs: Vec<Input>,
    expected: Vec<f64>,
    wrongs: Vec<Wrong>,
) -> Puzzle {
    Puzzle {
        id: b.id,
        title: b.title,
        hint: b.hint,
        constants,
        workgroup_size,
        workgroups,
        output: out(expected.len()),
        inputs,
        read_limit: None,
        tolerance: 1e-6,
        stub: b.stub,
        wrongs,
        expected,
    }
}

macro_rules! base {
    ($id:literal, $title:literal, $hint:literal) => {
        Base {
            id: $id,
            title: $title,
            hint: $hint,
            stub: wgsl!($id, "stub"),
        }
    };
}

fn range(n: usize) -> impl Iterator<Item = f64> {
    (0..n).map(|i| i as f64)
}

fn map() -> Puzzle {
    let a: Vec<f64> = range(4).collect();
    puzzle(
        base!(
            "map",
            "Map",
            "Each thread handles the element whose index is its own position: read it through a(), add 10, store it in out at the same index."
        ),
        vec![("SIZE", 4)],
        [[4, 1], [1, 1]],
        vec![f32s("a", a.clone())],
        a.iter().map(|x| x + 10.0).collect(),
        vec![wrong!("map", "wrong_axis", Mismatch)],
    )
}

fn zip() -> Puzzle {
    let a: Vec<f64> = range(4).collect();
    let b: Vec<f64> = range(4).map(|x| 10.0 * x).collect();
    puzzle(
        base!(
            "zip",
            "Zip",
            "Both inputs are read at the same index, the thread's own."
        ),
        vec![("SIZE", 4)],
        [[4, 1], [1, 1]],
        vec![f32s("a", a.clone()), f32s("b", b.clone())],
        a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        vec![wrong!("zip", "wrong_shifted", Mismatch)],
    )
}

fn guards() -> Puzzle {
    let a: Vec<f64> = range(4).collect();
    puzzle(
        base!(
            "guards",
            "Guards",
            "Compare the thread's index with SIZE before touching out; the last valid index is SIZE - 1, so think about < versus <=."
        ),
        vec![("SIZE", 4)],
        [[8, 1], [1, 1]],
        vec![f32s("a", a.clone())],
        a.iter().map(|x| x + 10.0).collect(),
        vec![
            wrong!("guards", "wrong_off_by_one", Mismatch),
            wrong!("guards", "wrong_no_guard", Mismatch),
        ],
    )
}

fn map_2d() -> Puzzle {
    let a: Vec<f64> = range(4).collect();
    puzzle(
        base!(
            "map_2d",
            "Map in 2-D",
            "Check the row and the column against SIZE. The matrix's width, not the thread grid's, is what separates one row from the next in memory."
        ),
        vec![("SIZE", 2)],
        [[3, 3], [1, 1]],
        vec![f32s("a", a.clone())],
        a.iter().map(|x| x + 10.0).collect(),
        vec![wrong!("map_2d", "wrong_thread_stride", Mismatch)],
    )
}

fn broadcast() -> Puzzle {
    let a = vec![0.0, 1.0];
    let b = vec![0.0, 10.0];
    let expected = (0..2)
        .flat_map(|row| (0..2).map(move |col| (row, col)))
        .map(|(row, col)| a[row] + b[col])
        .collect();
    puzzle(
        base!(
            "broadcast",
            "Broadcast",
            "The column a changes from row to row, the row b from column to column: which coordinate picks which element?"
        ),
        vec![("SIZE", 2)],
        [[3, 3], [1, 1]],
        vec![f32s("a", a), f32s("b", b)],
        expected,
        vec![wrong!("broadcast", "wrong_swapped", Mismatch)],
    )
}

fn workgroups() -> Puzzle {
    let a: Vec<f64> = range(9).collect();
    puzzle(
        base!(
            "workgroups",
            "Workgroups",
            "Workgroup g covers elements g * GROUP_SIZE up to (g + 1) * GROUP_SIZE - 1; local is the offset inside that range. Keep a guard: the last workgroup sticks out."
        ),
        vec![("SIZE", 9), ("GROUP_SIZE", 4)],
        [[4, 1], [3, 1]],
        vec![f32s("a", a.clone())],
        a.iter().map(|x| x + 10.0).collect(),
        vec![wrong!("workgroups", "wrong_local_only", Mismatch)],
    )
}

fn shared() -> Puzzle {
    let a: Vec<f64> = range(8).map(|x| x * x).collect();
    let expected = (0..8)
        .map(|i| a[i] + a[(i / 4) * 4 + (i % 4 + 1) % 4])
        .collect();
    let mut p = puzzle(
        base!(
            "shared",
            "Workgroup memory",
            "Declare a var<workgroup> array, store your element there, call workgroupBarrier() so the whole workgroup has stored, then read the neighbour from the array. The neighbour of the last thread is local index 0."
        ),
        vec![("SIZE", 8), ("GROUP_SIZE", 4)],
        [[4, 1], [2, 1]],
        vec![f32s("a", a)],
        expected,
        vec![wrong!("shared", "wrong_global_reads", Reads)],
    );
    p.read_limit = Some(1);
    p
}

fn pooling() -> Puzzle {
    let a: Vec<f64> = range(8).map(|x| x + 1.0).collect();
    let expected = (0..8)
        .map(|i: usize| (i.saturating_sub(2)..=i).map(|k| a[k]).sum())
        .collect();
    let mut p = puzzle(
        base!(
            "pooling",
            "Pooling",
            "Store one element per thread in workgroup memory, wait at a barrier, then add up to two earlier entries. i is unsigned: test i >= 1 before computing i - 1."
        ),
        vec![("SIZE", 8)],
        [[8, 1], [1, 1]],
        vec![f32s("a", a)],
        expected,
        vec![
            wrong!("pooling", "wrong_global_reads", Reads),
            wrong!("pooling", "wrong_window", Mismatch),
        ],
    );
    p.read_limit = Some(1);
    p
}

fn dot() -> Puzzle {
    let a: Vec<f64> = range(8).collect();
    let b: Vec<f64> = range(8).map(|x| 8.0 - x).collect();
    let expected = vec![a.iter().zip(&b).map(|(x, y)| x * y).sum()];
    let mut p = puzzle(
        base!(
            "dot",
            "Dot product",
            "Every thread stores its product in workgroup memory; after a barrier, a single thread adds them all and writes out[0]."
        ),
        vec![("SIZE", 8)],
        [[8, 1], [1, 1]],
        vec![f32s("a", a), f32s("b", b)],
        expected,
        vec![
            wrong!("dot", "wrong_last_writer", Mismatch),
            wrong!("dot", "wrong_every_thread_loops", Reads),
        ],
    );
    p.read_limit = Some(2);
    p
}

fn prefix_sum() -> Puzzle {
    let a: Vec<f64> = range(8).map(|x| (x * 3.0) % 5.0 + 1.0).collect();
    let expected = a
        .iter()
        .scan(0.0, |sum, x| {
            *sum += x;
            Some(*sum)
        })
        .collect();
    let mut p = puzzle(
        base!(
            "prefix_sum",
            "Prefix sum",
            "Double the offset each round (1, 2, 4). In each round: read the value offset places to the left (if there is one), barrier, add it to your own slot, barrier. Reading and writing between the same two barriers is a race."
        ),
        vec![("SIZE", 8)],
        [[8, 1], [1, 1]],
        vec![f32s("a", a)],
        expected,
        vec![wrong!("prefix_sum", "wrong_one_step_short", Mismatch)],
    );
    p.read_limit = Some(1);
    p
}

fn axis_sum() -> Puzzle {
    let (rows, cols) = (4, 6);
    let a: Vec<f64> = range(rows * cols).map(|x| (x * 7.0) % 11.0).collect();
    let expected = (0..rows)
        .map(|r| a[r * cols..(r + 1) * cols].iter().sum())
        .collect();
    let mut p = puzzle(
        base!(
            "axis_sum",
            "Axis sum",
            "group.y is the row, local.x the column. Threads beyond the last column store 0, so one thread can add up the whole workgroup array after the barrier."
        ),
        vec![
            ("ROWS", rows as u32),
            ("COLS", cols as u32),
            ("GROUP_SIZE", 8),
        ],
        [[8, 1], [1, rows as u32]],
        vec![f32s("a", a)],
        expected,
        vec![wrong!("axis_sum", "wrong_columns", Mismatch)],
    );
    p.read_limit = Some(1);
    p
}

fn matmul() -> Puzzle {
    let n = 6;
    let a: Vec<f64> = range(n * n).map(|x| x % 5.0).collect();
    let b: Vec<f64> = range(n * n).map(|x| (x * 3.0) % 7.0 - 3.0).collect();
    let expected = (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            (0..n).map(|k| a[row * n + k] * b[k * n + col]).sum()
        })
        .collect();
    let mut p = puzzle(
        base!(
            "matmul",
            "Matrix multiply with tiles",
            "Loop over the tiles along k. In each: every thread loads one element of a and one of b into the tile arrays (0 outside the matrix), barrier, multiply-add along the tile, barrier again before the next load."
        ),
        vec![("N", n as u32), ("TILE", 4)],
        [[4, 4], [2, 2]],
        vec![f32s("a", a), f32s("b", b)],
        expected,
        vec![
            wrong!("matmul", "wrong_naive", Reads),
            wrong!("matmul", "wrong_tile_offset", Mismatch),
            wrong!("matmul", "wrong_missing_barrier", Mismatch),
        ],
    );
    p.read_limit = Some(4);
    p
}

fn histogram() -> Puzzle {
    let (size, bins) = (64, 4);
    let a: Vec<f64> = (0..size).map(|i| ((i * 5 + i / 7) % bins) as f64).collect();
    let mut expected = vec![0.0; bins];
    for v in &a {
        expected[*v as usize] += 1.0;
    }
    let mut p = puzzle(
        base!(
            "histogram",
            "Histogram with atomics",
            "Each thread reads its number and increments that bin. Read-modify-write must be one indivisible step: look at the atomic functions."
        ),
        vec![("SIZE", size as u32), ("BINS", bins as u32)],
        [[32, 1], [2, 1]],
        vec![Input {
            name: "a",
            elem: Elem::U32,
            data: a,
        }],
        expected,
        vec![wrong!("histogram", "wrong_load_then_store", Mismatch)],
    );
    p.output.elem = Elem::U32;
    p.output.atomic = true;
    p.tolerance = 0.0;
    p
}

fn softmax() -> Puzzle {
    let (rows, cols) = (4, 8);
    let a: Vec<f64> = range(rows * cols)
        .map(|x| {
            let row = (x as usize) / cols;
            let base = if row % 2 == 1 { 95.0 } else { 0.0 };
            base + (x * 3.0) % 7.0 - 2.0
        })
        .collect();
    let expected = a
        .chunks(cols)
        .flat_map(|row| {
            let m = row.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = row.iter().map(|x| (x - m).exp()).sum();
            row.iter()
                .map(move |x| (x - m).exp() / sum)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut p = puzzle(
        base!(
            "softmax",
            "Softmax of each row",
            "Load the row into workgroup memory and wait. Then each thread can scan the row twice: once for its maximum m, once for the sum of exp(x - m)."
        ),
        vec![("ROWS", rows as u32), ("COLS", cols as u32)],
        [[cols as u32, 1], [1, rows as u32]],
        vec![f32s("a", a)],
        expected,
        vec![wrong!("softmax", "wrong_no_max", Mismatch)],
    );
    p.read_limit = Some(1);
    // exp on a GPU is accurate to a few ULP times |x|, not to the last bit.
    p.tolerance = 1e-4;
    p
}

/// All puzzles, easiest first.
pub fn all() -> Vec<Puzzle> {
    vec![
        map(),
        zip(),
        guards(),
        map_2d(),
        broadcast(),
        workgroups(),
        shared(),
        pooling(),
        dot(),
        prefix_sum(),
        axis_sum(),
        matmul(),
        histogram(),
        softmax(),
    ]
}

pub fn by_id(id: &str) -> Option<Puzzle> {
    all().into_iter().find(|p| p.id == id)
}
