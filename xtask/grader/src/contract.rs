//! The stub's public API is the contract a submission is graded against.
//!
//! Hidden tests call the stub's public items and compare what they return. A submission that
//! changes a return type to one of its own (whose `PartialEq` always agrees), adds a trait impl
//! the stub does not have, shadows `f32` with a type of its own, or hides items behind a macro
//! could pass tests without the work. So, before anything is built, every public item of the
//! submission is parsed (with `syn`) and compared with the stub's: same items, same signatures
//! (types, generics, bounds), same derives, same trait impls. Bodies, private items and parameter
//! names are the student's.
//!
//! Two more static refusals live here because they read the same syntax trees:
//! - the known patterns of safe Rust's soundness holes (a reference to a reference with named
//!   lifetimes: the implied-bounds bug rust-lang/rust#25860 that the `cve-rs` crate packages);
//! - in a loom exercise, any use of `std`/`core` synchronisation, which loom cannot see.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::visit::Visit;

/// The public surface of one crate's sources.
#[derive(Debug, Default)]
pub struct Api {
    /// `kind path::name` → the normalised signature.
    items: BTreeMap<String, String>,
    /// `impl Trait for Type` headers, normalised.
    trait_impls: BTreeSet<String>,
    /// Whether the sources use `loom` (then std's synchronisation is refused).
    uses_loom: bool,
    /// For each file, the std/core synchronisation paths it uses itself (what a loom exercise
    /// lets that file keep).
    std_sync: BTreeMap<PathBuf, BTreeSet<String>>,
    /// Names of the types and traits the sources define (any visibility).
    defined: BTreeSet<String>,
    /// The Rust files.
    files: BTreeSet<PathBuf>,
}

/// Names a submission may not define or import under another name: the primitives and the
/// prelude's types, which a look-alike could stand in for.
const PROTECTED: &[&str] = &[
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "bool",
    "char",
    "str",
    "String",
    "Vec",
    "Option",
    "Result",
    "Box",
    "Some",
    "None",
    "Ok",
    "Err",
    "PartialEq",
    "PartialOrd",
    "Eq",
    "Ord",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Iterator",
    "IntoIterator",
    "From",
    "Into",
    "Fn",
    "FnMut",
    "FnOnce",
    "Send",
    "Sync",
    "Sized",
];

/// Reads the public API of `files` (paths relative to `src/`, contents). `.wgsl` and other
/// non-Rust files are skipped. A file that does not parse is reported with its error.
pub fn api_of(files: &[(PathBuf, Vec<u8>)]) -> Result<Api, String> {
    let mut api = Api::default();
    for (rel, bytes) in files {
        if rel.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let file = syn::parse_file(&text).map_err(|e| {
            let at = e.span().start();
            format!(
                "src/{} does not parse as Rust (line {}, column {}): {e}",
                rel.display(),
                at.line,
                at.column + 1
            )
        })?;
        api.files.insert(rel.clone());
        let module = module_path(rel);
        collect(&file.items, &module, &mut api);
        let mut finder = LoomFinder::default();
        finder.visit_file(&file);
        api.uses_loom |= finder.found;
        let none = BTreeSet::new();
        let mut scan = Scan::new(rel, &none, None);
        scan.visit_file(&file);
        api.std_sync.insert(rel.clone(), scan.std_sync_used);
    }
    Ok(api)
}

/// Everything in `submission` that breaks the stub's contract, one message per problem.
pub fn check(stub: &Api, submission_files: &[(PathBuf, Vec<u8>)]) -> Vec<String> {
    let ours = match api_of(submission_files) {
        Ok(api) => api,
        Err(message) => return vec![message],
    };
    let mut problems = Vec::new();
    for (key, want) in &stub.items {
        match ours.items.get(key) {
            None => problems.push(format!(
                "`{key}` is missing or no longer public: keep every public item of the stub"
            )),
            Some(got) if got != want => problems.push(format!(
                "`{key}` changed: the stub declares `{want}`, your code `{got}`. Keep the \
                 stub's signatures (types, generics, bounds, derives) exactly"
            )),
            Some(_) => {}
        }
    }
    // New public items are the student's helpers, invisible to the hidden tests, except methods
    // on the stub's own types: an inherent method wins over a trait's method of the same name
    // (`abs`, `eq`, `unwrap`…), so it could answer a test's call instead of the real one.
    for key in ours.items.keys().filter(|k| !stub.items.contains_key(*k)) {
        if key.starts_with("method ") && names_in(key).any(|n| stub.defined.contains(&n)) {
            problems.push(format!(
                "`{key}` is a public method the stub does not have, on one of the stub's types: \
                 make it private (drop `pub`); the stub's methods are the whole API"
            ));
        }
    }
    // Traits whose methods a hidden test never calls to decide a grade (markers, messages) may
    // be added; any other trait on the stub's types is the stub's to give.
    let harmless = |header: &String| {
        let (head, _) = header.rsplit_once(" for ").unwrap_or_default();
        let trait_name = names_in(head).last().unwrap_or_default();
        ["FusedIterator", "Debug", "Display", "Error"].contains(&trait_name.as_str())
    };
    let on_stub_type = |header: &String| {
        let self_ty = header.rsplit(" for ").next().unwrap_or_default();
        names_in(self_ty).any(|n| stub.defined.contains(&n)) && !harmless(header)
    };
    for header in ours
        .trait_impls
        .difference(&stub.trait_impls)
        .filter(|h| on_stub_type(h))
    {
        problems.push(format!(
            "`{header}` is not in the stub: a submission may not add trait impls (hidden tests \
             must not rely on comparisons or conversions you wrote)"
        ));
    }
    for header in stub.trait_impls.difference(&ours.trait_impls) {
        problems.push(format!("`{header}` from the stub is missing: keep it"));
    }
    for (path, bytes) in submission_files {
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let Ok(file) = syn::parse_file(&String::from_utf8_lossy(bytes)) else {
            continue;
        };
        // In a loom exercise, every file may use only the std synchronisation its stub uses
        // (a file of its own: none). That covers a file compiled over loom and std through a
        // `sync` module and never naming loom itself: a `static Mutex` in it would hide from
        // the loom models.
        let empty = BTreeSet::new();
        let allowed = stub
            .uses_loom
            .then(|| stub.std_sync.get(path).unwrap_or(&empty));
        let mut scan = Scan::new(path, &stub.defined, allowed);
        scan.visit_file(&file);
        problems.extend(scan.problems);
    }
    problems.sort();
    problems.dedup();
    problems
}

/// `src/a/b.rs` → `a::b`; `src/a/mod.rs` → `a`; `src/lib.rs` → `crate`.
fn module_path(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    if parts.is_empty() {
        "crate".into()
    } else {
        format!("crate::{}", parts.join("::"))
    }
}

/// The identifiers in a piece of normalised source text.
fn names_in(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
}

fn text(t: &impl ToTokens) -> String {
    t.to_token_stream().to_string()
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

fn derives(attrs: &[syn::Attribute]) -> String {
    let mut names: Vec<String> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            names.push(text(&meta.path));
            Ok(())
        });
    }
    names.sort();
    format!("derive({})", names.join(", "))
}

/// A function's signature without parameter names or `mut` bindings.
fn signature(sig: &syn::Signature) -> String {
    let inputs: Vec<String> = sig
        .inputs
        .iter()
        .map(|arg| match arg {
            syn::FnArg::Receiver(r) => {
                if r.colon_token.is_some() {
                    format!("self: {}", text(&r.ty))
                } else {
                    let lifetime = r
                        .reference
                        .as_ref()
                        .and_then(|(_, l)| l.as_ref())
                        .map(|l| format!("{l} "))
                        .unwrap_or_default();
                    match (&r.reference, &r.mutability) {
                        (Some(_), Some(_)) => format!("&{lifetime}mut self"),
                        (Some(_), None) => format!("&{lifetime}self"),
                        (None, _) => "self".into(),
                    }
                }
            }
            syn::FnArg::Typed(pt) => text(&pt.ty),
        })
        .collect();
    format!(
        "{}{}{}fn {}{}({}) {} {}",
        sig.constness.map(|_| "const ").unwrap_or_default(),
        sig.asyncness.map(|_| "async ").unwrap_or_default(),
        sig.unsafety.map(|_| "unsafe ").unwrap_or_default(),
        sig.ident,
        text(&sig.generics),
        inputs.join(", "),
        text(&sig.output),
        sig.generics
            .where_clause
            .as_ref()
            .map(text)
            .unwrap_or_default(),
    )
    .trim_end()
    .to_string()
}

/// Adds what `items` (the module `module`) define and make public to `api`; inline modules too.
fn collect(items: &[syn::Item], module: &str, api: &mut Api) {
    for item in items {
        match item {
            syn::Item::Fn(f) if is_pub(&f.vis) => {
                api.items
                    .insert(format!("fn {module}::{}", f.sig.ident), signature(&f.sig));
            }
            syn::Item::Struct(s) => {
                api.defined.insert(s.ident.to_string());
                if is_pub(&s.vis) {
                    api.items
                        .insert(format!("struct {module}::{}", s.ident), struct_api(s));
                }
            }
            syn::Item::Enum(e) => {
                api.defined.insert(e.ident.to_string());
                if is_pub(&e.vis) {
                    api.items
                        .insert(format!("enum {module}::{}", e.ident), enum_api(e));
                }
            }
            syn::Item::Type(t) => {
                api.defined.insert(t.ident.to_string());
                if is_pub(&t.vis) {
                    api.items.insert(
                        format!("type {module}::{}", t.ident),
                        format!("type {}{} = {}", t.ident, text(&t.generics), text(&t.ty)),
                    );
                }
            }
            syn::Item::Union(u) => {
                api.defined.insert(u.ident.to_string());
                if is_pub(&u.vis) {
                    api.items
                        .insert(format!("union {module}::{}", u.ident), text(&u.fields));
                }
            }
            syn::Item::Trait(t) => {
                api.defined.insert(t.ident.to_string());
                if is_pub(&t.vis) {
                    api.items
                        .insert(format!("trait {module}::{}", t.ident), trait_api(t));
                }
            }
            syn::Item::Const(c) if is_pub(&c.vis) => {
                api.items.insert(
                    format!("const {module}::{}", c.ident),
                    format!("const {}: {}", c.ident, text(&c.ty)),
                );
            }
            syn::Item::Static(s) if is_pub(&s.vis) => {
                api.items.insert(
                    format!("static {module}::{}", s.ident),
                    format!("static {}{}: {}", text(&s.mutability), s.ident, text(&s.ty)),
                );
            }
            syn::Item::Use(u) if is_pub(&u.vis) => {
                api.items
                    .insert(format!("use {module}::{}", text(&u.tree)), text(&u.tree));
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect(inner, &format!("{module}::{}", m.ident), api);
                } else if is_pub(&m.vis) {
                    api.items.insert(
                        format!("mod {module}::{}", m.ident),
                        format!("pub mod {}", m.ident),
                    );
                }
            }
            syn::Item::Impl(imp) => collect_impl(imp, module, api),
            _ => {}
        }
    }
}

/// A public struct as the contract sees it: derives, generics and its public fields.
fn struct_api(s: &syn::ItemStruct) -> String {
    let fields: Vec<String> = s
        .fields
        .iter()
        .filter(|f| is_pub(&f.vis))
        .map(|f| {
            let name = f
                .ident
                .as_ref()
                .map(|i| format!("{i}: "))
                .unwrap_or_default();
            format!("pub {name}{}", text(&f.ty))
        })
        .collect();
    format!(
        "{} struct {}{} {{ {} }}",
        derives(&s.attrs),
        s.ident,
        text(&s.generics),
        fields.join(", ")
    )
}

/// A public enum: derives, generics and every variant.
fn enum_api(e: &syn::ItemEnum) -> String {
    let variants: Vec<String> = e
        .variants
        .iter()
        .map(|v| format!("{} {}", v.ident, text(&v.fields)))
        .collect();
    format!(
        "{} enum {}{} {{ {} }}",
        derives(&e.attrs),
        e.ident,
        text(&e.generics),
        variants.join(", ")
    )
}

/// A public trait: generics, supertraits and each item's signature.
fn trait_api(t: &syn::ItemTrait) -> String {
    let mut parts = vec![format!(
        "trait {}{}: {}",
        t.ident,
        text(&t.generics),
        text(&t.supertraits)
    )];
    for ti in &t.items {
        match ti {
            syn::TraitItem::Fn(f) => parts.push(signature(&f.sig)),
            syn::TraitItem::Type(ty) => {
                parts.push(format!("type {}: {}", ty.ident, text(&ty.bounds)))
            }
            syn::TraitItem::Const(c) => parts.push(format!("const {}: {}", c.ident, text(&c.ty))),
            other => parts.push(text(other)),
        }
    }
    parts.join("; ")
}

/// A trait impl is kept whole (its header); an inherent impl adds its public methods.
fn collect_impl(imp: &syn::ItemImpl, module: &str, api: &mut Api) {
    let self_ty = text(&imp.self_ty);
    match &imp.trait_ {
        Some((bang, path, _)) => {
            api.trait_impls.insert(format!(
                "impl{} {}{} for {}",
                text(&imp.generics),
                bang.map(|_| "!").unwrap_or_default(),
                text(path),
                self_ty
            ));
        }
        None => {
            for ii in &imp.items {
                if let syn::ImplItem::Fn(f) = ii
                    && is_pub(&f.vis)
                {
                    api.items.insert(
                        format!("method {module}::{self_ty}::{}", f.sig.ident),
                        format!(
                            "impl{} {self_ty} {{ {} }}",
                            text(&imp.generics),
                            signature(&f.sig)
                        ),
                    );
                }
            }
        }
    }
}

/// Whether a file names `loom` anywhere in a path.
#[derive(Default)]
struct LoomFinder {
    found: bool,
}

impl<'ast> Visit<'ast> for LoomFinder {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.segments.first().is_some_and(|s| s.ident == "loom") {
            self.found = true;
        }
        syn::visit::visit_path(self, p);
    }
    fn visit_use_tree(&mut self, t: &'ast syn::UseTree) {
        if let syn::UseTree::Path(p) = t
            && p.ident == "loom"
        {
            self.found = true;
        }
        syn::visit::visit_use_tree(self, t);
    }
}

/// The whole-file refusals: macros that make items, look-alike names, soundness-hole patterns,
/// and (in loom exercises) std's synchronisation.
struct Scan<'a> {
    file: &'a Path,
    stub_defines: &'a BTreeSet<String>,
    /// `Some(paths)` in a loom-checked file: the std/core synchronisation it may use.
    loom_allowed: Option<&'a BTreeSet<String>>,
    std_sync_used: BTreeSet<String>,
    problems: Vec<String>,
}

impl<'a> Scan<'a> {
    fn new(
        file: &'a Path,
        stub_defines: &'a BTreeSet<String>,
        loom_allowed: Option<&'a BTreeSet<String>>,
    ) -> Self {
        Self {
            file,
            stub_defines,
            loom_allowed,
            std_sync_used: BTreeSet::new(),
            problems: Vec::new(),
        }
    }

    fn at(&mut self, span: proc_macro2::Span, message: String) {
        self.problems.push(format!(
            "src/{}:{}: {message}",
            self.file.display(),
            span.start().line
        ));
    }

    fn name_defined(&mut self, ident: &syn::Ident) {
        let name = ident.to_string();
        if PROTECTED.contains(&name.as_str()) && !self.stub_defines.contains(&name) {
            self.at(
                ident.span(),
                format!(
                    "defines or imports `{name}`, a name of Rust's own types: pick another name"
                ),
            );
        }
    }

    fn std_sync(&mut self, segments: &[String], span: proc_macro2::Span) {
        let std_root = matches!(
            segments.first().map(String::as_str),
            Some("std" | "core" | "alloc")
        );
        if !(std_root && segments.get(1).is_some_and(|s| s == "sync" || s == "cell")) {
            return;
        }
        let joined = segments.join("::");
        self.std_sync_used.insert(joined.clone());
        if self
            .loom_allowed
            .is_some_and(|allowed| !allowed.contains(&joined))
        {
            self.at(
                span,
                format!(
                    "uses `{joined}`: this exercise is checked by loom, which sees only `loom::` \
                     synchronisation; keep the stub's loom types"
                ),
            );
        }
    }
}

fn use_paths(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<syn::Ident>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut full = prefix.clone();
            full.push(n.ident.to_string());
            out.push((full, None));
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix.clone();
            full.push(r.ident.to_string());
            out.push((full, Some(r.rename.clone())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), None)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Scan<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        match item {
            // `thread_local!` only declares statics; any other item macro could hide items.
            syn::Item::Macro(m) if m.ident.is_none() && !m.mac.path.is_ident("thread_local") => self.at(
                m.mac
                    .path
                    .segments
                    .first()
                    .map_or_else(proc_macro2::Span::call_site, |s| s.ident.span()),
                format!(
                    "calls the macro `{}!` where an item goes: write items out (the grader reads \
                     your API from the source)",
                    text(&m.mac.path)
                ),
            ),
            syn::Item::Struct(s) => self.name_defined(&s.ident),
            syn::Item::Enum(e) => self.name_defined(&e.ident),
            syn::Item::Type(t) => self.name_defined(&t.ident),
            syn::Item::Union(u) => self.name_defined(&u.ident),
            syn::Item::Trait(t) => self.name_defined(&t.ident),
            syn::Item::Use(u) => {
                let mut out = Vec::new();
                use_paths(&u.tree, &mut Vec::new(), &mut out);
                for (path, rename) in out {
                    if let Some(rename) = rename {
                        self.name_defined(&rename);
                        // `use std as s;` would let `s::sync::Mutex` past the check below.
                        if let [root] = path.as_slice()
                            && ["std", "core", "alloc"].contains(&root.as_str())
                        {
                            self.at(
                                u.use_token.span,
                                format!(
                                    "renames the crate `{root}`: use its own name (the grader \
                                     reads paths by it)"
                                ),
                            );
                        }
                    }
                    self.std_sync(&path, u.use_token.span);
                }
            }
            syn::Item::ExternCrate(e) if e.rename.is_some() => self.at(
                e.extern_token.span,
                format!(
                    "renames the crate `{}` with `extern crate … as`: use its own name",
                    e.ident
                ),
            ),
            _ => {}
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if let syn::ImplItem::Macro(m) = item {
            self.at(
                m.mac
                    .path
                    .segments
                    .first()
                    .map_or_else(proc_macro2::Span::call_site, |s| s.ident.span()),
                format!(
                    "calls the macro `{}!` inside an impl: write the items out",
                    text(&m.mac.path)
                ),
            );
        }
        syn::visit::visit_impl_item(self, item);
    }

    fn visit_type_reference(&mut self, r: &'ast syn::TypeReference) {
        // `&'a &'b T`: the shape of the implied-bounds hole (rust-lang/rust#25860) that turns a
        // short lifetime into `'static` without `unsafe`. Honest exercise code never needs it.
        if let syn::Type::Reference(inner) = &*r.elem
            && (r.lifetime.is_some() || inner.lifetime.is_some())
        {
            self.at(
                r.and_token.span,
                "has a reference to a reference with named lifetimes (`&'a &'b T`), the pattern \
                 of a known soundness hole in the compiler: remove it"
                    .into(),
            );
        }
        syn::visit::visit_type_reference(self, r);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let span = p
            .segments
            .first()
            .map_or_else(proc_macro2::Span::call_site, |s| s.ident.span());
        self.std_sync(&segments, span);
        syn::visit::visit_path(self, p);
    }
}
