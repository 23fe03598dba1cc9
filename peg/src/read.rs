//! Reading a `.pest` grammar: its rules as pest_meta's AST, the table of rules with their ABNF names and
//! definitions (from the `///` lines above each rule: `URI-reference = URI / relative-ref`, then the RFC
//! section), and the grammars derived from it:
//!
//! - the *entries*: `entry_NAME = _{ SOI ~ NAME ~ EOI }` for every rule, so that any rule can be matched
//!   against a whole input;
//! - the *detail* grammar: a copy in which every rule is normal (no `_`, `@`, `$`, `!` modifier) and every
//!   quoted string is replaced by a rule `lit_N` that matches it, plus the entries. The language is
//!   unchanged (the grammar has no implicit WHITESPACE or COMMENT, so atomicity does not change what
//!   matches); what changes is that pest's record of failed attempts names every rule and literal tried at
//!   the failing byte, which is what an error message lists.
//!
//! Used by `build.rs` through [`crate::generate`]; unit tests in `peg/tests/generator.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pest::iterators::Pairs;
use pest_meta::ast::Rule;
use pest_meta::optimizer::OptimizedRule;
use pest_meta::parser::{self, Rule as MetaRule};

/// The prefix of the generated whole-input entry rules.
pub const ENTRY_PREFIX: &str = "entry_";
/// The prefix of the generated rules of the detail grammar that match one quoted string.
pub const LITERAL_PREFIX: &str = "lit_";

/// A rule of the grammar as the rule table lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarRule {
    /// The pest name (`uri_reference`).
    pub name: String,
    /// The ABNF spelling (`URI-reference`), from the first doc line, or the pest name if there is none.
    pub abnf: String,
    /// The ABNF definition as quoted in the doc (`URI / relative-ref`), possibly empty.
    pub definition: String,
    /// The RFC section from the second doc line (`RFC 3986 section 4.1.`), possibly empty.
    pub source: String,
}

impl GrammarRule {
    /// The rule's ABNF line as its first doc line writes it (`URI-reference = URI / relative-ref`), or
    /// `None` for a rule whose doc defines nothing (a helper rule).
    pub fn abnf_line(&self) -> Option<String> {
        (!self.definition.is_empty()).then(|| format!("{} = {}", self.abnf, self.definition))
    }
}

/// `text` as one `//` comment line of generated Rust (without the line break): its control characters
/// and Unicode line separators escaped as Rust writes them (`\n`, `\r`, `\u{2028}`), so that no text of
/// a grammar (a doc line may hold a lone carriage return) ends the comment and turns the rest into code.
/// A line comment ends only at a line break, so `*/` and `/*` need nothing.
pub fn comment(text: &str) -> String {
    let mut line = String::from("//");
    if !text.is_empty() {
        line.push(' ');
    }
    for c in text.chars() {
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            line.extend(c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

/// The first comment line above a generated function of a rule that has no ABNF line.
pub const NO_ABNF: &str = "(no ABNF line in the grammar: a helper rule)";

/// The comment above a generated function of a rule: `heading` (its ABNF line, or what the rule is
/// when it has none) and its pest text after `pest: `, each a [`comment`] line ending in a line break.
pub fn rule_comment(heading: &str, pest: &str) -> String {
    format!(
        "{}\n{}\n",
        comment(heading),
        comment(&format!("pest: {pest}"))
    )
}

/// A grammar read from its text.
pub struct Read {
    /// The rules as written (not optimized), in file order.
    pub ast: Vec<Rule>,
    /// The rule table, in file order.
    pub rules: Vec<GrammarRule>,
    /// The entry rules (pest text).
    pub entries: String,
    /// The detail grammar (pest text, entries included).
    pub detail: String,
    /// Each `lit_N` rule of the detail grammar and the text between the quotes of its string, as written.
    pub literals: Vec<(String, String)>,
    /// The `//!` lines at the top of the file, without the `//!`, trimmed.
    pub header: Vec<String>,
    /// The prefixes of the generated rules' names ([`ENTRY_PREFIX`] and [`LITERAL_PREFIX`], or longer
    /// ones, see [`Prefixes::Free`]).
    pub prefixes: (String, String),
}

/// The names of the generated rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefixes {
    /// [`ENTRY_PREFIX`] and [`LITERAL_PREFIX`]; a rule of the grammar whose name starts with one of them
    /// is an error (the build's grammars).
    Fixed,
    /// Those prefixes, or `entry1_` and `lit1_`, `entry2_` and `lit2_`, ..., the first that no rule of the
    /// grammar starts with (a grammar loaded at run time may name its rules as it likes).
    Free,
}

/// Reads a grammar; the error is a message naming the problem.
pub fn read(text: &str) -> Result<Read, String> {
    let pairs = parser::parse(MetaRule::grammar_rules, text)
        .map_err(|e| format!("not a valid pest grammar:\n{e}"))?;
    let ast = parser::consume_rules(pairs.clone()).map_err(|errors| {
        let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        messages.join("\n")
    })?;
    from_parsed(text, pairs, ast, Prefixes::Fixed)
}

/// [`read`] for a grammar already parsed and consumed by pest_meta (`pairs` of `grammar_rules` and the
/// rules they give), so that a caller that validates the grammar first parses it once.
pub fn from_parsed(
    text: &str,
    pairs: Pairs<'_, MetaRule>,
    ast: Vec<Rule>,
    prefixes: Prefixes,
) -> Result<Read, String> {
    let (entry_prefix, literal_prefix) = match prefixes {
        Prefixes::Fixed => (ENTRY_PREFIX.to_string(), LITERAL_PREFIX.to_string()),
        Prefixes::Free => {
            // `entry_`, `entry1_`, `entry2_`, ...: a rule name blocks at most one of them, so one of the
            // first (rules + 1) is free.
            let candidate = |k: usize| match k {
                0 => (ENTRY_PREFIX.to_string(), LITERAL_PREFIX.to_string()),
                k => (
                    format!("{}{k}_", ENTRY_PREFIX.trim_end_matches('_')),
                    format!("{}{k}_", LITERAL_PREFIX.trim_end_matches('_')),
                ),
            };
            (0..=ast.len())
                .map(candidate)
                .find(|(entry, literal)| {
                    !ast.iter()
                        .any(|r| r.name.starts_with(entry) || r.name.starts_with(literal))
                })
                .unwrap_or_else(|| candidate(0))
        }
    };
    let mut header: Vec<String> = Vec::new();

    let mut rules: Vec<GrammarRule> = Vec::new();
    let mut docs: Vec<String> = Vec::new();
    // Byte ranges of the text to rewrite in the detail copy: (start, end, replacement).
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    // Literal source text (`"/"`, `^"v"`) -> its rule name, in order of first use.
    let mut literals: BTreeMap<String, String> = BTreeMap::new();
    let mut literal_order: Vec<String> = Vec::new();

    for pair in pairs {
        if pair.as_rule() == MetaRule::grammar_doc {
            let doc = pair.into_inner().next().map_or("", |p| p.as_str());
            header.push(doc.trim().to_string());
            continue;
        }
        if pair.as_rule() != MetaRule::grammar_rule {
            continue;
        }
        let mut inner = pair.into_inner();
        let Some(first) = inner.next() else { continue };
        if first.as_rule() == MetaRule::line_doc {
            let doc = first.into_inner().next().map(|p| p.as_str()).unwrap_or("");
            docs.push(doc.trim().to_string());
            continue;
        }
        let name = first.as_str().to_string();
        if name.starts_with(&entry_prefix) || name.starts_with(&literal_prefix) {
            return Err(format!(
                "rule `{name}`: names starting with `{entry_prefix}` or \
                 `{literal_prefix}` are reserved for rules the build generates"
            ));
        }
        let (abnf, definition) = match docs.first().and_then(|d| d.split_once(" = ")) {
            Some((abnf, def)) => (abnf.trim().to_string(), def.trim().to_string()),
            None => (name.clone(), String::new()),
        };
        let source = docs.get(1).cloned().unwrap_or_default();
        rules.push(GrammarRule {
            name,
            abnf,
            definition,
            source,
        });
        docs.clear();

        for part in inner.flatten() {
            match part.as_rule() {
                MetaRule::silent_modifier
                | MetaRule::atomic_modifier
                | MetaRule::compound_atomic_modifier
                | MetaRule::non_atomic_modifier => {
                    let span = part.as_span();
                    edits.push((span.start(), span.end(), String::new()));
                }
                MetaRule::string | MetaRule::insensitive_string => {
                    let span = part.as_span();
                    // The string inside an insensitive_string is covered by the outer edit.
                    if edits
                        .last()
                        .is_some_and(|&(s, e, _)| s <= span.start() && span.end() <= e)
                    {
                        continue;
                    }
                    let source = part.as_str().to_string();
                    let next = format!("{literal_prefix}{}", literals.len());
                    let name = literals
                        .entry(source.clone())
                        .or_insert_with(|| {
                            literal_order.push(source.clone());
                            next
                        })
                        .clone();
                    edits.push((span.start(), span.end(), name));
                }
                _ => {}
            }
        }
    }
    if rules.is_empty() {
        return Err("the grammar defines no rules".to_string());
    }

    let mut entries = String::from("// Generated by build.rs: one whole-input entry per rule.\n");
    for rule in &rules {
        let _ = writeln!(
            entries,
            "{entry_prefix}{0} = _{{ SOI ~ {0} ~ EOI }}",
            rule.name
        );
    }

    edits.sort_by_key(|&(s, _, _)| s);
    let mut detail = String::with_capacity(text.len() * 2);
    let mut at = 0;
    for (start, end, replacement) in &edits {
        detail.push_str(&text[at..*start]);
        detail.push_str(replacement);
        at = *end;
    }
    detail.push_str(&text[at..]);
    detail.push_str("\n// Generated by build.rs: one rule per quoted string of the grammar.\n");
    for source in &literal_order {
        let _ = writeln!(detail, "{} = {{ {source} }}", literals[source]);
    }
    detail.push_str(&entries);

    let literals = literal_order
        .iter()
        .map(|source| {
            let literal = source.trim_start_matches('^');
            (
                literals[source].clone(),
                literal[1..literal.len() - 1].to_string(),
            )
        })
        .collect();
    Ok(Read {
        ast,
        rules,
        entries,
        detail,
        literals,
        header,
        prefixes: (entry_prefix, literal_prefix),
    })
}

/// The rules of a grammar as `pest_derive` compiles them: read and optimized by pest_meta.
pub fn optimized(text: &str) -> Result<Vec<OptimizedRule>, String> {
    let pairs = parser::parse(MetaRule::grammar_rules, text)
        .map_err(|e| format!("not a valid pest grammar:\n{e}"))?;
    let ast = parser::consume_rules(pairs).map_err(|errors| format!("{errors:?}"))?;
    Ok(pest_meta::optimizer::optimize(ast))
}
