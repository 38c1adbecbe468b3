//! The workspace's layering, checked from the sources (docs/architecture.md):
//! * crates: core depends on no other pencilbox crate, a puzzle crate only on core, the
//!   registry on core and the puzzle crates, and nothing but the front ends (cli, python,
//!   web) on the registry;
//! * core's top-level modules import each other without a cycle (a module's `use crate::x`
//!   and `crate::x::` paths in code, comments and its `#[cfg(test)]` part left out), so core
//!   reads bottom-up.

use pencilbox_tests::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The pencilbox crates a crate's `Cargo.toml` names in `[dependencies]`.
fn pencilbox_deps(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
    let mut deps = BTreeSet::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps {
            if let Some(name) = line.split(['=', '.', ' ']).next() {
                if name.starts_with("pencilbox-") {
                    deps.insert(name.to_string());
                }
            }
        }
    }
    deps
}

/// Every crate under `crates/`: package name and pencilbox dependencies.
fn crates() -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/") {
        let manifest = entry.expect("entry").path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let name = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .expect("package name")
            .to_string();
        out.insert(name, pencilbox_deps(&manifest));
    }
    out
}

const FRONT_ENDS: [&str; 3] = ["pencilbox-cli", "pencilbox-python", "pencilbox-web"];

#[test]
fn core_depends_on_no_puzzle_crate_and_no_puzzle_crate_on_another() {
    let crates = crates();
    assert!(
        crates["pencilbox-core"].is_empty(),
        "core: {:?}",
        crates["pencilbox-core"]
    );
    let puzzles: Vec<&String> = crates
        .keys()
        .filter(|n| *n != "pencilbox-core" && *n != "pencilbox-registry" && !FRONT_ENDS.contains(&n.as_str()))
        .collect();
    assert!(puzzles.len() >= 4, "{puzzles:?}");
    for p in &puzzles {
        let deps = &crates[*p];
        assert!(
            deps.iter().all(|d| d == "pencilbox-core"),
            "{p} depends on {deps:?}: a puzzle crate uses core only"
        );
    }
    // The registry lists every puzzle crate and depends on nothing else.
    let registry = &crates["pencilbox-registry"];
    for p in &puzzles {
        assert!(registry.contains(*p), "{p} is not in the registry's dependencies");
    }
    for d in registry {
        assert!(d == "pencilbox-core" || puzzles.contains(&d), "registry depends on {d}");
    }
    for (name, deps) in &crates {
        if deps.contains("pencilbox-registry") {
            assert!(FRONT_ENDS.contains(&name.as_str()), "{name} depends on the registry");
        }
    }
}

/// `crate::x` module names used by the code of `src` (comments and tests left out).
fn imports(src: &str) -> BTreeSet<String> {
    let code: String = src
        .split("#[cfg(test)]")
        .next()
        .unwrap_or("")
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = BTreeSet::new();
    for pat in ["crate::", "$crate::"] {
        for (i, _) in code.match_indices(pat) {
            if pat == "crate::" && i > 0 && code.as_bytes()[i - 1] == b'$' {
                continue;
            }
            let rest = &code[i + pat.len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn core_modules_import_each_other_without_a_cycle() {
    let src = root().join("crates/core/src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    sources(&src, &mut files);
    for f in files {
        let rel = f.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .expect("a name");
        if top == "lib" || rel.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("source");
        graph
            .entry(top.clone())
            .or_default()
            .extend(imports(&text).into_iter().filter(|m| *m != top));
    }
    let names: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| names.contains(d));
    }
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let from = stack.iter().position(|s| s == n).unwrap_or(0);
                let mut cycle = stack[from..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for d in &g[n] {
            if let Some(c) = visit(d, g, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if let Some(cycle) = visit(n, &graph, &mut state, &mut Vec::new()) {
            panic!("core's modules import in a circle: {}", cycle.join(" → "));
        }
    }
    assert!(graph.len() > 15, "{graph:?}");
}
