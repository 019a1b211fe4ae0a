//! Reading nextest's JUnit report: just what scoring needs, no XML crate.
//!
//! Everything a test prints is escaped by nextest, so a test cannot forge tags; the parser only
//! has to find `<testsuite>` and `<testcase>` elements and their children.

/// One `<testcase>` of the report.
#[derive(Debug)]
pub struct Case {
    /// The nextest binary id, e.g. `ex_m1_buffer_reuse::hidden`.
    pub suite: String,
    pub name: String,
    /// `None` when the test passed; else the kind of failure (`test failure`, `test timeout`…).
    pub failure: Option<String>,
    pub stdout: String,
}

pub fn parse(xml: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for suite_chunk in xml.split("<testsuite ").skip(1) {
        let suite_head = suite_chunk.split('>').next().unwrap_or_default();
        let suite = attribute(suite_head, "name").unwrap_or_default();
        let body = suite_chunk.split("</testsuite>").next().unwrap_or_default();
        for case_chunk in body.split("<testcase ").skip(1) {
            let head_end = case_chunk.find('>').unwrap_or(case_chunk.len());
            let head = &case_chunk[..head_end];
            let name = attribute(head, "name").unwrap_or_default();
            let content = if head.ends_with('/') {
                ""
            } else {
                let rest = &case_chunk[(head_end + 1).min(case_chunk.len())..];
                rest.split("</testcase>").next().unwrap_or_default()
            };
            cases.push(Case {
                suite: suite.clone(),
                name,
                failure: failure_of(content),
                stdout: element_text(content, "system-out"),
            });
        }
    }
    cases
}

fn failure_of(content: &str) -> Option<String> {
    for tag in [
        "failure",
        "error",
        "rerunFailure",
        "rerunError",
        "flakyFailure",
        "flakyError",
    ] {
        let open = format!("<{tag}");
        if let Some(at) = content.find(&open) {
            let after = &content[at + open.len()..];
            // `<failure` must be the whole tag name, not a prefix of another.
            if after.starts_with([' ', '>', '/']) {
                let head = after.split('>').next().unwrap_or_default();
                return Some(attribute(head, "type").unwrap_or_else(|| tag.to_string()));
            }
        }
    }
    None
}

fn element_text(content: &str, tag: &str) -> String {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    match content.find(&open) {
        Some(at) => {
            let rest = &content[at + open.len()..];
            unescape(rest.split(&close).next().unwrap_or_default())
        }
        None => String::new(),
    }
}

fn attribute(head: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let padded = format!(" {head}");
    let at = padded.find(&key)?;
    let rest = &padded[at + key.len()..];
    rest.split('"').next().map(unescape)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#10;", "\n")
        .replace("&#13;", "\r")
        .replace("&amp;", "&")
}
