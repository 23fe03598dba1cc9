//! Folding the expected items of a [`ParseError`](crate::ParseError): an item all of whose characters a
//! listed character-class rule accepts adds nothing and is dropped, so an error never lists `ALPHA`,
//! `DIGIT`, `unreserved`, `"-"`, `"."` together (`unreserved` says it all).
//!
//! Which rules are character classes, and which characters each accepts, is worked out from the grammar
//! itself when the explainer is generated (by matching one- and two-character strings:
//! `rfc3986_peg::explainer::steps::class_of_rule`), not written here.

use crate::engine::{Expected, Rule};

/// The ASCII characters `rule` accepts, as a bit set, when its language is made of one-character
/// strings only (`ALPHA`, `unreserved`, `pchar`, ...); `None` for any other rule (`segment` also accepts
/// the empty string and longer strings, `pct-encoded` three characters). A constant of the generated
/// explainer.
fn class_of_rule(rule: Rule) -> Option<u128> {
    crate::engine::explainer::RULE_CLASSES[rule.index()]
}

/// [`class_of_rule`] worked out at run time with the compiled recognizer, for the test that the
/// generator's constants say the same.
#[cfg(test)]
fn compute_class(rule: Rule) -> Option<u128> {
    use crate::engine;
    if engine::matches(rule, "") {
        return None;
    }
    let mut set = 0u128;
    let mut buf = [0u8; 2];
    for b in 0..128u8 {
        buf[0] = b;
        let one = std::str::from_utf8(&buf[..1]).unwrap_or_default();
        if engine::matches(rule, one) {
            set |= 1 << b;
        }
    }
    if set == 0 {
        return None;
    }
    // One-character strings only: no accepted character starts a longer match.
    for b in (0..128u8).filter(|b| set & (1 << b) != 0) {
        buf[0] = b;
        for c in 0..128u8 {
            buf[1] = c;
            if engine::matches(rule, std::str::from_utf8(&buf).unwrap_or_default()) {
                return None;
            }
        }
    }
    Some(set)
}

/// The characters an item accepts when it is one character: a character-class rule, or a quoted
/// string of one character (both cases of a letter: ABNF strings are case-insensitive, RFC 5234 2.3).
pub(crate) fn class_of(item: &Expected) -> Option<u128> {
    match item {
        Expected::Rule(name) => class_of_rule(Rule::from_abnf_name(name)?),
        Expected::Literal(text) => match text.as_bytes() {
            [b] if b.is_ascii() => {
                Some(1u128 << b.to_ascii_lowercase() | 1u128 << b.to_ascii_uppercase())
            }
            _ => None,
        },
        Expected::EndOfInput => None,
    }
}

/// Drops every item whose characters a character-class *rule* elsewhere in the list accepts (of two
/// rules with the same characters, the one whose name sorts first stays, whatever the order of the
/// list). Order is kept.
pub(crate) fn fold(items: Vec<Expected>) -> Vec<Expected> {
    if items.len() < 2 {
        return items;
    }
    let classes: Vec<Option<u128>> = items.iter().map(class_of).collect();
    fold_with_classes(items, &classes)
}

/// [`fold`] with the class of each item already known (`classes[i]` is [`class_of`] of `items[i]`).
fn fold_with_classes(items: Vec<Expected>, classes: &[Option<u128>]) -> Vec<Expected> {
    let n = items.len();
    let is_rule: Vec<bool> = items
        .iter()
        .map(|item| matches!(item, Expected::Rule(_)))
        .collect();
    let keep: Vec<bool> = (0..n)
        .map(|i| {
            !subsumed(
                n,
                i,
                |j| classes[j],
                |j| is_rule[j],
                |j| items[j] < items[i],
            )
        })
        .collect();
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(item, keep)| keep.then_some(item))
        .collect()
}

/// Whether folding drops item `i` of a list of `n`, where item `j` accepts the characters `class(j)`
/// when it is one character, `is_rule(j)` says whether it is a rule and `sorts_first(j)` whether its
/// name sorts before item `i`'s (see [`folds_into`]).
fn subsumed(
    n: usize,
    i: usize,
    class: impl Fn(usize) -> Option<u128>,
    is_rule: impl Fn(usize) -> bool,
    sorts_first: impl Fn(usize) -> bool,
) -> bool {
    let Some(a) = class(i) else { return false };
    (0..n).any(|j| {
        j != i
            && is_rule(j)
            && class(j).is_some_and(|b| folds_into(a, is_rule(i), b, || sorts_first(j)))
    })
}

/// Whether an item that accepts the characters `a` (a rule when `is_rule`) is dropped for a
/// character-class rule of the same list that accepts `b`: when the rule accepts all its characters;
/// of two rules with the same characters, the one whose name sorts first stays (`sorts_first` says
/// whether that is the other rule), so that the answer does not depend on the order of the list (the
/// reference engine for loaded grammars lists its items in another order). Shared by [`fold`] and the
/// explainers' lists of ids.
#[inline(always)]
pub(crate) fn folds_into(
    a: u128,
    is_rule: bool,
    b: u128,
    sorts_first: impl FnOnce() -> bool,
) -> bool {
    a & b == a && (a != b || !is_rule || sorts_first())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generator's classes are those the recognizer accepts, for every rule.
    #[test]
    fn the_generated_classes_are_the_recognizer_s() {
        let mut classes = 0;
        for rule in Rule::all() {
            assert_eq!(class_of_rule(rule), compute_class(rule), "{rule}");
            classes += usize::from(class_of_rule(rule).is_some());
        }
        // ALPHA, DIGIT, HEXDIG, unreserved, reserved, gen-delims, sub-delims, pchar at least.
        assert!(classes >= 8, "{classes}");
    }
}
