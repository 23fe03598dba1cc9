//! `grammar export`: a regular expression that accepts exactly the language of a rule.
//!
//! The rule and every rule it reaches are inlined into one expression (a rule that reaches itself is
//! refused: as written it is not a regular expression). That expression's *regular reading* (`|` as
//! union, repetitions and `?` as in regular expressions) is what the exported expression accepts, and it
//! is exported only when the PEG accepts the same inputs, which is checked on an automaton of the whole
//! rule followed by the end of the input:
//!
//! - each ordered choice: no input that a later alternative matches (followed by what can follow the
//!   choice) starts with a match of an earlier alternative of another length (PEG would commit to the
//!   earlier one);
//! - each optional or repeated part: no non-empty match of it starts what can follow it (PEG takes
//!   the part whenever it matches; the regular reading may skip it);
//! - lookaheads: `&EOI` is the end anchor; an alternative `A ~ !X` directly followed by the alternative
//!   `X*` (the shape of RFC 3986's `host`: `IPv4address ~ !(reg-name char) | reg-name`) is dropped when
//!   every match of `A` is one of `X*` and `X` is prefix-free (then the choice consumes the same either
//!   way; `X+` and `X{n,}` likewise); other lookaheads become `(?=...)`/`(?!...)` in the flavors that have them (their inside read
//!   regularly) and are refused in RE2 and POSIX ERE.
//!
//! These checks are sufficient conditions, read on the regular reading (lookaheads inside as matching
//! the empty string): an export is exact, but a refusal may be cautious where the PEG happens to accept
//! the regular language all the same (`(literal-run | expression)*` of the URI Template grammar, whose
//! runs could also be split).
//!
//! Alternatives that are single characters are merged into one bracket expression, and alternatives
//! with a common first part are factored (`ab|ac` -> `a(?:b|c)`), so that `URI-reference` stays a few
//! kilobytes.

use std::fmt::Write as _;

use super::automaton::{self, Builder, Frag, Refusal, Site, MAX_CHAR};
use super::syntax::{Kind, Node};
use super::{inline, shape, GrammarText};
use crate::runtime::{GrammarError, UnknownRule};

/// The default largest expression [`export`] writes, in bytes.
pub const DEFAULT_MAX_EXPORT_BYTES: usize = 64 * 1024;

/// The syntax of the regular expression engine exported for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    /// ECMAScript (JavaScript `RegExp`, JSON Schema `pattern`, HTML `pattern`), to be compiled with the
    /// `u` (or `v`) flag; anchored with `^` and `$`.
    EcmaScript,
    /// PCRE2 (PHP, R, nginx, ...), to be compiled with `PCRE2_UTF` for non-ASCII characters; anchored
    /// with `^` and `\z`.
    Pcre2,
    /// Python's `re`; anchored with `^` and `\Z`.
    Python,
    /// RE2 syntax (Go `regexp`, RE2, Rust's `regex` crate, BigQuery, ...): no lookaround; anchored with
    /// `^` and `\z`.
    Re2,
    /// POSIX extended regular expressions (`grep -E`, PostgreSQL `~`, ...): no lookaround, no escapes in
    /// brackets; anchored with `^` and `$`; non-ASCII characters written as themselves (UTF-8 locale).
    PosixEre,
}

impl Flavor {
    /// Every flavor, in the order the command line lists them.
    pub const ALL: [Flavor; 5] = [
        Flavor::EcmaScript,
        Flavor::Pcre2,
        Flavor::Python,
        Flavor::Re2,
        Flavor::PosixEre,
    ];

    /// The name the command line takes: `ecmascript`, `pcre2`, `python`, `re2`, `posix-ere`.
    pub fn name(self) -> &'static str {
        match self {
            Flavor::EcmaScript => "ecmascript",
            Flavor::Pcre2 => "pcre2",
            Flavor::Python => "python",
            Flavor::Re2 => "re2",
            Flavor::PosixEre => "posix-ere",
        }
    }

    /// The flavor named `name` (see [`name`](Self::name)).
    pub fn from_name(name: &str) -> Option<Flavor> {
        Flavor::ALL.into_iter().find(|f| f.name() == name)
    }

    fn lookaround(self) -> bool {
        matches!(self, Flavor::EcmaScript | Flavor::Pcre2 | Flavor::Python)
    }
}

/// An exported expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// The expression, anchored at both ends.
    pub pattern: String,
    /// The flavor it is written in.
    pub flavor: Flavor,
    /// The rule, by its pest name.
    pub rule: String,
    /// What a user must know: flags to compile with, alternatives dropped as equivalent.
    pub notes: Vec<String>,
}

/// Why [`export`] wrote no expression.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The grammar did not load.
    #[error(transparent)]
    Grammar(#[from] GrammarError),
    /// No such rule.
    #[error(transparent)]
    UnknownRule(#[from] UnknownRule),
    /// The rule has no regular expression in this flavor, or PEG accepts another language than the
    /// regular reading: where and why.
    #[error("{line}:{column}: in rule `{rule}`: {why}")]
    Refused {
        /// The rule (pest name) where the construct is.
        rule: String,
        /// 1-based line in its file.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The construct and the reason.
        why: String,
    },
    /// The expression is longer than the cap.
    #[error("the expression would be {bytes} bytes, over the cap of {max} bytes")]
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
        /// The cap.
        max: usize,
    },
}

impl From<Refusal> for ExportError {
    fn from(r: Refusal) -> ExportError {
        ExportError::Refused {
            rule: r.rule,
            line: r.line,
            column: r.column,
            why: r.why,
        }
    }
}

/// Exports the rule named `rule` (ABNF or pest name, as [`Grammar::entry`](crate::runtime::Grammar::entry)
/// takes) of `grammar` as an anchored regular expression in `flavor`, of at most `max_bytes` bytes.
///
/// ```
/// use rfc3986::runtime::workbench::{export, Flavor, GrammarText, DEFAULT_MAX_EXPORT_BYTES};
/// let uri = GrammarText::named_or_file("uri")?;
/// let e = export(&uri, "IPv4address", Flavor::Re2, DEFAULT_MAX_EXPORT_BYTES)?;
/// let re = regex::Regex::new(&e.pattern)?;
/// assert!(re.is_match("192.168.0.1"));
/// assert!(!re.is_match("192.168.0.256"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ExportError`]: the grammar or rule, a refusal with the rule, line, column and construct, or the
/// size it would have over the cap.
pub fn export(
    grammar: &GrammarText,
    rule: &str,
    flavor: Flavor,
    max_bytes: usize,
) -> Result<Exported, ExportError> {
    let loaded = grammar.load()?;
    let pest = loaded.entry(rule)?.pest_name().to_string();
    let rules = grammar.rules().map_err(|i| GrammarError::Invalid {
        path: None,
        issues: vec![i],
    })?;
    let def = rules.get(&pest).ok_or_else(|| UnknownRule {
        name: rule.to_string(),
    })?;
    crate::runtime_limits::on_big_stack(|| Ok(build(&rules, def, flavor, max_bytes)))?
}

fn build(
    rules: &super::syntax::Rules,
    def: &super::syntax::Def,
    flavor: Flavor,
    max_bytes: usize,
) -> Result<Exported, ExportError> {
    automaton::reset_budget();
    let body = inline(rules, &def.name, &def.expr)?;
    let mut tree = Node {
        kind: Kind::Rule(def.name.clone(), Box::new(body)),
        line: def.line,
        column: def.column,
    };
    let mut notes = Vec::new();
    drop_guarded(&mut tree, &def.name, &mut notes);
    notes.dedup();
    let mut builder = Builder::new(true);
    builder.whole(&def.name, &tree)?;
    if !flavor.lookaround() {
        if let Some((rule, line, column)) = builder.lookaheads.first() {
            return Err(ExportError::Refused {
                rule: rule.clone(),
                line: *line,
                column: *column,
                why: format!(
                    "a lookahead (`&` or `!`): {} has no lookaround; export for ecmascript, pcre2 or python",
                    flavor.name()
                ),
            });
        }
    }
    check_sites(&builder)?;
    let re = simplify(to_re(&tree));
    if flavor == Flavor::PosixEre && non_ascii_range(&re) {
        return Err(ExportError::Refused {
            rule: def.name.clone(),
            line: def.line,
            column: def.column,
            why: "a range of non-ASCII characters: in POSIX ERE a bracket range follows the locale's \
                  collation (glibc's grep refuses them: \"Invalid collation character\"); export for \
                  another flavor"
                .to_string(),
        });
    }
    let mut body = String::new();
    print(&re, flavor, &mut body);
    let (open, close) = match flavor {
        Flavor::PosixEre => ("(", ")"),
        _ => ("(?:", ")"),
    };
    let needs_group = matches!(re, Re::Alt(_));
    let pattern = format!(
        "^{}{body}{}{}",
        if needs_group { open } else { "" },
        if needs_group { close } else { "" },
        end(flavor)
    );
    if pattern.len() > max_bytes {
        return Err(ExportError::TooLarge {
            bytes: pattern.len(),
            max: max_bytes,
        });
    }
    if flavor == Flavor::EcmaScript {
        notes.push("compile with the u (or v) flag: new RegExp(pattern, \"u\")".to_string());
    }
    if flavor == Flavor::Pcre2 {
        notes.push(
            "with the JIT, give long inputs a JIT stack over the default 32 KiB (pcre2_jit_stack_create)"
                .to_string(),
        );
    }
    if flavor == Flavor::Pcre2 && pattern.contains("\\x{") {
        notes.push(
            "compile with PCRE2_UTF (the (*UTF) option) for the \\x{...} characters".to_string(),
        );
    }
    Ok(Exported {
        pattern,
        flavor,
        rule: def.name.clone(),
        notes,
    })
}

fn end(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::EcmaScript | Flavor::PosixEre => "$",
        Flavor::Python => "\\Z",
        Flavor::Pcre2 | Flavor::Re2 => "\\z",
    }
}

/// Refuses when PEG's committed choice or greedy repetition accepts less than the regular reading.
fn check_sites(builder: &Builder) -> Result<(), ExportError> {
    let nfa = &builder.nfa;
    let too_big = |rule: &str, line, column| ExportError::Refused {
        rule: rule.to_string(),
        line,
        column,
        why: format!(
            "too large to verify (more than {} states searched)",
            automaton::SEARCH_BUDGET
        ),
    };
    for site in &builder.sites {
        match site {
            Site::Choice {
                rule,
                line,
                column,
                alts,
            } => {
                for j in 1..alts.len() {
                    for i in 0..j {
                        match automaton::choice_conflict(nfa, alts[i], alts[j]) {
                            None => return Err(too_big(rule, *line, *column)),
                            Some(Some((w, n))) => {
                                return Err(ExportError::Refused {
                                    rule: rule.clone(),
                                    line: *line,
                                    column: *column,
                                    why: format!(
                                        "ordered choice: on \"{}\" alternative {} matches \"{}\" and the choice commits to it, where alternative {} gives another split that the regular reading accepts; the PEG language differs from the regular one here",
                                        automaton::show(&w),
                                        i + 1,
                                        automaton::show(&w[..n.min(w.len())]),
                                        j + 1
                                    ),
                                });
                            }
                            Some(None) => {}
                        }
                    }
                }
            }
            Site::Greedy {
                rule,
                line,
                column,
                body,
                exit,
            } => match automaton::greedy_conflict(nfa, *body, *exit) {
                None => return Err(too_big(rule, *line, *column)),
                Some(Some(w)) => {
                    return Err(ExportError::Refused {
                        rule: rule.clone(),
                        line: *line,
                        column: *column,
                        why: format!(
                            "greedy repetition or option: it matches \"{}\", which can also begin what follows it; PEG never gives a match back, the regular reading does",
                            automaton::show(&w)
                        ),
                    });
                }
                Some(None) => {}
            },
        }
    }
    Ok(())
}

/// Drops the alternatives `A ~ !X` followed by the alternative `X*` where that changes nothing (see the
/// module docs), noting each.
fn drop_guarded(node: &mut Node, rule: &str, notes: &mut Vec<String>) {
    let rule_here = match &node.kind {
        Kind::Rule(name, _) => name.clone(),
        _ => rule.to_string(),
    };
    if let Kind::Choice(alts) = &mut node.kind {
        let mut i = 0;
        while i + 1 < alts.len() {
            if guarded_redundant(&alts[i], &alts[i + 1]) {
                notes.push(format!(
                    "rule {rule_here}, line {}: alternative {} (ending in a `!` lookahead) left out: every input it matches, the next alternative matches the same way",
                    alts[i].line,
                    i + 1
                ));
                alts.remove(i);
            } else {
                i += 1;
            }
        }
    }
    match &mut node.kind {
        Kind::Pos(i) | Kind::Neg(i) | Kind::Rep(i, ..) | Kind::Rule(_, i) => {
            drop_guarded(i, &rule_here, notes)
        }
        Kind::Seq(v) | Kind::Choice(v) => v
            .iter_mut()
            .for_each(|n| drop_guarded(n, &rule_here, notes)),
        _ => {}
    }
}

fn unwrap_rules(mut n: &Node) -> &Node {
    while let Kind::Rule(_, i) = &n.kind {
        n = i;
    }
    n
}

fn guarded_redundant(alt: &Node, next: &Node) -> bool {
    let Kind::Seq(items) = &unwrap_rules(alt).kind else {
        return false;
    };
    let Some((last, head)) = items.split_last() else {
        return false;
    };
    let Kind::Neg(guard) = &last.kind else {
        return false;
    };
    let Kind::Rep(x, _, None) = &unwrap_rules(next).kind else {
        return false;
    };
    if shape(guard) != shape(x) {
        return false;
    }
    let a = Node {
        kind: Kind::Seq(head.to_vec()),
        line: alt.line,
        column: alt.column,
    };
    let mut b = Builder::new(false);
    let (Ok(fa), Ok(fnext), Ok(fx)) = (b.build("", &a), b.build("", next), b.build("", x)) else {
        return false;
    };
    if !b.lookaheads.is_empty() {
        return false;
    }
    let included = automaton::included(&b.nfa, fa, fnext, false) == Some(None);
    let prefix_free = automaton::proper_prefix(&b.nfa, fx, fx) == Some(None);
    let _: Frag = fa;
    included && prefix_free
}

/// A regular expression.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Re {
    /// One character of these sorted, disjoint ranges.
    Class(Vec<(u32, u32)>),
    Seq(Vec<Re>),
    Alt(Vec<Re>),
    Rep(Box<Re>, u32, Option<u32>),
    /// The end of the input.
    End,
    /// `(?=...)` (true) or `(?!...)`.
    Look(bool, Box<Re>),
}

fn class(mut ranges: Vec<(u32, u32)>) -> Re {
    ranges.retain(|r| r.0 <= r.1);
    ranges.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    Re::Class(merged)
}

fn to_re(node: &Node) -> Re {
    match &node.kind {
        Kind::Str(s) => Re::Seq(
            s.chars()
                .map(|c| class(vec![(c as u32, c as u32)]))
                .collect(),
        ),
        Kind::Insens(s) => Re::Seq(
            s.chars()
                .map(|c| class(automaton::insensitive(c)))
                .collect(),
        ),
        Kind::Range(a, b) => class(vec![(*a as u32, *b as u32)]),
        Kind::Ident(n) if n == "EOI" => Re::End,
        Kind::Ident(n) => automaton::builtin_ranges(n).map_or(Re::Seq(Vec::new()), class),
        Kind::Rule(_, i) => to_re(i),
        Kind::Pos(i) if matches!(&i.kind, Kind::Ident(n) if n == "EOI") => Re::End,
        Kind::Pos(i) => Re::Look(true, Box::new(to_re(i))),
        Kind::Neg(i) => Re::Look(false, Box::new(to_re(i))),
        Kind::Seq(v) => Re::Seq(v.iter().map(to_re).collect()),
        Kind::Choice(v) => Re::Alt(v.iter().map(to_re).collect()),
        Kind::Rep(i, a, b) => Re::Rep(Box::new(to_re(i)), *a, *b),
        Kind::Other(_) => Re::Seq(Vec::new()),
    }
}

/// Whether `re` has a class with a range (not a single character) above U+007F.
fn non_ascii_range(re: &Re) -> bool {
    match re {
        Re::Class(r) => r.iter().any(|&(lo, hi)| hi > 0x7F && hi > lo),
        Re::Seq(v) | Re::Alt(v) => v.iter().any(non_ascii_range),
        Re::Rep(i, ..) | Re::Look(_, i) => non_ascii_range(i),
        Re::End => false,
    }
}

/// Flattens, merges single-character alternatives and factors common first parts.
fn simplify(re: Re) -> Re {
    match re {
        Re::Seq(v) => {
            let mut out = Vec::new();
            for r in v.into_iter().map(simplify) {
                match r {
                    Re::Seq(inner) => out.extend(inner),
                    other => out.push(other),
                }
            }
            if out.len() == 1 {
                out.pop().expect("one element")
            } else {
                Re::Seq(out)
            }
        }
        Re::Alt(v) => {
            let mut alts = Vec::new();
            for r in v.into_iter().map(simplify) {
                match r {
                    Re::Alt(inner) => alts.extend(inner),
                    other => alts.push(other),
                }
            }
            alternation(alts)
        }
        Re::Rep(i, a, b) => {
            let inner = simplify(*i);
            match (inner, a, b) {
                (inner, 1, Some(1)) => inner,
                (inner, a, b) => Re::Rep(Box::new(inner), a, b),
            }
        }
        Re::Look(p, i) => Re::Look(p, Box::new(simplify(*i))),
        other => other,
    }
}

fn first_and_rest(r: &Re) -> (Re, Re) {
    match r {
        Re::Seq(v) if !v.is_empty() => (v[0].clone(), Re::Seq(v[1..].to_vec())),
        other => (other.clone(), Re::Seq(Vec::new())),
    }
}

fn is_empty(r: &Re) -> bool {
    matches!(r, Re::Seq(v) if v.is_empty())
}

/// The union of `alts` (already simplified), factored.
fn alternation(alts: Vec<Re>) -> Re {
    // Single characters merged into one class, in the place of the first.
    let mut out: Vec<Re> = Vec::new();
    let mut chars: Vec<(u32, u32)> = Vec::new();
    let mut class_at = None;
    for a in alts {
        if let Re::Class(r) = &a {
            chars.extend(r.iter().copied());
            class_at.get_or_insert(out.len());
            continue;
        }
        if !out.contains(&a) {
            out.push(a);
        }
    }
    if let Some(at) = class_at {
        out.insert(at, class(chars));
    }
    // Common first parts.
    let mut factored: Vec<Re> = Vec::new();
    let mut used = vec![false; out.len()];
    for i in 0..out.len() {
        if used[i] {
            continue;
        }
        let (head, _) = first_and_rest(&out[i]);
        if is_empty(&out[i]) {
            used[i] = true;
            factored.push(out[i].clone());
            continue;
        }
        let group: Vec<usize> = (i..out.len())
            .filter(|&k| !used[k] && !is_empty(&out[k]) && first_and_rest(&out[k]).0 == head)
            .collect();
        for &k in &group {
            used[k] = true;
        }
        if group.len() == 1 {
            factored.push(out[i].clone());
            continue;
        }
        let tails: Vec<Re> = group.iter().map(|&k| first_and_rest(&out[k]).1).collect();
        let has_empty = tails.iter().any(is_empty);
        let rest: Vec<Re> = tails.into_iter().filter(|t| !is_empty(t)).collect();
        let tail = if rest.is_empty() {
            Re::Seq(Vec::new())
        } else {
            let t = alternation(rest);
            if has_empty {
                Re::Rep(Box::new(t), 0, Some(1))
            } else {
                t
            }
        };
        factored.push(simplify(Re::Seq(vec![head, tail])));
    }
    if factored.len() == 1 {
        factored.pop().expect("one alternative")
    } else if factored.iter().any(is_empty) {
        let rest: Vec<Re> = factored.into_iter().filter(|t| !is_empty(t)).collect();
        let inner = if rest.len() == 1 {
            rest.into_iter().next().expect("one")
        } else {
            Re::Alt(rest)
        };
        Re::Rep(Box::new(inner), 0, Some(1))
    } else {
        Re::Alt(factored)
    }
}

fn print(re: &Re, f: Flavor, out: &mut String) {
    match re {
        Re::Class(r) => print_class(r, f, out),
        Re::Seq(v) => {
            for r in v {
                if matches!(r, Re::Alt(_)) {
                    group(r, f, out);
                } else {
                    print(r, f, out);
                }
            }
        }
        Re::Alt(v) => {
            for (i, r) in v.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                print(r, f, out);
            }
        }
        Re::Rep(inner, a, b) => {
            let atomic = matches!(&**inner, Re::Class(_) | Re::End | Re::Look(..));
            if atomic {
                print(inner, f, out);
            } else {
                group(inner, f, out);
            }
            match (a, b) {
                (0, Some(1)) => out.push('?'),
                (0, None) => out.push('*'),
                (1, None) => out.push('+'),
                (a, Some(b)) if a == b => {
                    let _ = write!(out, "{{{a}}}");
                }
                (a, None) => {
                    let _ = write!(out, "{{{a},}}");
                }
                (a, Some(b)) => {
                    let _ = write!(out, "{{{a},{b}}}");
                }
            }
        }
        Re::End => out.push_str(end(f)),
        Re::Look(pos, inner) => {
            out.push_str(if *pos { "(?=" } else { "(?!" });
            print(inner, f, out);
            out.push(')');
        }
    }
}

fn group(re: &Re, f: Flavor, out: &mut String) {
    out.push_str(if f == Flavor::PosixEre { "(" } else { "(?:" });
    print(re, f, out);
    out.push(')');
}

/// A code point outside brackets.
fn literal(c: u32, f: Flavor, out: &mut String) {
    let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
    let special: &str = match f {
        Flavor::EcmaScript => "^$\\.*+?()[]{}|/",
        Flavor::Pcre2 => "^$\\.*+?()[]{}|/",
        Flavor::Python | Flavor::Re2 => "^$\\.*+?()[]{}|",
        Flavor::PosixEre => "^$\\.*+?()[{|",
    };
    if special.contains(ch) {
        out.push('\\');
        out.push(ch);
    } else {
        printable(ch, f, out);
    }
}

fn printable(ch: char, f: Flavor, out: &mut String) {
    let c = ch as u32;
    if (0x20..0x7F).contains(&c) || f == Flavor::PosixEre {
        out.push(ch);
        return;
    }
    let _ = match f {
        Flavor::EcmaScript => write!(out, "\\u{{{c:X}}}"),
        Flavor::Python if c < 0x100 => write!(out, "\\x{c:02X}"),
        Flavor::Python if c < 0x10000 => write!(out, "\\u{c:04X}"),
        Flavor::Python => write!(out, "\\U{c:08X}"),
        _ => write!(out, "\\x{{{c:X}}}"),
    };
}

/// A code point inside brackets (not for POSIX ERE).
fn in_class(c: u32, f: Flavor, out: &mut String) {
    let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
    let special: &str = match f {
        Flavor::EcmaScript => "\\]^-[(){}/|",
        Flavor::Python => "\\]^-[&~|",
        Flavor::Re2 => "\\]^-[&~",
        _ => "\\]^-[",
    };
    if special.contains(ch) {
        out.push('\\');
        out.push(ch);
    } else {
        printable(ch, f, out);
    }
}

fn print_class(ranges: &[(u32, u32)], f: Flavor, out: &mut String) {
    if let [(lo, hi)] = ranges {
        if lo == hi {
            literal(*lo, f, out);
            return;
        }
        if *lo == 0 && *hi >= MAX_CHAR && f == Flavor::PosixEre {
            out.push('.');
            return;
        }
    }
    if f == Flavor::PosixEre {
        return posix_class(ranges, out);
    }
    // PCRE2 10.45 to 10.47 compile a class with more than a few ranges above U+00FF wrongly (it
    // fails to match characters it holds: PCRE2Project/pcre2 issue 833): such a class is written as
    // an alternation of classes of at most PCRE2_WIDE ranges above U+00FF each.
    let wide = ranges.iter().filter(|r| r.1 > 0xFF).count();
    if f == Flavor::Pcre2 && wide > PCRE2_WIDE {
        let (narrow, high): (Vec<_>, Vec<_>) = ranges.iter().partition(|r| r.1 <= 0xFF);
        out.push_str("(?:");
        for (i, chunk) in high.chunks(PCRE2_WIDE).enumerate() {
            if i > 0 {
                out.push('|');
            }
            let mut part: Vec<(u32, u32)> = if i == 0 { narrow.clone() } else { Vec::new() };
            part.extend(chunk.iter().copied());
            bracket(&part, f, out);
        }
        out.push(')');
        return;
    }
    bracket(ranges, f, out);
}

/// At most this many ranges above U+00FF in one PCRE2 class (see [`print_class`]).
const PCRE2_WIDE: usize = 4;

/// A bracket expression (not for POSIX ERE).
fn bracket(ranges: &[(u32, u32)], f: Flavor, out: &mut String) {
    out.push('[');
    for &(lo, hi) in ranges {
        in_class(lo, f, out);
        if hi > lo {
            if hi > lo + 1 {
                out.push('-');
            }
            in_class(hi, f, out);
        }
    }
    out.push(']');
}

/// A POSIX bracket expression: `]` first, `^` not first, `[` and `-` last (no escapes exist there).
fn posix_class(ranges: &[(u32, u32)], out: &mut String) {
    let specials = [']' as u32, '^' as u32, '[' as u32, '-' as u32];
    let mut pieces: Vec<(u32, u32)> = Vec::new();
    let mut present = [false; 4];
    for &(lo, hi) in ranges {
        let mut start = lo;
        let mut c = lo;
        while c <= hi {
            if let Some(k) = specials.iter().position(|&s| s == c) {
                present[k] = true;
                if start < c {
                    pieces.push((start, c - 1));
                }
                start = c + 1;
            }
            // Jump over long stretches without specials.
            let next_special = specials.iter().copied().filter(|&s| s > c).min();
            c = match next_special {
                Some(s) if s <= hi => s,
                _ => hi + 1,
            };
        }
        if start <= hi {
            pieces.push((start, hi));
        }
    }
    out.push('[');
    if present[0] {
        out.push(']');
    }
    let mut wrote = present[0];
    for (lo, hi) in pieces {
        out.push(char::from_u32(lo).unwrap_or('\u{FFFD}'));
        if hi > lo {
            if hi > lo + 1 {
                out.push('-');
            }
            out.push(char::from_u32(hi).unwrap_or('\u{FFFD}'));
        }
        wrote = true;
    }
    if present[1] {
        if !wrote {
            // A class of `^` (and `[`, `-`) only: `^` must not come first.
            if present[2] {
                out.push('[');
                out.push('^');
                present[2] = false;
            } else if present[3] {
                out.push('-');
                out.push('^');
                present[3] = false;
            } else {
                out.pop();
                out.push_str("\\^");
                return;
            }
        } else {
            out.push('^');
        }
    }
    if present[2] {
        out.push('[');
    }
    if present[3] {
        out.push('-');
    }
    out.push(']');
}
