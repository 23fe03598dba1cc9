//! The reference parser: `uri.pest` compiled by `pest_derive` (the grammar as written plus an entry rule
//! per rule), and a second pest_derive parser of the *detail* grammar (every rule and quoted string
//! visible) whose attempt tracking lists what was expected where a rejected input fails. The compiled
//! recognizer and the explainer are tested against them; they run only for
//! [`Rule::validate_with_reference`](crate::Rule::validate_with_reference) and in the one case the
//! recognizer cannot record the components (a component rule matched twice; `uri.pest` has none).

use std::borrow::Cow;

use pest::Parser as _;

use crate::components::{self, Parts};
use crate::engine::classify;
use crate::error::{Expected, ParseError};
use crate::rule::{Rule, RULES};

include!(concat!(env!("OUT_DIR"), "/generated_reference.rs"));

/// The longest input a pest_derive *detail* parser (every rule visible) explains: it records a token per
/// rule it enters, about 240 bytes per input byte, so a longer rejected input (an IRI, a URI Template)
/// gets the offset where the grammar's fast parser stopped, without the expected items.
pub(crate) const DETAIL_MAX_INPUT: usize = 64 * 1024;

/// The byte offset where a pest parse failed.
pub(crate) fn pest_offset<R>(error: &pest::error::Error<R>) -> usize {
    match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    }
}

/// The pest_derive parser of `uri.pest`: the reference implementation, and the source of every error.
#[cold]
#[inline(never)]
pub(crate) fn parse_parts_reference(rule: Rule, input: &str) -> Result<Parts, ParseError> {
    match fast::ReferenceParser::parse(fast_entry(rule.index()), input) {
        Ok(pairs) => Ok(components::build(pairs.flatten().filter_map(|pair| {
            let component = components::component_index(fast_rule_name(pair.as_rule()))?;
            let span = pair.as_span();
            Some((component, span.start(), span.end()))
        }))),
        Err(fast_error) => Err(explain(rule, input, fast_error)),
    }
}

/// Builds the error for an input the fast parser rejected, from pest's detail parser (every rule and
/// literal visible).
fn explain(rule: Rule, input: &str, fast_error: pest::error::Error<fast::Rule>) -> ParseError {
    match detail::DetailParser::parse(detail_entry(rule.index()), input) {
        Err(e) => from_pest(rule, input, e, detail_expected),
        // The two pest parsers disagree (they never should): the fast parser's error.
        Ok(_) => from_pest(rule, input, fast_error, |r| match fast_rule_name(r) {
            "EOI" => Expected::EndOfInput,
            name => match RULES.iter().position(|i| i.name == name) {
                Some(i) => Expected::rule(Rule::from_index(i)),
                None => Expected::EndOfInput,
            },
        }),
    }
}

pub(crate) fn from_pest<R: pest::RuleType>(
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
    // Each item once, also when two rules of a loaded grammar share an ABNF name and are not next to
    // each other (as the explainers' tables do).
    let mut seen = std::collections::HashSet::new();
    expected.retain(|x| seen.insert(x.clone()));
    classify::classify(
        rule,
        input,
        offset,
        crate::engine::subsumption::fold(expected),
        None,
    )
}
