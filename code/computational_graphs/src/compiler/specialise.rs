//! Specialisation by defines: a tiny `#ifdef` preprocessor for WGSL, which has none.
//!
//! Graphics code has long kept one shader with `#ifdef FEATURE … #else … #endif` sections and
//! compiled several variants of it. This does the same to the strings we generate.

use std::collections::HashSet;

// ANCHOR: preprocess
/// Keeps the lines of `source` whose enclosing `#ifdef NAME` / `#ifndef NAME` / `#else` /
/// `#endif` sections are active for `defines`. Directive lines themselves are dropped.
pub fn preprocess(source: &str, defines: &[&str]) -> Result<String, String> {
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
                None => return Err(format!("line {}: #else without #ifdef", number + 1)),
            },
            ["#endif"] if stack.pop().is_none() => {
                return Err(format!("line {}: #endif without #ifdef", number + 1));
            }
            ["#endif"] => {}
            _ if active => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    if stack.is_empty() {
        Ok(out)
    } else {
        Err("an #ifdef is never closed with #endif".into())
    }
}
// ANCHOR_END: preprocess
