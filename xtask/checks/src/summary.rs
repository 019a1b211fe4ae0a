//! The book's table of contents keeps every chapter inside its module: a chapter in a module
//! folder (`m3_types_and_quantization/…`) must be nested under that module's overview
//! (`m3_types_and_quantization/README.md`) in `book/SUMMARY.md`.
//!
//! Nesting follows Markdown's list rules, as mdBook reads them: an item belongs to the nearest
//! open item whose text starts at or left of its dash, and a line that is not an item (say an
//! HTML comment) closes every open item whose text starts right of that line's first character.
//! So `<!-- marker -->` at column 0 ends the module's list and the chapters after it fall out;
//! indented, mdBook 0.5 drops chapters instead. Any line other than an item inside a list of
//! chapters is therefore refused.

/// One problem per chapter that is not under its module overview, with its line number.
pub fn check(summary: &str) -> Vec<String> {
    // (column where the item's text starts, link target) of the open items, outermost first.
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut problems = Vec::new();
    for (index, line) in summary.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        let item = item_target(trimmed);
        if item.is_none() && !open.is_empty() && !trimmed.starts_with('#') && trimmed != "---" {
            problems.push(format!(
                "book/SUMMARY.md:{}: `{trimmed}` inside a list of chapters: mdBook un-nests or \
                 drops the chapters after it; delete the line",
                index + 1
            ));
        }
        while open.last().is_some_and(|(text_col, _)| *text_col > indent) {
            open.pop();
        }
        let Some(target) = item else {
            continue;
        };
        if let Some(module) = module_of(&target)
            && target != format!("{module}/README.md")
        {
            let overview = format!("{module}/README.md");
            if !open.iter().any(|(_, t)| *t == overview) {
                problems.push(format!(
                    "book/SUMMARY.md:{}: `{target}` is not nested under its module overview \
                     `{overview}`: indent it under that item, with no line at a smaller indent \
                     (such as a `<!-- -->` comment at column 0) in between",
                    index + 1
                ));
            }
        }
        open.push((indent + 2, target));
    }
    problems
}

/// Every chapter's file, as SUMMARY.md links it (`m1_x/README.md`), items and prefix chapters.
pub fn chapters(summary: &str) -> Vec<String> {
    summary
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            item_target(l).or_else(|| {
                let start = l.strip_prefix('[')?.find("](")? + 3;
                let end = l.find(')')?;
                (start < end).then(|| l[start..end].to_owned())
            })
        })
        .filter(|t| t.ends_with(".md"))
        .collect()
}

/// The link target of a list item `- [Title](target)`.
fn item_target(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("- ")
        .or_else(|| line.strip_prefix("* "))?;
    let start = rest.find("](")? + 2;
    let end = start + rest[start..].find(')')?;
    Some(rest[start..end].trim().to_owned())
}

/// `m3_types_and_quantization` for a target inside a module folder (`m<digit>…_…/`).
fn module_of(target: &str) -> Option<&str> {
    let (folder, _) = target.split_once('/')?;
    let mut chars = folder.chars();
    (chars.next() == Some('m')
        && chars.next().is_some_and(|c| c.is_ascii_digit())
        && folder.contains('_'))
    .then_some(folder)
}
