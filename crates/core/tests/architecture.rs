//! Architecture tests: each one checks an invariant that ARCHITECTURE.md states as an absence
//! ("core never reads a clock", "the page cannot reach the engine", ...), by reading the
//! manifests and sources at test time. The engine itself does no IO; these tests may.
//!
//! The source checks work on a lexed copy of each file: comments, string literals and char
//! literals are blanked (so prose and message strings never match), then every item behind
//! `#[cfg(test)]` (or `#[cfg(all(test, ...))]`) is blanked, and every file declared as a
//! `#[cfg(test)] mod name;` is skipped whole (the `tests.rs` files, `plugins/testing.rs`).
//! What is left is the code that ships; the checks look at its tokens, not at lines of text.
//! The helpers are tested at the bottom of this file on small sources, so each check is
//! shown to catch a violation and to ignore the same text inside test code.
//!
//! These are source-level checks: they catch the usual spellings (a path through `std::`, a
//! `use std::{...}` group, a macro call), not every conceivable route (a re-export under
//! another name, a dependency doing the forbidden thing for us).

#![cfg(not(target_arch = "wasm32"))]

use schedlab_core::vocabulary::ExtensionPoint;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

// ---------------------------------------------------------------------------------------------
// Lexing: blank comments and literals, tokenize, strip test-only items.

/// The source with comments, string literals and char literals replaced by spaces (newlines
/// kept, so line numbers still hold). Lifetimes such as `'static` are kept.
fn code_only(src: &str) -> String {
    lex(src, Marks::Nothing)
}

/// As `code_only`, except that a string literal holding one identifier (`"NodePorts"`) becomes
/// the token `QNodePorts` (as long as the literal, so positions still hold): a check can then
/// find names written as strings in code that ships.
fn code_with_names(src: &str) -> String {
    lex(src, Marks::Names)
}

/// As `code_only`, except that every plain string literal (`"Node/{name}"`, not a raw one)
/// keeps its identifier characters, its slashes and its newlines, behind a `Q` in place of the
/// opening quote; every other character of it becomes `_` (so braces and brackets of format
/// strings cannot unbalance the code) and the closing quote a space. `"Node/{n}"` reads as the
/// tokens `QNode`, `/`, `__n_`: a check can find the text a literal starts with.
fn code_with_literals(src: &str) -> String {
    lex(src, Marks::Literals)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Marks {
    Nothing,
    Names,
    Literals,
}

fn lex(src: &str, marks: Marks) -> String {
    let mark_names = marks == Marks::Names;
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if c[i] == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if (c[i] == 'r' || (c[i] == 'b' && at(i + 1) == 'r')) && !is_ident(at(i.wrapping_sub(1))) && {
            let mut k = if c[i] == 'b' { i + 2 } else { i + 1 };
            while at(k) == '#' {
                k += 1;
            }
            at(k) == '"'
        } {
            // Raw string: r"..." or r#"..."# (optionally b-prefixed).
            let mut k = if c[i] == 'b' { i + 2 } else { i + 1 };
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            k += 1; // the opening quote
            loop {
                if k >= c.len() {
                    break;
                }
                if c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            for &ch in &c[i..k.min(c.len())] {
                blank(&mut out, ch);
            }
            i = k;
        } else if c[i] == '"'
            && mark_names
            && !is_ident(at(i.wrapping_sub(1)))
            && at(i + 1) != '"'
            && at((i + 1..c.len()).find(|&k| !is_ident(c[k])).unwrap_or(c.len())) == '"'
        {
            let end = (i + 1..c.len()).find(|&k| !is_ident(c[k])).unwrap_or(c.len());
            out.push('Q');
            out.extend(&c[i + 1..end]);
            out.push(' ');
            i = end + 1;
        } else if c[i] == '"' && marks == Marks::Literals {
            out.push('Q');
            i += 1;
            let keep = |out: &mut String, ch: char| out.push(if is_ident(ch) || ch == '/' || ch == '\n' { ch } else { '_' });
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    keep(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    keep(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '"' {
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a, 'static).
            if at(i + 1) == '\\' {
                let mut k = i + 2;
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
                for &ch in &c[i..=k.min(c.len() - 1)] {
                    blank(&mut out, ch);
                }
                i = k + 1;
            } else if at(i + 2) == '\'' {
                for &ch in &c[i..i + 3] {
                    blank(&mut out, ch);
                }
                i += 3;
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

#[derive(Clone, Debug, PartialEq)]
struct Tok {
    text: String,
    line: usize,
    start: usize,
    end: usize,
}

/// Tokens of lexed code: identifiers (and numbers), lifetimes, `::`, and single punctuation.
fn tokens(code: &str) -> Vec<Tok> {
    let b: Vec<(usize, char)> = code.char_indices().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        let (pos, ch) = b[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident(ch) || (ch == '\'' && b.get(i + 1).is_some_and(|&(_, n)| is_ident(n))) {
            let mut k = i + 1;
            while k < b.len() && is_ident(b[k].1) {
                k += 1;
            }
            let end = b.get(k).map_or(code.len(), |&(p, _)| p);
            out.push(Tok {
                text: code[pos..end].to_string(),
                line,
                start: pos,
                end,
            });
            i = k;
        } else if ch == ':' && b.get(i + 1).is_some_and(|&(_, n)| n == ':') {
            out.push(Tok {
                text: "::".into(),
                line,
                start: pos,
                end: pos + 2,
            });
            i += 2;
        } else {
            out.push(Tok {
                text: ch.to_string(),
                line,
                start: pos,
                end: pos + ch.len_utf8(),
            });
            i += 1;
        }
    }
    out
}

/// Lexed code with every `#[cfg(test)]` item blanked, and the names of the modules declared
/// test-only as `#[cfg(test)] mod name;` (their files are skipped by the caller).
fn strip_test_code(code: &str) -> (String, Vec<String>) {
    let toks = tokens(code);
    let mut blanked: Vec<(usize, usize)> = Vec::new();
    let mut test_mods = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !is_test_cfg(&toks, i) {
            i += 1;
            continue;
        }
        let attr_start = toks[i].start;
        // Skip this attribute and any further ones.
        let mut k = i;
        while k < toks.len() && toks[k].text == "#" {
            k = skip_group(&toks, k + 1) + 1;
        }
        // An entry of a macro's list that declares modules (`in_tree! { #[cfg(test)] name, }`):
        // a test-only module.
        if toks.get(k).is_some_and(|t| is_ident(t.text.chars().next().unwrap_or(' ')))
            && toks.get(k + 1).is_some_and(|t| t.text == "," || t.text == "}")
        {
            test_mods.push(toks[k].text.clone());
            blanked.push((attr_start, toks[k].end));
            i = k + 1;
            continue;
        }
        // The item: up to `;` at depth 0 (`mod x;`, `use ...;`) or a brace-delimited body.
        let is_use = toks.get(k).is_some_and(|t| t.text == "use");
        let mut depth = 0i32;
        let mut end = toks.len() - 1;
        let mut j = k;
        while j < toks.len() {
            match toks[j].text.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                ";" if depth == 0 => {
                    end = j;
                    let names: Vec<&str> = toks[k..j].iter().map(|t| t.text.as_str()).collect();
                    if let Some(p) = names.iter().position(|&n| n == "mod") {
                        test_mods.push(names[p + 1].to_string());
                    }
                    break;
                }
                "{" if depth == 0 && !is_use => {
                    end = skip_group(&toks, j);
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        blanked.push((attr_start, toks[end].end));
        i = end + 1;
    }
    let mut out = String::with_capacity(code.len());
    let mut last = 0;
    for (s, e) in blanked {
        out.push_str(&code[last..s]);
        out.extend(code[s..e].chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        last = e;
    }
    out.push_str(&code[last..]);
    (out, test_mods)
}

/// `#[cfg(test)]` or `#[cfg(all(test, ...))]` starting at token `i`.
fn is_test_cfg(toks: &[Tok], i: usize) -> bool {
    let t = |k: usize| toks.get(i + k).map_or("", |t| t.text.as_str());
    t(0) == "#"
        && t(1) == "["
        && t(2) == "cfg"
        && t(3) == "("
        && ((t(4) == "test" && t(5) == ")") || (t(4) == "all" && t(5) == "(" && t(6) == "test"))
}

/// Index of the token closing the group opened at `open` (`(`, `[` or `{`).
fn skip_group(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// The shipping code of every `.rs` file under `dir`, keyed by path relative to `dir`; files
/// of modules declared `#[cfg(test)]` (and everything under them) are left out.
fn shipping_sources(dir: &Path) -> BTreeMap<String, String> {
    shipping_sources_lexed(dir, code_only)
}

/// As `shipping_sources`, lexing each file with `lex`.
fn shipping_sources_lexed(dir: &Path, lex: fn(&str) -> String) -> BTreeMap<String, String> {
    let mut files = Vec::new();
    collect_rs(dir, &mut files);
    let mut stripped = BTreeMap::new();
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    for f in &files {
        let src = fs::read_to_string(f).unwrap();
        let (code, test_mods) = strip_test_code(&lex(&src));
        // Where `mod name;` in this file looks for its file.
        let stem = f.file_stem().unwrap().to_str().unwrap();
        let base = if matches!(stem, "mod" | "lib" | "main") {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        for m in test_mods {
            test_files.insert(base.join(format!("{m}.rs")));
            test_files.insert(base.join(&m));
        }
        stripped.insert(f.clone(), code);
    }
    stripped
        .into_iter()
        .filter(|(f, _)| !test_files.iter().any(|t| f == t || f.starts_with(t)))
        .map(|(f, code)| (f.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"), code))
        .collect()
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_rs(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The checks, as functions of one file's shipping code (so they can be tested on samples).

/// Uses of a clock or of IO: `std::{time::Instant, time::SystemTime, fs, net, env, process,
/// thread, io}`, `Instant` / `SystemTime` by name, and the printing macros.
fn clock_or_io(code: &str) -> Vec<String> {
    const STD_MODULES: &[&str] = &["fs", "net", "env", "process", "thread", "io"];
    const NAMES: &[&str] = &["Instant", "SystemTime", "UNIX_EPOCH"];
    const MACROS: &[&str] = &["println", "eprintln", "print", "eprint", "dbg"];
    let toks = tokens(code);
    let mut found = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let next = |k: usize| toks.get(i + k).map_or("", |t| t.text.as_str());
        if NAMES.contains(&t.text.as_str()) {
            found.push(format!("line {}: {}", t.line, t.text));
        }
        if MACROS.contains(&t.text.as_str()) && next(1) == "!" {
            found.push(format!("line {}: {}!", t.line, t.text));
        }
        if t.text == "std" && next(1) == "::" {
            if STD_MODULES.contains(&next(2)) {
                found.push(format!("line {}: std::{}", t.line, next(2)));
            } else if next(2) == "{" {
                // `use std::{a, b::c, ...}`: the first segment of each member.
                let close = skip_group(&toks, i + 2);
                let mut depth = 0;
                for k in i + 2..close {
                    match toks[k].text.as_str() {
                        "{" => depth += 1,
                        "}" => depth -= 1,
                        m if depth == 1 && STD_MODULES.contains(&m) && matches!(toks[k - 1].text.as_str(), "{" | ",") => {
                            found.push(format!("line {}: std::{{{m}}}", toks[k].line))
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    found
}

/// Global mutable state: `static mut`, `thread_local!`, `lazy_static!`, and `static` items
/// whose type can change after initialization (cells, locks, atomics, lazies). Returns
/// (static name or macro, line).
fn global_state(code: &str) -> Vec<(String, usize)> {
    const MUTABLE_TYPES: &[&str] = &[
        "Cell",
        "RefCell",
        "UnsafeCell",
        "OnceCell",
        "OnceLock",
        "LazyLock",
        "LazyCell",
        "Lazy",
        "Mutex",
        "RwLock",
    ];
    let toks = tokens(code);
    let mut found = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let next = |k: usize| toks.get(i + k).map_or("", |t| t.text.as_str());
        if matches!(t.text.as_str(), "thread_local" | "lazy_static") && next(1) == "!" {
            found.push((format!("{}!", t.text), t.line));
        }
        if t.text == "static" {
            if next(1) == "mut" {
                found.push((format!("static mut {}", next(2)), t.line));
                continue;
            }
            // `static NAME: Type = ...;`
            let name = next(1).to_string();
            let ty = toks[i + 1..].iter().take_while(|t| t.text != "=" && t.text != ";");
            if ty
                .into_iter()
                .any(|t| MUTABLE_TYPES.contains(&t.text.as_str()) || t.text.starts_with("Atomic"))
            {
                found.push((name, t.line));
            }
        }
    }
    found
}

/// Names that would be a second source of randomness.
fn randomness(code: &str) -> Vec<String> {
    let toks = tokens(code);
    let mut found = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1).map_or("", |t| t.text.as_str());
        let crate_path = matches!(t.text.as_str(), "rand" | "getrandom" | "fastrand" | "oorandom") && next == "::";
        let rng_type = (t.text.ends_with("Rng") || t.text.contains("Random"))
            && i > 0
            && matches!(toks[i - 1].text.as_str(), "struct" | "enum" | "type");
        if crate_path || rng_type || t.text == "RandomState" {
            found.push(format!("line {}: {}", t.line, t.text));
        }
    }
    found
}

fn report(what: &str, hits: &BTreeMap<String, Vec<String>>) {
    let hits: Vec<String> = hits
        .iter()
        .filter(|(_, h)| !h.is_empty())
        .map(|(f, h)| format!("  {f}: {}", h.join(", ")))
        .collect();
    assert!(hits.is_empty(), "{what}:\n{}", hits.join("\n"));
}

fn core_sources() -> BTreeMap<String, String> {
    let src = shipping_sources(&workspace().join("crates/core/src"));
    // The walk must see the engine and must have skipped the test-only files.
    assert!(
        src.contains_key("engine/mod.rs") && src.contains_key("rng.rs"),
        "core sources not found"
    );
    for t in [
        "plugins/testing.rs",
        "load/tests.rs",
        "view/tests.rs",
        "controllers/live_tests.rs",
        "engine/tests.rs",
        "queue/tests.rs",
    ] {
        assert!(!src.contains_key(t), "{t} is test code and should have been skipped");
    }
    src
}

// ---------------------------------------------------------------------------------------------
// Manifests.

/// The crate names in a manifest's dependency sections whose header satisfies `section`.
fn manifest_deps(manifest: &str, section: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']');
            // `[dependencies.web-sys]` names one crate in its header.
            let (table, one) = match header.rsplit_once('.') {
                Some((t, name)) if t.ends_with("dependencies") && !name.contains('\'') => (t, Some(name)),
                _ => (header, None),
            };
            inside = section(table) && one.is_none();
            if section(table) {
                if let Some(name) = one {
                    out.push(name.trim_matches('"').to_string());
                }
            }
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            if let Some((key, _)) = line.split_once('=') {
                out.push(key.split('.').next().unwrap().trim().trim_matches('"').to_string());
            }
        }
    }
    out
}

/// Normal (non-dev, non-build) dependency sections, target-specific ones included.
fn normal_section(table: &str) -> bool {
    table == "dependencies" || (table.starts_with("target.") && table.ends_with(".dependencies"))
}

const WEB_CRATES: &[&str] = &[
    "web-sys",
    "js-sys",
    "wasm-bindgen",
    "wasm-bindgen-futures",
    "gloo",
    "leptos",
    "console_error_panic_hook",
    "yew",
    "dioxus",
    "sycamore",
];

fn is_web_crate(name: &str) -> bool {
    WEB_CRATES.contains(&name) || name.starts_with("gloo-") || name.starts_with("leptos") || name.starts_with("wasm-bindgen")
}

fn is_random_crate(name: &str) -> bool {
    name.starts_with("rand") || matches!(name, "getrandom" | "fastrand" | "oorandom" | "nanorand" | "tinyrand")
}

/// Cargo.lock's graph: each package name with the names it depends on. Cargo.lock does not
/// tell dev from normal edges, and it holds every target and every version of a name, so
/// walks over it give a superset of what one build links.
fn lock_graph() -> BTreeMap<String, BTreeSet<String>> {
    let lock = fs::read_to_string(workspace().join("Cargo.lock")).unwrap();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for block in lock.split("[[package]]").skip(1) {
        let mut name = String::new();
        let mut deps = Vec::new();
        let mut in_deps = false;
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("name = ") {
                name = n.trim_matches('"').to_string();
            } else if line.starts_with("dependencies = [") {
                in_deps = true;
            } else if in_deps && line.starts_with(']') {
                in_deps = false;
            } else if in_deps {
                let d = line.trim().trim_matches(|c| c == '"' || c == ',');
                deps.push(d.split(' ').next().unwrap().to_string());
            }
        }
        graph.entry(name).or_default().extend(deps);
    }
    graph
}

/// Every package `schedlab-core` reaches through its normal dependencies (core's own
/// dev-dependencies are left out at the root) without passing through a package of `avoid`,
/// with one chain that reaches it.
fn core_closure(graph: &BTreeMap<String, BTreeSet<String>>, avoid: &[&str]) -> BTreeMap<String, Vec<String>> {
    let manifest = fs::read_to_string(workspace().join("crates/core/Cargo.toml")).unwrap();
    // What only tests use: a dev-dependency that is not also a dependency of the library.
    let normal = manifest_deps(&manifest, |t| t.ends_with("dependencies") && !t.ends_with("dev-dependencies"));
    let dev: Vec<String> = manifest_deps(&manifest, |t| t.ends_with("dev-dependencies"))
        .into_iter()
        .filter(|d| !normal.contains(d))
        .collect();
    let root = "schedlab-core".to_string();
    let mut reached: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stack: Vec<(String, Vec<String>)> = graph[&root]
        .iter()
        .filter(|d| !dev.contains(d))
        .map(|d| (d.clone(), vec![root.clone(), d.clone()]))
        .collect();
    while let Some((n, chain)) = stack.pop() {
        if reached.contains_key(&n) || avoid.contains(&n.as_str()) {
            continue;
        }
        for d in graph.get(&n).into_iter().flatten() {
            let mut c = chain.clone();
            c.push(d.clone());
            stack.push((d.clone(), c));
        }
        reached.insert(n, chain);
    }
    reached
}

// ---------------------------------------------------------------------------------------------
// The invariants.

/// ARCHITECTURE: core never touches the browser. Its own manifest names no web or JS crate
/// (the wasm test harness is a dev-dependency).
#[test]
fn core_depends_on_no_web_crate() {
    let manifest = fs::read_to_string(workspace().join("crates/core/Cargo.toml")).unwrap();
    let deps = manifest_deps(&manifest, normal_section);
    assert!(deps.contains(&"serde".to_string()), "manifest not parsed: {deps:?}");
    let web: Vec<&String> = deps.iter().filter(|d| is_web_crate(d)).collect();
    assert!(web.is_empty(), "crates/core/Cargo.toml [dependencies] names web/JS crates: {web:?}");
}

/// Crates reached transitively that would otherwise break the invariants, each with the reason
/// it is accepted. The test fails if a new one appears, or if one listed here is gone (then
/// remove it here and in ARCHITECTURE.md).
const TRANSITIVE_EXCEPTIONS: &[(&str, &str)] = &[
    // kube-cel → cel → chrono → iana-time-zone: on wasm32 only, to ask the browser for the
    // local time zone. Nothing in core asks chrono for the time (our CEL has no `now`).
    ("js-sys", "iana-time-zone"),
    ("wasm-bindgen", "iana-time-zone"),
    ("wasm-bindgen-macro", "iana-time-zone"),
    ("wasm-bindgen-macro-support", "iana-time-zone"),
    ("wasm-bindgen-shared", "iana-time-zone"),
    // kube-cel → cel → antlr4rust → uuid (→ getrandom, and on wasm32 js-sys/wasm-bindgen):
    // antlr4rust only parses the constant uuids of its serialized grammar (`Uuid::from_str`).
    ("getrandom", "uuid"),
    ("js-sys", "uuid"),
    ("wasm-bindgen", "uuid"),
    ("wasm-bindgen-macro", "uuid"),
    ("wasm-bindgen-macro-support", "uuid"),
    ("wasm-bindgen-shared", "uuid"),
];

/// ARCHITECTURE: the same for everything core links, with the known exceptions listed above.
#[test]
fn core_links_no_web_or_random_crate_beyond_the_known_exceptions() {
    let graph = lock_graph();
    let reached = core_closure(&graph, &[]);
    assert!(reached.contains_key("serde_json"), "Cargo.lock not parsed");
    let mut unexpected = Vec::new();
    for (name, chain) in &reached {
        if !(is_web_crate(name) || is_random_crate(name)) {
            continue;
        }
        // Excused only if every route to it runs through a package its exceptions name.
        let vias: Vec<&str> = TRANSITIVE_EXCEPTIONS
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, via)| *via)
            .collect();
        if vias.is_empty() {
            unexpected.push(chain.join(" → "));
        } else if let Some(other) = core_closure(&graph, &vias).get(name) {
            unexpected.push(other.join(" → "));
        }
    }
    assert!(
        unexpected.is_empty(),
        "core reaches web/JS or random crates:\n{}",
        unexpected.join("\n")
    );
    let stale: Vec<_> = TRANSITIVE_EXCEPTIONS.iter().filter(|(n, _)| !reached.contains_key(*n)).collect();
    assert!(
        stale.is_empty(),
        "exceptions no longer needed (remove them here and in ARCHITECTURE.md): {stale:?}"
    );
}

/// ARCHITECTURE: core never reads a clock and never does IO.
#[test]
fn core_reads_no_clock_and_does_no_io() {
    let hits = core_sources().into_iter().map(|(f, code)| (f, clock_or_io(&code))).collect();
    report("core code reads a clock or does IO", &hits);
}

/// Statics that look mutable by type but are not global state, each with its reason.
const GLOBAL_STATE_EXCEPTIONS: &[(&str, &str)] = &[
    // A constant built on first use (a Taint holds Strings, so it cannot be a `const`); it is
    // never written after that and holds nothing that depends on a run.
    ("plugins/node_unschedulable/mod.rs", "UNSCHEDULABLE_TAINT"),
];

/// ARCHITECTURE: core has no global mutable state.
#[test]
fn core_has_no_global_mutable_state() {
    let mut seen = Vec::new();
    let hits = core_sources()
        .into_iter()
        .map(|(f, code)| {
            let h: Vec<String> = global_state(&code)
                .into_iter()
                .filter(|(name, _)| {
                    let excused = GLOBAL_STATE_EXCEPTIONS.contains(&(f.as_str(), name.as_str()));
                    if excused {
                        seen.push((f.clone(), name.clone()));
                    }
                    !excused
                })
                .map(|(name, line)| format!("line {line}: {name}"))
                .collect();
            (f, h)
        })
        .collect();
    report("core code holds global mutable state", &hits);
    for (f, name) in GLOBAL_STATE_EXCEPTIONS {
        assert!(seen.iter().any(|(sf, sn)| sf == f && sn == name), "stale exception {f}: {name}");
    }
}

/// ARCHITECTURE: core has exactly one source of randomness, `rng::Rng`.
#[test]
fn core_has_one_source_of_randomness() {
    let manifest = fs::read_to_string(workspace().join("crates/core/Cargo.toml")).unwrap();
    let random: Vec<String> = manifest_deps(&manifest, normal_section)
        .into_iter()
        .filter(|d| is_random_crate(d))
        .collect();
    assert!(random.is_empty(), "core depends on a random crate: {random:?}");
    let hits = core_sources()
        .into_iter()
        .map(|(f, code)| {
            let mut h = randomness(&code);
            if f == "rng.rs" {
                // The one generator is defined here.
                h.retain(|hit| !hit.ends_with(": Rng"));
            }
            (f, h)
        })
        .collect();
    report("a second source of randomness", &hits);
}

/// The slice sorts and array-built ordered collections a file's code calls: `.sort(`,
/// `.sort_by_key(`, `.sort_unstable_by(`, … and `BTreeMap::from(` / `BTreeSet::from(`.
fn std_sorts(code: &str) -> Vec<String> {
    let toks = tokens(code);
    let text = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let mut found = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let method = i > 0
            && text(i - 1) == "."
            && text(i + 1) == "("
            && matches!(
                t.text.as_str(),
                "sort" | "sort_by" | "sort_by_key" | "sort_by_cached_key" | "sort_unstable" | "sort_unstable_by" | "sort_unstable_by_key"
            );
        let from_array = matches!(t.text.as_str(), "BTreeMap" | "BTreeSet") && text(i + 1) == "::" && text(i + 2) == "from" && text(i + 3) == "(";
        if method || from_array {
            found.push(format!("line {}: {}", t.line, t.text));
        }
    }
    found
}

/// ARCHITECTURE: core sorts with `sort` (its one stable sort, compiled once): std's slice sorts
/// compile a whole driftsort or ipnsort into the worker's wasm for every element type and
/// comparator they are called with. (`collect()` into a `BTreeMap`/`BTreeSet` sorts too, per
/// pair type and iterator type; `sort::map_of`/`set_of` build them by insertion, which this
/// reader cannot check: `twiggy top` on the worker's wasm shows what is left.)
#[test]
fn core_sorts_with_its_one_sort() {
    let hits = core_sources()
        .into_iter()
        .filter(|(f, _)| f != "sort.rs")
        .map(|(f, code)| (f, std_sorts(&code)))
        .collect();
    report("std's sort called outside sort.rs (use crate::sort)", &hits);
    let planted = shipping(
        "fn f(v: &mut Vec<u8>) {\n v.sort();\n v.sort_unstable_by_key(|x| *x);\n let m = BTreeMap::from([(1, 2)]);\n crate::sort::sort(v);\n}\n#[cfg(test)]\nmod tests { fn t(v: &mut [u8]) { v.sort() } }",
    );
    assert_eq!(std_sorts(&planted), ["line 2: sort", "line 3: sort_unstable_by_key", "line 4: BTreeMap"]);
}

/// ARCHITECTURE: core links no crate that wraps every visitor to learn where a decoding error
/// is or which fields a type ignored (`apimachinery::json::Strict` tracks both itself):
/// serde_path_to_error and serde_ignored compile every `Deserialize` impl they wrap a second
/// time into the worker. They stay dev-dependencies (the tests comparing Strict with them).
#[test]
fn core_links_no_visitor_wrapper() {
    let graph = lock_graph();
    let reached = core_closure(&graph, &[]);
    assert!(reached.contains_key("serde_json"), "Cargo.lock not parsed");
    for wrapper in ["serde_path_to_error", "serde_ignored"] {
        if let Some(chain) = reached.get(wrapper) {
            panic!("core links {wrapper}: {}", chain.join(" → "));
        }
    }
}

/// Packages of the engine: the scheduler, its worker, and what only the engine needs (the YAML
/// parsers, the CEL interpreter).
const ENGINE_CRATES: &[&str] = &["schedlab-core", "schedlab-worker", "saphyr-parser", "kube-cel", "cel"];

/// Dependencies renamed in the workspace's `[workspace.dependencies]` (`key = { package =
/// "name", … }`): key → package.
fn workspace_renames() -> BTreeMap<String, String> {
    let manifest = fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[workspace.dependencies]";
            continue;
        }
        if !inside {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if let Some(rest) = value.split("package").nth(1) {
            let pkg = rest.trim_start().trim_start_matches('=').trim_start();
            if let Some(name) = pkg.strip_prefix('"').and_then(|p| p.split('"').next()) {
                out.insert(key.trim().to_string(), name.to_string());
            }
        }
    }
    out
}

/// The packages a crate's manifest names in its normal `[dependencies]` (renames resolved:
/// the key of a workspace dependency, or an inline `package = "…"`).
fn normal_dep_packages(manifest_path: &str) -> Vec<String> {
    let manifest = fs::read_to_string(workspace().join(manifest_path)).unwrap();
    let renames = workspace_renames();
    let mut out = Vec::new();
    for key in manifest_deps(&manifest, normal_section) {
        // An inline rename on the dependency's own line.
        let inline = manifest.lines().find_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix(key.as_str())?.trim_start().strip_prefix('=')?;
            let pkg = rest.split("package").nth(1)?.trim_start().trim_start_matches('=').trim_start();
            pkg.strip_prefix('"').and_then(|p| p.split('"').next()).map(str::to_string)
        });
        out.push(inline.or_else(|| renames.get(&key).cloned()).unwrap_or(key));
    }
    out
}

/// Every package reachable in Cargo.lock from `roots` (each with one chain that reaches it).
fn lock_closure(graph: &BTreeMap<String, BTreeSet<String>>, root: &str, roots: &[String]) -> BTreeMap<String, Vec<String>> {
    let mut reached: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stack: Vec<(String, Vec<String>)> = roots.iter().map(|d| (d.clone(), vec![root.to_string(), d.clone()])).collect();
    while let Some((n, chain)) = stack.pop() {
        if reached.contains_key(&n) {
            continue;
        }
        for d in graph.get(&n).into_iter().flatten() {
            let mut c = chain.clone();
            c.push(d.clone());
            stack.push((d.clone(), c));
        }
        reached.insert(n, chain);
    }
    reached
}

/// The engine packages a crate reaches through its normal dependencies, as chains.
fn engine_reached(graph: &BTreeMap<String, BTreeSet<String>>, krate: &str, manifest_path: &str) -> Vec<String> {
    let roots = normal_dep_packages(manifest_path);
    assert!(
        roots.iter().any(|r| r.starts_with("serde")),
        "{manifest_path} not parsed: {roots:?}"
    );
    lock_closure(graph, krate, &roots)
        .into_iter()
        .filter(|(n, _)| ENGINE_CRATES.contains(&n.as_str()))
        .map(|(_, chain)| chain.join(" → "))
        .collect()
}

/// ARCHITECTURE: the web page cannot run the engine. schedlab-web's normal dependencies reach,
/// transitively in Cargo.lock, no engine package (schedlab-core, the YAML parsers, CEL): the
/// page talks to the worker (`schedlab-worker`), and what it renders is `schedlab-view`'s data.
/// `schedlab-view` itself depends on serde and serde_json only. (schedlab-core is a
/// dev-dependency of schedlab-web, for unit tests: never in the page's wasm.)
#[test]
fn page_crate_cannot_reach_the_engine() {
    let graph = lock_graph();
    let page = engine_reached(&graph, "schedlab-web", "crates/web/Cargo.toml");
    assert!(page.is_empty(), "the page (schedlab-web) reaches the engine:\n{}", page.join("\n"));
    let view = engine_reached(&graph, "schedlab-view", "crates/view/Cargo.toml");
    assert!(view.is_empty(), "schedlab-view reaches the engine:\n{}", view.join("\n"));
    let mut view_deps = normal_dep_packages("crates/view/Cargo.toml");
    view_deps.sort();
    assert_eq!(
        view_deps,
        ["serde", "serde_json"],
        "schedlab-view is pure data: serde and serde_json only"
    );
    // The worker is where the engine runs (and the check sees the engine at all).
    let worker = engine_reached(&graph, "schedlab-worker", "crates/worker/Cargo.toml");
    assert!(
        worker.iter().any(|c| c.ends_with("schedlab-core")) && worker.iter().any(|c| c.ends_with("saphyr-parser")),
        "the worker should reach the engine: {worker:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The helpers catch what they should (and only that).

fn shipping(src: &str) -> String {
    strip_test_code(&code_only(src)).0
}

#[test]
fn helpers_catch_violations_outside_test_code_only() {
    let src = r##"
        // std::fs in a comment, println!("x") too
        /* nested /* std::net */ Instant */
        const A: &str = "std::env::var and Instant::now()";
        const B: &str = r#"thread_local! { static X: Cell<u8> = Cell::new(0) }"#;
        const C: char = '{';
        fn f<'a>(x: &'a str) -> &'static str { "" }
        #[cfg(test)]
        mod tests {
            fn t() { println!("{}", std::time::Instant::now()); let _ = std::fs::read("x"); }
            static mut N: u8 = 0;
            struct MyRng;
        }
        #[cfg(test)]
        mod live_tests;
        #[cfg(all(test, target_arch = "wasm32"))]
        use std::{fs, thread};
        fn g() {}
    "##;
    let code = shipping(src);
    assert!(code.contains("fn g"));
    assert!(clock_or_io(&code).is_empty(), "{:?}", clock_or_io(&code));
    assert!(global_state(&code).is_empty());
    assert!(randomness(&code).is_empty());
    assert_eq!(strip_test_code(&code_only(src)).1, vec!["live_tests".to_string()]);

    let bad_io = shipping(
        "use std::{collections::BTreeMap, fs};\nfn f() { let t = std::time::Instant::now(); eprintln!(\"\"); std::process::exit(1) }",
    );
    assert_eq!(
        clock_or_io(&bad_io),
        ["line 1: std::{fs}", "line 2: Instant", "line 2: eprintln!", "line 2: std::process"]
    );
    let bad_state = shipping(
        "static mut N: u8 = 0;\nstatic C: AtomicU64 = AtomicU64::new(0);\nstatic K: std::sync::Mutex<Vec<u8>> = Mutex::new(vec![]);\nthread_local! { }\nstatic OK: &str = \"\";",
    );
    let names: Vec<String> = global_state(&bad_state).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["static mut N", "C", "K", "thread_local!"]);
    let bad_rng = shipping("use rand::Rng;\nstruct XorRng(u64);\nfn h(s: RandomState) {}");
    assert_eq!(randomness(&bad_rng).len(), 3);
}

#[test]
fn manifest_reader_finds_every_form() {
    let m = "[package]\nname = \"x\"\n\n[dependencies]\nserde.workspace = true\nleptos = { version = \"0.8\" }\n# js-sys = \"0.3\"\n\n[dependencies.web-sys]\nversion = \"0.3\"\n\n[target.'cfg(target_arch = \"wasm32\")'.dependencies]\ngloo-timers = \"0.3\"\n\n[dev-dependencies]\nwasm-bindgen-test = \"0.3\"\n";
    assert_eq!(manifest_deps(m, normal_section), ["serde", "leptos", "web-sys", "gloo-timers"]);
    assert_eq!(manifest_deps(m, |t| t == "dev-dependencies"), ["wasm-bindgen-test"]);
}

// ---------------------------------------------------------------------------------------------
// Docs that must follow the code.

/// docs/trace.md documents every event type the trace module defines (its table's first
/// column), so a new event cannot land undocumented.
#[test]
fn trace_doc_lists_every_event_type() {
    let src = code_only(&fs::read_to_string(workspace().join("crates/core/src/trace.rs")).unwrap());
    let body = &src[src.find("pub enum TraceEvent").expect("TraceEvent")..];
    let toks = tokens(&body[..=body.find("\n}").unwrap()]);
    // Variants: identifiers at brace depth 1 followed by `{`, `,` or `(`.
    let mut depth = 0;
    let mut types = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.text.as_str() {
            "{" | "(" | "[" => depth += 1,
            "}" | ")" | "]" => depth -= 1,
            name if depth == 1
                && name.starts_with(|c: char| c.is_ascii_uppercase())
                && toks.get(i + 1).is_some_and(|n| matches!(n.text.as_str(), "{" | "," | "(")) =>
            {
                let mut c = name.chars();
                let first = c.next().unwrap().to_ascii_lowercase();
                types.push(format!("{first}{}", c.as_str()));
            }
            _ => {}
        }
    }
    assert!(
        types.len() >= 20 && types.contains(&"clock".to_string()),
        "variants not found: {types:?}"
    );
    let doc = fs::read_to_string(workspace().join("docs/trace.md")).unwrap();
    let first_columns: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .map(|l| l.split(" |").next().unwrap())
        .collect();
    let missing: Vec<&String> = types
        .iter()
        .filter(|t| !first_columns.iter().any(|c| c.split(", ").any(|n| n == format!("`{t}`"))))
        .collect();
    assert!(missing.is_empty(), "docs/trace.md's event table misses {missing:?}");
}

// ---------------------------------------------------------------------------------------------
// The plugins' extension-point table against the methods each plugin overrides.

/// Per plugin (by what its `fn name` returns, `PluginName::X`), the `Plugin` methods its
/// `impl Plugin for …` block overrides.
fn plugin_methods(src: &str) -> BTreeMap<String, BTreeSet<String>> {
    let toks = tokens(src);
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].text != "impl" {
            i += 1;
            continue;
        }
        let Some(open) = (i..toks.len()).find(|&k| toks[k].text == "{") else {
            break;
        };
        let header: Vec<&str> = toks[i..open].iter().map(|t| t.text.as_str()).collect();
        if !header.windows(2).any(|w| w == ["Plugin", "for"]) {
            i = open + 1;
            continue;
        }
        let close = skip_group(&toks, open);
        let (mut name, mut methods) = (None, BTreeSet::new());
        let mut k = open + 1;
        while k < close {
            if toks[k].text == "fn" && k + 1 < close {
                let m = toks[k + 1].text.clone();
                let body = (k..close).find(|&b| toks[b].text == "{").unwrap_or(close);
                let end = skip_group(&toks, body);
                if m == "name" {
                    name = (body..end)
                        .find(|&b| toks[b].text == "PluginName" && toks[b + 1].text == "::")
                        .map(|b| toks[b + 2].text.clone());
                } else {
                    methods.insert(m);
                }
                k = end + 1;
            } else {
                k += 1;
            }
        }
        if let Some(n) = name {
            out.insert(n, methods);
        }
        i = close + 1;
    }
    out
}

/// The extension points a set of overridden methods implements; the methods that only serve
/// another point (`unreserve`, `queueing_hint`, the PreFilter extensions, score
/// normalisation) add nothing.
fn points_of(methods: &BTreeSet<String>) -> Result<BTreeSet<ExtensionPoint>, String> {
    use ExtensionPoint::*;
    let mut points = BTreeSet::new();
    for m in methods {
        points.extend(match m.as_str() {
            "pre_enqueue" => Some(PreEnqueue),
            "less" => Some(QueueSort),
            "events_to_register" => Some(EnqueueExtensions),
            "pre_filter" => Some(PreFilter),
            "filter" | "filter_nodes" => Some(Filter),
            "post_filter" => Some(PostFilter),
            "pre_score" => Some(PreScore),
            "score" | "score_nodes" => Some(Score),
            "reserve" => Some(Reserve),
            "permit" => Some(Permit),
            "pre_bind" | "pre_bind_pre_flight" => Some(PreBind),
            "bind" => Some(Bind),
            "post_bind" => Some(PostBind),
            "unreserve"
            | "queueing_hint"
            | "has_pre_filter_extensions"
            | "add_pod"
            | "remove_pod"
            | "has_normalize_score"
            | "normalize_score"
            | "as_any" => None,
            other => {
                return Err(format!(
                    "`{other}` is not a Plugin method this test knows: say which extension point it serves"
                ))
            }
        });
    }
    Ok(points)
}

/// The framework runs a plugin at an extension point only if its descriptor says it
/// implements it: a missing point silently disables the method, an extra one runs the trait's
/// default. Every descriptor's points must equal what its `impl Plugin` block overrides.
#[test]
fn extension_points_match_the_methods_each_plugin_overrides() {
    use schedlab_core::plugins::IN_TREE;
    use schedlab_core::vocabulary::PluginName;
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for code in shipping_sources(&workspace().join("crates/core/src/plugins")).values() {
        found.extend(plugin_methods(code));
    }
    let mut wrong = Vec::new();
    for p in PluginName::ALL {
        // `fn name` returns `PluginName::<Variant>`: found by the variant (an extension's
        // spelling, `schedlab.dev/CEL`, is not its variant's).
        let Some(methods) = found.get(&format!("{p:?}")) else {
            wrong.push(format!("{}: no `impl Plugin` block whose `fn name` returns it", p.as_str()));
            continue;
        };
        let declared: BTreeSet<ExtensionPoint> = IN_TREE.get(p).points.iter().collect();
        match points_of(methods) {
            Ok(points) if points == declared => {}
            Ok(points) => wrong.push(format!(
                "{}: the descriptor says {declared:?}, the methods ({}) implement {points:?}",
                p.as_str(),
                methods.iter().cloned().collect::<Vec<_>>().join(", ")
            )),
            Err(e) => wrong.push(format!("{}: {e}", p.as_str())),
        }
    }
    assert!(wrong.is_empty(), "extension points out of step:\n{}", wrong.join("\n"));
    assert_eq!(
        found.len(),
        PluginName::ALL.len(),
        "a Plugin impl without a registry name: {:?}",
        found.keys()
    );
}

#[test]
fn plugin_method_reader_sees_overrides_and_names() {
    let sample = "struct A; impl Plugin for A { fn name(&self) -> PluginName { PluginName::Alpha } \
                  fn filter(&self) -> Status { if x { y } else { z } } fn score(&self) {} }\n\
                  impl Other for A { fn pre_bind(&self) {} }";
    let m = plugin_methods(sample);
    assert_eq!(m.len(), 1);
    assert_eq!(m["Alpha"], BTreeSet::from(["filter".to_string(), "score".to_string()]));
    assert_eq!(
        points_of(&m["Alpha"]),
        Ok(BTreeSet::from([ExtensionPoint::Filter, ExtensionPoint::Score]))
    );
    assert!(points_of(&BTreeSet::from(["frobnicate".to_string()])).is_err());
}

// ---------------------------------------------------------------------------------------------
// Layers: every top-level module of a crate has a row in its table, lowest first, and names
// only modules on earlier rows. The checker takes a crate's sources and its table, so any
// crate of the workspace can state one.

/// A crate's layer table: (top-level module, what it is), lowest first. A module may name only
/// modules on earlier rows; every top-level module of the crate must have a row.
type Layers = [(&'static str, &'static str)];

/// The module path of a source file (relative to `src/`): `config/args.rs` → `[config, args]`,
/// `config/mod.rs` → `[config]`, `lib.rs` / `main.rs` → `[]` (the crate root).
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|l| l == "mod") || (parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The top-level modules a file's code names, each with the line: every path that starts at
/// `crate::`, climbs with `super::` (resolved against the file's module and the inline `mod`
/// blocks around it) or starts at `self::`, grouped imports (`use crate::{a::b, c::{d, e}}`)
/// included. A name of the crate root that is not a module is looked up in `root_names` (the
/// root's re-exports, `crate::Engine` → `engine`).
fn named_modules(file: &str, code: &str, root_names: &BTreeMap<String, String>) -> Vec<(String, usize)> {
    let toks = tokens(code);
    let text = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let file_path = module_path(file);
    // Inline modules open around the current token: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match text(i) {
            "{" => {
                depth += 1;
                if i >= 2 && text(i - 2) == "mod" {
                    inline.push((text(i - 1).to_string(), depth));
                }
            }
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        let starts_path = i == 0 || text(i - 1) != "::";
        let here = || {
            file_path
                .iter()
                .cloned()
                .chain(inline.iter().map(|(n, _)| n.clone()))
                .collect::<Vec<_>>()
        };
        let (base, rest) = match text(i) {
            "crate" if starts_path && text(i + 1) == "::" => (Vec::new(), i + 2),
            "self" if starts_path && text(i + 1) == "::" => (here(), i + 2),
            "super" if starts_path && text(i + 1) == "::" => {
                let mut base = here();
                let mut k = i;
                while text(k) == "super" && text(k + 1) == "::" {
                    if base.pop().is_none() {
                        break;
                    }
                    k += 2;
                }
                (base, k)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        let line = toks[i].line;
        if let Some(top) = base.first() {
            out.push((top.clone(), line));
        } else if text(rest) == "{" {
            // A group at the crate root: the first segment of each member.
            let close = skip_group(&toks, rest);
            let (mut d, mut at_start) = (0, true);
            for t in &toks[rest + 1..close] {
                match t.text.as_str() {
                    "{" => d += 1,
                    "}" => d -= 1,
                    "," if d == 0 => {
                        at_start = true;
                        continue;
                    }
                    name if at_start && d == 0 && name != "self" => {
                        out.push((root_names.get(name).cloned().unwrap_or_else(|| name.to_string()), t.line))
                    }
                    _ => {}
                }
                at_start = false;
            }
        } else if is_ident(text(rest).chars().next().unwrap_or(' ')) {
            let name = text(rest);
            out.push((root_names.get(name).cloned().unwrap_or_else(|| name.to_string()), line));
        }
        i = rest;
    }
    out
}

/// The crate root's re-exports: each name a `use module::…` of the root brings in, mapped to
/// that module (`pub use engine::{Engine, EngineOptions}` → Engine → engine).
fn root_reexports(root: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let toks = tokens(root);
    let mut out = BTreeMap::new();
    for (i, t) in toks.iter().enumerate() {
        if t.text != "use" {
            continue;
        }
        let mut k = i + 1;
        if toks.get(k).is_some_and(|t| t.text == "crate") {
            k += 2;
        }
        let Some(m) = toks.get(k).map(|t| t.text.clone()).filter(|m| modules.contains(m)) else {
            continue;
        };
        for t in toks[k + 1..].iter().take_while(|t| t.text != ";") {
            if is_ident(t.text.chars().next().unwrap_or(' ')) && t.text != "self" && t.text != "as" {
                out.insert(t.text.clone(), m.clone());
            }
        }
    }
    out
}

/// What is wrong with a crate's layering: a top-level module without a row, a row naming no
/// module, and every path of a module's shipping code to a module on its own row or a later
/// one (`sources`: shipping code by path relative to `src/`).
fn layering_violations(sources: &BTreeMap<String, String>, layers: &Layers) -> Vec<String> {
    let mut wrong = Vec::new();
    let rank: BTreeMap<&str, usize> = layers.iter().enumerate().map(|(r, (m, _))| (*m, r)).collect();
    if rank.len() != layers.len() {
        wrong.push("a module has two rows in the layer table".to_string());
    }
    let modules: BTreeSet<String> = sources.keys().filter_map(|f| module_path(f).into_iter().next()).collect();
    for m in &modules {
        if !rank.contains_key(m.as_str()) {
            wrong.push(format!("module `{m}` has no row in the layer table: say which modules it may name"));
        }
    }
    for (m, _) in layers {
        if !modules.contains(*m) {
            wrong.push(format!("the layer table has a row for `{m}`, which is no module of the crate"));
        }
    }
    let root = ["lib.rs", "main.rs"]
        .iter()
        .find_map(|f| sources.get(*f))
        .map_or("", |s| s.as_str());
    let root_names = root_reexports(root, &modules);
    for (file, code) in sources {
        let Some(own) = module_path(file).into_iter().next() else {
            continue;
        };
        let Some(&own_rank) = rank.get(own.as_str()) else {
            continue;
        };
        for (named, line) in named_modules(file, code, &root_names) {
            match rank.get(named.as_str()) {
                Some(&r) if named != own && r >= own_rank => {
                    wrong.push(format!("{file} line {line}: `{own}` names `{named}`, a layer at or above its own"))
                }
                _ => {}
            }
        }
    }
    wrong
}

/// Checks a crate's sources (`src_dir`) against its layer table.
fn assert_layered(src_dir: &Path, layers: &Layers) {
    let wrong = layering_violations(&shipping_sources(src_dir), layers);
    assert!(
        wrong.is_empty(),
        "imports of {} do not run one way:\n{}",
        src_dir.display(),
        wrong.join("\n")
    );
}

/// The layers of schedlab-core, lowest first (ARCHITECTURE.md, "Imports run one way").
const CORE_LAYERS: &Layers = &[
    ("sort", "the one stable sort, compiled once for every element type"),
    (
        "vocabulary",
        "the words every layer shares: plugin names, extension points, the v1 Plugins shape",
    ),
    (
        "version",
        "what each Kubernetes version does differently: gates, default plugins, switches",
    ),
    ("quantity", "resource quantities"),
    ("rng", "the one seeded source of randomness"),
    (
        "apimachinery",
        "field paths, name checks, strict JSON decoding, Go's quoting and durations",
    ),
    ("api", "the Kubernetes object types"),
    ("labels", "label and node selectors"),
    ("model", "PodInfo, NodeInfo and the cluster events that change them"),
    ("dra", "resource.k8s.io objects, CEL device selectors, the structured allocator"),
    ("cluster", "the simulated cluster, the node snapshot, the nominator"),
    (
        "framework",
        "statuses, cycle state, the plugin interface and runtime, plugin args and their codec",
    ),
    ("trace", "the event log"),
    (
        "plugins",
        "the in-tree plugins and their registry; they see the framework, never who drives it",
    ),
    (
        "config",
        "KubeSchedulerConfiguration: decoding, defaults, validation, expansion; reads the registry",
    ),
    ("timeline", "the Timeline document's data and patches"),
    (
        "load",
        "scenario loading: YAML, defaulting, validation, the configuration and timeline documents",
    ),
    ("controllers", "the workload controllers"),
    ("queue", "the scheduling queue"),
    ("engine", "the scheduler loop"),
    (
        "lesson",
        "lessons: run facts, goals' verdicts, edit scopes, solutions (the document is load's)",
    ),
    ("output", "views of a finished run"),
    ("import", "importing a real cluster"),
    (
        "export",
        "back to a real cluster: the configuration and the manifests, schedlab's own left out",
    ),
    ("conformance", "the conformance JSON"),
    (
        "answer",
        "why a pod is here or pending, verified suggestions (re-runs of edited scenarios)",
    ),
    ("view", "the front ends' views, explanations and cross-check"),
];

/// ARCHITECTURE: imports run one way. Every top-level module of core has a row in
/// `CORE_LAYERS` and names only modules on earlier rows; and a view reaches the plugins only
/// through the registry (`plugins::IN_TREE`), never a plugin's own module.
#[test]
fn imports_run_one_way() {
    assert_layered(&workspace().join("crates/core/src"), CORE_LAYERS);
    let src = shipping_sources(&workspace().join("crates/core/src"));
    let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, code) in src.iter().filter(|(f, _)| f.starts_with("view/")) {
        for (a, b, line) in crate_paths(code) {
            if a == "plugins" && !matches!(b.as_str(), "IN_TREE" | "registry") {
                hits.entry(file.clone()).or_default().push(format!("line {line}: crate::{a}::{b}"));
            }
        }
    }
    report("a view names a plugin, not the registry", &hits);
}

/// The crate paths a file's code names: `crate::a::b` as ("a", "b"); grouped imports
/// (`use crate::{a::b, c}`) give one entry per member ("" when a member names a module alone).
fn crate_paths(code: &str) -> Vec<(String, String, usize)> {
    let toks = tokens(code);
    let text = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.text != "crate" || text(i + 1) != "::" {
            continue;
        }
        let path_at = |k: usize| -> (String, String) {
            let first = text(k).to_string();
            let second = if text(k + 1) == "::" && is_ident(text(k + 2).chars().next().unwrap_or(' ')) {
                text(k + 2).to_string()
            } else {
                String::new()
            };
            (first, second)
        };
        if text(i + 2) == "{" {
            let close = skip_group(&toks, i + 2);
            let (mut depth, mut at_start) = (0, true);
            for k in i + 3..close {
                match text(k) {
                    "{" => depth += 1,
                    "}" => depth -= 1,
                    "," if depth == 0 => {
                        at_start = true;
                        continue;
                    }
                    _ if at_start && depth == 0 => {
                        let (a, b) = path_at(k);
                        out.push((a, b, t.line));
                    }
                    _ => {}
                }
                at_start = false;
            }
        } else {
            let (a, b) = path_at(i + 2);
            out.push((a, b, t.line));
        }
    }
    out
}

/// The plugin names a file's code writes as string literals (`"NodePorts"`), as
/// "line N: NodePorts"; the code must come from `code_with_names`.
fn plugin_name_strings(code: &str) -> Vec<String> {
    use schedlab_core::vocabulary::PluginName;
    let names: BTreeSet<String> = PluginName::ALL.iter().map(|p| format!("Q{}", p.as_str())).collect();
    tokens(code)
        .into_iter()
        .filter(|t| names.contains(&t.text))
        .map(|t| format!("line {}: {}", t.line, &t.text[1..]))
        .collect()
}

/// ARCHITECTURE: no code outside the plugins' folders and the vocabulary matches a plugin name
/// as a string. Configuration, engine, queue and views reach a plugin through the registry
/// (`IN_TREE`, its descriptor: args codec, explainers, labels) and tell plugins apart by
/// `PluginName`; the page and the worker get names as data.
#[test]
fn no_plugin_name_is_matched_as_a_string_outside_the_plugins() {
    let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for krate in ["core", "view", "worker", "web", "cli"] {
        let src = shipping_sources_lexed(&workspace().join(format!("crates/{krate}/src")), code_with_names);
        if krate == "core" {
            assert!(
                src.contains_key("view/explain.rs") && src.contains_key("config/decode.rs"),
                "{:?}",
                src.keys()
            );
        }
        for (f, code) in &src {
            if krate == "core" && (f.starts_with("plugins/") || f == "vocabulary.rs") {
                continue;
            }
            let found = plugin_name_strings(code);
            if !found.is_empty() {
                hits.insert(format!("crates/{krate}/src/{f}"), found);
            }
        }
    }
    report("code outside the plugins names a plugin in a string", &hits);
}

#[test]
fn plugin_name_reader_sees_strings_in_shipping_code_only() {
    let src = "fn f(p: &str) -> bool {\n p == \"NodePorts\" || p == b\"ImageLocality\" || p == \"x NodeName\"\n}\n\
               // \"TaintToleration\" in a comment\nconst N: PluginName = PluginName::VolumeZone;\n\
               #[cfg(test)]\nmod tests { const T: &str = \"NodeAffinity\"; }\nfn g() -> &'static str { \"DefaultBinder\" }";
    let code = strip_test_code(&code_with_names(src)).0;
    assert_eq!(code.lines().count(), src.lines().count());
    assert_eq!(plugin_name_strings(&code), ["line 2: NodePorts", "line 8: DefaultBinder"]);
    assert!(plugin_name_strings(&shipping(src)).is_empty());
}

#[test]
fn crate_path_reader_sees_plain_and_grouped_imports() {
    let code = shipping("use crate::a::B;\nuse crate::{c::d::E, f, g::{H, I}};\nfn x() { crate::j::k(); }");
    let got: Vec<(String, String)> = crate_paths(&code).into_iter().map(|(a, b, _)| (a, b)).collect();
    let want = [("a", "B"), ("c", "d"), ("f", ""), ("g", ""), ("j", "k")];
    assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn a_test_only_entry_of_a_declaring_macro_is_a_test_module() {
    let (code, mods) = strip_test_code(&code_only("list! {\n    a,\n    #[cfg(test)]\n    b,\n}\nfn f() {}"));
    assert_eq!(mods, ["b"]);
    assert_eq!(
        tokens(&code).iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
        ["list", "!", "{", "a", ",", ",", "}", "fn", "f", "(", ")", "{", "}"]
    );
}

#[test]
fn layer_checker_fails_on_a_planted_cycle() {
    const LAYERS: &Layers = &[("low", ""), ("mid", ""), ("high", "")];
    let src = |files: &[(&str, &str)]| -> BTreeMap<String, String> { files.iter().map(|(f, c)| (f.to_string(), shipping(c))).collect() };
    // One way: clean.
    let ok = src(&[
        ("lib.rs", "pub mod low; pub mod mid; pub mod high; pub use mid::Thing;"),
        ("low.rs", "pub struct L;"),
        ("mid/mod.rs", "mod inner; use crate::low::L;"),
        ("mid/inner.rs", "use super::super::low::L; use super::Thing; use self::x::Y;"),
        (
            "high.rs",
            "use crate::{low::L, mid::{self, Thing}}; fn f() { crate::Thing::new(); }",
        ),
    ]);
    assert_eq!(layering_violations(&ok, LAYERS), Vec::<String>::new());
    // A cycle planted through each spelling: `crate::`, `super::super::`, a nested group, a
    // root re-export, an inline module's `super::`; test code is not looked at.
    let bad = src(&[
        ("lib.rs", "pub mod low; pub mod mid; pub mod high; pub use high::Top;"),
        (
            "low.rs",
            "use crate::mid::M;\nmod deep { fn f() { super::super::high::h(); } }\n#[cfg(test)]\nmod tests { use crate::high::H; }",
        ),
        ("mid/mod.rs", "mod inner;"),
        (
            "mid/inner.rs",
            "use super::super::high::H;\nuse crate::{low::L, mid::{high_ish, x}};\nfn f() { crate::Top::new(); }",
        ),
        ("high.rs", "mod deep { use super::super::low::L; }"),
    ]);
    assert_eq!(
        layering_violations(&bad, LAYERS),
        [
            "low.rs line 1: `low` names `mid`, a layer at or above its own",
            "low.rs line 2: `low` names `high`, a layer at or above its own",
            "mid/inner.rs line 1: `mid` names `high`, a layer at or above its own",
            "mid/inner.rs line 3: `mid` names `high`, a layer at or above its own",
        ]
    );
    // A module without a row, and a row without a module.
    let extra = src(&[("lib.rs", ""), ("low.rs", ""), ("mid.rs", ""), ("high.rs", ""), ("new_one.rs", "")]);
    assert_eq!(
        layering_violations(&extra, &[("low", ""), ("mid", ""), ("high", ""), ("gone", "")]),
        [
            "module `new_one` has no row in the layer table: say which modules it may name",
            "the layer table has a row for `gone`, which is no module of the crate",
        ]
    );
}

/// The event reasons (`"FailedScheduling"`) a file's code writes as a whole string literal, as
/// "line N: FailedScheduling"; the code must come from `code_with_names`.
fn event_reason_strings(code: &str) -> Vec<String> {
    use schedlab_view::words::EventReason;
    let words: BTreeSet<String> = [EventReason::Scheduled, EventReason::FailedScheduling, EventReason::Preempted]
        .iter()
        .map(|r| format!("Q{}", r.as_str()))
        .collect();
    tokens(code)
        .into_iter()
        .filter(|t| words.contains(&t.text))
        .map(|t| format!("line {}: {}", t.line, &t.text[1..]))
        .collect()
}

/// The string literals of a file's code that begin as the engine writes an object reference,
/// `Kind/` (`"Node/"`, `"ReplicaSet/{name}"`), as "line N: Node/"; the code must come from
/// `code_with_literals`.
fn object_ref_strings(code: &str) -> Vec<String> {
    use schedlab_view::words::ObjectKind;
    let kinds: BTreeSet<String> = ObjectKind::KNOWN.iter().map(|k| format!("Q{}", k.as_str())).collect();
    let toks = tokens(code);
    toks.windows(2)
        .filter(|w| kinds.contains(&w[0].text) && w[1].text == "/" && w[1].start == w[0].end)
        .map(|w| format!("line {}: {}/", w[0].line, &w[0].text[1..]))
        .collect()
}

/// The change causes and actions (`"flush"`, `"create"`) a file's code compares a value with
/// (`== "flush"`, `"flush" !=`) or matches (`"flush" =>`, `"flush" |`), as "line N: flush"; the
/// code must come from `code_with_names`.
fn change_word_matches(code: &str) -> Vec<String> {
    let words: BTreeSet<String> = ["step", "finish", "flush", "api", "controller", "create", "delete", "patch"]
        .iter()
        .map(|w| format!("Q{w}"))
        .collect();
    let toks = tokens(code);
    let text = |i: usize| toks.get(i).map_or("", |t| t.text.as_str());
    (0..toks.len())
        .filter(|&i| words.contains(&toks[i].text))
        .filter(|&i| {
            let before = i >= 2 && (matches!((text(i - 2), text(i - 1)), ("=" | "!", "=")) || (text(i - 1) == "|" && text(i - 2) != "|"));
            let after = matches!((text(i + 1), text(i + 2)), ("=", "=" | ">") | ("!", "=")) || text(i + 1) == "|";
            before || after
        })
        .map(|i| format!("line {}: {}", toks[i].line, &toks[i].text[1..]))
        .collect()
}

/// ARCHITECTURE: the page never parses the engine's text. The words the engine writes and the
/// page reads (`schedlab_view::words`: event reasons, change causes and actions, object
/// references, taints) cross the wall as data, written as text only in their definitions.
/// Checked, in the code that ships (tests left out):
/// - no crate writes an event reason (`"FailedScheduling"`, `"Scheduled"`, `"Preempted"`) as a
///   string literal outside `view/src/words.rs`: the engine records `EventReason`s, the views
///   and the page match on them;
/// - no page (`crates/web/src`) or worker code writes a string literal that begins `Kind/` for
///   a kind of `ObjectKind` (`"Node/"`: the engine's text for an object reference), nor compares
///   or matches a value with a change cause or action word (`== "flush"`, `"create" =>`).
///
/// Not checked: that the page does not cut up other text the engine formats with generic string
/// methods (`split_once`, `strip_prefix`, `find` on a message, a note, a filter reason or a
/// sentence: the messages and reasons are upstream's text, shown whole), since what a string
/// holds is not visible to a reader of tokens; raw string literals; and bare kind names
/// (`"ReplicaSet"`), which page code writes and compares in the scenario's own documents
/// (`actions.rs`, `scenario.rs` read and write the user's YAML, as JSON the worker parsed: that
/// text is the scenario, not the engine's): the page's owner marks match `ObjectKind`s, but no
/// test tells the two uses apart.
#[test]
fn page_reads_the_engines_words_as_data() {
    let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for krate in ["core", "view", "worker", "web", "cli"] {
        let dir = workspace().join(format!("crates/{krate}/src"));
        let named = shipping_sources_lexed(&dir, code_with_names);
        let literal = shipping_sources_lexed(&dir, code_with_literals);
        if krate == "web" {
            assert!(named.contains_key("components/change_story.rs") && named.contains_key("components/action_menu.rs"), "{:?}", named.keys());
        }
        for (f, code) in &named {
            let mut found = Vec::new();
            if !(krate == "view" && f == "words.rs") {
                found.extend(event_reason_strings(code));
            }
            if matches!(krate, "web" | "worker") {
                found.extend(change_word_matches(code));
                found.extend(object_ref_strings(&literal[f]));
            }
            if !found.is_empty() {
                hits.insert(format!("crates/{krate}/src/{f}"), found);
            }
        }
    }
    report("code reads the engine's words as text", &hits);
}

#[test]
fn engine_word_readers_see_shipping_code_only() {
    let src = "fn f(r: &str, o: &str, a: &str) -> bool {\n r == \"FailedScheduling\" || o.starts_with(\"Node/\")\n\
               || matches!(a, \"flush\" | \"finish\") || a != \"create\"\n}\n\
               // \"Preempted\" and \"Pod/x\" in a comment\nconst T: &str = \"Scheduled\";\n\
               fn g(n: &str) -> String { format!(\"ReplicaSet/{n}\") }\n\
               fn h() -> (&'static str, &'static str, &'static str) { (\"Nodes/\", \"step\", \"the Node/x\") }\n\
               fn k(c: &str) -> u8 { match c { \"step\" => 1, _ => 0 } }\n\
               #[cfg(test)]\nmod tests { const T: &str = \"Preempted\"; const O: &str = \"Pod/a\"; fn t(a: &str) -> bool { a == \"patch\" } }\n";
    let named = strip_test_code(&code_with_names(src)).0;
    let literal = strip_test_code(&code_with_literals(src)).0;
    assert_eq!(named.lines().count(), src.lines().count());
    assert_eq!(literal.lines().count(), src.lines().count());
    assert_eq!(event_reason_strings(&named), ["line 2: FailedScheduling", "line 6: Scheduled"]);
    assert_eq!(object_ref_strings(&literal), ["line 2: Node/", "line 7: ReplicaSet/"]);
    assert_eq!(change_word_matches(&named), ["line 3: flush", "line 3: finish", "line 3: create", "line 9: step"]);
    assert!(event_reason_strings(&shipping(src)).is_empty() && object_ref_strings(&shipping(src)).is_empty());
}

/// The layers of schedlab-web, the page, lowest first (ARCHITECTURE.md, "Imports run one way").
const WEB_LAYERS: &Layers = &[
    ("fmt", "numbers, sizes and times as the page writes them"),
    ("lessons", "the lesson gallery and the learner's progress per lesson (plain data)"),
    ("markdown", "a lesson's small, safe Markdown subset, parsed into data"),
    ("link", "the share link's state and its address form"),
    ("editor_js", "bindings to CodeMirror's bundle and the link codec; the editor's handle"),
    ("recovery", "what is run again when the worker stops (plain data)"),
    ("timeline_text", "the Timeline's steps as text"),
    ("scenario", "the scenario's parts, presets and templates"),
    ("actions", "the cluster view's actions as timeline steps"),
    ("recent", "the user's recent scenarios"),
    ("player", "the playback's state machine: intents and answers in, requests and state out"),
    ("bridge", "the worker's transport: post, receive, route answers, start a worker"),
    ("storage", "localStorage, the address, share-link payloads"),
    ("theme", "the colour theme"),
    ("paint", "canvases painted in an animation frame, once per frame"),
    ("embed", "an embed's options from its address"),
    ("state", "the app's signals, shared through context"),
    ("playback", "the player's Leptos side: intents in, signals and requests out"),
    ("shell", "the app shell's work with the outside world: start-up, autosave, address, keys"),
    ("components", "the Leptos components, one per file"),
];

/// ARCHITECTURE: the page's imports run one way too: every top-level module of schedlab-web has
/// a row in `WEB_LAYERS` and names only modules on earlier rows (the playback's rules, `player`,
/// sit below the state and the bridge and name neither).
#[test]
fn web_imports_run_one_way() {
    assert_layered(&workspace().join("crates/web/src"), WEB_LAYERS);
}

// ---------------------------------------------------------------------------------------------
// The page crate's modules import one another without a cycle.

/// A file's module path (`components/app.rs` → `components::app`, `shell/mod.rs` → `shell`;
/// the crate root, `lib.rs` and `main.rs`, is "").
fn module_of(file: &str) -> String {
    let stem = file.trim_end_matches(".rs");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if matches!(stem, "lib" | "main") {
        return String::new();
    }
    stem.replace('/', "::")
}

/// The paths of a use tree starting at token `k` (`a::b`, `a::{b, c::{d, E}}`), each after
/// `prefix`; returns the token after the tree.
fn use_tree(toks: &[Tok], mut k: usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let text = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    while is_ident(text(k).chars().next().unwrap_or(' ')) {
        prefix.push(text(k).to_string());
        if text(k + 1) != "::" {
            out.push(prefix);
            return k + 1;
        }
        k += 2;
    }
    if text(k) != "{" {
        out.push(prefix);
        return k;
    }
    let close = skip_group(toks, k);
    k += 1;
    while k < close {
        if text(k) == "," {
            k += 1;
            continue;
        }
        let next = use_tree(toks, k, prefix.clone(), out);
        k = next.max(k + 1);
    }
    close + 1
}

/// The modules a file's code names, each with the line: `crate::a::b::…` and `super::b::…`
/// paths (grouped imports included), resolved to the longest module of `modules` they start
/// with. A path to the module itself or to the crate root is left out.
fn module_imports(module: &str, code: &str, modules: &BTreeSet<String>) -> Vec<(String, usize)> {
    let toks = tokens(code);
    let resolve = |base: &[String], path: &[String]| -> Option<String> {
        (1..=path.len()).rev().find_map(|n| {
            let m = base.iter().chain(&path[..n]).cloned().collect::<Vec<_>>().join("::");
            modules.contains(&m).then_some(m)
        })
    };
    let parent: Vec<String> = {
        let mut p: Vec<String> = module.split("::").map(String::from).collect();
        p.pop();
        p
    };
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let base: &[String] = match t.text.as_str() {
            "crate" => &[],
            "super" if i == 0 || toks[i - 1].text != "::" => &parent,
            _ => continue,
        };
        if toks.get(i + 1).is_none_or(|t| t.text != "::") {
            continue;
        }
        let mut paths = Vec::new();
        use_tree(&toks, i + 2, Vec::new(), &mut paths);
        for p in paths {
            if let Some(m) = resolve(base, &p) {
                if m != module {
                    out.push((m, t.line));
                }
            }
        }
    }
    out
}

/// The import cycles among a crate's modules (files: path → shipping code), each as the
/// modules around it, first → … → first, with the line of each import.
fn module_cycles(src: &BTreeMap<String, String>) -> Vec<String> {
    let modules: BTreeSet<String> = src.keys().map(|f| module_of(f)).filter(|m| !m.is_empty()).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (file, code) in src {
        let m = module_of(file);
        if m.is_empty() {
            continue;
        }
        let out = edges.entry(m.clone()).or_default();
        for (to, line) in module_imports(&m, code, &modules) {
            out.entry(to).or_insert(line);
        }
    }
    // A depth-first search; each back edge closes a cycle.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeMap<String, usize>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<String>,
    ) {
        stack.push(m.to_string());
        for to in edges.get(m).into_iter().flat_map(|e| e.keys()) {
            if let Some(at) = stack.iter().position(|s| s == to) {
                let ring: Vec<String> = stack[at..].iter().chain([to]).cloned().collect();
                let steps: Vec<String> = ring
                    .windows(2)
                    .map(|w| format!("{} (line {})", w[0], edges[&w[0]][&w[1]]))
                    .collect();
                found.push(format!("{} → {to}", steps.join(" → ")));
            } else if !done.contains(to) {
                visit(to, edges, stack, done, found);
            }
        }
        stack.pop();
        done.insert(m.to_string());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for m in &modules {
        if !done.contains(m) {
            visit(m, &edges, &mut Vec::new(), &mut done, &mut found);
        }
    }
    found
}

/// ARCHITECTURE: no cycle between any two of `crates/web/src`'s modules, submodules included
/// (`web_imports_run_one_way` orders the top-level modules; this also sees the components and
/// the shell's pieces among themselves: the app shell's handles live in modules of their own).
#[test]
fn web_modules_import_no_cycle() {
    let src = shipping_sources(&workspace().join("crates/web/src"));
    assert!(src.contains_key("player.rs") && src.contains_key("components/app.rs"), "{:?}", src.keys());
    let cycles = module_cycles(&src);
    assert!(cycles.is_empty(), "import cycles in crates/web/src:\n  {}", cycles.join("\n  "));
}

#[test]
fn module_cycle_reader_sees_crate_super_and_grouped_paths_in_shipping_code_only() {
    let files = |list: &[(&str, &str)]| -> BTreeMap<String, String> {
        list.iter().map(|(f, s)| (f.to_string(), shipping(s))).collect()
    };
    // A planted cycle through a grouped import, one through `super::`, and one test-only.
    let src = files(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod t;"),
        ("a.rs", "use crate::{t, c::{d::{V, W}}, b::{X, Y}};"),
        ("b.rs", "fn f() { crate::a::g() }"),
        ("c/mod.rs", "pub mod d;\npub mod e;"),
        ("c/d.rs", "use super::e::Z;"),
        ("c/e.rs", "// crate::a in a comment\nuse crate::c::d::W;"),
        ("t.rs", "#[cfg(test)]\nmod tests { use crate::a::Q; }\nconst S: &str = \"crate::a::Q\";"),
        ("f.rs", "use crate::g::{h::X, i};"),
        ("g/h.rs", "fn f() -> crate::f::F { todo!() }"),
    ]);
    assert_eq!(
        module_cycles(&src),
        [
            "a (line 1) → b (line 1) → a",
            "c::d (line 1) → c::e (line 2) → c::d",
            "f (line 1) → g::h (line 1) → f"
        ]
    );
    let acyclic = files(&[("a.rs", "use crate::b::X;"), ("b.rs", "use crate::c;"), ("c.rs", "")]);
    assert!(module_cycles(&acyclic).is_empty());
}
