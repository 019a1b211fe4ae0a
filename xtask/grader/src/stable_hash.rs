//! A hash that comes out the same on every machine and with every Rust release, for what the
//! grader compares across runs: the digest that spots identical submissions (roster shards are
//! graded on different machines and merged), the similarity report's fingerprints (merged the
//! same way), and the key of the reference solution's cached records.
//!
//! `std`'s `DefaultHasher` promises neither: its algorithm may change between releases, and the
//! `Hash` impls feed lengths as `usize`. So the grader feeds explicit bytes to xxHash64 with
//! seed 0, whose output its specification fixes.

use std::hash::Hasher as _;
use std::path::PathBuf;

use twox_hash::XxHash64;

/// Fields fed one after another, each with its length in front, so that `("ab", "c")` and
/// `("a", "bc")` hash differently.
pub struct StableHasher(XxHash64);

impl StableHasher {
    pub fn new() -> Self {
        Self(XxHash64::with_seed(0))
    }

    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.write(&(bytes.len() as u64).to_le_bytes());
        self.0.write(bytes);
        self
    }

    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// The hash of some source files (path under `src/`, contents), in the order given.
pub fn of_files(files: &[(PathBuf, Vec<u8>)]) -> u64 {
    let mut hasher = StableHasher::new();
    for (path, bytes) in files {
        hasher
            .field(path.as_os_str().as_encoded_bytes())
            .field(bytes);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_is_xxhash64_with_seed_zero() {
        // The specification's value for no input (xxhash's own test vectors).
        assert_eq!(XxHash64::oneshot(0, b""), 0xef46_db37_51d8_e999);
        // And a value of this module's own, pinned: changing the scheme must be deliberate,
        // since digests written by an older grader would no longer match.
        let files = vec![(PathBuf::from("lib.rs"), b"pub fn f() {}\n".to_vec())];
        assert_eq!(format!("{:016x}", of_files(&files)), "00711364d7ac4219");
    }

    #[test]
    fn lengths_keep_fields_apart() {
        let one = StableHasher::new().field(b"ab").field(b"c").finish();
        let two = StableHasher::new().field(b"a").field(b"bc").finish();
        assert_ne!(one, two);
        let a = vec![(PathBuf::from("a.rs"), b"x".to_vec())];
        let b = vec![(PathBuf::from("a.r"), b"sx".to_vec())];
        assert_ne!(of_files(&a), of_files(&b));
    }
}
