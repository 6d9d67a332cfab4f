//! The module graph has no cycles: data flows one way through the pipeline.
//!
//! Reads `src/**/*.rs` (test code left out: `tests*.rs`, `tests/` folders and
//! `#[cfg(test)]` items, since tests may reach anywhere), finds every path that starts
//! with `crate`, `super` or `self` (in `use` trees too) and resolves it to the module it
//! names, following the `use` items of the root or of a module the path is written in
//! (`crate::Error` is `error`, `super::Report` in check/xml.rs is `check::report`). Two graphs are checked: between the top-level modules, and between the
//! children of each top-level module. `lib.rs` and `cli` may use anything; nothing may
//! use `cli`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path from the crate root: `["config", "layout"]`.
type ModPath = Vec<String>;

/// One edge with where it was seen: `(from, to) -> "src/x.rs:12"`.
type Edges = BTreeMap<(String, String), String>;

/// Cycles between top-level modules not mended yet, each as its modules in order.
const KNOWN_TOP_LEVEL: &[&str] = &[];

/// Cycles between the submodules of a top-level module not mended yet.
const KNOWN_SUBMODULES: &[&str] = &[];

#[test]
fn top_level_modules_have_no_cycles() {
    let crate_ = Crate::read();
    let edges = crate_.edges(|from, to| {
        let (a, b) = (from.first()?, to.first()?);
        (a != b).then(|| (a.clone(), b.clone()))
    });
    let into_cli: Vec<String> = edges
        .iter()
        .filter(|((_, to), _)| to == "cli")
        .map(|((from, to), at)| format!("{from} -> {to} ({at})"))
        .collect();
    assert!(into_cli.is_empty(), "nothing may use cli: {into_cli:#?}");
    let edges: Edges = edges
        .into_iter()
        .filter(|((from, _), _)| from != "cli")
        .collect();
    assert_no_cycles("top-level modules", &edges, KNOWN_TOP_LEVEL);
}

#[test]
fn submodules_have_no_cycles() {
    let crate_ = Crate::read();
    let edges = crate_.edges(|from, to| {
        let (top, a, b) = (from.first()?, from.get(1)?, to.get(1)?);
        (to.first() == Some(top) && a != b).then(|| (format!("{top}::{a}"), format!("{top}::{b}")))
    });
    assert_no_cycles("submodules", &edges, KNOWN_SUBMODULES);
}

/// The parser finds a cycle in code that has one, and ignores test code and comments.
#[test]
fn the_parser_finds_edges() {
    let mut crate_ = Crate::default();
    for module in ["a", "b", "c"] {
        crate_.modules.insert(vec![module.to_string()]);
    }
    crate_.add("a.rs", vec!["a".into()], "use crate::{b::{X, Y}, c};");
    crate_.add(
        "b.rs",
        vec!["b".into()],
        "// crate::c\nfn f() { let s = \"crate::c\"; super::a::g(); }\n\
         /* crate::c /* nested */ crate::c */\n\
         fn g<'a>(x: &'a str) { let q = '\"'; let r = r#\"\" crate::c\"#; let e = \"\\\" crate::c\"; }\n\
         #[cfg(test)]\nmod tests { use crate::c; }",
    );
    crate_.add("c.rs", vec!["c".into()], "pub struct C;");
    let edges = crate_.edges(|from, to| Some((from.first()?.clone(), to.first()?.clone())));
    let found: Vec<_> = edges
        .keys()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{a}->{b}"))
        .collect();
    assert_eq!(found, ["a->b", "a->c", "b->a"]);
    assert_eq!(cycles(&edges).len(), 1);
}

/// Fails naming each cycle that is not known, and each known one that is gone (so the
/// list only shrinks).
fn assert_no_cycles(what: &str, edges: &Edges, known: &[&str]) {
    let all = cycles(edges);
    let groups: Vec<String> = all.iter().map(|(group, _)| group.join(" ")).collect();
    let gone: Vec<&&str> = known
        .iter()
        .filter(|k| !groups.iter().any(|g| g == *k))
        .collect();
    assert!(
        gone.is_empty(),
        "{what}: known cycles now gone, take them off the list: {gone:?}"
    );
    let found: Vec<String> = all
        .into_iter()
        .filter(|(group, _)| !known.contains(&group.join(" ").as_str()))
        .map(|(_, cycle)| {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| {
                    format!(
                        "{} -> {} ({})",
                        w[0],
                        w[1],
                        edges[&(w[0].clone(), w[1].clone())]
                    )
                })
                .collect();
            steps.join(", ")
        })
        .collect();
    assert!(
        found.is_empty(),
        "cycles between {what}:\n{}",
        found.join("\n")
    );
}

/// Each strongly connected group of more than one module (its modules, sorted) with one
/// cycle through it (the list of modules from the first back to it).
fn cycles(edges: &Edges) -> Vec<(Vec<String>, Vec<String>)> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        if from != to {
            next.entry(from).or_default().push(to);
        }
    }
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start.to_string()];
        while let Some(n) = todo.pop() {
            for m in next.get(n.as_str()).into_iter().flatten() {
                if seen.insert(m.to_string()) {
                    todo.push(m.to_string());
                }
            }
        }
        seen
    };
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for &start in next.keys() {
        if done.contains(start) || !reach(start).contains(start) {
            continue;
        }
        // Shortest way back to the start, breadth first.
        let mut from: HashMap<&str, &str> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        'search: while let Some(n) = queue.pop_front() {
            for &m in next.get(n).into_iter().flatten() {
                if m == start {
                    from.insert(start, n);
                    break 'search;
                }
                if !from.contains_key(m) {
                    from.insert(m, n);
                    queue.push_back(m);
                }
            }
        }
        let mut cycle = vec![start.to_string()];
        let mut at = from[start];
        while at != start {
            cycle.push(at.to_string());
            at = from[at];
        }
        cycle.push(start.to_string());
        cycle.reverse();
        let group: Vec<String> = reach(start)
            .into_iter()
            .filter(|m| reach(m).contains(start))
            .collect();
        done.extend(group.iter().cloned());
        found.push((group, cycle));
    }
    found
}

/// The crate's non-test source, tokenized, and the modules it has.
#[derive(Default)]
struct Crate {
    /// Every module with a file of its own.
    modules: BTreeSet<ModPath>,
    files: Vec<File>,
}

struct File {
    name: String,
    module: ModPath,
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

/// A `crate`/`super`/`self` path as written, with the line and the module it is in.
struct Use {
    path: Vec<String>,
    module: ModPath,
    line: usize,
}

impl Crate {
    fn read() -> Crate {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut crate_ = Crate::default();
        let mut files = Vec::new();
        rs_files(&src, &mut files);
        for path in &files {
            let rel = path.strip_prefix(&src).unwrap();
            let mut module: ModPath = rel
                .iter()
                .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            if module.first().is_some_and(|m| m == "main") {
                continue; // The binary (main.rs, main/) is another crate.
            }
            if module == ["lib"] {
                module.clear();
            }
            if module.iter().any(|m| m.starts_with("tests")) {
                continue;
            }
            crate_.modules.insert(module.clone());
            let text = fs::read_to_string(path).unwrap();
            crate_.add(&format!("src/{}", rel.display()), module, &text);
        }
        crate_
    }

    fn add(&mut self, name: &str, module: ModPath, text: &str) {
        let tokens = without_test_items(tokenize(text));
        self.files.push(File {
            name: name.to_string(),
            module,
            tokens,
        });
    }

    /// The edges `keep` makes of each (from module, to module) pair; `lib.rs` is left out.
    fn edges(&self, keep: impl Fn(&ModPath, &ModPath) -> Option<(String, String)>) -> Edges {
        let imports = self.imports();
        let mut edges = Edges::new();
        for file in self.files.iter().filter(|f| !f.module.is_empty()) {
            for used in paths(file) {
                let to = self.resolve(&used, &imports);
                if let Some(pair) = keep(&used.module, &to) {
                    edges
                        .entry(pair)
                        .or_insert_with(|| format!("{}:{}", file.name, used.line));
                }
            }
        }
        edges
    }

    /// Per module, each name its `use` items bring in and the module that name is from.
    fn imports(&self) -> HashMap<ModPath, HashMap<String, ModPath>> {
        let mut imports: HashMap<ModPath, HashMap<String, ModPath>> = HashMap::new();
        for file in &self.files {
            for used in paths(file) {
                let target = self.resolve(&used, &HashMap::new());
                if let Some(name) = used.path.last() {
                    imports
                        .entry(used.module.clone())
                        .or_default()
                        .insert(name.clone(), target);
                }
            }
            // `pub use generate::Collection` in lib.rs, `use layout::X` in a mod.rs.
            for (name, first) in plain_uses(&file.tokens) {
                let mut module = file.module.clone();
                module.push(first);
                if self.modules.contains(&module) {
                    imports
                        .entry(file.module.clone())
                        .or_default()
                        .insert(name, module);
                }
            }
        }
        imports
    }

    /// The module a path names: as deep as its segments are modules, then through the
    /// `use` items of the module it stops in.
    fn resolve(&self, used: &Use, imports: &HashMap<ModPath, HashMap<String, ModPath>>) -> ModPath {
        let mut at = used.module.clone();
        for (i, seg) in used.path.iter().enumerate() {
            match seg.as_str() {
                "crate" if i == 0 => at.clear(),
                "self" if i == 0 => {}
                "super" => {
                    at.pop();
                }
                _ => {
                    let mut deeper = at.clone();
                    deeper.push(seg.clone());
                    if self.modules.contains(&deeper) {
                        at = deeper;
                    } else {
                        // A name the root or one's own parent module brings in counts
                        // as where it is from; any other path depends on what it spells.
                        let inside = used.module.starts_with(&at);
                        if let Some(from) = imports.get(&at).and_then(|m| m.get(seg))
                            && inside
                        {
                            return from.clone();
                        }
                        break;
                    }
                }
            }
        }
        at
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Identifiers (`$crate` as one), `::` and single punctuation characters; comments,
/// strings and character literals are dropped.
fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if let Some(end) = skip_literal(&chars, i) {
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            i += 1;
            while at(i).is_alphanumeric() || at(i) == '_' || (at(i) == '#' && i == start + 1) {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let text = text.trim_start_matches("r#").replace("$crate", "crate");
            tokens.push(Token { text, line });
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(Token {
                    text: c.to_string(),
                    line,
                });
            }
            line += usize::from(c == '\n');
            i += 1;
        }
    }
    tokens
}

/// Where the comment, string or character literal at `i` ends, if one starts there.
fn skip_literal(chars: &[char], mut i: usize) -> Option<usize> {
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let (c, next) = (at(i), at(i + 1));
    if c == '/' && next == '/' {
        while i < chars.len() && chars[i] != '\n' {
            i += 1;
        }
        return Some(i);
    }
    if c == '/' && next == '*' {
        let mut depth = 0;
        while i < chars.len() {
            if at(i) == '/' && at(i + 1) == '*' {
                depth += 1;
                i += 2;
            } else if at(i) == '*' && at(i + 1) == '/' {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    break;
                }
            } else {
                i += 1;
            }
        }
        return Some(i);
    }
    // A character literal; `'a` without a closing quote is a lifetime.
    if c == '\'' && (next == '\\' || at(i + 2) == '\'') {
        i += 1;
        while i < chars.len() && at(i) != '\'' {
            i += if at(i) == '\\' { 2 } else { 1 };
        }
        return Some(i + 1);
    }
    // Strings: "..", b"..", c"..", and raw r#".."# (br, cr too), escapes only in the
    // cooked ones.
    let prefix = ["", "b", "c", "r", "br", "cr"]
        .into_iter()
        .rev()
        .find(|p| {
            let after = at(i + p.len());
            p.chars().enumerate().all(|(k, pc)| at(i + k) == pc)
                && (after == '"' || p.ends_with('r') && after == '#')
        })?;
    if !prefix.is_empty() && i > 0 && (at(i - 1).is_alphanumeric() || at(i - 1) == '_') {
        return None; // The end of a longer name: `bar"` is no raw string.
    }
    i += prefix.len();
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    if at(i + hashes) != '"' {
        return None; // `r#ident`
    }
    i += hashes + 1;
    let raw = prefix.ends_with('r');
    while i < chars.len() {
        if at(i) == '\\' && !raw {
            i += 2;
        } else if at(i) == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
            return Some(i + 1 + hashes);
        } else {
            i += 1;
        }
    }
    Some(i)
}

/// The tokens without each `#[cfg(test)]` item (attribute and item: up to its `;` or
/// the end of its block).
fn without_test_items(tokens: Vec<Token>) -> Vec<Token> {
    let texts: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
    let attribute = ["#", "[", "cfg", "(", "test", ")", "]"];
    let mut kept = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if texts[i..].starts_with(&attribute) {
            i += attribute.len();
            let mut depth = 0i32;
            while i < tokens.len() {
                match texts[i] {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" => depth -= 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ";" if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
        } else {
            kept.push(tokens[i].clone());
            i += 1;
        }
    }
    kept
}

/// Every path in a file that starts with `crate`, `super` or `self`, `use` trees
/// expanded, each with the (inline) module it is written in.
fn paths(file: &File) -> Vec<Use> {
    let t: Vec<&str> = file.tokens.iter().map(|t| t.text.as_str()).collect();
    let mut found = Vec::new();
    // The inline modules open around the current token: `Some(name)` for `mod name {`.
    let mut blocks: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let module = || {
            let mut m = file.module.clone();
            m.extend(blocks.iter().flatten().cloned());
            m
        };
        match t[i] {
            "{" => {
                let inline = i >= 2 && t[i - 2] == "mod";
                blocks.push(inline.then(|| t[i - 1].to_string()));
            }
            "}" => {
                blocks.pop();
            }
            "crate" | "super" | "self"
                if (i == 0 || t[i - 1] != "::") && t.get(i + 1) == Some(&"::") =>
            {
                let line = file.tokens[i].line;
                let module = module();
                let (trees, end) = use_tree(&t, i, Vec::new());
                for path in trees {
                    found.push(Use {
                        path,
                        module: module.clone(),
                        line,
                    });
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The paths a use tree (or a plain path) starting at `i` names, and where it ends:
/// `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn use_tree(t: &[&str], mut i: usize, mut prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    loop {
        match t.get(i).copied() {
            Some("{") => {
                let mut all = Vec::new();
                i += 1;
                while i < t.len() && t[i] != "}" {
                    let (paths, end) = use_tree(t, i, prefix.clone());
                    all.extend(paths);
                    i = end;
                    if t.get(i) == Some(&",") {
                        i += 1;
                    }
                }
                return (all, i + 1);
            }
            Some("*") => return (vec![prefix], i + 1),
            Some("self") if !prefix.is_empty() => i += 1,
            Some(seg) if seg.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                prefix.push(seg.to_string());
                i += 1;
                if t.get(i) == Some(&"::") {
                    i += 1;
                } else {
                    if t.get(i) == Some(&"as") {
                        // The alias is the name brought in.
                        prefix.extend(t.get(i + 1).map(|a| a.to_string()));
                        i += 2;
                    }
                    return (vec![prefix], i);
                }
            }
            _ => return (vec![prefix], i),
        }
    }
}

/// The names each `use` item whose path starts with a plain name brings in, with that
/// first name: `pub use error::{Error, Warning};` gives `(Error, error)`, `(Warning,
/// error)`.
fn plain_uses(tokens: &[Token]) -> Vec<(String, String)> {
    let t: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
    let mut found = Vec::new();
    for i in 0..t.len() {
        let Some(&first) = t.get(i + 1) else { break };
        if t[i] != "use" || matches!(first, "crate" | "super" | "self" | "::") {
            continue;
        }
        let (paths, _) = use_tree(&t, i + 1, Vec::new());
        for path in paths {
            if let Some(last) = path.last() {
                found.push((last.clone(), first.to_string()));
            }
        }
    }
    found
}
