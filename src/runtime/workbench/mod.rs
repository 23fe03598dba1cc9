//! The grammar workbench (feature `runtime-grammar`): what a grammar author needs around a `.pest` file
//! besides loading it.
//!
//! - [`shipped`]: the grammars shipped with the crate (`uri.pest`, `grammars/`, `schemes/`), with the RFC
//!   each transcribes and its text, ready to copy into an edited file or an overlay.
//! - [`lint`]: the places where a PEG transcription of ABNF accepts another language than the ABNF
//!   (ordered choice that never takes or cuts off an alternative, repetition of the empty string, left
//!   recursion, unused and undefined rules, case-sensitive strings, implicit whitespace).
//! - [`export`]: a regular expression that accepts exactly a rule's language, in the syntax of one of
//!   several engines, or the reason there is none.
//! - [`diff`]: the inputs whose verdict or component split changes between two grammars.
//! - [`tree`]: the derivation of one input (every rule that matched, nested, with its byte span).
//!
//! Every grammar goes through the [load limits](crate::runtime_limits) of [`Grammar`] first: a text
//! the workbench reads is one [`Grammar::load`] accepts.

mod automaton;
mod diff;
mod export;
mod lint;
mod syntax;
mod tree;

use std::collections::HashMap;
use std::path::Path;

pub use diff::{diff, Change, ChangeKind, Diff, DiffOptions, Verdict};
pub use export::{export, ExportError, Exported, Flavor, DEFAULT_MAX_EXPORT_BYTES};
pub use lint::{lint, Finding, LintCode};
pub use tree::{tree, Tree, TreeGrammar, TreeLimits, TreeNode, TreeNodeRef, TreeOutcome};

use super::{
    load_overlay, load_scheme, Grammar, GrammarError, GrammarIssue, BUILTIN_GRAMMARS,
    BUILTIN_SCHEMES, GENERIC,
};
use crate::runtime_limits;
use automaton::Refusal;
use syntax::{Kind, Node, Rules};

/// What a shipped grammar is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShippedKind {
    /// A whole grammar (`uri`, `iri`, `uri-template`) or an overlay on `uri.pest` (`zone-id`), for
    /// `--grammar NAME`.
    Grammar,
    /// A scheme grammar (`schemes/*.pest`), laid over `uri.pest`, checked by `SchemeGrammars`.
    Scheme,
}

/// A grammar shipped with the crate.
#[derive(Clone, Copy, Debug)]
pub struct Shipped {
    /// The name `grammar show` and `--grammar` take (`uri`, `iri`, `zone-id`, `uri-template`; a scheme
    /// grammar by its file stem: `http`, `urn`, ...).
    pub name: &'static str,
    /// Grammar or scheme grammar.
    pub kind: ShippedKind,
    /// The file in the source tree (`grammars/iri.pest`).
    pub path: &'static str,
    /// The first `//!` line of the file: what it transcribes and from which RFC.
    pub citation: &'static str,
    /// Whether it is laid over `uri.pest` (uses rules it does not define).
    pub overlay: bool,
    /// The text of the file.
    pub text: &'static str,
}

fn first_header(text: &str) -> &str {
    text.lines()
        .find_map(|l| l.strip_prefix("//!"))
        .map_or("", str::trim)
}

/// The shipped grammars, then the shipped scheme grammars, in order.
pub fn shipped() -> impl Iterator<Item = Shipped> {
    let paths = [
        ("uri", "uri.pest"),
        ("iri", "grammars/iri.pest"),
        ("zone-id", "grammars/ipv6-zone-id.pest"),
        ("uri-template", "grammars/uri-template.pest"),
    ];
    let grammars = BUILTIN_GRAMMARS
        .iter()
        .map(move |&(name, text, overlay)| Shipped {
            name,
            kind: ShippedKind::Grammar,
            path: paths
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, p)| p),
            citation: first_header(text),
            overlay,
            text,
        });
    let schemes = BUILTIN_SCHEMES.iter().map(|&(name, text)| Shipped {
        name,
        kind: ShippedKind::Scheme,
        path: SCHEME_PATHS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, p)| p),
        citation: first_header(text),
        overlay: true,
        text,
    });
    grammars.chain(schemes)
}

const SCHEME_PATHS: &[(&str, &str)] = &[
    ("data", "schemes/data.pest"),
    ("file", "schemes/file.pest"),
    ("http", "schemes/http.pest"),
    ("mailto", "schemes/mailto.pest"),
    ("urn", "schemes/urn.pest"),
];

/// The shipped grammar named `name` (ASCII case-insensitive), `None` for another name.
pub fn shipped_grammar(name: &str) -> Option<Shipped> {
    shipped().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// How a grammar text is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// On its own.
    Alone,
    /// Over `uri.pest`.
    Overlay,
    /// Over `uri.pest`, with a `scheme_uri` rule.
    Scheme,
}

/// A grammar text for the workbench: a shipped grammar by name, or a `.pest` file, with how it loads
/// (on its own, or laid over `uri.pest` when it uses rules it does not define).
#[derive(Clone, Debug)]
pub struct GrammarText {
    name: String,
    text: String,
    layout: Layout,
}

impl GrammarText {
    /// A shipped grammar by name ([`shipped_grammar`]) or else the file at path `arg`, read with the
    /// [limits](crate::runtime_limits) (a regular file of at most
    /// [`MAX_GRAMMAR_BYTES`](crate::runtime_limits::MAX_GRAMMAR_BYTES); a FIFO or a device is refused).
    ///
    /// # Errors
    /// [`GrammarError::Io`] when the file cannot be read; [`GrammarError::Invalid`] when the text is not
    /// a grammar [`Grammar::load`] (or [`Grammar::overlay`]) accepts.
    pub fn named_or_file(arg: &str) -> Result<GrammarText, GrammarError> {
        if let Some(s) = shipped_grammar(arg) {
            let layout = match (s.kind, s.overlay) {
                (ShippedKind::Scheme, _) => Layout::Scheme,
                (_, true) => Layout::Overlay,
                _ => Layout::Alone,
            };
            return Ok(GrammarText {
                name: s.name.to_string(),
                text: s.text.to_string(),
                layout,
            });
        }
        let path = Path::new(arg);
        let text = runtime_limits::read_grammar_file(path)?;
        GrammarText::from_text(arg, text).map_err(|e| e.with_path(path))
    }

    /// `text` under the name `name`, loaded alone when it defines every rule it uses, else over
    /// `uri.pest` (as `Grammar::from_file_or_overlay` does).
    ///
    /// # Errors
    /// As [`Grammar::load`].
    pub fn from_text(name: &str, text: String) -> Result<GrammarText, GrammarError> {
        let layout = match Grammar::load(&text) {
            Ok(_) => Layout::Alone,
            Err(GrammarError::Invalid { issues, .. })
                if !issues.is_empty()
                    && issues.iter().all(|i| i.message.ends_with("is undefined")) =>
            {
                Layout::Overlay
            }
            Err(e) => return Err(e),
        };
        let t = GrammarText {
            name: name.to_string(),
            text,
            layout,
        };
        if layout == Layout::Overlay {
            t.load()?;
        }
        Ok(t)
    }

    /// The name it was given (a shipped name or the path as written).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text of the file (for an overlay, without `uri.pest`).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether it is laid over `uri.pest`.
    pub fn is_overlay(&self) -> bool {
        self.layout != Layout::Alone
    }

    /// The grammar, loaded as `check --grammar` loads it.
    ///
    /// # Errors
    /// As [`Grammar::load`] and [`Grammar::overlay`].
    pub fn load(&self) -> Result<Grammar, GrammarError> {
        match self.layout {
            Layout::Alone => Grammar::load(&self.text),
            Layout::Overlay => runtime_limits::on_big_stack(|| load_overlay(&self.text, GENERIC)),
            Layout::Scheme => runtime_limits::on_big_stack(|| load_scheme(&self.text, GENERIC)),
        }
    }

    /// The file's rules with positions (over `uri.pest`'s for an overlay).
    fn rules(&self) -> Result<Rules, GrammarIssue> {
        runtime_limits::check(&self.text).map_err(|e| {
            e.issues()
                .first()
                .cloned()
                .unwrap_or_else(|| GrammarIssue::new(1, 1, e.to_string()))
        })?;
        let own = syntax::read(&self.text)?;
        Ok(if self.is_overlay() {
            own.over(syntax::read(GENERIC)?)
        } else {
            own
        })
    }
}

/// The most nodes an inlined expression may have.
const MAX_INLINED_NODES: usize = 1 << 19;

/// `node` (in rule `rule`) with every rule it uses replaced by its body (under a [`Kind::Rule`] node);
/// a refusal for a rule that uses itself, directly or not, and for an undefined rule.
fn inline(rules: &Rules, rule: &str, node: &Node) -> Result<Node, Refusal> {
    let mut stack = vec![rule.to_string()];
    let mut memo: HashMap<String, Node> = HashMap::new();
    let mut count = 0usize;
    inline_in(rules, rule, node, &mut stack, &mut memo, &mut count)
}

fn inline_in(
    rules: &Rules,
    rule: &str,
    node: &Node,
    stack: &mut Vec<String>,
    memo: &mut HashMap<String, Node>,
    count: &mut usize,
) -> Result<Node, Refusal> {
    *count += 1;
    let refuse = |why: String| Refusal {
        rule: rule.to_string(),
        line: node.line,
        column: node.column,
        why,
    };
    if *count > MAX_INLINED_NODES {
        return Err(refuse(format!(
            "the rule inlined has more than {MAX_INLINED_NODES} nodes"
        )));
    }
    let mut sub = |n: &Node, stack: &mut Vec<String>, memo: &mut HashMap<String, Node>| {
        inline_in(rules, rule, n, stack, memo, count)
    };
    let kind = match &node.kind {
        Kind::Ident(name) if rules.get(name).is_some() => {
            if stack.iter().any(|s| s == name) {
                let mut cycle: Vec<&str> = stack
                    .iter()
                    .skip_while(|s| *s != name)
                    .map(String::as_str)
                    .collect();
                cycle.push(name);
                return Err(refuse(format!(
                    "recursion: {} (a recursive rule has no regular reading as written)",
                    cycle.join(" -> ")
                )));
            }
            if let Some(done) = memo.get(name) {
                *count += node_count(done);
                if *count > MAX_INLINED_NODES {
                    return Err(refuse(format!(
                        "the rule inlined has more than {MAX_INLINED_NODES} nodes"
                    )));
                }
                return Ok(done.clone());
            }
            let def = rules.get(name).expect("checked above");
            stack.push(name.clone());
            let body = inline_in(rules, name, &def.expr, stack, memo, count)?;
            stack.pop();
            let n = Node {
                kind: Kind::Rule(name.clone(), Box::new(body)),
                line: node.line,
                column: node.column,
            };
            memo.insert(name.clone(), n.clone());
            return Ok(n);
        }
        Kind::Ident(name) if !syntax::is_builtin(name) => {
            return Err(refuse(format!("`{name}` is not defined")));
        }
        Kind::Pos(n) => Kind::Pos(Box::new(sub(n, stack, memo)?)),
        Kind::Neg(n) => Kind::Neg(Box::new(sub(n, stack, memo)?)),
        Kind::Seq(v) => Kind::Seq(
            v.iter()
                .map(|n| sub(n, stack, memo))
                .collect::<Result<_, _>>()?,
        ),
        Kind::Choice(v) => Kind::Choice(
            v.iter()
                .map(|n| sub(n, stack, memo))
                .collect::<Result<_, _>>()?,
        ),
        Kind::Rep(n, a, b) => Kind::Rep(Box::new(sub(n, stack, memo)?), *a, *b),
        Kind::Rule(name, n) => Kind::Rule(name.clone(), Box::new(sub(n, stack, memo)?)),
        other => other.clone(),
    };
    Ok(Node {
        kind,
        line: node.line,
        column: node.column,
    })
}

fn node_count(n: &Node) -> usize {
    1 + match &n.kind {
        Kind::Pos(i) | Kind::Neg(i) | Kind::Rep(i, ..) | Kind::Rule(_, i) => node_count(i),
        Kind::Seq(v) | Kind::Choice(v) => v.iter().map(node_count).sum(),
        _ => 0,
    }
}

/// The shape of an expression without positions or rule names (two nodes with the same shape match the
/// same inputs the same way).
fn shape(n: &Node) -> String {
    match &n.kind {
        Kind::Rule(_, i) => shape(i),
        Kind::Pos(i) => format!("&({})", shape(i)),
        Kind::Neg(i) => format!("!({})", shape(i)),
        Kind::Rep(i, a, b) => format!("({}){{{a},{b:?}}}", shape(i)),
        Kind::Seq(v) => format!("({})", v.iter().map(shape).collect::<Vec<_>>().join(" ~ ")),
        Kind::Choice(v) => format!("({})", v.iter().map(shape).collect::<Vec<_>>().join(" | ")),
        other => format!("{other:?}"),
    }
}
