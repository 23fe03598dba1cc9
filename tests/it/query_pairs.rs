//! Query pairs (`UriRef::query_pairs`, `query_pairs_keep_plus`, `append_query_pairs`,
//! `append_form_pairs`): the reading of RFC 3986 3.4's query as `key=value` pairs.

use std::borrow::Cow;

use proptest::prelude::*;
use rfc3986::{QueryPairs, Rule, Uri, UriRef};
use rstest::rstest;

fn collect<'a>(pairs: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> Vec<(String, String)> {
    pairs
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn owned(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The two readings agree except on `+`: `query_pairs` (and `QueryPairs::new`) read it as a space, as
/// `application/x-www-form-urlencoded` and the `url` crate do; `query_pairs_keep_plus` (and
/// `QueryPairs::keep_plus`) leave it, as RFC 3986 2.2 gives it no meaning. `%2B` is `+` in both.
#[rstest]
#[case::empty_query("", &[], &[])]
#[case::one_pair("a=1", &[("a", "1")], &[("a", "1")])]
#[case::key_without_value("flag", &[("flag", "")], &[("flag", "")])]
#[case::empty_value("a=", &[("a", "")], &[("a", "")])]
#[case::empty_key("=v", &[("", "v")], &[("", "v")])]
#[case::only_equals("=", &[("", "")], &[("", "")])]
#[case::empty_pieces_skipped("&a=1&&b=2&", &[("a", "1"), ("b", "2")], &[("a", "1"), ("b", "2")])]
#[case::first_equals_splits("x=a=b", &[("x", "a=b")], &[("x", "a=b")])]
#[case::percent_decoded("q=caf%C3%A9%20x", &[("q", "café x")], &[("q", "café x")])]
#[case::plus("a+b=c+d", &[("a b", "c d")], &[("a+b", "c+d")])]
#[case::encoded_plus_is_plus("x=%2B+%2B", &[("x", "+ +")], &[("x", "+++")])]
#[case::plus_then_percent("q=caf%C3%A9+au+lait", &[("q", "café au lait")], &[("q", "café+au+lait")])]
#[case::encoded_delimiters("k%26%3D=v%26%3D", &[("k&=", "v&=")], &[("k&=", "v&=")])]
#[case::slash_and_question_mark("p=/a?b", &[("p", "/a?b")], &[("p", "/a?b")])]
#[case::semicolon_is_not_a_separator("a=1;b=2", &[("a", "1;b=2")], &[("a", "1;b=2")])]
#[case::not_utf8_replaced("a=%FF", &[("a", "\u{FFFD}")], &[("a", "\u{FFFD}")])]
fn query_pairs_reading(
    #[case] query: &str,
    #[case] form: &[(&str, &str)],
    #[case] keep_plus: &[(&str, &str)],
) {
    assert_eq!(collect(QueryPairs::new(query)), owned(form));
    assert_eq!(collect(QueryPairs::keep_plus(query)), owned(keep_plus));
    let r = format!("/p?{query}");
    let r = UriRef::parse(&r).unwrap();
    assert_eq!(collect(r.query_pairs()), owned(form));
    assert_eq!(collect(r.query_pairs_keep_plus()), owned(keep_plus));
}

/// RFC 3986 3.4's own example query: `objectClass?one` is one key with `?` in it.
#[test]
fn query_pairs_rfc3986_3_4_example() {
    let uri = Uri::parse("ldap://[2001:db8::7]/c=GB?objectClass?one").unwrap();
    assert_eq!(
        uri.query_pairs().collect::<Vec<_>>(),
        [("objectClass?one".into(), "".into())]
    );
}

#[test]
fn query_pairs_undefined_query_gives_none() {
    assert_eq!(UriRef::parse("http://h/").unwrap().query_pairs().count(), 0);
}

#[test]
fn query_pairs_borrow_when_nothing_to_decode() {
    let r = UriRef::parse("?a=1").unwrap();
    let (k, v) = r.query_pairs().next().unwrap();
    assert!(matches!(k, std::borrow::Cow::Borrowed(_)));
    assert!(matches!(v, std::borrow::Cow::Borrowed(_)));
}

#[rstest]
#[case::no_query("/a", &[("k", "v")], "/a?k=v")]
#[case::empty_query("/a?", &[("k", "v")], "/a?k=v")]
#[case::existing_query("/a?x", &[("k", "v")], "/a?x&k=v")]
#[case::existing_trailing_ampersand("/a?x&", &[("k", "v")], "/a?x&k=v")]
#[case::fragment_kept("/a?x#f", &[("k", "v")], "/a?x&k=v#f")]
#[case::delimiters_encoded("", &[("a&b", "c=d+e;f#g")], "?a%26b=c%3Dd%2Be%3Bf%23g")]
#[case::space_and_non_ascii("", &[("é", "a b")], "?%C3%A9=a%20b")]
#[case::slash_and_question_mark_kept("", &[("p", "/a?b")], "?p=/a?b")]
#[case::two_pairs("http://h", &[("a", "1"), ("b", "2")], "http://h?a=1&b=2")]
fn append_query_pairs_writes(
    #[case] input: &str,
    #[case] add: &[(&str, &str)],
    #[case] expected: &str,
) {
    let mut out = UriRef::parse(input).unwrap();
    out.append_query_pairs(add.iter().copied());
    assert_eq!(out.as_str(), expected);
    rfc3986::validate(Rule::URI_REFERENCE, out.as_str()).unwrap();
}

#[test]
fn append_query_pairs_on_uri_stays_uri() {
    let mut uri = Uri::parse("urn:x").unwrap();
    uri.append_query_pairs([("a", "b")]);
    assert_eq!(uri.as_str(), "urn:x?a=b");
    uri.append_form_pairs([("c", "d e")]);
    assert_eq!(uri.as_str(), "urn:x?a=b&c=d+e");
}

proptest! {
    /// Appending pairs to a query without pairs, then reading the pairs, gives them back (non-empty keys,
    /// since a piece `=v` with an empty key is kept but an empty piece is not).
    #[test]
    fn append_then_iterate_gives_pairs_back(
        list in prop::collection::vec(("\\PC{1,8}", "\\PC{0,8}"), 0..6),
    ) {
        let mut out = UriRef::parse("http://h/p#f").unwrap();
        out.append_query_pairs(list.iter().map(|(k, v)| (k, v)));
        rfc3986::validate(Rule::URI_REFERENCE, out.as_str()).unwrap();
        prop_assert_eq!(collect(out.query_pairs()), list.clone());
        prop_assert_eq!(collect(out.query_pairs_keep_plus()), list);
        prop_assert_eq!(out.fragment(), Some("f"));
    }

    /// Appending keeps the pairs already there, in order.
    #[test]
    fn append_keeps_existing_pairs(
        first in prop::collection::vec(("[a-z]{1,4}", "[a-z0-9]{0,4}"), 1..4),
        then in prop::collection::vec(("\\PC{1,6}", "\\PC{0,6}"), 1..4),
    ) {
        let mut r = UriRef::parse("/").unwrap();
        r.append_query_pairs(first.iter().map(|(k, v)| (k, v)));
        r.append_query_pairs(then.iter().map(|(k, v)| (k, v)));
        let back = collect(r.query_pairs());
        let mut all = first.clone();
        all.extend(then);
        prop_assert_eq!(back, all);
    }

    /// Any text is read as the module's grammar says: the non-empty pieces between `&`, each split at its
    /// first `=` (a piece without one is a key with the empty value), decoded; without a `%` nothing is
    /// decoded and the pairs are exactly the pieces.
    #[test]
    fn query_pairs_any_text_are_the_pieces_between_ampersands(text in "(\\PC|[&=%+]){0,40}") {
        let oracle: Vec<(String, String)> = text
            .split('&')
            .filter(|piece| !piece.is_empty())
            .map(|piece| match piece.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (piece.to_owned(), String::new()),
            })
            .collect();
        let keep_plus = collect(QueryPairs::keep_plus(&text));
        let form = collect(QueryPairs::new(&text));
        prop_assert_eq!(keep_plus.len(), oracle.len());
        prop_assert_eq!(form.len(), oracle.len());
        if !text.contains('%') {
            // Without a `%` nothing is decoded: the pieces themselves, and with `+` read as a space.
            let spaced: Vec<(String, String)> = oracle
                .iter()
                .map(|(k, v)| (k.replace('+', " "), v.replace('+', " ")))
                .collect();
            prop_assert_eq!(keep_plus, oracle);
            prop_assert_eq!(form, spaced);
        }
    }
}

proptest! {
    /// Form-encoded pairs (a space written `+`) come back from the form reading, and the result is in the
    /// grammar.
    #[test]
    fn append_form_then_iterate_gives_pairs_back(
        list in prop::collection::vec(("\\PC{1,8}", "\\PC{0,8}"), 0..6),
    ) {
        let mut out = UriRef::parse("http://h/p").unwrap();
        out.append_form_pairs(list.iter().map(|(k, v)| (k, v)));
        rfc3986::validate(Rule::URI_REFERENCE, out.as_str()).unwrap();
        prop_assert!(!out.as_str().contains("%20"));
        prop_assert_eq!(collect(out.query_pairs()), list);
    }
}
