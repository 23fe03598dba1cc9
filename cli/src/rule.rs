//! `--rule RULE`: a rule of the grammar by its ABNF name as RFC 3986 spells it, in any case (RFC 5234 2.1).

use rfc3986::Rule;

/// clap value parser for `--rule`: `URI-reference`, `IPv6address`, `path-abempty`, `HEXDIG`, ... Names are
/// case-insensitive (RFC 5234 2.1); an unknown name is a usage error that lists the valid names.
pub(crate) fn parse_rule(name: &str) -> Result<Rule, String> {
    if let Some(rule) = Rule::from_abnf_name(name) {
        return Ok(rule);
    }
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
    let file = path.display();
    match error {
        rfc3986::runtime::GrammarError::Io { source, .. } => {
            format!("{file}: error: cannot read: {source}")
        }
        other => {
            let lines: Vec<String> = other
                .issues()
                .iter()
                .map(|i| format!("{file}:{}:{}: error: {}", i.line(), i.column(), i.message()))
                .collect();
            if lines.is_empty() {
                format!("{file}: error: {other}")
            } else {
                lines.join("\n")
            }
        }
    }
}

/// The grammar a subcommand matches inputs against: a rule of the built-in `uri.pest`, or a rule of a
/// grammar loaded at run time with `--grammar FILE.pest` (pest_meta + pest_vm, same typed values).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Engine {
    /// A rule of the built-in grammar.
    Builtin(Rule),
    /// A rule of a grammar loaded for the whole run (leaked once: it lives as long as the process).
    Loaded(rfc3986::runtime::Entry<'static>),
}

impl Engine {
    /// `--rule NAME` in the built-in grammar, or in the grammar of `--grammar FILE` when given. The error
    /// is the usage message: an unknown rule (with the valid names) or the grammar file's errors, one
    /// `FILE:LINE:COL: message` per line.
    pub(crate) fn new(name: &str, grammar: Option<&std::path::Path>) -> Result<Engine, String> {
        let Some(path) = grammar else {
            return parse_rule(name).map(Engine::Builtin);
        };
        let grammar = rfc3986::runtime::Grammar::from_file_or_overlay(path)
            .map_err(|e| grammar_error(path, &e))?;
        let grammar: &'static rfc3986::runtime::Grammar = Box::leak(Box::new(grammar));
        grammar.entry(name).map(Engine::Loaded).map_err(|e| {
            let names: Vec<&str> = grammar.rule_names().map(|(_, abnf)| abnf).collect();
            format!("{e}; rules of {}: {}", path.display(), names.join(", "))
        })
    }

    /// Matches the rule against the whole of `input`.
    pub(crate) fn parse(self, input: &str) -> Result<rfc3986::RuleMatch<'_>, rfc3986::ParseError> {
        match self {
            Engine::Builtin(rule) => rfc3986::parse_as(rule, input),
            Engine::Loaded(entry) => entry.parse(input),
        }
    }

    /// The built-in rule used to explain a line that is not UTF-8 (the loaded grammar's own rule when it
    /// has the same name, else `URI-reference`).
    pub(crate) fn builtin_rule(self) -> Rule {
        match self {
            Engine::Builtin(rule) => rule,
            Engine::Loaded(entry) => {
                Rule::from_abnf_name(entry.abnf_name()).unwrap_or(Rule::URI_REFERENCE)
            }
        }
    }
}
