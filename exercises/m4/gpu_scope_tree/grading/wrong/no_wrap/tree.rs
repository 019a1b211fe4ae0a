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
    let Timestamps {
        period_ns,
        valid_bits,
    } = timestamps;
    if !(1..=64).contains(&valid_bits) {
        return Err(TreeError::BadValidBits { valid_bits });
    }
    if !(period_ns.is_finite() && period_ns > 0.0) {
        return Err(TreeError::BadPeriod { period_ns });
    }
    // 1 << 64 overflows: the 64-bit mask is all ones.
    let mask = if valid_bits == 64 {
        u64::MAX
    } else {
        (1u64 << valid_bits) - 1
    };
    // Wrong on purpose: a counter that wrapped inside the frame is not unwrapped.
    let ticks = |from: u64, to: u64| (to & mask).saturating_sub(from & mask);
    let Some(first) = raw.first() else {
        return Ok(Vec::new());
    };
    let origin = first.begin;
    // (start, end) in ticks from the origin, checked against the parent's.
    let mut spans: Vec<(u128, u128)> = Vec::with_capacity(raw.len());
    for (i, scope) in raw.iter().enumerate() {
        // u128: with 64 valid bits, start + duration can pass u64::MAX on bad input.
        let start = u128::from(ticks(origin, scope.begin));
        let end = start + u128::from(ticks(scope.begin, scope.end));
        if let Some(parent) = scope.parent {
            if parent >= i {
                return Err(TreeError::BadParent { scope: i, parent });
            }
            let (p_start, p_end) = spans[parent];
            if start < p_start || end > p_end {
                return Err(TreeError::NotNested { scope: i, parent });
            }
        }
        spans.push((start, end));
    }
    // Build bottom-up: a scope's children all come after it, so walking backwards finishes
    // every child before its parent is taken.
    let mut nodes: Vec<Option<ScopeNode>> = raw
        .iter()
        .zip(&spans)
        .map(|(scope, &(start, end))| {
            Some(ScopeNode {
                name: scope.name.clone(),
                start_ns: start as f64 * period_ns,
                duration_ns: (end - start) as f64 * period_ns,
                children: Vec::new(),
            })
        })
        .collect();
    let mut roots = Vec::new();
    for i in (0..raw.len()).rev() {
        let node = nodes[i].take().expect("each node is taken once");
        match raw[i].parent {
            Some(p) => nodes[p]
                .as_mut()
                .expect("parent still there")
                .children
                .push(node),
            None => roots.push(node),
        }
    }
    // Pushed in reverse: put every list back in the order given.
    fn reverse_all(list: &mut Vec<ScopeNode>) {
        list.reverse();
        list.iter_mut().for_each(|n| reverse_all(&mut n.children));
    }
    reverse_all(&mut roots);
    Ok(roots)
}
