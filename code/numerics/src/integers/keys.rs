//! Integers instead of strings as hash keys: interning, and enums.

use rustc_hash::FxHashMap;

// ANCHOR: interner
/// Gives each distinct string a small integer, once. After that, the program passes, compares
/// and hashes a u32 (one multiply with FxHash) instead of a string (every byte, and a pointer
/// chase to reach them).
#[derive(Default, Debug)]
pub struct Interner {
    ids: FxHashMap<String, u32>,
    names: Vec<String>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.ids.insert(name.to_owned(), id);
        id
    }

    /// The id of a string seen before, without adding it.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
// ANCHOR_END: interner

// ANCHOR: enum_key
/// When the set of keys is closed and known, an enum is the key, and a map becomes an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    Red,
    Green,
    Blue,
}

impl Channel {
    pub const ALL: [Channel; 3] = [Channel::Red, Channel::Green, Channel::Blue];
}

/// Counts per channel: no hashing at all, the discriminant is the index.
#[derive(Default, Debug)]
pub struct PerChannel([u64; 3]);

impl PerChannel {
    pub fn add(&mut self, c: Channel, n: u64) {
        self.0[c as usize] += n;
    }

    pub fn get(&self, c: Channel) -> u64 {
        self.0[c as usize]
    }
}
// ANCHOR_END: enum_key

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_gives_stable_small_ids() {
        let mut names = Interner::default();
        let words = ["relu", "matmul", "relu", "softmax", "matmul"];
        let ids: Vec<u32> = words.iter().map(|w| names.intern(w)).collect();
        assert_eq!(ids, [0, 1, 0, 2, 1]);
        assert_eq!(names.len(), 3);
        assert_eq!(names.name(2), Some("softmax"));
        assert_eq!(names.get("conv"), None);
    }

    #[test]
    fn enum_keys_index_an_array() {
        let mut counts = PerChannel::default();
        counts.add(Channel::Green, 3);
        counts.add(Channel::Green, 2);
        assert_eq!(Channel::ALL.map(|c| counts.get(c)), [0, 5, 0]);
    }
}
