//! The page's ES modules (src/gui/assets/*.js) import each other without a circle: a view
//! module gets the controller it works for (review.js gets app.js' `ctrl`) instead of
//! importing it back, so each module can be read, and loaded, after the ones it uses.
//! No browser: the modules are read as text.

use std::collections::BTreeMap;
use std::path::Path;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/gui/assets");

/// The modules each module imports (`… from './x.js'`, `import './x.js'`), by file name.
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Each statement starting a line with `import`, up to its `;`.
    let starts = text
        .match_indices("import")
        .filter(|(at, _)| *at == 0 || text[..*at].ends_with('\n'));
    for (at, _) in starts {
        let statement = text[at..].split(';').next().unwrap_or_default();
        for quote in ['\'', '"'] {
            let mut parts = statement.split(quote);
            parts.next();
            if let Some(path) = parts.next().and_then(|p| p.strip_prefix("./")) {
                out.push(path.to_string());
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, Vec<String>> {
    let mut graph = BTreeMap::new();
    for entry in std::fs::read_dir(ASSETS).expect("the assets") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "js") {
            let text = std::fs::read_to_string(&path).expect("a module");
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .to_string();
            graph.insert(name, imports(&text));
        }
    }
    graph
}

/// A circle of imports through `at` (the path to it first), if there is one.
fn circle(
    graph: &BTreeMap<String, Vec<String>>,
    at: &str,
    path: &mut Vec<String>,
    done: &mut Vec<String>,
) -> Option<Vec<String>> {
    if let Some(start) = path.iter().position(|p| p == at) {
        let mut found = path[start..].to_vec();
        found.push(at.to_string());
        return Some(found);
    }
    if done.iter().any(|d| d == at) {
        return None;
    }
    path.push(at.to_string());
    for next in graph.get(at).into_iter().flatten() {
        if let Some(found) = circle(graph, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.push(at.to_string());
    None
}

#[test]
fn the_reader_finds_imports_and_circles() {
    assert_eq!(
        imports("import { a, b } from './x.js';\nimport * as y from \"./y.js\";\nimport './z.js';"),
        ["x.js", "y.js", "z.js"]
    );
    let looped: BTreeMap<String, Vec<String>> = [
        ("a.js", vec!["b.js"]),
        ("b.js", vec!["c.js"]),
        ("c.js", vec!["a.js"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        circle(&looped, "a.js", &mut Vec::new(), &mut Vec::new()),
        Some(vec![
            "a.js".into(),
            "b.js".into(),
            "c.js".into(),
            "a.js".into()
        ])
    );
}

#[test]
fn the_page_s_modules_import_no_circle() {
    let graph = graph();
    // The reader sees the page's imports.
    assert!(graph["app.js"].contains(&"review.js".to_string()));
    assert!(graph["inbrowser.js"].contains(&"info.js".to_string()));
    for (module, imported) in &graph {
        for i in imported {
            assert!(
                Path::new(ASSETS).join(i).exists(),
                "{module} imports {i}, which is not a module of the page"
            );
        }
    }
    let mut done = Vec::new();
    for module in graph.keys() {
        if let Some(found) = circle(&graph, module, &mut Vec::new(), &mut done) {
            panic!(
                "the page's modules import in a circle: {}",
                found.join(" → ")
            );
        }
    }
}
