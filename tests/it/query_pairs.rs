//! Query pairs (`UriRef::query_pairs`, `append_query_pairs`; with `form`, `form_pairs`,
//! `append_form_pairs`): the reading of RFC 3986 3.4's query as `key=value` pairs.

use proptest::prelude::*;
use rfc3986::{QueryPairs, Rule, Uri, UriRef};
use rstest::rstest;

fn pairs(query: &str) -> Vec<(String, String)> {
    QueryPairs::new(query)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn owned(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[rstest]
#[case::empty_query("", &[])]
#[case::one_pair("a=1", &[("a", "1")])]
#[case::key_without_value("flag", &[("flag", "")])]
#[case::empty_value("a=", &[("a", "")])]
#[case::empty_key("=v", &[("", "v")])]
#[case::only_equals("=", &[("", "")])]
#[case::empty_pieces_skipped("&a=1&&b=2&", &[("a", "1"), ("b", "2")])]
#[case::first_equals_splits("x=a=b", &[("x", "a=b")])]
#[case::percent_decoded("q=caf%C3%A9%20x", &[("q", "café x")])]
#[case::plus_is_not_space("a+b=c+d", &[("a+b", "c+d")])]
#[case::encoded_delimiters("k%26%3D=v%26%3D", &[("k&=", "v&=")])]
#[case::slash_and_question_mark("p=/a?b", &[("p", "/a?b")])]
#[case::semicolon_is_not_a_separator("a=1;b=2", &[("a", "1;b=2")])]
#[case::not_utf8_replaced("a=%FF", &[("a", "\u{FFFD}")])]
fn query_pairs_reading(#[case] query: &str, #[case] expected: &[(&str, &str)]) {
    assert_eq!(pairs(query), owned(expected));
    let r = format!("/p?{query}");
    let r = UriRef::parse(&r).unwrap();
    assert_eq!(
        r.query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect::<Vec<_>>(),
        owned(expected)
    );
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
    let r = UriRef::parse(input).unwrap();
    let out = r.append_query_pairs(add.iter().copied()).unwrap();
    assert_eq!(out.as_str(), expected);
    rfc3986::validate(Rule::URI_REFERENCE, out.as_str()).unwrap();
}

#[test]
fn append_query_pairs_on_uri_stays_uri() {
    let uri = Uri::parse("urn:x").unwrap();
    let uri: Uri<'static> = uri.append_query_pairs([("a", "b")]).unwrap();
    assert_eq!(uri.as_str(), "urn:x?a=b");
}

proptest! {
    /// Appending pairs to a query without pairs, then reading the pairs, gives them back (non-empty keys,
    /// since a piece `=v` with an empty key is kept but an empty piece is not).
    #[test]
    fn append_then_iterate_gives_pairs_back(
        list in prop::collection::vec(("\\PC{1,8}", "\\PC{0,8}"), 0..6),
    ) {
        let r = UriRef::parse("http://h/p#f").unwrap();
        let out = r.append_query_pairs(list.iter().map(|(k, v)| (k, v))).unwrap();
        rfc3986::validate(Rule::URI_REFERENCE, out.as_str()).unwrap();
        let back: Vec<(String, String)> =
            out.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        prop_assert_eq!(back, list);
        prop_assert_eq!(out.fragment(), Some("f"));
    }

    /// Appending keeps the pairs already there, in order.
    #[test]
    fn append_keeps_existing_pairs(
        first in prop::collection::vec(("[a-z]{1,4}", "[a-z0-9]{0,4}"), 1..4),
        then in prop::collection::vec(("\\PC{1,6}", "\\PC{0,6}"), 1..4),
    ) {
        let r = UriRef::parse("/").unwrap().append_query_pairs(first.iter().map(|(k, v)| (k, v))).unwrap();
        let r = r.append_query_pairs(then.iter().map(|(k, v)| (k, v))).unwrap();
        let back: Vec<(String, String)> =
            r.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        let mut all = first.clone();
        all.extend(then);
        prop_assert_eq!(back, all);
    }

    /// Any text is read as the module's grammar says: the non-empty pieces between `&`, each split at its
    /// first `=` (a piece without one is a key with the empty value), decoded; without a `%` nothing is
    /// decoded and the pairs are exactly the pieces.
    #[test]
    fn query_pairs_any_text_are_the_pieces_between_ampersands(text in "(\\PC|[&=%]){0,40}") {
        let oracle: Vec<(String, String)> = text
            .split('&')
            .filter(|piece| !piece.is_empty())
            .map(|piece| match piece.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (piece.to_owned(), String::new()),
            })
            .collect();
        let pairs: Vec<(String, String)> =
            QueryPairs::new(&text).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        prop_assert_eq!(pairs.len(), oracle.len());
        if !text.contains('%') {
            prop_assert_eq!(pairs, oracle);
        }
    }
}

#[cfg(feature = "form")]
mod form {
    use super::*;

    #[rstest]
    #[case::plus_is_space("a+b=c+d", &[("a b", "c d")])]
    #[case::encoded_plus("x=%2B", &[("x", "+")])]
    #[case::decoded("q=caf%C3%A9", &[("q", "café")])]
    fn form_pairs_reading(#[case] query: &str, #[case] expected: &[(&str, &str)]) {
        let r = format!("?{query}");
        let r = UriRef::parse(&r).unwrap();
        let got: Vec<(String, String)> = r
            .form_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        assert_eq!(got, owned(expected));
    }

    proptest! {
        /// Form-encoded pairs come back from the form reading, and the result is in the grammar.
        #[test]
        fn append_form_then_iterate_gives_pairs_back(
            list in prop::collection::vec(("\\PC{1,8}", "\\PC{0,8}"), 0..6),
        ) {
            let r = UriRef::parse("http://h/p").unwrap();
            let out = r.append_form_pairs(list.iter().map(|(k, v)| (k, v))).unwrap();
            rfc3986::validate(Rule::URI_REFERENCE, out.as_str()).unwrap();
            let back: Vec<(String, String)> =
                out.form_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
            prop_assert_eq!(back, list);
        }
    }
}
