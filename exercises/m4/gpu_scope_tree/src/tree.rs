use crate::{RawScope, ScopeNode, Timestamps, TreeError};

/// The scopes of one frame as a tree: the roots (scopes with no parent) in the order given, each
/// with its children in the order given.
///
/// - The origin is scope 0's `begin`; every timestamp of the frame lies less than one wrap of the
///   counter after it. A time is the number of ticks from the origin, counted modulo
///   `2^valid_bits` (so a counter that wrapped still gives a positive time), times `period_ns`.
///   Bits above `valid_bits` in a raw value are ignored.
/// - A duration is `end - begin` in ticks, modulo `2^valid_bits`, times `period_ns`.
/// - A parent comes before its children in `raw`; a child starts at or after its parent's start
///   and ends at or before its parent's end.
/// - An empty list is an empty tree.
pub fn build_tree(raw: &[RawScope], timestamps: Timestamps) -> Result<Vec<ScopeNode>, TreeError> {
    todo!("a tree of {} scopes with {timestamps:?}", raw.len())
}
