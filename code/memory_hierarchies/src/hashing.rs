//! Hash maps: what the key type and the hash function cost.

use std::collections::HashMap;
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

// ANCHOR: maps
/// A map from key to value with any hasher: `RandomState` (std's default, SipHash-1-3 with a
/// random key per map) or `FxBuildHasher` (rustc's fast multiply-rotate hash).
pub fn build_map<K, S>(keys: &[K], hasher: S) -> HashMap<K, u64, S>
where
    K: std::hash::Hash + Eq + Clone,
    S: BuildHasher,
{
    let mut map = HashMap::with_capacity_and_hasher(keys.len(), hasher);
    for (i, k) in keys.iter().enumerate() {
        map.insert(k.clone(), i as u64);
    }
    map
}

/// Looks every key up once and sums the values: the work is hashing plus one probe.
#[inline(never)]
pub fn lookup_all<K, S>(map: &HashMap<K, u64, S>, keys: &[K]) -> u64
where
    K: std::hash::Hash + Eq,
    S: BuildHasher,
{
    keys.iter().map(|k| map.get(k).copied().unwrap_or(0)).sum()
}
// ANCHOR_END: maps

/// Integer keys spread over a wide range, in a fixed pseudo-random order.
pub fn int_keys(n: usize, seed: u64) -> Vec<u64> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    (0..n).map(|_| rng.next_u64() >> 8).collect()
}

/// The same keys as strings such as `"user-00a3f2c4b19e07"`: longer to hash and compare, and each
/// `String` is its own heap allocation.
pub fn string_keys(ints: &[u64]) -> Vec<String> {
    ints.iter().map(|k| format!("user-{k:014x}")).collect()
}

/// The two hashers compared in the chapter.
pub fn default_hasher() -> std::collections::hash_map::RandomState {
    std::collections::hash_map::RandomState::new()
}

pub fn fx_hasher() -> FxBuildHasher {
    FxBuildHasher
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_map_finds_every_key() {
        let ints = int_keys(2000, 1);
        let strings = string_keys(&ints);
        let expected: u64 = (0..2000).sum();
        assert_eq!(
            lookup_all(&build_map(&ints, default_hasher()), &ints),
            expected
        );
        assert_eq!(lookup_all(&build_map(&ints, fx_hasher()), &ints), expected);
        assert_eq!(
            lookup_all(&build_map(&strings, default_hasher()), &strings),
            expected
        );
        assert_eq!(
            lookup_all(&build_map(&strings, fx_hasher()), &strings),
            expected
        );
        assert_eq!(strings[0].len(), "user-".len() + 14);
    }

    #[test]
    fn missing_keys_count_as_zero() {
        let map = build_map(&[1u64, 2, 3], fx_hasher());
        assert_eq!(lookup_all(&map, &[2, 99]), 1);
    }
}
