//! Aliasing: the same kernels through `&mut`/`&`, which cannot overlap, and through `Cell`s,
//! which may.

use bench_harness::{Progress, black_box};

use memory_hierarchies::aliasing::{
    Mat4, as_cells, chain_transforms, chain_transforms_cells, scale_add, scale_add_cells,
};

use crate::clock::measure;
use crate::config::Config;
use crate::report::{Row, bar_figure};

/// Floats per buffer: two buffers of 8 KiB stay in L1, so the loop's instructions set the speed,
/// not memory.
const FLOATS: usize = 2048;
/// Matrices in the chain: world and local transforms take 8 KiB each.
const MATRICES: usize = 128;
/// Small enough that thousands of repeated updates change no value by more than a few percent.
const K: f32 = 1e-6;
/// 2 KiB of f32: the gap that puts the two buffers half a page apart.
const HALF_PAGE: usize = 512;
/// The code generation under test depends on the compiler and the target.
const COMPILED_WITH: &str = "release build (opt-level 3) with the toolchain that rust-toolchain.toml \
     pins at the commit above, for the default x86-64 target (SSE2)";

pub fn aliasing(cfg: &Config) -> std::io::Result<()> {
    // Each sample runs the kernel many times: one pass over L1-resident data takes about a
    // microsecond, too short to time on its own.
    let reps = if cfg.quick { 200 } else { 4000 };
    let progress = Progress::new(6, "aliasing");
    let time = |label: &str, items: usize, f: &mut dyn FnMut()| {
        progress.step(label);
        let stats = measure(cfg.warmup, cfg.samples, || {
            for _ in 0..reps {
                f();
            }
        });
        Row::new(label, items * reps, stats)
    };

    // Both versions run on the same two buffers, carved out of one allocation half a page
    // apart: where the allocator put two separate vectors would otherwise decide whether a load
    // of src and an earlier store to dst share their low 12 address bits, which the CPU treats
    // as a possible conflict and which can favour one version's instruction order over the other.
    let mut memory = vec![1.0f32; 2 * FLOATS + HALF_PAGE];
    let (src, rest) = memory.split_at_mut(FLOATS);
    let dst = &mut rest[HALF_PAGE..];
    src.iter_mut()
        .enumerate()
        .for_each(|(i, x)| *x = (i % 17) as f32);
    let mut rows = vec![time("&mut [f32] + &[f32]", FLOATS, &mut || {
        scale_add(black_box(&mut *dst), black_box(&*src), K).expect("same lengths");
    })];
    let (src_cells, dst_cells) = (as_cells(src), as_cells(dst));
    rows.push(time("Cells, separate buffers", FLOATS, &mut || {
        scale_add_cells(black_box(dst_cells), black_box(src_cells), K).expect("same lengths");
    }));
    let mut one_buffer = vec![1.0f32; FLOATS + 1];
    let cells = as_cells(&mut one_buffer);
    rows.push(
        time("Cells, one buffer (in place)", FLOATS, &mut || {
            let both = black_box(&cells[..FLOATS]);
            scale_add_cells(both, both, K).expect("same lengths");
        })
        .with_note(
            "dst and src the same range: the overlap check sends it to the scalar loop".into(),
        ),
    );
    rows.push(
        time("Cells, shifted by one element", FLOATS, &mut || {
            scale_add_cells(black_box(&cells[1..]), black_box(&cells[..FLOATS]), K)
                .expect("same lengths");
        })
        .with_note("a running sum: each element waits for the one before it".into()),
    );
    bar_figure(
        "memory_aliasing_loop",
        &format!("dst[i] += src[i] * k over {FLOATS} f32 (in L1): may the buffers overlap?"),
        &rows,
        vec![
            format!("each sample runs the kernel {reps} times"),
            COMPILED_WITH.into(),
        ],
    )?;

    let mut local: Vec<Mat4> = (0..MATRICES).map(near_identity).collect();
    let mut world = vec![[0.0f32; 16]; MATRICES];
    let exclusive = time("&mut [Mat4] + &[Mat4]", MATRICES, &mut || {
        chain_transforms(black_box(&mut world), black_box(&local)).expect("same lengths");
    });
    let by_slices = world.clone();
    world.fill([0.0; 16]);
    let (local_cells, world_cells) = (as_cells(&mut local), as_cells(&mut world));
    let shared = time("Cells, separate buffers", MATRICES, &mut || {
        chain_transforms_cells(black_box(world_cells), black_box(local_cells))
            .expect("same lengths");
    });
    progress.finish();
    assert_eq!(by_slices, world, "both chains compute the same transforms");
    bar_figure(
        "memory_aliasing_chain",
        &format!("A chain of {MATRICES} 4×4 transforms, world[i] = world[i-1] · local[i]"),
        &[exclusive, shared],
        vec![
            format!("each sample composes the chain {reps} times"),
            COMPILED_WITH.into(),
        ],
    )
}

/// A rotation-like transform: products of many of them stay near 1 in size.
fn near_identity(m: usize) -> Mat4 {
    std::array::from_fn(|i| {
        if i % 5 == 0 {
            1.0
        } else {
            ((m + i) % 7) as f32 * 1e-3
        }
    })
}
