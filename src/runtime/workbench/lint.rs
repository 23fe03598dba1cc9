//! `grammar lint`: the places where a PEG transcription of ABNF (RFC 5234) accepts another language
//! than the ABNF, each with its rule, line, column, why and a suggested rewrite.
//!
//! A finding is *explained* (reported, but not counted as a problem) when the file says why the shape is
//! wanted, in a comment line right above the rule (among its `///` doc lines and `//` comments):
//! `// PEG: ...` explains the rule's ordered choices (`choice-never-taken`, `choice-cuts-off`: the
//! convention of this crate's grammars, where such a comment says why the order is exact), and
//! `// lint: allow(CODE, ...) reason` explains the findings of those codes.

use std::collections::{HashMap, HashSet};

use super::automaton::{self, Builder};
use super::syntax::{self, Def, Kind, Node, Rules};
use super::{inline, GENERIC};
use crate::runtime::{Grammar, GrammarError, GrammarIssue};
use crate::runtime_limits;

/// The kinds of findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum LintCode {
    /// An alternative of an ordered choice that is never taken: every input it matches starts with a
    /// match of an earlier alternative, to which the choice commits.
    ChoiceNeverTaken,
    /// An alternative that stops at a prefix of what a later alternative matches: followed by more
    /// input, the choice commits to the shorter match (`"a" | "ab"`).
    ChoiceCutsOff,
    /// A repetition (`*`, `+`, `{n,}`) of something that can match the empty string.
    EmptyRepetition,
    /// A rule that can reach itself without consuming input.
    LeftRecursion,
    /// A rule no other rule uses, without a `///` doc line (and not the file's first rule).
    UnusedRule,
    /// A name that is neither a rule of the grammar nor a builtin of pest.
    UndefinedRule,
    /// A quoted string with letters, which pest matches in that case only, where ABNF strings are
    /// case-insensitive (RFC 5234 section 2.3).
    CaseSensitiveString,
    /// A rule that is not atomic in a grammar with `WHITESPACE` or `COMMENT`: pest skips those between
    /// the parts of its sequences and repetitions, which ABNF never does.
    ImplicitWhitespace,
    /// What pest_meta itself refuses in the grammar (duplicate rules, ...).
    Grammar,
    /// A note: the lint's work budget ran out, and the ordered choices from there on were not analysed.
    NotAnalysed,
}

impl LintCode {
    /// The code as the output and `// lint: allow(...)` write it.
    pub fn name(self) -> &'static str {
        match self {
            LintCode::ChoiceNeverTaken => "choice-never-taken",
            LintCode::ChoiceCutsOff => "choice-cuts-off",
            LintCode::EmptyRepetition => "empty-repetition",
            LintCode::LeftRecursion => "left-recursion",
            LintCode::UnusedRule => "unused-rule",
            LintCode::UndefinedRule => "undefined-rule",
            LintCode::CaseSensitiveString => "case-sensitive-string",
            LintCode::ImplicitWhitespace => "implicit-whitespace",
            LintCode::Grammar => "grammar",
            LintCode::NotAnalysed => "not-analysed",
        }
    }
}

/// One finding of [`lint`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What kind of trap.
    pub code: LintCode,
    /// The rule it is in (its pest name).
    pub rule: String,
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Why this accepts another language than the ABNF, with an example input where there is one.
    pub message: String,
    /// The rewrite that avoids it.
    pub suggestion: String,
    /// `Some(how)` when the file explains it (a `// PEG:` comment or `// lint: allow(CODE)`).
    pub explained: Option<String>,
}

/// Lints the grammar `text` (a whole grammar, or an overlay on `uri.pest`: a file that uses rules of
/// `uri.pest` it does not define is read over `uri.pest`, and only its own rules are linted). Findings
/// come in file order; explained ones are included with [`Finding::explained`] set.
///
/// # Errors
/// [`GrammarError::Invalid`] when the text is outside the [limits](crate::runtime_limits) or is not pest
/// syntax.
pub fn lint(text: &str) -> Result<Vec<Finding>, GrammarError> {
    runtime_limits::check(text)?;
    runtime_limits::on_big_stack(|| lint_checked(text))
}

fn invalid(issue: GrammarIssue) -> GrammarError {
    GrammarError::Invalid {
        path: None,
        issues: vec![issue],
    }
}

fn lint_checked(text: &str) -> Result<Vec<Finding>, GrammarError> {
    automaton::reset_budget();
    let own = syntax::read(text).map_err(invalid)?;
    let mut used_names = HashSet::new();
    for def in &own.defs {
        idents(&def.expr, &mut |n, _| {
            used_names.insert(n.to_string());
        });
    }
    let base = syntax::read(GENERIC).map_err(invalid)?;
    let overlay = used_names
        .iter()
        .any(|n| own.get(n).is_none() && base.get(n).is_some());
    let rules = if overlay { own.over(base) } else { own };
    let mut out = Vec::new();
    let nullable = Nullable::new(&rules);
    let mut referenced: HashMap<&str, HashSet<&str>> = HashMap::new();
    for def in &rules.defs {
        idents(&def.expr, &mut |n, _| {
            referenced.entry(n).or_default();
        });
    }
    let mut users: HashMap<String, HashSet<String>> = HashMap::new();
    for def in &rules.defs {
        idents(&def.expr, &mut |n, _| {
            users
                .entry(n.to_string())
                .or_default()
                .insert(def.name.clone());
        });
    }
    let whitespace = rules.get("WHITESPACE").is_some() || rules.get("COMMENT").is_some();
    let left = left_recursive(&rules, &nullable);
    let first_own = rules
        .defs
        .iter()
        .find(|d| !d.from_base && d.name != "WHITESPACE" && d.name != "COMMENT")
        .map(|d| d.name.clone());
    for def in rules.defs.iter().filter(|d| !d.from_base) {
        let mut add =
            |code: LintCode, node: (usize, usize), message: String, suggestion: String| {
                let explained = if def.allow.iter().any(|a| a == code.name()) {
                    Some(format!("`// lint: allow({})` above the rule", code.name()))
                } else if def.peg_note
                    && matches!(code, LintCode::ChoiceNeverTaken | LintCode::ChoiceCutsOff)
                {
                    Some("a `// PEG:` comment above the rule".to_string())
                } else {
                    None
                };
                out.push(Finding {
                    code,
                    rule: def.name.clone(),
                    line: node.0,
                    column: node.1,
                    message,
                    suggestion,
                    explained,
                });
            };
        // Undefined names.
        idents(&def.expr, &mut |n, node| {
            if rules.get(n).is_none() && !syntax::is_builtin(n) {
                add(
                    LintCode::UndefinedRule,
                    (node.line, node.column),
                    format!("`{n}` is not a rule of this grammar (nor of uri.pest) or a builtin of pest"),
                    format!("define `{n} = {{ ... }}`, or correct the name"),
                );
            }
        });
        // Unused rules.
        let used_by_other = users
            .get(&def.name)
            .is_some_and(|u| u.iter().any(|r| r != &def.name));
        if !used_by_other
            && !def.documented
            && first_own.as_deref() != Some(def.name.as_str())
            && def.name != "WHITESPACE"
            && def.name != "COMMENT"
        {
            add(
                LintCode::UnusedRule,
                (def.line, def.column),
                format!("no other rule uses `{}`, and no `///` doc line says it is meant to be matched by name", def.name),
                "remove it, use it, or document it with a `///` line (its ABNF definition)".to_string(),
            );
        }
        if left.contains(def.name.as_str()) {
            add(
                LintCode::LeftRecursion,
                (def.line, def.column),
                format!("`{}` can reach itself before consuming any input: PEG has no left recursion (pest refuses it, or loops)", def.name),
                "rewrite `a = { a ~ x | y }` as `a = { y ~ x* }` (RFC 5234's `*` form)".to_string(),
            );
        }
        if whitespace
            && !matches!(
                def.ty,
                pest_meta::ast::RuleType::Atomic | pest_meta::ast::RuleType::CompoundAtomic
            )
            && has_seq_or_rep(&def.expr)
        {
            add(
                LintCode::ImplicitWhitespace,
                (def.line, def.column),
                format!("`{}` is not atomic and the grammar defines WHITESPACE or COMMENT: pest skips them between the parts of its sequences and repetitions, so it accepts inputs with spaces the ABNF does not allow", def.name),
                format!("make it atomic (`{} = @{{ ... }}`, or `${{ ... }}` to keep inner rules' spans)", def.name),
            );
        }
        let mut findings: Vec<(LintCode, (usize, usize), String, String)> = Vec::new();
        walk(&def.expr, &mut |node| match &node.kind {
            Kind::Str(s) if s.chars().any(|c| c.is_ascii_alphabetic()) => {
                findings.push((
                    LintCode::CaseSensitiveString,
                    (node.line, node.column),
                    format!("\"{}\" matches only in this case, but an ABNF string is case-insensitive (RFC 5234 section 2.3)", s.escape_debug()),
                    format!("write ^\"{}\" (or, if the ABNF means it case-sensitively, %s\"...\" of RFC 7405, allow it with `// lint: allow(case-sensitive-string)`)", s.escape_debug()),
                ));
            }
            Kind::Rep(inner, _, None) if nullable.of(inner, &mut Vec::new()) => {
                findings.push((
                    LintCode::EmptyRepetition,
                    (node.line, node.column),
                    "the repeated expression can match the empty string: the repetition can go on without consuming input (pest refuses some of these, and loops or stops early on others)".to_string(),
                    "make the repeated part consume at least one character (`(x*)*` -> `x*`, `(x?)+` -> `x*`)".to_string(),
                ));
            }
            Kind::Choice(alts) => choice(&rules, def, alts, &mut findings),
            _ => {}
        });
        for (code, at, message, suggestion) in findings {
            add(code, at, message, suggestion);
        }
    }
    if automaton::budget_spent() {
        out.push(Finding {
            code: LintCode::NotAnalysed,
            rule: String::new(),
            line: 1,
            column: 1,
            message: format!(
                "the grammar's ordered choices are too many or too large to analyse all within {} steps; some were not analysed",
                automaton::WORK_BUDGET
            ),
            suggestion: "lint a smaller grammar, or the rules that changed as an overlay".to_string(),
            explained: Some("a note, not a finding about the grammar".to_string()),
        });
    }
    if out.iter().all(|f| f.explained.is_some()) {
        // What pest_meta refuses that the checks above do not name.
        let loaded = if overlay {
            Grammar::overlay(text).map(|_| ())
        } else {
            Grammar::load(text).map(|_| ())
        };
        if let Err(e) = loaded {
            for issue in e.issues() {
                out.push(Finding {
                    code: LintCode::Grammar,
                    rule: String::new(),
                    line: issue.line(),
                    column: issue.column(),
                    message: issue.message().to_string(),
                    suggestion: "fix the grammar as the message says".to_string(),
                    explained: None,
                });
            }
        }
    }
    out.sort_by_key(|f| (f.line, f.column, f.code));
    out.dedup();
    Ok(out)
}

/// Calls `f` on every rule reference of `node`.
fn idents<'n>(node: &'n Node, f: &mut impl FnMut(&'n str, &'n Node)) {
    match &node.kind {
        Kind::Ident(n) => f(n, node),
        Kind::Pos(i) | Kind::Neg(i) | Kind::Rep(i, ..) | Kind::Rule(_, i) => idents(i, f),
        Kind::Seq(v) | Kind::Choice(v) => v.iter().for_each(|n| idents(n, f)),
        _ => {}
    }
}

/// Calls `f` on every node of `node`, outermost first.
fn walk<'n>(node: &'n Node, f: &mut impl FnMut(&'n Node)) {
    f(node);
    match &node.kind {
        Kind::Pos(i) | Kind::Neg(i) | Kind::Rep(i, ..) | Kind::Rule(_, i) => walk(i, f),
        Kind::Seq(v) | Kind::Choice(v) => v.iter().for_each(|n| walk(n, f)),
        _ => {}
    }
}

fn has_seq_or_rep(node: &Node) -> bool {
    let mut found = false;
    walk(node, &mut |n| {
        if matches!(n.kind, Kind::Seq(_) | Kind::Rep(..)) {
            found = true;
        }
    });
    found
}

/// Which rules can match the empty string.
struct Nullable<'r> {
    rules: &'r Rules,
    memo: std::cell::RefCell<HashMap<String, bool>>,
}

impl<'r> Nullable<'r> {
    fn new(rules: &'r Rules) -> Nullable<'r> {
        Nullable {
            rules,
            memo: std::cell::RefCell::new(HashMap::new()),
        }
    }

    fn of(&self, node: &Node, stack: &mut Vec<String>) -> bool {
        match &node.kind {
            Kind::Str(s) | Kind::Insens(s) => s.is_empty(),
            Kind::Range(..) | Kind::Other(_) => false,
            Kind::Ident(n) => {
                if let Some(&v) = self.memo.borrow().get(n) {
                    return v;
                }
                match self.rules.get(n) {
                    Some(def) => {
                        if stack.iter().any(|s| s == n) {
                            return false;
                        }
                        stack.push(n.clone());
                        let v = self.of(&def.expr, stack);
                        stack.pop();
                        self.memo.borrow_mut().insert(n.clone(), v);
                        v
                    }
                    None => matches!(n.as_str(), "EOI" | "SOI" | "DROP" | "POP_ALL" | "PEEK_ALL"),
                }
            }
            Kind::Pos(_) | Kind::Neg(_) => true,
            Kind::Seq(v) => v.iter().all(|n| self.of(n, stack)),
            Kind::Choice(v) => v.iter().any(|n| self.of(n, stack)),
            Kind::Rep(i, min, _) => *min == 0 || self.of(i, stack),
            Kind::Rule(_, i) => self.of(i, stack),
        }
    }
}

/// The rules that can call themselves before consuming input.
fn left_recursive<'r>(rules: &'r Rules, nullable: &Nullable<'_>) -> HashSet<&'r str> {
    fn left_calls<'n>(node: &'n Node, nullable: &Nullable<'_>, out: &mut Vec<&'n str>) {
        match &node.kind {
            Kind::Ident(n) => out.push(n),
            Kind::Pos(i) | Kind::Neg(i) | Kind::Rep(i, ..) | Kind::Rule(_, i) => {
                left_calls(i, nullable, out)
            }
            Kind::Choice(v) => v.iter().for_each(|n| left_calls(n, nullable, out)),
            Kind::Seq(v) => {
                for n in v {
                    left_calls(n, nullable, out);
                    if !nullable.of(n, &mut Vec::new()) {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    let graph: HashMap<&str, Vec<&str>> = rules
        .defs
        .iter()
        .map(|d| {
            let mut v = Vec::new();
            left_calls(&d.expr, nullable, &mut v);
            (d.name.as_str(), v)
        })
        .collect();
    // A rule is left-recursive when it reaches itself in this graph (explicit stack).
    let mut out = HashSet::new();
    for d in &rules.defs {
        let mut seen = HashSet::new();
        let mut todo: Vec<&str> = graph.get(d.name.as_str()).cloned().unwrap_or_default();
        while let Some(n) = todo.pop() {
            if n == d.name {
                out.insert(d.name.as_str());
                break;
            }
            if seen.insert(n) {
                if let Some(next) = graph.get(n) {
                    todo.extend(next.iter().copied());
                }
            }
        }
    }
    out
}

/// The ordered-choice findings of one choice.
fn choice(
    rules: &Rules,
    def: &Def,
    alts: &[Node],
    out: &mut Vec<(LintCode, (usize, usize), String, String)>,
) {
    let mut builder = Builder::new(false);
    let mut frags = Vec::new();
    for a in alts {
        let Ok(inlined) = inline(rules, &def.name, a) else {
            return;
        };
        let Ok(frag) = builder.build(&def.name, &inlined) else {
            return;
        };
        frags.push(frag);
    }
    let nfa = &builder.nfa;
    let text = |n: &Node| format!("line {}, column {}", n.line, n.column);
    for j in 1..frags.len() {
        let mut reported = false;
        for i in 0..j {
            if let Some(None) = automaton::included(nfa, frags[j], frags[i], true) {
                out.push((
                    LintCode::ChoiceNeverTaken,
                    (alts[j].line, alts[j].column),
                    format!(
                        "alternative {} is never taken: every input it matches starts with a match of alternative {} ({}), to which the choice commits",
                        j + 1,
                        i + 1,
                        text(&alts[i])
                    ),
                    format!("put alternative {} before alternative {}, or remove it", j + 1, i + 1),
                ));
                reported = true;
                break;
            }
        }
        if reported {
            continue;
        }
        for i in 0..j {
            if let Some(Some((w, n))) = automaton::proper_prefix(nfa, frags[i], frags[j]) {
                out.push((
                    LintCode::ChoiceCutsOff,
                    (alts[i].line, alts[i].column),
                    format!(
                        "alternative {} matches \"{}\", the start of \"{}\", which alternative {} ({}) matches whole: followed by more input, the choice commits to the shorter match and never tries alternative {}",
                        i + 1,
                        automaton::show(&w[..n]),
                        automaton::show(&w),
                        j + 1,
                        text(&alts[j]),
                        j + 1
                    ),
                    format!(
                        "put the longer alternative {} first, or stop alternative {} from ending early (`... ~ !next`); RFC 3986's dec-octet and IPv6address are ordered longest first for this reason",
                        j + 1,
                        i + 1
                    ),
                ));
                break;
            }
        }
    }
}
