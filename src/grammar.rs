//! The grammar stage: `uri.pest` compiled by `pest_derive`, and the rule handles the rest of the crate uses.
//!
//! `build.rs` reads `uri.pest` and generates two derived parsers (see there): the *fast* parser is
//! `uri.pest` as written and produces the component events the [builder](crate::builder) turns into values;
//! the *detail* parser is the same language with every rule and literal visible, and runs only on input the
//! fast parser rejected, to say what was expected at the failing byte. Nothing of pest is public.

use std::borrow::Cow;
use std::fmt;

use pest::Parser as _;

use crate::builder::{self, Component, Parts};
use crate::error::{self, ParseError};

include!(concat!(env!("OUT_DIR"), "/grammar.rs"));

/// A rule of `uri.pest`, as listed in the generated table.
#[derive(Debug)]
pub(crate) struct RuleInfo {
    /// The pest name (`uri_reference`).
    pub(crate) name: &'static str,
    /// The ABNF spelling (`URI-reference`).
    pub(crate) abnf: &'static str,
    /// The ABNF definition quoted in `uri.pest` (`URI / relative-ref`).
    pub(crate) definition: &'static str,
    /// Where the rule comes from (`RFC 3986 section 4.1.`).
    pub(crate) source: &'static str,
}

/// A rule of the grammar in `uri.pest`: every rule of RFC 3986 Appendix A, plus the core rules ALPHA, DIGIT
/// and HEXDIG of RFC 5234.
///
/// Each rule is a constant named after its ABNF name in upper case with `-` -> `_`
/// ([`Rule::URI_REFERENCE`], [`Rule::IPV6ADDRESS`], [`Rule::PATH_ABEMPTY`], ...). Any rule can be matched
/// against a whole input with [`validate`](crate::validate) or [`parse_as`](crate::parse_as), which is what
/// `rfc3986 check --rule` does.
///
/// ```
/// use rfc3986::Rule;
/// assert_eq!(Rule::from_abnf_name("IPv6address"), Some(Rule::IPV6ADDRESS));
/// assert_eq!(Rule::IP_LITERAL.abnf_name(), "IP-literal");
/// assert!(Rule::all().any(|r| r.abnf_name() == "dec-octet"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule(usize);

impl Rule {
    fn info(self) -> &'static RuleInfo {
        &RULES[self.0]
    }

    /// The rule's name as RFC 3986 (or RFC 5234 for the core rules) spells it: `URI-reference`,
    /// `IPv6address`, `HEXDIG`.
    pub fn abnf_name(self) -> &'static str {
        self.info().abnf
    }

    /// The ABNF definition of the rule as quoted in `uri.pest`, e.g. `URI / relative-ref` for
    /// `URI-reference`.
    pub fn definition(self) -> &'static str {
        self.info().definition
    }

    /// Where the rule is defined, e.g. `RFC 3986 section 4.1.`.
    pub fn source(self) -> &'static str {
        self.info().source
    }

    /// The rule with this ABNF name, matched exactly as RFC 3986 writes it (`URI-reference`, `reg-name`,
    /// `IPv4address`), or `None` if the grammar has no such rule.
    pub fn from_abnf_name(name: &str) -> Option<Rule> {
        RULES.iter().position(|r| r.abnf == name).map(Rule)
    }

    /// Every rule of the grammar, in the order of `uri.pest`.
    pub fn all() -> impl ExactSizeIterator<Item = Rule> {
        (0..RULES.len()).map(Rule)
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abnf_name())
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abnf_name())
    }
}

/// One item of what the grammar would have accepted at the byte where parsing failed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Expected {
    /// A rule, by its ABNF name (`pchar`, `IPv6address`, `HEXDIG`).
    Rule(Cow<'static, str>),
    /// A quoted string of the grammar, without quotes (`/`, `::`, `v`).
    Literal(Cow<'static, str>),
    /// The end of the input.
    EndOfInput,
}

impl fmt::Display for Expected {
    /// ABNF spelling: a rule name as is, a literal in double quotes, `end of input`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Rule(name) => f.write_str(name),
            Expected::Literal(text) => write!(f, "\"{text}\""),
            Expected::EndOfInput => f.write_str("end of input"),
        }
    }
}

impl Expected {
    fn rule(rule: Rule) -> Expected {
        Expected::Rule(Cow::Borrowed(rule.abnf_name()))
    }
}

/// Inputs longer than this are not re-parsed by the detail parser (whose token queue grows with every
/// character); their errors come from the fast parser alone, with the same offset and a shorter list of
/// expected items.
const DETAIL_LIMIT: usize = 64 * 1024;

/// Matches `rule` against the whole of `input` and returns the spans of the components found.
///
/// # Errors
/// A [`ParseError`] at the byte where the match failed when `input` is not in the rule's language.
pub(crate) fn parse_parts(rule: Rule, input: &str) -> Result<Parts, ParseError> {
    match fast::FastParser::parse(fast_entry(rule.0), input) {
        Ok(pairs) => Ok(builder::build(pairs.flatten().filter_map(|pair| {
            let component = Component::from_rule_name(fast_rule_name(pair.as_rule()))?;
            let span = pair.as_span();
            Some((component, span.start(), span.end()))
        }))),
        Err(fast_error) => Err(explain(rule, input, fast_error)),
    }
}

/// Builds the error for an input the fast parser rejected.
fn explain(rule: Rule, input: &str, fast_error: pest::error::Error<fast::Rule>) -> ParseError {
    if input.len() <= DETAIL_LIMIT {
        if let Err(e) = detail::DetailParser::parse(detail_entry(rule.0), input) {
            return from_pest(rule, input, e, detail_expected);
        }
    }
    from_pest(rule, input, fast_error, |r| match fast_rule_name(r) {
        "EOI" => Expected::EndOfInput,
        name => match RULES.iter().position(|i| i.name == name) {
            Some(i) => Expected::rule(Rule(i)),
            None => Expected::EndOfInput,
        },
    })
}

fn from_pest<R: pest::RuleType>(
    rule: Rule,
    input: &str,
    e: pest::error::Error<R>,
    name: impl Fn(R) -> Expected,
) -> ParseError {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<Expected> = match e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            positives.into_iter().map(name).collect()
        }
        pest::error::ErrorVariant::CustomError { message } => {
            return ParseError::limit(rule, input, offset, message);
        }
    };
    expected.sort_by_key(|x| match x {
        Expected::Rule(_) => 0,
        Expected::Literal(_) => 1,
        Expected::EndOfInput => 2,
    });
    expected.dedup();
    error::classify(rule, input, offset, expected)
}
