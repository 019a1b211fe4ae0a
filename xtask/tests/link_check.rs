//! The link checker on hand-made sites: good links pass, each kind of broken one is named.

use std::fs;
use std::path::PathBuf;

use xtask::link_check::{attribute_values, check};

/// A scratch site in the system's temp folder, removed on drop.
struct Site(PathBuf);

impl Site {
    fn new(tag: &str, pages: &[(&str, &str)]) -> Self {
        let root =
            std::env::temp_dir().join(format!("xtask-link-check-{}-{tag}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for (name, body) in pages {
            let path = root.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, body).unwrap();
        }
        Self(root)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn good_links_and_anchors_pass() {
    let site = Site::new(
        "good",
        &[
            (
                "index.html",
                r##"<a href="a/b.html#sec">x</a><img src="fig.svg"><a href="https://x.org/nope">"##,
            ),
            (
                "a/b.html",
                r##"<h2 id="sec">S</h2><a href="../index.html">up</a><a href="#sec">self</a>"##,
            ),
            ("fig.svg", "<svg/>"),
        ],
    );
    let report = check(&site.0).unwrap();
    assert_eq!((report.pages, report.links), (2, 4));
}

#[test]
fn a_missing_page_fails_naming_the_link() {
    let site = Site::new(
        "missing_page",
        &[("index.html", r#"<a href="gone.html">x</a>"#)],
    );
    let err = check(&site.0).err().unwrap().to_string();
    assert!(
        err.contains("index.html: `gone.html` points to a missing file"),
        "{err}"
    );
}

#[test]
fn a_missing_anchor_fails() {
    let site = Site::new(
        "missing_anchor",
        &[
            ("index.html", r##"<a href="b.html#nope">x</a>"##),
            ("b.html", r#"<p id="yes"></p>"#),
        ],
    );
    let err = check(&site.0).err().unwrap().to_string();
    assert!(err.contains("anchor"), "{err}");
}

#[test]
fn data_attributes_are_not_links() {
    assert_eq!(
        attribute_values(r#"<a data-href="x" href="y" xid="q" id="z">"#, "href"),
        ["y"]
    );
    assert_eq!(attribute_values(r#"<a xid="q" id="z">"#, "id"), ["z"]);
}
