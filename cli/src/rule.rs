//! `--rule RULE`: a rule of the grammar by its ABNF name as RFC 3986 spells it, in any case (RFC 5234 2.1).

use rfc3986::Rule;

/// clap value parser for `--rule`: `URI-reference`, `IPv6address`, `path-abempty`, `HEXDIG`, ... Names are
/// case-insensitive (RFC 5234 2.1); an unknown name is a usage error that lists the valid names.
pub(crate) fn parse_rule(name: &str) -> Result<Rule, String> {
    if let Some(rule) = Rule::from_abnf_name(name) {
        return Ok(rule);
    }
    let name = super::report::escape_text(name);
    let mut message = format!("unknown rule '{name}'");
    message.push_str("; valid rules are the ABNF names of RFC 3986: ");
    message.push_str(&names().join(", "));
    Err(message)
}

/// The ABNF names of all rules, in the order of `uri.pest`.
fn names() -> Vec<&'static str> {
    Rule::all().map(Rule::abnf_name).collect()
}

/// A grammar file's problems, one `FILE:LINE:COL: error: MESSAGE` line each (`FILE: error: MESSAGE` when
/// the file cannot be read at all).
pub(crate) fn grammar_error(
    path: &std::path::Path,
    error: &rfc3986::runtime::GrammarError,
) -> String {
    // The name and the messages (which may quote the grammar) with control characters, bidirectional
    // controls and line separators escaped: one diagnostic per line, nothing for the terminal to obey.
    let file = super::input::escape_name(&path.to_string_lossy());
    match error {
        rfc3986::runtime::GrammarError::Io { source, .. } => {
            format!("{file}: error: cannot read: {source}")
        }
        other => {
            let lines: Vec<String> = other
                .issues()
                .iter()
                .map(|i| {
                    let message = super::report::escape_text(i.message());
                    format!("{file}:{}:{}: error: {message}", i.line(), i.column())
                })
                .collect();
            if lines.is_empty() {
                format!(
                    "{file}: error: {}",
                    super::report::escape_text(&other.to_string())
                )
            } else {
                lines.join("\n")
            }
        }
    }
}

/// The grammar a subcommand matches inputs against: a rule of the built-in `uri.pest`, or a rule of a
/// grammar loaded at run time with `--grammar NAME|FILE.pest` (pest_meta + pest_vm, same typed values).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Engine {
    /// A rule of the built-in grammar.
    Builtin(Rule),
    /// A rule of a grammar loaded for the whole run (leaked once: it lives as long as the process).
    Loaded(
        rfc3986::runtime::Entry<'static>,
        &'static rfc3986::runtime::Grammar,
    ),
}

impl Engine {
    /// `--rule NAME` (or the default rule) in the built-in grammar, or in the grammar `--grammar` names:
    /// a grammar shipped with the tool (`iri`, `zone-id`, `uri-template`, `uri`) or a `.pest` file. Without
    /// `--rule`, a loaded grammar's start rule is its URI-reference-like rule (`IRI-reference`), or
    /// `URI-Template`. The error is the
    /// usage message: an unknown rule (with the valid names) or the grammar file's errors, one
    /// `FILE:LINE:COL: message` per line.
    pub(crate) fn new(name: Option<&str>, grammar: Option<&str>) -> Result<Engine, String> {
        let Some(grammar_arg) = grammar else {
            return parse_rule(name.unwrap_or("URI-reference")).map(Engine::Builtin);
        };
        let path = std::path::Path::new(grammar_arg);
        let loaded = match rfc3986::runtime::Grammar::builtin(grammar_arg) {
            Some(builtin) => builtin.map_err(|e| format!("{grammar_arg}: error: {e}"))?,
            None => rfc3986::runtime::Grammar::from_file_or_overlay(path).map_err(|e| {
                let mut message = grammar_error(path, &e);
                if matches!(e, rfc3986::runtime::GrammarError::Io { .. }) {
                    let names: Vec<&str> = rfc3986::runtime::Grammar::builtin_names().collect();
                    message.push_str(&format!(
                        "\n(built-in grammars, by name: {})",
                        names.join(", ")
                    ));
                }
                message
            })?,
        };
        let grammar: &'static rfc3986::runtime::Grammar = Box::leak(Box::new(loaded));
        let entry = match name {
            Some(name) => grammar.entry(name).map_err(|e| {
                let names: Vec<&str> = grammar.rule_names().map(|(_, abnf)| abnf).collect();
                // The name as typed and the grammar's path, escaped (a rule named with an escape
                // sequence, a file name with a newline).
                let said = super::report::escape_text(&e.to_string()).into_owned();
                let grammar_arg = super::input::escape_name(grammar_arg);
                format!("{said}; rules of {grammar_arg}: {}", names.join(", "))
            })?,
            None => grammar.start_rule().ok_or_else(|| {
                let names: Vec<&str> = grammar.rule_names().map(|(_, abnf)| abnf).collect();
                let grammar_arg = super::input::escape_name(grammar_arg);
                format!(
                    "{grammar_arg} has no URI-reference-like rule to check by default; name one with \
                     --rule: {}",
                    names.join(", ")
                )
            })?,
        };
        Ok(Engine::Loaded(entry, grammar))
    }

    /// Matches the rule against the whole of `input`.
    pub(crate) fn parse(self, input: &str) -> Result<rfc3986::RuleMatch<'_>, rfc3986::ParseError> {
        match self {
            Engine::Builtin(rule) => rfc3986::parse_as(rule, input),
            Engine::Loaded(entry, _) => entry.parse(input),
        }
    }

    /// The rule's ABNF name (`URI-reference`, `IRI-reference`), as the summary names what was checked.
    pub(crate) fn rule_name(self) -> &'static str {
        match self {
            Engine::Builtin(rule) => rule.abnf_name(),
            Engine::Loaded(entry, _) => entry.abnf_name(),
        }
    }

    /// The loaded grammar, if any.
    pub(crate) fn grammar(self) -> Option<&'static rfc3986::runtime::Grammar> {
        match self {
            Engine::Builtin(_) => None,
            Engine::Loaded(_, grammar) => Some(grammar),
        }
    }

    /// The line as text, or its lossy decoding with this engine's error when it is not UTF-8 (the loaded
    /// grammar's own rules explain it under `--grammar`).
    pub(crate) fn decode(self, bytes: &[u8]) -> Result<&str, (String, rfc3986::ParseError)> {
        super::input::decode_with(bytes, |bytes| match self {
            Engine::Builtin(rule) => rfc3986::validate_bytes(rule, bytes),
            Engine::Loaded(entry, _) => entry.parse_bytes(bytes).map(|_| ()),
        })
    }
}
