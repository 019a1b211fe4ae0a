//! A WGSL kernel read as text: what the exercises' tests check about a kernel's code (that it
//! declares workgroup memory and uses it, that it synchronises), with the comments taken out so
//! that a word in a comment does not count as code.

/// The kernel's code without its `//` and `/* */` comments. Block comments are taken as not
/// nested (WGSL allows nesting; a nested one would leave its tail behind).
pub fn without_comments(wgsl: &str) -> String {
    let mut out = String::new();
    let mut rest = wgsl;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names declared `var<workgroup> name: …`, in the order they appear.
pub fn workgroup_arrays(code: &str) -> Vec<String> {
    code.split("var<workgroup>")
        .skip(1)
        .map(|after| {
            after
                .trim_start()
                .chars()
                .take_while(|&c| is_word(c))
                .collect()
        })
        .collect()
}

/// How many times `name` stands in `code` as a whole word (not inside a longer name).
pub fn uses_of(code: &str, name: &str) -> usize {
    code.split(|c: char| !is_word(c))
        .filter(|word| *word == name)
        .count()
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = "var<workgroup> tile: array<f32, 64>; // var<workgroup> old: f32;\n\
        /* tile_b was here */ var<workgroup>  partial_sum : f32;\n\
        fn main() { tile[0] = 1.0; partial_sum = tile[0] + tiles; }";

    #[test]
    fn comments_go_and_code_stays() {
        let code = without_comments(KERNEL);
        assert!(!code.contains("old") && !code.contains("tile_b"), "{code}");
        assert!(code.contains("partial_sum = tile[0]"), "{code}");
        assert_eq!(without_comments("a /* never closed"), "a ");
    }

    #[test]
    fn workgroup_arrays_are_found_by_name_and_counted_as_words() {
        let code = without_comments(KERNEL);
        assert_eq!(workgroup_arrays(&code), ["tile", "partial_sum"]);
        assert_eq!(uses_of(&code, "tile"), 3, "`tiles` is another word");
        assert_eq!(uses_of(&code, "partial_sum"), 2);
    }
}
