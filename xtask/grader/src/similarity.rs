//! `similarity.md`: which submissions share long runs of code with each other or with the
//! published reference solution, renamed and reformatted or not.
//!
//! The method is MOSS's (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for
//! document fingerprinting", SIGMOD 2003), which JPlag and Dolos also build on:
//! 1. the source becomes a stream of normalised tokens: comments and layout vanish, every
//!    identifier becomes `I` and every literal `L` (keywords and punctuation stay), so renaming
//!    and reformatting change nothing;
//! 2. every run of `K` tokens is hashed;
//! 3. in every window of `W` consecutive hashes the smallest is kept (winnowing): any match of
//!    at least `K + W - 1` tokens is guaranteed to share a kept hash.
//!
//! Hashes that also occur in the stub (code every student starts from) are dropped. Two
//! submissions' similarity is the share of the smaller one's fingerprints found in the other.
//! A report points a teacher at what to read; it decides nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::stable_hash::StableHasher;

/// Tokens per hashed run (MOSS's noise threshold).
const K: usize = 12;
/// Hashes per winnowing window: every shared run of K + W - 1 = 19 tokens is found.
const W: usize = 8;
/// Pairs at or above this share of fingerprints are listed.
pub const THRESHOLD: f64 = 0.5;
/// Submissions with fewer fingerprints than this are too small to compare.
const MIN_FINGERPRINTS: usize = 8;

/// One kept hash and where its run starts (file index, line).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Print(pub u64, pub u16, pub u32);

/// A submission's fingerprints.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Fingerprints {
    pub files: Vec<String>,
    pub prints: Vec<Print>,
}

/// Normalised tokens of one file, each with its line.
fn tokens(text: &str) -> Vec<(String, u32)> {
    let Ok(stream) = proc_macro2::TokenStream::from_str(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    flatten(stream, &mut out);
    out
}

fn flatten(stream: proc_macro2::TokenStream, out: &mut Vec<(String, u32)>) {
    use proc_macro2::{Delimiter, TokenTree};
    for tree in stream {
        let line = tree.span().start().line as u32;
        match tree {
            TokenTree::Ident(i) => {
                let s = i.to_string();
                let keyword = syn::parse_str::<syn::Ident>(&s).is_err();
                out.push((if keyword { s } else { "I".into() }, line));
            }
            TokenTree::Literal(_) => out.push(("L".into(), line)),
            TokenTree::Punct(p) => out.push((p.as_char().to_string(), line)),
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    out.push((open.into(), line));
                }
                flatten(g.stream(), out);
                if !close.is_empty() {
                    out.push((close.into(), g.span_close().start().line as u32));
                }
            }
        }
    }
}

/// The winnowed fingerprints of some Rust files (path, contents); other files are skipped.
pub fn fingerprint(files: &[(PathBuf, Vec<u8>)]) -> Fingerprints {
    let mut fp = Fingerprints::default();
    for (path, bytes) in files {
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let toks = tokens(&String::from_utf8_lossy(bytes));
        if toks.len() < K {
            continue;
        }
        let file = fp.files.len() as u16;
        fp.files.push(format!("src/{}", path.display()));
        let hashes: Vec<(u64, u32)> = toks
            .windows(K)
            .map(|run| {
                let mut h = StableHasher::new();
                for (t, _) in run {
                    h.field(t.as_bytes());
                }
                (h.finish(), run[0].1)
            })
            .collect();
        let mut last: Option<usize> = None;
        for start in 0..hashes.len().saturating_sub(W - 1).max(1) {
            let window = &hashes[start..(start + W).min(hashes.len())];
            // The rightmost minimum, as the paper's robust winnowing keeps.
            let (offset, _) = window
                .iter()
                .enumerate()
                .rev()
                .min_by_key(|(_, (h, _))| *h)
                .expect("a window is never empty");
            let at = start + offset;
            if last != Some(at) {
                fp.prints.push(Print(hashes[at].0, file, hashes[at].1));
                last = Some(at);
            }
        }
    }
    fp
}

/// `fp` without the hashes that occur in `common` (the stub every student starts from).
pub fn without(fp: &Fingerprints, common: &Fingerprints) -> Fingerprints {
    let drop: BTreeSet<u64> = common.prints.iter().map(|p| p.0).collect();
    Fingerprints {
        files: fp.files.clone(),
        prints: fp
            .prints
            .iter()
            .filter(|p| !drop.contains(&p.0))
            .cloned()
            .collect(),
    }
}

/// How much of the smaller submission is shared, and the shared lines on each side.
pub struct Match {
    pub share: f64,
    pub lines_a: Vec<String>,
    pub lines_b: Vec<String>,
}

pub fn compare(a: &Fingerprints, b: &Fingerprints) -> Option<Match> {
    let set = |f: &Fingerprints| f.prints.iter().map(|p| p.0).collect::<BTreeSet<u64>>();
    let (sa, sb) = (set(a), set(b));
    let smaller = sa.len().min(sb.len());
    if smaller < MIN_FINGERPRINTS {
        return None;
    }
    let shared: BTreeSet<u64> = sa.intersection(&sb).copied().collect();
    let share = shared.len() as f64 / smaller as f64;
    Some(Match {
        share,
        lines_a: regions(a, &shared),
        lines_b: regions(b, &shared),
    })
}

/// The lines where shared fingerprints start, as ranges per file (`src/x.rs:12-30`).
fn regions(fp: &Fingerprints, shared: &BTreeSet<u64>) -> Vec<String> {
    let mut by_file: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
    for p in fp.prints.iter().filter(|p| shared.contains(&p.0)) {
        by_file.entry(p.1).or_default().push(p.2);
    }
    let mut out = Vec::new();
    for (file, mut lines) in by_file {
        lines.sort_unstable();
        lines.dedup();
        let name = fp.files.get(file as usize).cloned().unwrap_or_default();
        let mut start = lines[0];
        let mut end = lines[0];
        for &l in &lines[1..] {
            // A run of shared code reaches about K tokens past its last start: join near lines.
            if l <= end + 6 {
                end = l;
            } else {
                out.push(format!("{name}:{start}-{end}"));
                (start, end) = (l, l);
            }
        }
        out.push(format!("{name}:{start}-{end}"));
    }
    out
}

/// The report: for every exercise, each pair of students and each student against the
/// reference solution at or above the threshold, most similar first.
pub fn report(
    exercises: &[(String, u32)],
    students: &BTreeMap<String, BTreeMap<String, Fingerprints>>,
    references: &HashMap<String, Fingerprints>,
) -> String {
    let mut md = format!(
        "# Similar submissions\n\nShared runs of code, found by winnowing fingerprints of \
         normalised tokens (identifiers, literals, comments and layout ignored; the stub's own \
         code left out), for pairs sharing at least {:.0} % of the smaller submission's \
         fingerprints. A match is a reason to read both, not a verdict: short exercises have few \
         ways to be right.\n",
        THRESHOLD * 100.0
    );
    let mut any = false;
    for (id, _) in exercises {
        let mut rows: Vec<(f64, String)> = Vec::new();
        let subs: Vec<(&String, &Fingerprints)> = students
            .iter()
            .filter_map(|(name, row)| row.get(id).map(|fp| (name, fp)))
            .collect();
        if let Some(reference) = references.get(id) {
            for (name, fp) in &subs {
                if let Some(m) = compare(fp, reference).filter(|m| m.share >= THRESHOLD) {
                    rows.push((
                        m.share,
                        format!(
                            "| {name} | **reference solution** | {:.0} % | {} | {} |",
                            m.share * 100.0,
                            m.lines_a.join(", "),
                            m.lines_b.join(", ")
                        ),
                    ));
                }
            }
        }
        for (i, (a, fa)) in subs.iter().enumerate() {
            for (b, fb) in &subs[i + 1..] {
                if let Some(m) = compare(fa, fb).filter(|m| m.share >= THRESHOLD) {
                    rows.push((
                        m.share,
                        format!(
                            "| {a} | {b} | {:.0} % | {} | {} |",
                            m.share * 100.0,
                            m.lines_a.join(", "),
                            m.lines_b.join(", ")
                        ),
                    ));
                }
            }
        }
        if rows.is_empty() {
            continue;
        }
        any = true;
        rows.sort_by(|x, y| y.0.total_cmp(&x.0));
        md.push_str(&format!(
            "\n## `{id}`\n\n| submission | compared with | shared | lines (first) | lines (second) |\n| --- | --- | ---: | --- | --- |\n"
        ));
        for (_, row) in rows {
            md.push_str(&row);
            md.push('\n');
        }
    }
    if !any {
        md.push_str("\nNone above the threshold.\n");
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORIGINAL: &str = r#"
/// Sums the rows.
pub fn row_sums(data: &[f32], cols: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(data.len() / cols);
    for row in data.chunks(cols) {
        let mut total = 0.0;
        for &value in row {
            if value.is_finite() { total += value; } else { total += 0.0; }
        }
        out.push(total);
    }
    out
}
"#;

    const RENAMED: &str = r#"
pub fn row_sums(d: &[f32],
                c: usize) -> Vec<f32> {
    // my own work
    let mut acc = Vec::with_capacity(d.len() / c);
    for r in d.chunks(c) { let mut s = 1.0; for &x in r { if x.is_finite() { s += x; } else { s += 2.0; } } acc.push(s); }
    acc
}
"#;

    const DIFFERENT: &str = r#"
pub fn row_sums(data: &[f32], cols: usize) -> Vec<f32> {
    data.chunks(cols).map(|row| row.iter().filter(|v| v.is_finite()).sum()).collect()
}
"#;

    fn fp(text: &str) -> Fingerprints {
        fingerprint(&[(PathBuf::from("lib.rs"), text.as_bytes().to_vec())])
    }

    #[test]
    fn a_renamed_reformatted_copy_matches_and_other_code_does_not() {
        let (a, b, c) = (fp(ORIGINAL), fp(RENAMED), fp(DIFFERENT));
        let m = compare(&a, &b).expect("both are large enough");
        assert!(m.share > 0.9, "renamed copy shares {:.2}", m.share);
        assert!(m.lines_b.iter().any(|r| r.starts_with("src/lib.rs:")));
        assert!(compare(&a, &c).is_none_or(|m| m.share < THRESHOLD));
    }

    #[test]
    fn the_stub_is_left_out() {
        let a = fp(ORIGINAL);
        assert!(without(&a, &a).prints.is_empty());
    }
}
