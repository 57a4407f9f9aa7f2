//! No circle between the files of `src/` (docs/layout.md): every file can be read after the
//! files it uses, never before one that needs it back.
//!
//! A file uses another when one of its paths that start with `crate::`, `super::` or
//! `self::` (in a `use` item or in code) names an item of it, followed through the modules'
//! re-exports (`pub use`) to the file that defines the item. A file's use of the modules
//! that contain it (its own `mod.rs`, which declares it) is not counted: that is where a
//! module keeps what its files share. Unit tests (`#[cfg(test)]` items) are left out: they
//! may use anything.

use crate::src_files;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A module's path below the crate root (`["search", "params"]`); the root is empty.
type Module = Vec<String>;

/// The text of `source` with comments removed and the contents of string and character
/// literals blanked, so that what is left is paths, keywords and punctuation.
fn without_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let starts_token = i == 0 || !ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if starts_token && (c == 'r' || (c == 'b' && next == Some('r'))) && {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            chars.get(j) == Some(&'"')
        } {
            // A raw string: r"…", r#"…"#, br"…".
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\''); anything else is a lifetime.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The end (exclusive) of the item that starts at `start`: its `;` or its closing brace,
/// outside brackets and parentheses.
fn item_end(code: &[char], start: usize) -> usize {
    let mut depth = 0i32;
    let mut i = start;
    while i < code.len() {
        match code[i] {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => return i + 1,
            '{' if depth == 0 => {
                let mut braces = 0;
                while i < code.len() {
                    match code[i] {
                        '{' => braces += 1,
                        '}' => {
                            braces -= 1;
                            if braces == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    code.len()
}

/// `code` without its `#[cfg(test)]` items.
fn without_tests(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut code = code.to_string();
    while let Some(at) = code.find(MARK) {
        let chars: Vec<char> = code.chars().collect();
        let start = code[..at].chars().count();
        let end = item_end(&chars, start + MARK.len());
        code = chars[..start].iter().chain(&chars[end..]).collect();
    }
    code
}

/// One path of a `use` tree: its segments and the name it is known by (`*` for a glob).
#[derive(Debug, PartialEq)]
struct UsePath {
    segments: Vec<String>,
    name: String,
}

/// Splits a `use` tree into its tokens: identifiers, `::`, `{`, `}`, `,`, `*`.
fn tokens(tree: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = tree.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_alphanumeric() || c == '_' || c == '$' {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if !(c.is_alphanumeric() || c == '_' || c == '$') {
                    break;
                }
                word.push(c);
                chars.next();
            }
            out.push(word);
        } else if c == ':' {
            chars.next();
            chars.next();
            out.push("::".to_string());
        } else if c.is_whitespace() {
            chars.next();
        } else {
            out.push(c.to_string());
            chars.next();
        }
    }
    out
}

/// Expands a `use` tree (`crate::{a::B, c::{self, D as E}}`) into its paths.
fn expand_use(tree: &str) -> Vec<UsePath> {
    fn tree_at(tokens: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<UsePath>) {
        let mut segments = prefix.to_vec();
        loop {
            match tokens.get(*i).map(String::as_str) {
                Some("{") => {
                    *i += 1;
                    while tokens.get(*i).is_some_and(|t| t != "}") {
                        tree_at(tokens, i, &segments, out);
                        if tokens.get(*i).is_some_and(|t| t == ",") {
                            *i += 1;
                        }
                    }
                    *i += 1;
                    return;
                }
                Some("*") => {
                    *i += 1;
                    out.push(UsePath {
                        segments,
                        name: "*".to_string(),
                    });
                    return;
                }
                Some(word) => {
                    *i += 1;
                    if word != "self" || segments.is_empty() {
                        segments.push(word.to_string());
                    }
                    if tokens.get(*i).is_some_and(|t| t == "::") {
                        *i += 1;
                        continue;
                    }
                    let mut name = segments.last().cloned().unwrap_or_default();
                    if tokens.get(*i).is_some_and(|t| t == "as") {
                        name = tokens.get(*i + 1).cloned().unwrap_or_default();
                        *i += 2;
                    }
                    out.push(UsePath { segments, name });
                    return;
                }
                None => return,
            }
        }
    }
    let tokens = tokens(tree);
    let mut out = Vec::new();
    let mut i = 0;
    tree_at(&tokens, &mut i, &[], &mut out);
    out
}

/// What one file says about modules and paths.
#[derive(Default)]
struct FileFacts {
    /// The modules it declares with `mod name;`.
    children: Vec<String>,
    /// Its `use` paths, and whether each is public (a re-export).
    uses: Vec<(UsePath, bool)>,
    /// The other paths of its code that start with `crate`, `super` or `self`.
    paths: Vec<Vec<String>>,
    /// Its `#[macro_export]` macros, which live at the crate root.
    exported_macros: Vec<String>,
}

fn facts(source: &str) -> FileFacts {
    let code = without_tests(&without_comments_and_literals(source));
    let chars: Vec<char> = code.chars().collect();
    let mut facts = FileFacts::default();
    let word_at = |i: usize| -> String {
        chars[i..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_' || **c == '$')
            .collect()
    };
    // The 40 characters before `i`, without the whitespace that ends them.
    let before = |i: usize| -> String {
        let text: String = chars[i.saturating_sub(40)..i].iter().collect();
        text.trim_end().to_string()
    };
    let boundary = |i: usize| i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let mut rest = String::new();
    let mut i = 0;
    while i < chars.len() {
        if !boundary(i) {
            rest.push(chars[i]);
            i += 1;
            continue;
        }
        let word = word_at(i);
        if word == "use" {
            let end = item_end(&chars, i);
            let tree: String = chars[i + 3..end - 1].iter().collect();
            // `pub use`, `pub(crate) use`, `pub(super) use`.
            let before = before(i);
            let public = before.ends_with("pub")
                || before.ends_with(')')
                    && before
                        .rsplit_once("pub")
                        .is_some_and(|(_, v)| v.trim_start().starts_with('('));
            for path in expand_use(&tree) {
                facts.uses.push((path, public));
            }
            i = end;
            continue;
        }
        if word == "mod" {
            let name_at = (i + 3..chars.len())
                .find(|&j| !chars[j].is_whitespace())
                .unwrap_or(chars.len());
            let name = word_at(name_at);
            let after = name_at + name.len();
            if chars[after..].iter().find(|c| !c.is_whitespace()) == Some(&';') {
                facts.children.push(name);
            }
        }
        if word == "macro_rules" && before(i).ends_with("#[macro_export]") {
            let name_at = (i + "macro_rules!".len()..chars.len())
                .find(|&j| !chars[j].is_whitespace())
                .unwrap_or(chars.len());
            facts.exported_macros.push(word_at(name_at));
        }
        rest.push(chars[i]);
        i += 1;
    }
    // The linear paths of the code: `crate::a::B`, `super::super::c`, `$crate::d`.
    let rest: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < rest.len() {
        let starts = i == 0 || !(rest[i - 1].is_alphanumeric() || rest[i - 1] == '_');
        let word: String = rest[i..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_' || **c == '$')
            .collect();
        if word.is_empty() {
            i += 1;
            continue;
        }
        if starts && ["crate", "$crate", "super", "self"].contains(&word.as_str()) {
            let mut segments = vec![word.clone()];
            let mut j = i + word.len();
            loop {
                let mut k = j;
                while k < rest.len() && rest[k].is_whitespace() {
                    k += 1;
                }
                if !(rest.get(k) == Some(&':') && rest.get(k + 1) == Some(&':')) {
                    break;
                }
                k += 2;
                while k < rest.len() && rest[k].is_whitespace() {
                    k += 1;
                }
                let next: String = rest[k..]
                    .iter()
                    .take_while(|c| c.is_alphanumeric() || **c == '_')
                    .collect();
                if next.is_empty() {
                    break;
                }
                segments.push(next.clone());
                j = k + next.len();
            }
            if segments.len() > 1 {
                facts.paths.push(segments);
            }
            i = j;
        } else {
            i += word.len();
        }
    }
    facts
}

/// The module of a file given by its path below `src/`.
fn module_of(file: &str) -> Module {
    let file = file.trim_end_matches(".rs");
    let mut module: Module = file.split('/').map(str::to_string).collect();
    if module
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        module.pop();
    }
    module
}

/// The files of a crate and what each uses.
struct Crate {
    files: BTreeMap<Module, String>,
    facts: BTreeMap<Module, FileFacts>,
    macros: BTreeMap<String, Module>,
}

impl Crate {
    /// `sources`: each file's path below `src/` and its text. `main.rs` is a crate of its
    /// own (the binary) and is left out.
    fn new(sources: &[(String, String)]) -> Crate {
        let mut files = BTreeMap::new();
        let mut all_facts = BTreeMap::new();
        let mut macros = BTreeMap::new();
        for (file, text) in sources {
            if file == "main.rs" {
                continue;
            }
            let module = module_of(file);
            let facts = facts(text);
            for name in &facts.exported_macros {
                macros.insert(name.clone(), module.clone());
            }
            files.insert(module.clone(), format!("src/{file}"));
            all_facts.insert(module, facts);
        }
        Crate {
            files,
            facts: all_facts,
            macros,
        }
    }

    /// The absolute path of `path` as written in module `module`; `None` for an outside
    /// crate's path (`std::…`).
    fn absolute(&self, module: &Module, path: &[String]) -> Option<Module> {
        let mut base = module.clone();
        let mut rest = path;
        match path.first()?.as_str() {
            "crate" | "$crate" => {
                base.clear();
                rest = &path[1..];
            }
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            first => {
                let mut child = module.clone();
                child.push(first.to_string());
                if !self.files.contains_key(&child) {
                    return None;
                }
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The module of the file that defines the item at the absolute `path`, through
    /// re-exports.
    fn defining_file(&self, path: &[String], depth: usize) -> Module {
        let mut module = Module::new();
        for (i, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.files.contains_key(&child) {
                module = child;
                continue;
            }
            if module.is_empty()
                && let Some(home) = self.macros.get(segment)
            {
                return home.clone();
            }
            let reexport = self.facts.get(&module).and_then(|facts| {
                facts
                    .uses
                    .iter()
                    .find(|(used, public)| *public && used.name == *segment)
            });
            if let Some((used, _)) = reexport
                && depth < 16
                && let Some(mut target) = self.absolute(&module, &used.segments)
            {
                target.extend(path[i + 1..].iter().cloned());
                return self.defining_file(&target, depth + 1);
            }
            return module;
        }
        module
    }

    /// Each file's module and the modules of the files it uses (itself left out).
    fn uses(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut graph = BTreeMap::new();
        for (module, facts) in &self.facts {
            let mut used = BTreeSet::new();
            let paths = facts
                .uses
                .iter()
                .map(|(path, _)| &path.segments)
                .chain(&facts.paths);
            for path in paths {
                if let Some(absolute) = self.absolute(module, path) {
                    used.insert(self.defining_file(&absolute, 0));
                }
            }
            // A module's own `mod.rs` (or `x.rs` beside `x/`) is where its files' shared
            // vocabulary lives: a file's use of the modules that contain it is no circle.
            used.retain(|m| !module.starts_with(m));
            used.retain(|m| self.files.contains_key(m));
            graph.insert(module.clone(), used);
        }
        graph
    }

    /// Every circle, as the files of one way around it (the first file again at the end).
    fn circles(&self) -> Vec<Vec<String>> {
        let graph = self.uses();
        let mut circles = Vec::new();
        for group in strongly_connected(&graph) {
            if group.len() < 2 {
                continue;
            }
            // The shortest way from the group's first file back to itself.
            let start = &group[0];
            let mut came_from: BTreeMap<&Module, &Module> = BTreeMap::new();
            let mut queue = VecDeque::from([start]);
            'search: while let Some(at) = queue.pop_front() {
                for next in &graph[at] {
                    if !group.contains(next) || came_from.contains_key(next) {
                        continue;
                    }
                    came_from.insert(next, at);
                    if next == start {
                        break 'search;
                    }
                    queue.push_back(next);
                }
            }
            let mut way = vec![start];
            let mut at = came_from[start];
            while at != start {
                way.push(at);
                at = came_from[at];
            }
            way.push(start);
            way.reverse();
            circles.push(way.iter().map(|m| self.files[*m].clone()).collect());
        }
        circles
    }
}

/// The strongly connected groups of `graph` (Tarjan), each in the graph's order.
fn strongly_connected(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        groups: Vec<Vec<Module>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a Module) {
        let n = state.index.len();
        state.index.insert(node, n);
        state.low.insert(node, n);
        state.stack.push(node);
        state.on_stack.insert(node);
        for next in &state.graph[node] {
            if !state.index.contains_key(next) {
                visit(state, next);
                let low = state.low[node].min(state.low[next]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(next) {
                let low = state.low[node].min(state.index[next]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut group = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                group.push(member.clone());
                if member == node {
                    break;
                }
            }
            group.sort();
            state.groups.push(group);
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.groups
}

fn sources_of_src() -> Vec<(String, String)> {
    src_files::src_files()
        .into_iter()
        .filter(|file| file.ends_with(".rs"))
        .map(|file| {
            let text = std::fs::read_to_string(&file).expect("a source file is readable");
            (file.trim_start_matches("src/").to_string(), text)
        })
        .collect()
}

#[test]
fn no_circle_between_files_of_src() {
    let circles = Crate::new(&sources_of_src()).circles();
    let shown: Vec<String> = circles.iter().map(|way| way.join(" → ")).collect();
    assert!(
        circles.is_empty(),
        "circles between files of src/:\n{}",
        shown.join("\n")
    );
}

fn toy(files: &[(&str, &str)]) -> Crate {
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(file, text)| (file.to_string(), text.to_string()))
        .collect();
    Crate::new(&sources)
}

#[test]
fn a_circle_through_a_reexport_and_a_code_path_is_found() {
    let krate = toy(&[
        ("lib.rs", "pub mod a;\npub mod b;\nmod top;"),
        ("a/mod.rs", "mod x;\npub use x::{X, other as Y};"),
        ("a/x.rs", "use crate::{b::{self, Z}};\npub struct X;"),
        (
            "b.rs",
            "// crate::top::Nothing\npub struct Z;\nfn f() -> usize { let s = \"crate::top::T\"; \
             std::mem::size_of::<crate::a::X>() }",
        ),
        ("top.rs", "use crate::a::Y;"),
    ]);
    assert_eq!(
        krate.circles(),
        vec![vec![
            "src/a/x.rs".to_string(),
            "src/b.rs".to_string(),
            "src/a/x.rs".to_string()
        ]]
    );
}

#[test]
fn test_items_and_uses_of_the_own_mod_rs_are_left_out() {
    let krate = toy(&[
        ("lib.rs", "pub mod g;"),
        (
            "g/mod.rs",
            "mod p;\nmod q;\npub struct Rules;\npub use p::f;",
        ),
        (
            "g/p.rs",
            "#[cfg(test)]\nmod tests { use super::super::q::Q; fn f() { let _ = '{'; } }\n\
             pub fn f(_: super::Rules) {}",
        ),
        ("g/q.rs", "pub struct Q;\nfn g() { super::f(super::Rules) }"),
    ]);
    assert!(krate.circles().is_empty());
}
