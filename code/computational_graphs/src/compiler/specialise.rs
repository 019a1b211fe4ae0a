//! Specialisation by defines: a tiny `#ifdef` preprocessor for WGSL, which has none.
//!
//! Graphics code has long kept one shader with `#ifdef FEATURE … #else … #endif` sections and
//! compiled several variants of it. This does the same to the strings we generate.

use std::collections::HashSet;

/// A template whose `#ifdef` sections do not nest properly; lines count from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreprocessError {
    #[error("line {line}: #else without an open #ifdef or #ifndef: open a section above it")]
    ElseWithoutIfdef { line: usize },
    #[error("line {line}: #endif without an open #ifdef or #ifndef: remove it")]
    EndifWithoutIfdef { line: usize },
    #[error("{open} #ifdef/#ifndef section(s) never closed: end each with #endif")]
    Unclosed { open: usize },
}

// ANCHOR: preprocess
/// Keeps the lines of `source` whose enclosing `#ifdef NAME` / `#ifndef NAME` / `#else` /
/// `#endif` sections are active for `defines`. Directive lines themselves are dropped.
pub fn preprocess(source: &str, defines: &[&str]) -> Result<String, PreprocessError> {
    let defined: HashSet<&str> = defines.iter().copied().collect();
    // One entry per open section: (this section is active, the enclosing one is active).
    let mut stack: Vec<(bool, bool)> = Vec::new();
    let mut out = String::with_capacity(source.len());
    for (number, line) in source.lines().enumerate() {
        let active = stack.last().is_none_or(|&(on, _)| on);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["#ifdef", name] => stack.push((active && defined.contains(name), active)),
            ["#ifndef", name] => stack.push((active && !defined.contains(name), active)),
            ["#else"] => match stack.last_mut() {
                Some((on, outer)) => *on = *outer && !*on,
                None => return Err(PreprocessError::ElseWithoutIfdef { line: number + 1 }),
            },
            ["#endif"] if stack.pop().is_none() => {
                return Err(PreprocessError::EndifWithoutIfdef { line: number + 1 });
            }
            ["#endif"] => {}
            _ if active => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    match stack.len() {
        0 => Ok(out),
        open => Err(PreprocessError::Unclosed { open }),
    }
}
// ANCHOR_END: preprocess
