//! `--rule RULE`: a rule of the grammar by its ABNF name, exactly as RFC 3986 spells it.

use rfc3986::Rule;

/// clap value parser for `--rule`: `URI-reference`, `IPv6address`, `path-abempty`, `HEXDIG`, ... An unknown
/// name is a usage error that lists the valid names (and suggests the right spelling of a name given in
/// the wrong case).
pub(crate) fn parse_rule(name: &str) -> Result<Rule, String> {
    if let Some(rule) = Rule::from_abnf_name(name) {
        return Ok(rule);
    }
    let mut message = format!("unknown rule '{name}'");
    if let Some(rule) = Rule::all().find(|r| r.abnf_name().eq_ignore_ascii_case(name)) {
        message.push_str(&format!(
            " (rule names are case-sensitive: did you mean '{}'?)",
            rule.abnf_name()
        ));
    }
    message.push_str("; valid rules are the ABNF names of RFC 3986: ");
    message.push_str(&names().join(", "));
    Err(message)
}

/// The ABNF names of all rules, in the order of `uri.pest`.
fn names() -> Vec<&'static str> {
    Rule::all().map(Rule::abnf_name).collect()
}
