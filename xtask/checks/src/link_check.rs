//! Checks every internal link, image and anchor of the built HTML book. A broken one fails the
//! build with the page, the link and what is missing.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::Context;

pub struct Report {
    pub pages: usize,
    pub links: usize,
}

pub fn check(html_root: &Path) -> anyhow::Result<Report> {
    let pages = collect_html(html_root);
    if pages.is_empty() {
        anyhow::bail!(
            "no HTML pages under {}: build the book first",
            html_root.display()
        );
    }
    let mut ids: HashMap<PathBuf, Vec<String>> = HashMap::new();
    let mut problems = Vec::new();
    let mut links = 0;
    for page in &pages {
        // mdBook's 404 page resolves links against the site root, not its own folder.
        if page.file_name().is_some_and(|n| n == "404.html") {
            continue;
        }
        let text =
            fs::read_to_string(page).with_context(|| format!("reading {}", page.display()))?;
        for target in attribute_values(&text, "href")
            .into_iter()
            .chain(attribute_values(&text, "src"))
        {
            if is_external(&target) {
                continue;
            }
            links += 1;
            let (path_part, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let path_part = path_part.split('?').next().unwrap_or("");
            let file = if path_part.is_empty() {
                page.clone()
            } else {
                let joined = normalize(&page.parent().unwrap_or(html_root).join(path_part));
                if joined.is_dir() {
                    joined.join("index.html")
                } else {
                    joined
                }
            };
            if !file.starts_with(html_root) || !file.is_file() {
                problems.push(format!(
                    "{}: `{target}` points to a missing file",
                    rel(html_root, page)
                ));
                continue;
            }
            if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
                let known = ids.entry(file.clone()).or_insert_with(|| {
                    fs::read_to_string(&file)
                        .map(|t| attribute_values(&t, "id"))
                        .unwrap_or_default()
                });
                if !known.iter().any(|id| id == fragment) {
                    problems.push(format!(
                        "{}: `{target}` points to an anchor that {} does not have",
                        rel(html_root, page),
                        rel(html_root, &file)
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(Report {
            pages: pages.len(),
            links,
        })
    } else {
        problems.sort();
        problems.dedup();
        Err(anyhow::anyhow!(
            "{} broken internal link(s) in the book (fix them in the chapter's .md under book/):\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

fn is_external(target: &str) -> bool {
    let lower = target.to_ascii_lowercase();
    [
        "http://",
        "https://",
        "mailto:",
        "javascript:",
        "data:",
        "//",
        "{{",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
}

/// Values of `name="…"` attributes (double or single quotes), with `&amp;` decoded.
pub fn attribute_values(html: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    let pattern = format!("{name}=");
    let mut from = 0;
    while let Some(pos) = html[from..].find(&pattern) {
        let start = from + pos;
        from = start + pattern.len();
        // Only whole attribute names: `data-href=` or `xid=` must not count as `href=` or `id=`.
        let before = start.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            continue;
        }
        let Some(&quote) = bytes.get(from) else { break };
        if quote != b'"' && quote != b'\'' {
            continue;
        }
        if let Some(end) = html[from + 1..].find(quote as char) {
            out.push(html[from + 1..from + 1 + end].replace("&amp;", "&"));
            from += end + 2;
        }
    }
    out
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The `.html` files under `dir`, following links to folders; unreadable folders are skipped.
fn collect_html(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .follow_links(true)
        .into_iter()
        .flatten()
        .filter(|e| !e.file_type().is_dir() && e.path().extension().is_some_and(|x| x == "html"))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}
