//! Aliasing: when two references may name the same memory, a store through one can change what
//! the other reads, and the compiler has to generate code that is right in that case too.
//!
//! Each kernel comes twice. The first takes `&mut` and `&`: Rust guarantees they do not overlap,
//! and rustc tells LLVM so (the `noalias` attribute). The second takes `Cell`s, which may be views
//! of the same memory: the compiler must keep every load and store in program order, or check at
//! run time that the buffers are apart.
//!
//! ```
//! use std::cell::Cell;
//! use memory_hierarchies::aliasing::{add_twice, add_twice_cells, as_cells, scale_add_cells};
//!
//! let mut a = 1;
//! add_twice(&mut a, &1);
//! assert_eq!(a, 3);
//!
//! // Two Cells may be one: the second addition reads the result of the first.
//! let x = Cell::new(1);
//! add_twice_cells(&x, &x); // 1 + 1, then 2 + 2
//! assert_eq!(x.get(), 4);
//!
//! // Overlapping slices of cells: each element adds the one before it, already updated.
//! let mut values = [1.0, 1.0, 1.0, 1.0];
//! let cells = as_cells(&mut values);
//! scale_add_cells(&cells[1..], &cells[..3], 1.0)?;
//! assert_eq!(values, [1.0, 2.0, 3.0, 4.0]);
//!
//! // A chain of three transforms that each move x by one: the last one moves it by three.
//! use memory_hierarchies::aliasing::{Mat4, chain_transforms};
//! let mut shift: Mat4 = [0.0; 16];
//! for i in 0..4 {
//!     shift[i * 5] = 1.0;
//! }
//! shift[3] = 1.0;
//! let mut world = [[0.0; 16]; 3];
//! chain_transforms(&mut world, &[shift; 3])?;
//! assert_eq!(world[2][3], 3.0);
//! # Ok::<(), memory_hierarchies::MemoryError>(())
//! ```
//!
//! With `&mut` the same call does not compile: a value cannot be lent exclusively and shared at
//! once.
//!
//! ```compile_fail,E0502
//! let mut x = 1;
//! memory_hierarchies::aliasing::add_twice(&mut x, &x);
//! ```

use std::cell::Cell;

use crate::MemoryError;

// ANCHOR: add_twice
/// Adds `*b` to `*a` twice. `a` is exclusive, so no store to it can change `*b`: the compiler
/// reads `*b` once and adds it doubled.
#[inline(never)]
pub fn add_twice(a: &mut i32, b: &i32) {
    *a += *b;
    *a += *b;
}

/// The same through `Cell`s, which may be one and the same cell: after the first store to `a`,
/// `b` must be read again.
#[inline(never)]
pub fn add_twice_cells(a: &Cell<i32>, b: &Cell<i32>) {
    a.set(a.get() + b.get());
    a.set(a.get() + b.get());
}
// ANCHOR_END: add_twice

fn same_length(what: &'static str, dst: usize, src: usize) -> Result<(), MemoryError> {
    if dst == src {
        Ok(())
    } else {
        Err(MemoryError::LengthMismatch { what, dst, src })
    }
}

// ANCHOR: scale_add
/// `dst[i] += src[i] * k`. The two slices cannot overlap, so the loop runs four floats at a time
/// with no check.
#[inline(never)]
pub fn scale_add(dst: &mut [f32], src: &[f32], k: f32) -> Result<(), MemoryError> {
    same_length("scale_add", dst.len(), src.len())?;
    for (d, s) in dst.iter_mut().zip(src) {
        *d += s * k;
    }
    Ok(())
}

/// The same loop over `Cell`s: `dst` and `src` may overlap. The compiler compares the two
/// address ranges before the loop and runs the four-wide loop only when they are apart; when
/// they overlap it runs one element at a time, in order, so every read sees the writes before it.
#[inline(never)]
pub fn scale_add_cells(dst: &[Cell<f32>], src: &[Cell<f32>], k: f32) -> Result<(), MemoryError> {
    same_length("scale_add_cells", dst.len(), src.len())?;
    for (d, s) in dst.iter().zip(src) {
        d.set(d.get() + s.get() * k);
    }
    Ok(())
}
// ANCHOR_END: scale_add

/// A 4×4 matrix of `f32`, row-major: the transform of graphics, robotics and physics code.
pub type Mat4 = [f32; 16];

// ANCHOR: mat4
/// `out = a · b`. Once inlined this is straight-line code, and the compiler has no loop to guard
/// with a run-time overlap check. With `out` exclusive it computes whole rows in vector registers.
#[inline(always)]
fn mat4_mul(out: &mut Mat4, a: &Mat4, b: &Mat4) {
    for i in 0..4 {
        for j in 0..4 {
            let mut sum = 0.0;
            for k in 0..4 {
                sum += a[i * 4 + k] * b[k * 4 + j];
            }
            out[i * 4 + j] = sum;
        }
    }
}
// ANCHOR_END: mat4

/// The same product through `Cell`s. Every store to `out` may change an element of `a` or `b`
/// still to be read, so each element is loaded, multiplied and stored one at a time, in order.
#[inline(always)]
fn mat4_mul_cells(out: &[Cell<f32>; 16], a: &[Cell<f32>; 16], b: &[Cell<f32>; 16]) {
    for i in 0..4 {
        for j in 0..4 {
            let mut sum = 0.0;
            for k in 0..4 {
                sum += a[i * 4 + k].get() * b[k * 4 + j].get();
            }
            out[i * 4 + j].set(sum);
        }
    }
}

// ANCHOR: chain
/// Composes a chain of transforms, as a skeleton or a scene graph does: `world[0] = local[0]` and
/// `world[i] = world[i - 1] · local[i]`. Each product needs the one before it, so there is no loop
/// to vectorise; the speed-up is inside one product. `split_at_mut` hands out the finished part
/// and the next matrix as two borrows that cannot overlap.
#[inline(never)]
pub fn chain_transforms(world: &mut [Mat4], local: &[Mat4]) -> Result<(), MemoryError> {
    same_length("chain_transforms", world.len(), local.len())?;
    let Some((first, _)) = local.split_first() else {
        return Ok(());
    };
    world[0] = *first;
    for i in 1..world.len() {
        let (done, next) = world.split_at_mut(i);
        mat4_mul(&mut next[0], &done[i - 1], &local[i]);
    }
    Ok(())
}

/// The same chain through `Cell`s: `local` may be `world` itself, so every store of a product
/// may change a `local` entry still to be read.
#[inline(never)]
pub fn chain_transforms_cells(
    world: &[Cell<Mat4>],
    local: &[Cell<Mat4>],
) -> Result<(), MemoryError> {
    same_length("chain_transforms_cells", world.len(), local.len())?;
    let Some((first, _)) = local.split_first() else {
        return Ok(());
    };
    world[0].set(first.get());
    for i in 1..world.len() {
        mat4_mul_cells(
            world[i].as_array_of_cells(),
            world[i - 1].as_array_of_cells(),
            local[i].as_array_of_cells(),
        );
    }
    Ok(())
}
// ANCHOR_END: chain

/// Views a mutable slice as shared cells: several views of the same memory, in safe code.
pub fn as_cells<T>(values: &mut [T]) -> &[Cell<T>] {
    Cell::from_mut(values).as_slice_of_cells()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(n: usize, scale: f32) -> Vec<f32> {
        (0..n).map(|i| (i % 17) as f32 * scale).collect()
    }

    #[test]
    fn add_twice_adds_twice_unless_the_cells_are_one() {
        let mut a = 5;
        add_twice(&mut a, &7);
        assert_eq!(a, 19);
        let (a, b) = (Cell::new(5), Cell::new(7));
        add_twice_cells(&a, &b);
        assert_eq!(a.get(), 19);
        // One cell for both: the second addition reads the result of the first.
        let x = Cell::new(5);
        add_twice_cells(&x, &x);
        assert_eq!(x.get(), 20);
    }

    #[test]
    fn scale_add_both_versions_agree_on_separate_buffers() {
        // 1001: not a multiple of the vector width, so the scalar tail runs too.
        for n in [0, 1, 7, 8, 1001] {
            let src = ramp(n, 0.25);
            let mut by_slices = ramp(n, 1.0);
            let mut by_cells = by_slices.clone();
            let mut src_copy = src.clone();
            scale_add(&mut by_slices, &src, 3.0).unwrap();
            scale_add_cells(as_cells(&mut by_cells), as_cells(&mut src_copy), 3.0).unwrap();
            assert_eq!(by_slices, by_cells, "n = {n}");
        }
    }

    #[test]
    fn scale_add_in_place_through_cells_matches_a_copy() {
        // dst and src the same buffer: each element reads itself before writing itself, so the
        // result is the same as with a separate copy of src (x + 2x = 3x).
        let mut values = ramp(1001, 1.0);
        let expected: Vec<f32> = values.iter().map(|x| x * 3.0).collect();
        let cells = as_cells(&mut values);
        scale_add_cells(cells, cells, 2.0).unwrap();
        assert_eq!(values, expected);
    }

    #[test]
    fn scale_add_shifted_by_one_is_a_running_sum_not_an_elementwise_add() {
        // dst = values[1..], src = values[..n-1]: element i+1 adds element i *after* it was
        // updated. A loop that read four elements ahead of its writes would add old values
        // (1, 2, 2, 2, ... from a copy, below); the compiler's overlap check must send this call
        // down the one-at-a-time loop.
        let n = 1001;
        let mut values = vec![1.0f32; n];
        let cells = as_cells(&mut values);
        scale_add_cells(&cells[1..], &cells[..n - 1], 1.0).unwrap();
        let running_sum: Vec<f32> = (1..=n).map(|i| i as f32).collect();
        assert_eq!(values, running_sum);

        let mut from_a_copy = vec![1.0f32; n];
        let old = from_a_copy[..n - 1].to_vec();
        scale_add(&mut from_a_copy[1..], &old, 1.0).unwrap();
        assert_eq!(&from_a_copy[..3], &[1.0, 2.0, 2.0]);
        assert_eq!(from_a_copy[n - 1], 2.0);
    }

    #[test]
    fn scale_add_rejects_different_lengths() {
        let mut dst = [0.0f32; 4];
        let err = scale_add(&mut dst, &[1.0; 3], 1.0).unwrap_err();
        assert_eq!(
            err,
            MemoryError::LengthMismatch {
                what: "scale_add",
                dst: 4,
                src: 3
            }
        );
        assert!(err.to_string().contains("same length"));
        let mut src = [0.0f32; 5];
        assert!(scale_add_cells(as_cells(&mut dst), as_cells(&mut src), 1.0).is_err());
    }

    fn matrices(n: usize, seed: f32) -> Vec<Mat4> {
        (0..n)
            .map(|m| std::array::from_fn(|i| ((m * 7 + i * 3) % 11) as f32 * seed - 1.0))
            .collect()
    }

    fn product(a: &Mat4, b: &Mat4) -> Mat4 {
        std::array::from_fn(|ij| (0..4).map(|k| a[ij / 4 * 4 + k] * b[k * 4 + ij % 4]).sum())
    }

    fn textbook_chain(local: &[Mat4]) -> Vec<Mat4> {
        let mut world: Vec<Mat4> = Vec::new();
        for m in local {
            let next = world.last().map_or(*m, |w| product(w, m));
            world.push(next);
        }
        world
    }

    #[test]
    fn chain_both_versions_agree_with_the_textbook_product() {
        for n in [0, 1, 2, 37] {
            let local = matrices(n, 0.125);
            let mut by_slices = vec![[0.0; 16]; n];
            chain_transforms(&mut by_slices, &local).unwrap();
            assert_eq!(by_slices, textbook_chain(&local), "n = {n}");
            let (mut by_cells, mut local_copy) = (vec![[0.0; 16]; n], local.clone());
            chain_transforms_cells(as_cells(&mut by_cells), as_cells(&mut local_copy)).unwrap();
            assert_eq!(by_slices, by_cells, "n = {n}");
        }
    }

    #[test]
    fn chain_in_place_through_cells_overwrites_what_it_still_reads() {
        // local and world the same memory: each product writes world[i] = local[i] while it still
        // reads columns of local[i]. Entry (0, 0) of each product is right; the rest reads
        // entries already overwritten.
        let local = matrices(4, 0.125);
        let right = textbook_chain(&local);
        let mut in_place = local.clone();
        let cells = as_cells(&mut in_place);
        chain_transforms_cells(cells, cells).unwrap();
        assert_eq!(in_place[0], right[0], "the first matrix is only copied");
        assert_eq!(
            in_place[1][0], right[1][0],
            "the first entry is computed before any store"
        );
        assert_ne!(in_place[1], right[1], "the rest read overwritten entries");
    }

    #[test]
    fn chain_rejects_different_lengths() {
        let mut world = vec![[0.0; 16]; 2];
        let err = chain_transforms(&mut world, &matrices(3, 1.0)).unwrap_err();
        assert!(err.to_string().contains("chain_transforms"));
    }
}
