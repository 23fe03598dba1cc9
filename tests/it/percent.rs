//! Percent-encoding (RFC 3986 2.1, 2.4, 2.5): the character sets against the grammar, RFC examples, round
//! trips and decode errors.

use std::borrow::Cow;

use proptest::prelude::*;
use rfc3986::percent::{decode, decode_utf8, encode, encode_bytes, Component, DecodeErrorKind};
use rfc3986::{validate, Rule, UriRef};
use rstest::rstest;

/// Every component's set of unencoded characters, proven byte for byte against `uri.pest`: a one-character
/// string is in the component's rule exactly when the set allows the character.
#[test]
fn allowed_sets_match_grammar() {
    for c in Component::ALL {
        for b in 0u8..128 {
            let s = (b as char).to_string();
            assert_eq!(
                c.allows(b),
                validate(c.rule(), &s).is_ok(),
                "{c}: {s:?} (rule {})",
                c.rule()
            );
        }
        for b in 128u8..=255 {
            assert!(!c.allows(b), "{c}: byte {b}");
        }
    }
}

/// The sets as the RFC's text states them (2.2, 2.3, 3.2.1, 3.2.2, 3.3, 3.4, 3.5).
#[rstest]
#[case::userinfo(Component::Userinfo, ":")]
#[case::host(Component::Host, "")]
#[case::path(Component::Path, ":@/")]
#[case::segment(Component::PathSegment, ":@")]
#[case::query(Component::Query, ":@/?")]
#[case::fragment(Component::Fragment, ":@/?")]
fn allowed_sets_rfc_text(#[case] c: Component, #[case] extra: &str) {
    let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    let sub_delims = "!$&'()*+,;=";
    for b in 0u8..128 {
        let expected = unreserved.as_bytes().contains(&b)
            || sub_delims.as_bytes().contains(&b)
            || extra.as_bytes().contains(&b);
        assert_eq!(c.allows(b), expected, "{c}: {:?}", b as char);
    }
}

#[test]
fn component_rules() {
    assert_eq!(Component::Userinfo.rule(), Rule::USERINFO);
    assert_eq!(Component::Host.rule(), Rule::REG_NAME);
    assert_eq!(Component::Path.rule(), Rule::PATH);
    assert_eq!(Component::PathSegment.rule(), Rule::SEGMENT);
    assert_eq!(Component::Query.rule(), Rule::QUERY);
    assert_eq!(Component::Fragment.rule(), Rule::FRAGMENT);
    assert_eq!(Component::PathSegment.to_string(), "segment");
}

/// RFC 3986 examples and statements of section 2.
#[rstest]
#[case::rfc3986_2_1_space(" ", Component::PathSegment, "%20")]
#[case::rfc3986_2_1_upper_case_hex("\u{1f}", Component::Query, "%1F")]
#[case::rfc3986_2_3_tilde_not_encoded("~", Component::PathSegment, "~")]
#[case::rfc3986_2_3_unreserved_not_encoded("AZaz09-._~", Component::Host, "AZaz09-._~")]
#[case::rfc3986_2_4_percent("%", Component::Fragment, "%25")]
#[case::rfc3986_2_4_encoded_again("%41", Component::Query, "%2541")]
#[case::rfc3986_2_5_a_grave("À", Component::Query, "%C3%80")]
#[case::rfc3986_2_5_katakana("アイウ", Component::PathSegment, "%E3%82%A2%E3%82%A4%E3%82%A6")]
#[case::gen_delims_in_segment(":/?#[]@", Component::PathSegment, ":%2F%3F%23%5B%5D@")]
#[case::gen_delims_in_query(":/?#[]@", Component::Query, ":/?%23%5B%5D@")]
#[case::gen_delims_in_userinfo(":/?#[]@", Component::Userinfo, ":%2F%3F%23%5B%5D%40")]
#[case::gen_delims_in_host(":/?#[]@", Component::Host, "%3A%2F%3F%23%5B%5D%40")]
#[case::sub_delims_kept("!$&'()*+,;=", Component::Host, "!$&'()*+,;=")]
#[case::ipv6_literal_as_reg_name("[::1]", Component::Host, "%5B%3A%3A1%5D")]
#[case::path_keeps_slash("/a b/c", Component::Path, "/a%20b/c")]
#[case::never_allowed("<>\"\\^`{|}", Component::Fragment, "%3C%3E%22%5C%5E%60%7B%7C%7D")]
fn encode_rfc3986_2(#[case] text: &str, #[case] c: Component, #[case] expected: &str) {
    assert_eq!(encode(text, c), expected);
    validate(c.rule(), expected).unwrap();
    assert_eq!(decode_utf8(expected).unwrap(), text);
}

/// `%41` is `A`, `%7E` is `~` (2.1, 2.3); hex digits in either case decode.
#[rstest]
#[case::rfc3986_2_1_a("%41", "A")]
#[case::rfc3986_2_3_tilde("%7E", "~")]
#[case::rfc3986_2_3_tilde_lower("%7e", "~")]
#[case::rfc3986_2_1_space("%20", " ")]
#[case::rfc3986_2_5_a_grave("%C3%80", "À")]
#[case::mixed("a%2Fb%2fc", "a/b/c")]
#[case::plus_is_not_space("a+b", "a+b")]
#[case::empty("", "")]
fn decode_rfc3986_2(#[case] text: &str, #[case] expected: &str) {
    assert_eq!(decode_utf8(text).unwrap(), expected);
    assert_eq!(decode(text).unwrap(), expected.as_bytes());
}

#[rstest]
#[case::lone_percent_at_end("ab%", 2)]
#[case::one_hex_digit("ab%2", 2)]
#[case::not_hex("%zz", 0)]
#[case::second_digit_not_hex("%2g", 0)]
#[case::after_a_good_one("%20%2", 3)]
#[case::percent_then_percent("%%41", 0)]
fn decode_invalid_percent_encoding(#[case] text: &str, #[case] offset: usize) {
    let e = decode(text).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::InvalidPercentEncoding);
    assert_eq!(e.offset(), offset);
    assert_eq!(decode_utf8(text).unwrap_err(), e);
    assert!(e.to_string().contains("RFC 3986 2.1"), "{e}");
}

#[rstest]
#[case::lone_ff("%FF", 0)]
#[case::after_text("ab%FF", 2)]
#[case::truncated_sequence("%C3", 0)]
#[case::bad_continuation("a%C3%28", 1)]
#[case::after_a_good_sequence("%C3%80b%80", 7)]
fn decode_invalid_utf8(#[case] text: &str, #[case] offset: usize) {
    assert!(decode(text).is_ok());
    let e = decode_utf8(text).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::InvalidUtf8);
    assert_eq!(e.offset(), offset);
}

#[test]
fn decode_error_converts_to_umbrella_error() {
    fn f() -> Result<(), rfc3986::Error> {
        decode("%")?;
        Ok(())
    }
    assert!(matches!(f(), Err(rfc3986::Error::Decode(_))));
}

#[test]
fn cow_borrows_when_unchanged() {
    assert!(matches!(
        encode("abc", Component::Query),
        Cow::Borrowed("abc")
    ));
    assert!(matches!(
        encode_bytes(b"abc", Component::Query),
        Cow::Borrowed("abc")
    ));
    assert!(matches!(decode("abc").unwrap(), Cow::Borrowed(b"abc")));
    assert!(matches!(decode_utf8("a+b").unwrap(), Cow::Borrowed("a+b")));
    assert!(matches!(encode("a b", Component::Query), Cow::Owned(_)));
    assert!(matches!(decode_utf8("a%20b").unwrap(), Cow::Owned(_)));
}

/// Every component of a parsed URI decodes: the grammar only lets complete `pct-encoded` triplets in.
#[rstest]
#[case("foo://us%20er@ex%41mple.com:8042/over/th%C3%A9re?name=fer%2Fret#n%6Fse")]
#[case("http://a/%7e%7E?%25#%ff")]
fn decode_parsed_components(#[case] text: &str) {
    let r = UriRef::parse(text).unwrap();
    for part in [
        r.userinfo(),
        r.host_str(),
        Some(r.path()),
        r.query(),
        r.fragment(),
    ]
    .into_iter()
    .flatten()
    {
        decode(part).unwrap();
    }
}

#[test]
fn decode_parsed_path_rfc3986_2_5() {
    let r = UriRef::parse("http://example.com/th%C3%A9re/a%20b").unwrap();
    let segments: Vec<_> = r.path_segments().map(|s| decode_utf8(s).unwrap()).collect();
    assert_eq!(segments, ["thére", "a b"]);
}

fn component() -> impl Strategy<Value = Component> {
    prop::sample::select(Component::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// decode(encode(s)) == s for any Unicode text and any component.
    #[test]
    fn round_trip_text(s in any::<String>(), c in component()) {
        let encoded = encode(&s, c);
        prop_assert_eq!(decode_utf8(&encoded).unwrap(), s.as_str());
    }

    /// The same for any octets.
    #[test]
    fn round_trip_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64), c in component()) {
        let encoded = encode_bytes(&bytes, c);
        prop_assert_eq!(decode(&encoded).unwrap(), bytes.as_slice());
    }

    /// Encoding follows the grammar: the result is always in the component's rule.
    #[test]
    fn encoded_matches_rule(s in any::<String>(), c in component()) {
        let encoded = encode(&s, c);
        prop_assert!(validate(c.rule(), &encoded).is_ok(), "{} {:?} -> {:?}", c, s, encoded);
        if c == Component::Host {
            prop_assert!(validate(Rule::HOST, &encoded).is_ok());
        }
    }

    /// Text biased towards URI delimiters and `%`, where the sets differ.
    #[test]
    fn encoded_matches_rule_ascii(s in "[%:/?#\\[\\]@!$&'()*+,;=a-z~ <>\"{}|\\\\^`\\x00-\\x1f\\x7f]{0,24}", c in component()) {
        let encoded = encode(&s, c);
        prop_assert!(validate(c.rule(), &encoded).is_ok(), "{} {:?} -> {:?}", c, s, encoded);
        prop_assert_eq!(decode_utf8(&encoded).unwrap(), s.as_str());
    }

    /// Only hex digits in upper case are produced (2.1), and unreserved characters are never encoded.
    #[test]
    fn encoded_is_upper_case_and_keeps_unreserved(s in any::<String>(), c in component()) {
        let encoded = encode(&s, c);
        let bytes = encoded.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let octet = &encoded[i + 1..i + 3];
                prop_assert_eq!(octet.to_ascii_uppercase(), octet);
                let value = u8::from_str_radix(octet, 16).unwrap();
                prop_assert!(!(value.is_ascii_alphanumeric() || b"-._~".contains(&value)));
                i += 3;
            } else {
                i += 1;
            }
        }
    }

    /// Text already in the rule (and without `%`) is borrowed, unchanged.
    #[test]
    fn unchanged_text_is_borrowed(s in "[a-zA-Z0-9._~!$&'()*+,;=-]{0,24}", c in component()) {
        prop_assert!(matches!(encode(&s, c), Cow::Borrowed(_)));
    }
}
