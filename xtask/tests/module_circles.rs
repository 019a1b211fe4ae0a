//! No crate of the workspace has a circle between its files: every library, binary, example
//! and test target is read from its root file through the modules it declares.
//!
//! Circles between the files of one crate: `a.rs` uses something from `b.rs` and `b.rs` uses
//! something from `a.rs`, directly or through other files. A circle means neither file can be
//! read, tested or moved without the other; the course keeps its crates free of them.
//!
//! The check parses every module file of a target with `syn`, turns each `crate::`, `self::`
//! and `super::` path it uses into the file that defines the item (following `pub use`
//! re-exports, so a `lib.rs` that only re-exports does not hide a circle or invent one), and
//! looks for strongly connected components of more than one file. Declaring a child module
//! (`mod child;`) is not a use, and neither is what a `#[cfg(test)]` module uses (tests may take
//! fixtures from anywhere). Items are found by module path and name only: paths that macros
//! generate are not followed (the course generates none across files).
//!
//! It is hand-written because the tool that can do it (`cargo modules dependencies --acyclic`)
//! compiles rust-analyzer, several minutes on a student's laptop, for one test.

use cargo_metadata::MetadataCommand;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// One module file of a crate: its module path (`[]` for the root) and what it uses.
struct ModuleFile {
    path: PathBuf,
    module: Vec<String>,
    /// Absolute module paths (`crate::a::B` → `["a", "B"]`) used by the file's code.
    uses: Vec<Vec<String>>,
    /// `pub use` re-exports: local name → absolute path of the original.
    reexports: BTreeMap<String, Vec<String>>,
}

/// Why a target could not be read.
#[derive(Debug)]
pub struct ReadError(pub String);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The circles between files of the target whose root is `root` (`src/lib.rs`, a binary's
/// `main.rs`): each circle as its files, relative to the root's folder, sorted.
pub fn circles(root: &Path) -> Result<Vec<Vec<String>>, ReadError> {
    let mut files = Vec::new();
    load(root, Vec::new(), true, &mut files)?;
    let index: BTreeMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.clone(), i))
        .collect();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for (from, file) in files.iter().enumerate() {
        for used in &file.uses {
            if let Some(to) = defining_file(used, &files, &index, 0)
                && to != from
            {
                edges[from].insert(to);
            }
        }
    }
    let base = root.parent().unwrap_or(Path::new(""));
    let mut found: Vec<Vec<String>> = components(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c
                .iter()
                .map(|&i| {
                    let p = &files[i].path;
                    p.strip_prefix(base).unwrap_or(p).display().to_string()
                })
                .collect();
            names.sort();
            names
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Parses `path` as the module `module` and, recursively, the module files it declares.
fn load(
    path: &Path,
    module: Vec<String>,
    owns_folder: bool,
    files: &mut Vec<ModuleFile>,
) -> Result<(), ReadError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ReadError(format!("cannot read {}: {e}", path.display())))?;
    let ast = syn::parse_file(&text)
        .map_err(|e| ReadError(format!("{} does not parse: {e}", path.display())))?;
    // `lib.rs`, `main.rs` and `mod.rs` keep their children beside them; `a.rs` in `a/`.
    let folder = if owns_folder {
        path.parent().unwrap_or(Path::new("")).to_owned()
    } else {
        path.with_extension("")
    };
    let local_modules = ast
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    let mut collector = Collector {
        module: module.clone(),
        local_modules,
        inline_depth: 0,
        uses: Vec::new(),
        reexports: BTreeMap::new(),
        children: Vec::new(),
    };
    collector.visit_file(&ast);
    let Collector {
        uses,
        reexports,
        children,
        ..
    } = collector;
    files.push(ModuleFile {
        path: path.to_owned(),
        module: module.clone(),
        uses,
        reexports,
    });
    for Child {
        name: child,
        path_attribute,
    } in children
    {
        let flat = folder.join(format!("{child}.rs"));
        let nested = folder.join(&child).join("mod.rs");
        let (file, owns) = if let Some(relative) = path_attribute {
            // `#[path]` is relative to the folder of the file that declares the module.
            let file = path.parent().unwrap_or(Path::new("")).join(relative);
            let owns = file.file_name().is_some_and(|n| n == "mod.rs");
            (file, owns)
        } else if flat.is_file() {
            (flat, false)
        } else if nested.is_file() {
            (nested, true)
        } else {
            return Err(ReadError(format!(
                "{} declares `mod {child};` but neither {} nor {} exists",
                path.display(),
                flat.display(),
                nested.display()
            )));
        };
        let mut child_module = module.clone();
        child_module.push(child);
        load(&file, child_module, owns, files)?;
    }
    Ok(())
}

/// The file that defines the item at `used`, following re-exports (at most 8 deep).
fn defining_file(
    used: &[String],
    files: &[ModuleFile],
    index: &BTreeMap<Vec<String>, usize>,
    depth: usize,
) -> Option<usize> {
    // The longest prefix of the path that is a module file.
    let (len, &file) = (0..=used.len())
        .rev()
        .find_map(|n| index.get(&used[..n]).map(|f| (n, f)))?;
    if depth < 8
        && let Some(name) = used.get(len)
        && let Some(target) = files[file].reexports.get(name)
    {
        let mut followed = target.clone();
        followed.extend_from_slice(&used[len + 1..]);
        if followed != used {
            return defining_file(&followed, files, index, depth + 1).or(Some(file));
        }
    }
    Some(file)
}

/// Strongly connected components (Tarjan's algorithm).
fn components(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.found.push(component);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.found
}

/// `#[cfg(test)]` on an item.
fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The file named by `#[path = "…"]` on a module declaration, if any.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// A module declared with `mod name;`.
struct Child {
    name: String,
    path_attribute: Option<String>,
}

/// Walks one file, recording its uses, re-exports and declared child modules.
struct Collector {
    module: Vec<String>,
    /// The modules this file declares: `use a::B` in it means `self::a::B`.
    local_modules: BTreeSet<String>,
    /// How deep inside inline `mod x { … }` blocks the walk is (they stay in this file).
    inline_depth: usize,
    uses: Vec<Vec<String>>,
    reexports: BTreeMap<String, Vec<String>>,
    children: Vec<Child>,
}

impl Collector {
    /// A path's segments made absolute from the crate root, or `None` for paths that start
    /// elsewhere (another crate, a local name, `std`).
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let (first, rest) = segments.split_first()?;
        match first.as_str() {
            "crate" => Some(rest.to_vec()),
            "self" if self.inline_depth == 0 => Some([self.module.clone(), rest.to_vec()].concat()),
            "super" => {
                let mut ups: usize = 1;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    ups += 1;
                    rest = &rest[1..];
                }
                // `super` inside an inline module first climbs out of it, within this file.
                let ups = ups.saturating_sub(self.inline_depth);
                let keep = self.module.len().checked_sub(ups)?;
                Some([self.module[..keep].to_vec(), rest.to_vec()].concat())
            }
            // A lone `name` is a value or a type, never a module: a local variable named like a
            // child module (`layer` beside `mod layer;`) is not a use of that module.
            name if self.inline_depth == 0
                && !rest.is_empty()
                && self.local_modules.contains(name) =>
            {
                Some([self.module.clone(), segments.to_vec()].concat())
            }
            _ => None,
        }
    }

    fn use_tree(&mut self, prefix: Vec<String>, tree: &syn::UseTree, public: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                let mut next = prefix;
                next.push(p.ident.to_string());
                self.use_tree(next, &p.tree, public);
            }
            syn::UseTree::Name(n) => self.use_leaf(prefix, n.ident.to_string(), None, public),
            syn::UseTree::Rename(r) => {
                self.use_leaf(
                    prefix,
                    r.ident.to_string(),
                    Some(r.rename.to_string()),
                    public,
                );
            }
            syn::UseTree::Glob(_) => {
                if let Some(abs) = self.absolute(&prefix) {
                    self.uses.push(abs);
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix.clone(), t, public);
                }
            }
        }
    }

    fn use_leaf(
        &mut self,
        mut prefix: Vec<String>,
        name: String,
        rename: Option<String>,
        public: bool,
    ) {
        let local = rename.unwrap_or_else(|| name.clone());
        // `use crate::a::{self}` names the module `a` itself.
        if name != "self" {
            prefix.push(name);
        }
        let Some(abs) = self.absolute(&prefix) else {
            return;
        };
        if public && self.inline_depth == 0 {
            // A re-export is an alias, not a use: whoever names it uses the original.
            self.reexports.insert(local, abs);
        } else {
            self.uses.push(abs);
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    // `pub(crate)`, `pub(super)`, `pub(in path)` say who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        match &m.content {
            None => self.children.push(Child {
                name: m.ident.to_string(),
                path_attribute: path_attribute(&m.attrs),
            }),
            // Tests may use any file of the crate for their fixtures: not the code's structure.
            Some(_) if is_cfg_test(&m.attrs) => {}
            Some(_) => {
                self.inline_depth += 1;
                syn::visit::visit_item_mod(self, m);
                self.inline_depth -= 1;
            }
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let public = matches!(
            u.vis,
            syn::Visibility::Public(_) | syn::Visibility::Restricted(_)
        );
        self.use_tree(Vec::new(), &u.tree, public);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(abs) = self.absolute(&segments) {
            self.uses.push(abs);
        }
        syn::visit::visit_path(self, p);
    }
}

/// The circles left in the workspace, with why each is there.
const KNOWN_CIRCLES: &[(&str, &str)] = &[];

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, files: &[(&str, &str)]) {
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("circles-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn two_files_that_use_each_other_are_a_circle() {
        let dir = scratch("two");
        write(
            &dir,
            &[
                ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
                ("a.rs", "use crate::b::B;\npub struct A;\n"),
                (
                    "b/mod.rs",
                    "pub struct B;\nfn f() -> super::a::A { todo!() }\n",
                ),
                ("c.rs", "use crate::a::A;\n"),
            ],
        );
        let found = circles(&dir.join("lib.rs")).unwrap();
        assert_eq!(found, [vec!["a.rs".to_string(), "b/mod.rs".to_string()]]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn re_exports_and_test_modules_make_no_circle() {
        let dir = scratch("reexport");
        write(
            &dir,
            &[
                // lib re-exports a's item; b names it through lib; a uses b.
                ("lib.rs", "mod a;\nmod b;\npub use a::A;\n"),
                (
                    "a.rs",
                    "use crate::b::helper;\npub struct A;\n#[cfg(test)]\nmod tests { use super::*; }\n",
                ),
                ("b.rs", "pub fn helper() {}\n"),
            ],
        );
        assert!(circles(&dir.join("lib.rs")).unwrap().is_empty());
        // Now b uses A through the re-export: a circle between a and b, not with lib.
        write(
            &dir,
            &[("b.rs", "pub fn helper() -> crate::A { todo!() }\n")],
        );
        let found = circles(&dir.join("lib.rs")).unwrap();
        assert_eq!(found, [vec!["a.rs".to_string(), "b.rs".to_string()]]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_variable_named_like_a_child_module_is_not_a_use_of_it() {
        let dir = scratch("variable");
        write(
            &dir,
            &[
                (
                    "lib.rs",
                    "mod layer;\npub struct Layer;\nfn f(layer: &Layer) -> &Layer { layer }\n",
                ),
                ("layer.rs", "pub fn g(_: &crate::Layer) {}\n"),
            ],
        );
        assert!(circles(&dir.join("lib.rs")).unwrap().is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_restricted_visibility_is_not_a_use() {
        let dir = scratch("visibility");
        write(
            &dir,
            &[
                ("lib.rs", "mod a;\npub struct Root;\nfn f() { a::g() }\n"),
                ("a.rs", "pub(crate) fn g() {}\npub(super) struct S;\n"),
            ],
        );
        assert!(circles(&dir.join("lib.rs")).unwrap().is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_module_file_is_a_clear_error() {
        let dir = scratch("missing");
        write(&dir, &[("lib.rs", "mod gone;\n")]);
        let err = circles(&dir.join("lib.rs")).unwrap_err();
        assert!(err.0.contains("mod gone;"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn no_target_of_the_workspace_has_a_circle_between_its_files() {
        let metadata = MetadataCommand::new()
            .no_deps()
            .exec()
            .expect("cargo metadata reads the workspace");
        let mut report = Vec::new();
        let mut targets = 0;
        for package in metadata.workspace_packages() {
            for target in &package.targets {
                let kinds: Vec<String> = target.kind.iter().map(|k| k.to_string()).collect();
                if !kinds
                    .iter()
                    .any(|k| ["lib", "bin", "example", "test"].contains(&k.as_str()))
                {
                    continue;
                }
                targets += 1;
                match circles(target.src_path.as_std_path()) {
                    Ok(found) => {
                        for circle in found {
                            report.push(format!(
                                "{} ({}): {}",
                                package.name,
                                target.name,
                                circle.join(" ↔ ")
                            ));
                        }
                    }
                    Err(e) => report.push(format!("{} ({}): {e}", package.name, target.name)),
                }
            }
        }
        assert!(targets > 50, "only {targets} targets found");
        // Circles that remain, each to be removed: the list may only shrink. Most are a figure
        // program's `main.rs` holding helpers (sidecar, output folder) that its parts call back;
        // they go when the parts write through `bench_harness::Figure`.
        let known: Vec<&str> = KNOWN_CIRCLES.iter().map(|(c, _why)| *c).collect();
        let new: Vec<&String> = report
            .iter()
            .filter(|r| !known.contains(&r.as_str()))
            .collect();
        let gone: Vec<&&str> = known
            .iter()
            .filter(|k| !report.iter().any(|r| r == *k))
            .collect();
        assert!(
            new.is_empty() && gone.is_empty(),
            "new circles between files (break them: move what both files need into a third):\n{}\n\
             circles that are gone (remove them from KNOWN_CIRCLES):\n{}",
            new.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            gone.iter().map(|s| **s).collect::<Vec<_>>().join("\n"),
        );
    }
}
