//! A real entropy coder's size, not a bound: the code lengths of a Huffman code for each byte
//! position of a u32 stream, and the bits that code spends.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

// ANCHOR: code_lengths
/// Huffman code lengths, in bits, for the 256 byte values with these counts (0 for a value
/// never seen). Repeatedly merges the two rarest subtrees; each merge makes every symbol under
/// it one bit longer. A canonical Huffman code is fully described by these lengths, so a
/// decoder needs only them (256 bytes) to rebuild the code. A lone symbol still costs 1 bit.
pub fn code_lengths(counts: &[u64; 256]) -> [u8; 256] {
    let mut lengths = [0u8; 256];
    // Each heap entry: (count, smallest symbol inside, the symbols of the subtree).
    let mut heap: BinaryHeap<Reverse<(u64, u8, Vec<u8>)>> = (0..=255u8)
        .filter(|&s| counts[usize::from(s)] > 0)
        .map(|s| Reverse((counts[usize::from(s)], s, vec![s])))
        .collect();
    if heap.len() == 1 {
        let Reverse((_, s, _)) = heap.pop().expect("one entry");
        lengths[usize::from(s)] = 1;
    }
    while heap.len() > 1 {
        let Reverse((ca, sa, mut a)) = heap.pop().expect("two entries");
        let Reverse((cb, sb, b)) = heap.pop().expect("two entries");
        a.extend(b);
        for &s in &a {
            lengths[usize::from(s)] += 1;
        }
        heap.push(Reverse((ca + cb, sa.min(sb), a)));
    }
    lengths
}
// ANCHOR_END: code_lengths

// ANCHOR: huffman_bits
/// Bits a byte-wise Huffman coder spends on each of the four byte positions of the values:
/// one code per position, built from that position's histogram, plus 256 one-byte code lengths
/// (the table a decoder needs).
pub fn huffman_bits(values: &[u32]) -> [u64; 4] {
    let mut counts = [[0u64; 256]; 4];
    for v in values {
        for (lane, byte) in v.to_le_bytes().into_iter().enumerate() {
            counts[lane][usize::from(byte)] += 1;
        }
    }
    counts.map(|lane| {
        let table_bits = 256 * 8;
        let lengths = code_lengths(&lane);
        let payload: u64 = (lane.iter().zip(lengths))
            .map(|(&c, l)| c * u64::from(l))
            .sum();
        table_bits + payload
    })
}
// ANCHOR_END: huffman_bits

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::byte_entropy;
    use proptest::prelude::*;

    fn counts_of(pairs: &[(u8, u64)]) -> [u64; 256] {
        let mut counts = [0u64; 256];
        for &(s, c) in pairs {
            counts[usize::from(s)] = c;
        }
        counts
    }

    /// Σ 2^-len over the used symbols: exactly 1 for a complete prefix code.
    fn kraft_sum(lengths: &[u8; 256]) -> f64 {
        lengths
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 0.5f64.powi(i32::from(l)))
            .sum()
    }

    #[test]
    fn dyadic_probabilities_get_their_exact_lengths() {
        // p = 1/2, 1/4, 1/8, 1/8 → 1, 2, 3, 3 bits: Huffman meets the entropy exactly.
        let lengths = code_lengths(&counts_of(&[(10, 8), (20, 4), (30, 2), (40, 2)]));
        assert_eq!(
            [lengths[10], lengths[20], lengths[30], lengths[40]],
            [1, 2, 3, 3]
        );
        assert_eq!(lengths.iter().filter(|&&l| l > 0).count(), 4);
    }

    #[test]
    fn a_lone_symbol_costs_one_bit_and_no_symbols_cost_nothing() {
        assert_eq!(code_lengths(&counts_of(&[(7, 100)]))[7], 1);
        assert_eq!(code_lengths(&[0; 256]), [0; 256]);
    }

    #[test]
    fn uniform_bytes_take_eight_bits() {
        let lengths = code_lengths(&[5; 256]);
        assert!(lengths.iter().all(|&l| l == 8));
    }

    #[test]
    fn the_table_is_counted_beside_the_payload() {
        // 1024 values whose low byte is uniform and whose other bytes never change.
        let values: Vec<u32> = (0..1024u32).map(|i| 0x0102_0300 | (i % 256)).collect();
        assert_eq!(
            huffman_bits(&values),
            [2048 + 8 * 1024, 2048 + 1024, 2048 + 1024, 2048 + 1024]
        );
    }

    proptest! {
        #[test]
        fn the_code_is_complete_and_within_one_bit_of_the_entropy(
            values in proptest::collection::vec(any::<u32>(), 2..2000)
        ) {
            let h = byte_entropy(&values);
            let bits = huffman_bits(&values);
            let n = values.len() as f64;
            for lane in 0..4 {
                let mut counts = [0u64; 256];
                for v in &values {
                    counts[usize::from(v.to_le_bytes()[lane])] += 1;
                }
                let lengths = code_lengths(&counts);
                let used = counts.iter().filter(|&&c| c > 0).count();
                if used > 1 {
                    prop_assert!((kraft_sum(&lengths) - 1.0).abs() < 1e-12);
                }
                let per_byte = (bits[lane] - 2048) as f64 / n;
                // Shannon: H ≤ average length < H + 1 (a lone symbol: 0 bits of entropy, 1 bit spent).
                prop_assert!(per_byte >= h[lane] - 1e-9, "{per_byte} < {}", h[lane]);
                prop_assert!(per_byte < h[lane] + 1.0 + 1e-9, "{per_byte} vs {}", h[lane]);
            }
        }
    }
}
