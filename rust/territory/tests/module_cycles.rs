//! The engine's top-level modules (the folders of docs/architecture.md) import each
//! other without a cycle: `rules` below everything, then `observe` and `search`, then
//! `games` and `bulk`.
//!
//! Every `crate::` path in non-test code (comments and `#[cfg(test)]` code left out) is
//! an edge from the file's top-level module to the one the path names; a name the crate
//! root re-exports (`crate::Game`) or a macro exported at the root
//! (`crate::with_game!`) counts for the module that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Edges known to close a cycle, each with the one file allowed to make it and what
/// removes it. The test fails once such an edge is gone, so that its entry is deleted.
const KNOWN: &[(&str, &str, &str, &str)] = &[];

/// An edge between top-level modules, with the files that make it.
type Graph = BTreeMap<(String, String), BTreeSet<String>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's path under `src/`, with `/` separators.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(src()).unwrap();
    rel.components()
        .map(|c| c.as_os_str().to_str().unwrap())
        .collect::<Vec<_>>()
        .join("/")
}

/// The top-level module a file under `src/` belongs to.
fn top_module(rel: &str) -> String {
    let first = rel.split('/').next().unwrap();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file without comments and without what follows `#[cfg(test)]`.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        let line = line.split("//").next().unwrap();
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segments of every `crate::` path in `code` (`crate::{a, b::c}` gives both).
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `my_crate::`
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if c.is_whitespace() => {}
                    _ if item_start => {
                        item_start = false;
                        names.push(ident_at(&group[i..]).to_string());
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident_at(rest).to_string());
        }
    }
    names
}

/// Which top-level module each name at the crate root comes from: the modules
/// themselves, the root's `pub use` items and the macros exported at the root; `*` names
/// the module of the root's glob re-export (`pub use games::exports::*`), if it has one.
fn root_names(files: &[(String, String)]) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let lib = &files.iter().find(|(rel, _)| rel == "lib.rs").unwrap().1;
    for line in code(lib).lines() {
        if let Some(module) = line.strip_prefix("pub mod ") {
            let module = module.trim_end_matches(';').to_string();
            names.insert(module.clone(), module);
        }
    }
    for line in code(lib).lines() {
        if let Some(path) = line.strip_prefix("pub use ") {
            let module = ident_at(path).to_string();
            let items = path.rsplit("::").next().unwrap();
            for item in items
                .split(|c: char| "{},; ".contains(c))
                .filter(|s| !s.is_empty())
            {
                names.insert(item.to_string(), module.clone());
            }
        }
    }
    for (rel, text) in files {
        let mut exported = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with("#[macro_export]") {
                exported = true;
            } else if let Some(rest) = line.strip_prefix("macro_rules! ") {
                if exported {
                    names.insert(ident_at(rest).to_string(), top_module(rel));
                }
                exported = false;
            }
        }
    }
    names
}

fn module_graph() -> Graph {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| (relative(p), fs::read_to_string(p).unwrap()))
        .collect();
    let names = root_names(&files);
    let mut graph = Graph::new();
    for (rel, text) in &files {
        if rel == "lib.rs" || rel.split('/').any(|part| part == "tests.rs") {
            continue;
        }
        let from = top_module(rel);
        for name in crate_paths(&code(text)) {
            // A name re-exported by a glob (`pub use games::exports::*`) is its module's.
            let to = names
                .get(&name)
                .or_else(|| names.get("*"))
                .unwrap_or_else(|| panic!("{rel}: `crate::{name}` is no name at the crate root"));
            if *to != from {
                graph
                    .entry((from.clone(), to.clone()))
                    .or_default()
                    .insert(rel.clone());
            }
        }
    }
    graph
}

/// A cycle through the graph's edges, as the modules along it, if there is one.
fn find_cycle(edges: &BTreeSet<(String, String)>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeSet<(String, String)>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for (_, to) in edges.iter().filter(|(from, _)| from == node) {
            if let Some(cycle) = visit(to, edges, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .iter()
        .find_map(|(from, _)| visit(from, edges, &mut Vec::new(), &mut done))
}

fn describe(graph: &Graph, cycle: &[String]) -> String {
    cycle
        .windows(2)
        .map(|w| {
            let files = &graph[&(w[0].clone(), w[1].clone())];
            format!("{} -> {} (in {:?})", w[0], w[1], files)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn top_level_modules_form_no_cycle_but_the_known_edges() {
    let graph = module_graph();
    let mut edges: BTreeSet<(String, String)> = graph.keys().cloned().collect();
    for &(from, to, file, why) in KNOWN {
        let key = (from.to_string(), to.to_string());
        let files = graph.get(&key).unwrap_or_else(|| {
            panic!("the known edge {from} -> {to} is gone ({why}): delete it from KNOWN")
        });
        assert_eq!(
            files.iter().collect::<Vec<_>>(),
            [file],
            "the edge {from} -> {to}, known only from {file}, is made by other files too"
        );
        edges.remove(&key);
    }
    if let Some(cycle) = find_cycle(&edges) {
        panic!(
            "import cycle between top-level modules: {}",
            describe(&graph, &cycle)
        );
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let edge = |a: &str, b: &str| (a.to_string(), b.to_string());
    let edges: BTreeSet<_> = [
        edge("a", "b"),
        edge("b", "c"),
        edge("c", "a"),
        edge("c", "d"),
    ]
    .into();
    assert_eq!(find_cycle(&edges).unwrap(), ["a", "b", "c", "a"]);
    let edges: BTreeSet<_> = [edge("a", "b"), edge("b", "c"), edge("a", "c")].into();
    assert_eq!(find_cycle(&edges), None);
    assert_eq!(
        crate_paths("use crate::{a::b, c, d::{e, f}};\nx = $crate::g::h;"),
        ["a", "c", "d", "g"]
    );
}

#[test]
fn the_graph_has_the_layering_of_the_docs() {
    let graph = module_graph();
    // Sanity: the parser sees the imports it must see.
    for edge in [
        ("games", "rules"),
        ("bulk", "search"),
        ("search", "rules"),
        ("games", "observe"),
    ] {
        assert!(
            graph.contains_key(&(edge.0.into(), edge.1.into())),
            "no edge {edge:?}"
        );
    }
}
