//! Specialisation by defines: a tiny `#ifdef` preprocessor for WGSL, which has none.
//!
//! Graphics code has long kept one shader with `#ifdef FEATURE … #else … #endif` sections and
//! compiled several variants of it. This does the same to the strings we generate. [`fill`]
//! then writes values into the template's `{NAME}` placeholders: every generated WGSL of the
//! crate (the compiler's kernels and the matmul ladder's tuned and unrolled rungs) is a
//! template filled this way.

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
    #[error("placeholder {{{name}}} has no value: pass one to fill or remove it from the template")]
    NoValue { name: String },
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

/// A template's source text with its `#ifdef` sections resolved for `defines` ([`preprocess`])
/// and every `{NAME}` placeholder (capitals, digits and `_`) replaced by its value in `values`.
/// Values are written in as they are: a value's own text is never searched for placeholders.
/// Braces around anything else (WGSL blocks, `{ let e = …`) are left alone.
pub fn fill(
    template: &str,
    defines: &[&str],
    values: &[(&str, &dyn std::fmt::Display)],
) -> Result<String, PreprocessError> {
    let text = preprocess(template, defines)?;
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..len];
        if name.starts_with(|c: char| c.is_ascii_uppercase()) && after[len..].starts_with('}') {
            let (_, value) = values.iter().find(|(n, _)| *n == name).ok_or_else(|| {
                PreprocessError::NoValue {
                    name: name.to_owned(),
                }
            })?;
            out.push_str(&value.to_string());
            rest = &after[len + 1..];
        } else {
            out.push('{');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}
