//! Exercise: the tree of GPU timing scopes, from raw timestamps.
//!
//! This file is given (the grader uses the staff copy): the types. Your work: `src/tree.rs`.

mod tree;

pub use tree::build_tree;

/// One scope as the GPU recorded it: a name, the index of the scope it was opened in (`None` for
/// a scope at the top of the frame), and the raw counter values written at its begin and end.
#[derive(Clone, Debug, PartialEq)]
pub struct RawScope {
    pub name: String,
    pub parent: Option<usize>,
    pub begin: u64,
    pub end: u64,
}

/// How to read the counter: nanoseconds per tick (wgpu's `Queue::get_timestamp_period`) and how
/// many low bits of a value are valid (Vulkan's `timestampValidBits`, 36 to 64). The counter wraps
/// to 0 after `2^valid_bits - 1`; the bits above are not part of the time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timestamps {
    pub period_ns: f64,
    pub valid_bits: u32,
}

/// A scope in time: nanoseconds from the frame's origin (the begin of scope 0) to its start, how
/// long it took, and the scopes opened inside it, in the order they were given.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopeNode {
    pub name: String,
    pub start_ns: f64,
    pub duration_ns: f64,
    pub children: Vec<ScopeNode>,
}

/// Why the raw scopes do not form a tree, or cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeError {
    /// `valid_bits` is not between 1 and 64.
    BadValidBits { valid_bits: u32 },
    /// `period_ns` is not a positive, finite number.
    BadPeriod { period_ns: f64 },
    /// Scope `scope` names a parent that does not come before it in the list.
    BadParent { scope: usize, parent: usize },
    /// Scope `scope` starts before its parent or ends after it.
    NotNested { scope: usize, parent: usize },
}

impl std::fmt::Display for TreeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadValidBits { valid_bits } => {
                write!(f, "valid_bits is {valid_bits}: it must be between 1 and 64")
            }
            Self::BadPeriod { period_ns } => {
                write!(
                    f,
                    "the timestamp period is {period_ns} ns: it must be positive and finite"
                )
            }
            Self::BadParent { scope, parent } => write!(
                f,
                "scope {scope} names scope {parent} as its parent, which does not come before it"
            ),
            Self::NotNested { scope, parent } => {
                write!(f, "scope {scope} is not inside its parent, scope {parent}")
            }
        }
    }
}

impl std::error::Error for TreeError {}
