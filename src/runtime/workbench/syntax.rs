//! A `.pest` file read into rules whose expressions keep their line and column, for the workbench's
//! lint and export (pest_meta's own AST drops positions). Read from pest_meta's parse of the file (its
//! grammar of grammars), so that what is accepted here is what pest_meta accepts.

use std::collections::HashMap;

use pest::iterators::Pair;
use pest_meta::ast::RuleType;
use pest_meta::parser::{self, Rule as MetaRule};

use crate::runtime::GrammarIssue;

/// One expression node with the 1-based line and column where it starts in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// The expressions of pest, with `~` and `|` chains flattened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `"..."` (unescaped).
    Str(String),
    /// `^"..."` (unescaped).
    Insens(String),
    /// `'a'..'z'`.
    Range(char, char),
    /// A rule or a builtin (`ANY`, `EOI`, ...).
    Ident(String),
    /// `&e`.
    Pos(Box<Node>),
    /// `!e`.
    Neg(Box<Node>),
    /// `e1 ~ e2 ~ ...`.
    Seq(Vec<Node>),
    /// `e1 | e2 | ...`.
    Choice(Vec<Node>),
    /// `e?` (0, 1), `e*` (0, None), `e+` (1, None), `e{n}`, `e{n,}`, `e{,m}`, `e{n,m}`.
    Rep(Box<Node>, u32, Option<u32>),
    /// A rule's body inlined where the rule is used (only in the trees [`super::inline`] makes).
    Rule(String, Box<Node>),
    /// What the workbench does not interpret (`PUSH(..)`, `PEEK[..]`, a node tag), by its text.
    Other(String),
}

/// One rule of a file.
#[derive(Clone, Debug)]
pub(crate) struct Def {
    pub(crate) name: String,
    pub(crate) ty: RuleType,
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) expr: Node,
    /// Whether a `///` doc line precedes it (a rule this crate's grammars mean to be matched by name).
    pub(crate) documented: bool,
    /// The lint codes a `// lint: allow(CODE, ...)` comment before the rule allows.
    pub(crate) allow: Vec<String>,
    /// Whether a `// PEG:` comment before the rule explains the shape of its choices and repetitions.
    pub(crate) peg_note: bool,
    /// Whether the rule comes from the grammar a file is laid over (not from the file).
    pub(crate) from_base: bool,
}

/// The rules of a file (in order) and an index by name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rules {
    pub(crate) defs: Vec<Def>,
    pub(crate) index: HashMap<String, usize>,
}

impl Rules {
    pub(crate) fn get(&self, name: &str) -> Option<&Def> {
        self.index.get(name).map(|&i| &self.defs[i])
    }

    /// This file's rules laid over `base`: a rule of `self` replaces the base rule of the same name.
    pub(crate) fn over(mut self, base: Rules) -> Rules {
        for mut def in base.defs {
            if !self.index.contains_key(&def.name) {
                def.from_base = true;
                self.index.insert(def.name.clone(), self.defs.len());
                self.defs.push(def);
            }
        }
        self
    }
}

/// The names pest defines itself (not rules of the grammar).
pub(crate) fn is_builtin(name: &str) -> bool {
    // pest's builtins are all in upper case (`ANY`, `ASCII_DIGIT`, `LETTER`, `PEEK`, ...).
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && name != "WHITESPACE"
        && name != "COMMENT"
}

/// Reads `text` (already within the [limits](crate::runtime_limits)).
///
/// # Errors
/// pest_meta's syntax error, at its line and column.
pub(crate) fn read(text: &str) -> Result<Rules, GrammarIssue> {
    let pairs = parser::parse(MetaRule::grammar_rules, text).map_err(|e| {
        let (line, column) = match e.line_col {
            pest::error::LineColLocation::Pos(p) | pest::error::LineColLocation::Span(p, _) => p,
        };
        GrammarIssue::new(line, column, e.variant.message().into_owned())
    })?;
    let lines: Vec<&str> = text.lines().collect();
    let mut rules = Rules::default();
    let mut documented = false;
    for pair in pairs {
        if pair.as_rule() != MetaRule::grammar_rule {
            continue;
        }
        let mut inner = pair.into_inner().peekable();
        let Some(first) = inner.next() else { continue };
        if first.as_rule() == MetaRule::line_doc {
            documented = true;
            continue;
        }
        let (line, column) = first.as_span().start_pos().line_col();
        let name = first.as_str().to_string();
        let mut ty = RuleType::Normal;
        let mut expr = None;
        for p in inner {
            match p.as_rule() {
                MetaRule::silent_modifier => ty = RuleType::Silent,
                MetaRule::atomic_modifier => ty = RuleType::Atomic,
                MetaRule::compound_atomic_modifier => ty = RuleType::CompoundAtomic,
                MetaRule::non_atomic_modifier => ty = RuleType::NonAtomic,
                MetaRule::expression => expr = Some(expression(p)),
                _ => {}
            }
        }
        let Some(expr) = expr else { continue };
        let (allow, peg_note) = comments_before(&lines, line);
        rules.index.insert(name.clone(), rules.defs.len());
        rules.defs.push(Def {
            name,
            ty,
            line,
            column,
            expr,
            documented,
            allow,
            peg_note,
            from_base: false,
        });
        documented = false;
    }
    Ok(rules)
}

/// The `// lint: allow(...)` codes and whether a `// PEG:` comment appears in the comment and doc
/// lines right above line `line` (1-based).
fn comments_before(lines: &[&str], line: usize) -> (Vec<String>, bool) {
    let mut allow = Vec::new();
    let mut peg = false;
    let mut i = line.saturating_sub(1);
    while i > 0 {
        let l = lines.get(i - 1).map_or("", |l| l.trim());
        if !l.starts_with("//") {
            break;
        }
        let body = l.trim_start_matches('/').trim();
        if body.starts_with("PEG:") {
            peg = true;
        }
        if let Some(rest) = body.strip_prefix("lint: allow(") {
            if let Some((codes, _)) = rest.split_once(')') {
                allow.extend(codes.split(',').map(|c| c.trim().to_string()));
            }
        }
        i -= 1;
    }
    (allow, peg)
}

fn at(pair: &Pair<'_, MetaRule>) -> (usize, usize) {
    pair.as_span().start_pos().line_col()
}

/// An `expression` pair: terms joined by `~` (binding tighter) and `|`.
fn expression(pair: Pair<'_, MetaRule>) -> Node {
    let (line, column) = at(&pair);
    let mut alternatives: Vec<Vec<Node>> = vec![Vec::new()];
    for p in pair.into_inner() {
        match p.as_rule() {
            MetaRule::choice_operator if !alternatives.last().is_some_and(Vec::is_empty) => {
                alternatives.push(Vec::new());
            }
            MetaRule::term => {
                if let Some(last) = alternatives.last_mut() {
                    last.push(term(p));
                }
            }
            _ => {}
        }
    }
    let mut alts: Vec<Node> = alternatives
        .into_iter()
        .filter(|a| !a.is_empty())
        .map(|mut seq| {
            if seq.len() == 1 {
                seq.remove(0)
            } else {
                let (line, column) = (seq[0].line, seq[0].column);
                Node {
                    kind: Kind::Seq(seq),
                    line,
                    column,
                }
            }
        })
        .collect();
    if alts.len() == 1 {
        alts.remove(0)
    } else {
        let (line, column) = alts.first().map_or((line, column), |a| (a.line, a.column));
        Node {
            kind: Kind::Choice(alts),
            line,
            column,
        }
    }
}

fn number(pair: Pair<'_, MetaRule>) -> Vec<u32> {
    pair.into_inner()
        .filter(|p| p.as_rule() == MetaRule::number)
        .map(|p| p.as_str().trim().parse().unwrap_or(u32::MAX))
        .collect()
}

/// A `term` pair: prefix operators, a node, postfix operators.
fn term(pair: Pair<'_, MetaRule>) -> Node {
    let (line, column) = at(&pair);
    let mut prefixes = Vec::new();
    let mut node: Option<Node> = None;
    let text = pair.as_str().to_string();
    for p in pair.into_inner() {
        let (l, c) = at(&p);
        let mk = |kind| Node {
            kind,
            line: l,
            column: c,
        };
        match p.as_rule() {
            MetaRule::positive_predicate_operator | MetaRule::negative_predicate_operator => {
                prefixes.push(p.as_rule());
            }
            MetaRule::expression => node = Some(expression(p)),
            MetaRule::identifier => node = Some(mk(Kind::Ident(p.as_str().to_string()))),
            MetaRule::string => node = Some(mk(Kind::Str(string(p)))),
            MetaRule::insensitive_string => {
                let s = p.into_inner().next().map(string).unwrap_or_default();
                node = Some(mk(Kind::Insens(s)));
            }
            MetaRule::range => {
                let mut chars = p
                    .into_inner()
                    .filter(|c| c.as_rule() == MetaRule::character)
                    .map(|c| {
                        let inner = c.as_str();
                        unescape(&inner[1..inner.len() - 1])
                            .and_then(|s| s.chars().next())
                            .unwrap_or('\0')
                    });
                let lo = chars.next().unwrap_or('\0');
                let hi = chars.next().unwrap_or(lo);
                node = Some(mk(Kind::Range(lo, hi)));
            }
            MetaRule::_push | MetaRule::peek_slice | MetaRule::_push_literal | MetaRule::tag_id => {
                node = Some(mk(Kind::Other(text.clone())));
            }
            MetaRule::optional_operator
            | MetaRule::repeat_operator
            | MetaRule::repeat_once_operator
            | MetaRule::repeat_exact
            | MetaRule::repeat_min
            | MetaRule::repeat_max
            | MetaRule::repeat_min_max => {
                let (min, max) = match p.as_rule() {
                    MetaRule::optional_operator => (0, Some(1)),
                    MetaRule::repeat_operator => (0, None),
                    MetaRule::repeat_once_operator => (1, None),
                    MetaRule::repeat_exact => {
                        let n = number(p).first().copied().unwrap_or(1);
                        (n, Some(n))
                    }
                    MetaRule::repeat_min => (number(p).first().copied().unwrap_or(0), None),
                    MetaRule::repeat_max => (0, Some(number(p).first().copied().unwrap_or(1))),
                    _ => {
                        let n = number(p);
                        (n.first().copied().unwrap_or(0), n.get(1).copied())
                    }
                };
                if let Some(inner) = node.take() {
                    node = Some(Node {
                        kind: Kind::Rep(Box::new(inner), min, max),
                        line: l,
                        column: c,
                    });
                }
            }
            _ => {}
        }
    }
    let mut node = node.unwrap_or(Node {
        kind: Kind::Other(text),
        line,
        column,
    });
    for op in prefixes.into_iter().rev() {
        let kind = if op == MetaRule::positive_predicate_operator {
            Kind::Pos(Box::new(node))
        } else {
            Kind::Neg(Box::new(node))
        };
        node = Node { kind, line, column };
    }
    // A repetition reports where its operand starts.
    if let Kind::Rep(inner, ..) = &node.kind {
        let (l, c) = (inner.line, inner.column);
        node.line = l;
        node.column = c;
    }
    node
}

/// A `string` pair's text, unescaped.
fn string(pair: Pair<'_, MetaRule>) -> String {
    let s = pair.as_str();
    let inner = s.get(1..s.len().saturating_sub(1)).unwrap_or("");
    unescape(inner).unwrap_or_else(|| inner.to_string())
}

/// pest's escapes: `\" \\ \r \n \t \0 \' \xHH \u{H..}`.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            'r' => out.push('\r'),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            '\'' => out.push('\''),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|c| *c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}
