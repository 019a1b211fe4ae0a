//! Containers: the same numbers, stored contiguously, behind pointers, or in a linked list.

use std::collections::LinkedList;

use crate::MemoryError;
use crate::rng::shuffled;

// ANCHOR: traversals
/// Contiguous: the next element is the next 8 bytes.
#[inline(never)]
pub fn sum_vec(values: &[u64]) -> u64 {
    values.iter().fold(0u64, |a, &x| a.wrapping_add(x))
}

/// One heap allocation per element: each step loads a pointer, then what it points to.
#[inline(never)]
pub fn sum_boxed(values: &[Box<u64>]) -> u64 {
    values.iter().fold(0u64, |a, x| a.wrapping_add(**x))
}

/// A doubly linked list: the address of the next node is only known once this node arrived.
#[inline(never)]
pub fn sum_list(values: &LinkedList<u64>) -> u64 {
    values.iter().fold(0u64, |a, &x| a.wrapping_add(x))
}
// ANCHOR_END: traversals

// ANCHOR: aged_heap
/// Builds a list whose nodes lie at scattered addresses, as in a program whose heap has seen
/// many allocations and frees. We fill the heap with node-sized blocks, free them in a random
/// order, and then build the list: the allocator hands the freed blocks back most-recent-first,
/// so consecutive nodes land wherever the shuffled frees left holes.
pub fn scattered_list(values: &[u64], seed: u64) -> LinkedList<u64> {
    let order = shuffled(values.len(), seed);
    let emptied = node_sized_holes(&order);
    let list = values.iter().copied().collect();
    // The two big vectors are freed only now: with glibc, freeing a large block merges the small
    // free blocks into one big one, which would undo the scattering before the list is built.
    drop((emptied, order));
    list
}

/// `Vec<Box<u64>>` built the same way: each box lands in a hole left by a shuffled free.
pub fn scattered_boxes(values: &[u64], seed: u64) -> Vec<Box<u64>> {
    // A Box<u64> is smaller than a list node; holes of its own size are what it will reuse.
    let order = shuffled(values.len(), seed);
    // Reserved before the frees: with glibc a large allocation also merges small free blocks.
    let mut boxes = Vec::with_capacity(values.len());
    let mut holes: Vec<Option<Box<u64>>> = (0..values.len())
        .map(|i| Some(Box::new(i as u64)))
        .collect();
    for &i in &order {
        holes[i as usize] = None;
    }
    boxes.extend(values.iter().map(|&v| Box::new(v)));
    drop((holes, order));
    boxes
}

/// Allocates one block the size of a `LinkedList<u64>` node per entry of `order`, then frees them
/// in that order
/// (it returns the emptied vector so the caller decides when its own buffer goes).
fn node_sized_holes(order: &[u32]) -> Vec<Option<Box<[usize; 3]>>> {
    let mut holes: Vec<Option<Box<[usize; 3]>>> =
        (0..order.len()).map(|i| Some(Box::new([i; 3]))).collect();
    for &i in order {
        holes[i as usize] = None;
    }
    holes
}
// ANCHOR_END: aged_heap

/// Fraction of consecutive elements whose addresses are at most `near` bytes apart: close to 1
/// for a contiguous layout, close to 0 for a scattered one.
pub fn neighbour_fraction(addresses: impl IntoIterator<Item = usize>, near: usize) -> f64 {
    let mut it = addresses.into_iter();
    let Some(mut prev) = it.next() else {
        return 0.0;
    };
    let (mut close, mut total) = (0usize, 0usize);
    for a in it {
        close += usize::from(a.abs_diff(prev) <= near);
        total += 1;
        prev = a;
    }
    if total == 0 {
        0.0
    } else {
        close as f64 / total as f64
    }
}

// ANCHOR: jagged_flat
/// Rows of different lengths, one allocation each.
pub type Jagged = Vec<Vec<f32>>;

/// The same rows in one buffer: row `i` is `data[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Flat {
    pub data: Vec<f32>,
    pub offsets: Vec<usize>,
}

impl Flat {
    pub fn from_rows(rows: &[Vec<f32>]) -> Self {
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        let mut data = Vec::with_capacity(rows.iter().map(Vec::len).sum());
        offsets.push(0);
        for row in rows {
            data.extend_from_slice(row);
            offsets.push(data.len());
        }
        Self { data, offsets }
    }

    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[self.offsets[i]..self.offsets[i + 1]]
    }

    pub fn rows(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// Sums each row and then the row sums: the work of, say, a per-sentence reduction.
#[inline(never)]
pub fn sum_jagged(rows: &Jagged) -> f32 {
    rows.iter().map(|r| r.iter().sum::<f32>()).sum()
}

#[inline(never)]
pub fn sum_flat(flat: &Flat) -> f32 {
    (0..flat.rows())
        .map(|i| flat.row(i).iter().sum::<f32>())
        .sum()
}
// ANCHOR_END: jagged_flat

/// `rows` rows with lengths in `0..max_len`, deterministic.
pub fn random_rows(rows: usize, max_len: usize, seed: u64) -> Jagged {
    let mut rng = crate::rng::SplitMix64::new(seed);
    (0..rows)
        .map(|r| {
            let len = rng.below(max_len as u64) as usize;
            (0..len).map(|c| ((r + c) % 7) as f32).collect()
        })
        .collect()
}

// ANCHOR: permutation
/// Checks that `perm` is a permutation of `0..n`.
pub fn check_permutation(perm: &[u32], n: usize) -> Result<(), MemoryError> {
    if perm.len() != n {
        return Err(MemoryError::NotAPermutation {
            n,
            problem: format!("it has {} entries", perm.len()),
        });
    }
    let mut seen = vec![false; n];
    for &p in perm {
        let p = p as usize;
        if p >= n || std::mem::replace(&mut seen[p], true) {
            return Err(MemoryError::NotAPermutation {
                n,
                problem: format!("index {p} is out of range or repeated"),
            });
        }
    }
    Ok(())
}

/// Gathers through the permutation every time: `sum of data[perm[i]]`. Each pass is random.
#[inline(never)]
pub fn sum_through(data: &[f32], perm: &[u32]) -> f32 {
    perm.iter().map(|&p| data[p as usize]).sum()
}

/// Applies the permutation once (`out[i] = data[perm[i]]`), so later passes are sequential.
#[inline(never)]
pub fn gather(data: &[f32], perm: &[u32], out: &mut Vec<f32>) {
    out.clear();
    out.extend(perm.iter().map(|&p| data[p as usize]));
}

/// The inverse direction (`out[perm[i]] = data[i]`): reads are sequential, writes are random.
#[inline(never)]
pub fn scatter(data: &[f32], perm: &[u32], out: &mut [f32]) {
    for (i, &p) in perm.iter().enumerate() {
        out[p as usize] = data[i];
    }
}
// ANCHOR_END: permutation

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_containers_sum_the_same() {
        let values: Vec<u64> = (0..5000).map(|i| i * 3 + 1).collect();
        let expected = sum_vec(&values);
        assert_eq!(expected, values.iter().sum::<u64>());
        assert_eq!(sum_list(&values.iter().copied().collect()), expected);
        assert_eq!(sum_list(&scattered_list(&values, 5)), expected);
        let boxed: Vec<Box<u64>> = values.iter().map(|&v| Box::new(v)).collect();
        assert_eq!(sum_boxed(&boxed), expected);
        assert_eq!(sum_boxed(&scattered_boxes(&values, 5)), expected);
        let order: Vec<u64> = scattered_list(&values, 6).into_iter().collect();
        assert_eq!(
            order, values,
            "scattering moves nodes in memory, not in the list"
        );
    }

    #[test]
    fn neighbour_fraction_tells_contiguous_from_scattered() {
        assert_eq!(neighbour_fraction([0, 8, 16, 24], 8), 1.0);
        assert_eq!(neighbour_fraction([0, 800, 16, 2400], 64), 0.0);
        assert_eq!(neighbour_fraction([5], 8), 0.0);
        let v = [1u64; 100];
        let addrs = v.iter().map(|x| x as *const u64 as usize);
        assert_eq!(neighbour_fraction(addrs, 8), 1.0);
    }

    #[test]
    fn flat_rows_match_jagged_rows() {
        let rows = random_rows(200, 9, 1);
        let flat = Flat::from_rows(&rows);
        assert_eq!(flat.rows(), rows.len());
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(flat.row(i), &row[..]);
        }
        assert_eq!(sum_flat(&flat), sum_jagged(&rows));
        let empty = Flat::from_rows(&[]);
        assert_eq!((empty.rows(), sum_flat(&empty)), (0, 0.0));
    }

    #[test]
    fn gather_and_scatter_are_inverse() {
        let n = 1000;
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let perm = shuffled(n, 4);
        check_permutation(&perm, n).unwrap();
        let mut gathered = Vec::new();
        gather(&data, &perm, &mut gathered);
        for i in 0..n {
            assert_eq!(gathered[i], data[perm[i] as usize]);
        }
        let mut back = vec![0.0; n];
        scatter(&gathered, &perm, &mut back);
        assert_eq!(back, data);
        assert_eq!(sum_through(&data, &perm), sum_vec_f32(&gathered));
    }

    fn sum_vec_f32(v: &[f32]) -> f32 {
        v.iter().sum()
    }

    #[test]
    fn check_permutation_explains_what_is_wrong() {
        assert!(check_permutation(&[2, 0, 1], 3).is_ok());
        let repeated = check_permutation(&[0, 0, 1], 3).unwrap_err().to_string();
        assert!(repeated.contains("repeated"), "{repeated}");
        let short = check_permutation(&[0, 1], 3).unwrap_err().to_string();
        assert!(short.contains("2 entries"), "{short}");
    }
}
