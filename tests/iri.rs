//! IRI text (RFC 3987): `iri::iri_to_uri` (3.1) and `iri::uri_to_iri` (3.2), with the RFC's examples and
//! the laws the RFC states (the mapping is the identity on URIs and idempotent; a converted URI maps back
//! to the URI, up to percent-encoding case and unreserved characters).

use proptest::prelude::*;
use rfc3986::iri::{iri_to_uri, uri_to_iri};
use rfc3986::percent::{encode_bytes, Component};
use rfc3986::UriRef;
use rstest::rstest;

#[rstest]
#[case::rfc3987_3_1_resume_reg_name(
    "http://r\u{e9}sum\u{e9}.example.org",
    "http://r%C3%A9sum%C3%A9.example.org"
)]
#[case::rfc3987_3_2_1_durst(
    "http://www.example.org/D\u{fc}rst",
    "http://www.example.org/D%C3%BCrst"
)]
#[case::four_octets("/\u{1F600}", "/%F0%9F%98%80")]
#[case::iprivate_in_query("/?\u{E000}", "/?%EE%80%80")]
#[case::ascii_unchanged("http://a/b%2f?c#d", "http://a/b%2f?c#d")]
#[case::empty("", "")]
fn rfc3987_3_1_iri_to_uri(#[case] iri: &str, #[case] uri: &str) {
    assert_eq!(iri_to_uri(iri), uri);
    assert!(UriRef::parse(&iri_to_uri(iri)).is_ok());
}

#[rstest]
#[case::rfc3987_3_2_1_utf8_decoded(
    "http://www.example.org/D%C3%BCrst",
    "http://www.example.org/D\u{fc}rst"
)]
#[case::rfc3987_3_2_1_not_utf8_kept(
    "http://www.example.org/D%FCrst",
    "http://www.example.org/D%FCrst"
)]
#[case::rfc3987_3_2_1_bidi_override_reencoded(
    "http://xn--99zt52a.example.org/%e2%80%ae",
    "http://xn--99zt52a.example.org/%E2%80%AE"
)]
#[case::rfc3987_3_2_latin1_not_guessed(
    "http://www.example.org/r%E9sum%E9.html",
    "http://www.example.org/r%E9sum%E9.html"
)]
#[case::rfc3987_4_1_lrm_kept("/%E2%80%8E", "/%E2%80%8E")]
#[case::rfc3987_4_1_rlm_kept("/%E2%80%8F", "/%E2%80%8F")]
#[case::isolate_kept("/%E2%81%A6", "/%E2%81%A6")]
#[case::reserved_kept("/a%2Fb%3F%23%5B", "/a%2Fb%3F%23%5B")]
#[case::percent_kept("/%25C3%25BC", "/%25C3%25BC")]
#[case::space_kept("/a%20b", "/a%20b")]
#[case::control_kept("/%00%7F", "/%00%7F")]
#[case::unreserved_decoded("/%41%7e%2D", "/A~-")]
#[case::iprivate_kept("/?%EE%80%80", "/?%EE%80%80")]
#[case::c1_control_kept("/%C2%85", "/%C2%85")]
#[case::noncharacter_kept("/%EF%BF%BE", "/%EF%BF%BE")]
#[case::truncated_sequence("/%C3", "/%C3")]
#[case::mixed_run("/%C3%BC%FC%C3%BC", "/\u{fc}%FC\u{fc}")]
#[case::cjk("/%E6%97%A5%E6%9C%AC", "/\u{65e5}\u{672c}")]
fn rfc3987_3_2_uri_to_iri(#[case] uri: &str, #[case] iri: &str) {
    assert_eq!(uri_to_iri(uri), iri);
}

#[test]
fn borrows_when_unchanged() {
    assert!(matches!(
        iri_to_uri("http://a/"),
        std::borrow::Cow::Borrowed(_)
    ));
    assert!(matches!(
        uri_to_iri("http://a/%2F"),
        std::borrow::Cow::Owned(_)
    ));
    assert!(matches!(
        uri_to_iri("http://a/"),
        std::borrow::Cow::Borrowed(_)
    ));
}

/// URIs with percent-encoded text, arbitrary octets, and upper- or lower-case hex digits.
fn uri() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            prop_oneof![
                "\\PC{0,6}".prop_map(|s| encode_bytes(s.as_bytes(), Component::PathSegment).into_owned()),
                prop::collection::vec(any::<u8>(), 0..6)
                    .prop_map(|b| encode_bytes(&b, Component::PathSegment).into_owned()),
                "\\PC{0,6}".prop_map(|s| encode_bytes(s.as_bytes(), Component::PathSegment).to_lowercase()),
                "[a-z0-9._~!$&'()*+,;=:@-]{0,4}",
            ],
            0..5,
        ),
        prop::option::of("\\PC{0,6}".prop_map(|s| encode_bytes(s.as_bytes(), Component::Query).into_owned())),
    )
        .prop_map(|(segments, query)| {
            let mut u = format!("http://h/{}", segments.join("/"));
            if let Some(q) = query {
                u.push('?');
                u.push_str(&q);
            }
            u
        })
}

proptest! {
    /// RFC 3987 3.1: "The mapping is also an identity transformation for URIs and is idempotent".
    #[test]
    fn iri_to_uri_identity_on_uris(u in uri()) {
        prop_assert!(UriRef::parse(&u).is_ok());
        prop_assert_eq!(iri_to_uri(&u), u.as_str());
    }

    #[test]
    fn iri_to_uri_idempotent(text in "\\PC{0,20}") {
        let once = iri_to_uri(&text).into_owned();
        prop_assert_eq!(iri_to_uri(&once), once.as_str());
    }

    /// RFC 3987 3.2: the IRI "maps back to the URI used as an input for the conversion (except for
    /// potential case differences in percent-encoding and for potential percent-encoded unreserved
    /// characters)": equal after syntax-based normalization (RFC 3986 6.2.2).
    #[test]
    fn uri_to_iri_maps_back(u in uri()) {
        let iri = uri_to_iri(&u);
        let back = iri_to_uri(&iri).into_owned();
        let back = UriRef::parse(&back).unwrap();
        prop_assert_eq!(back.normalize(), UriRef::parse(&u).unwrap().normalize());
    }

    /// Non-ASCII text survives the round trip IRI -> URI -> IRI when it is ucschar without bidi controls.
    #[test]
    fn iri_round_trip(text in "[a-z\u{a0}-\u{200d}\u{2010}-\u{2029}\u{4e00}-\u{4e10}\u{1F600}-\u{1F610}]{0,12}") {
        let iri = format!("http://h/{text}");
        let uri = iri_to_uri(&iri);
        prop_assert_eq!(uri_to_iri(&uri), iri.as_str());
    }

    #[test]
    fn any_text_no_panic(text in "(%[0-9a-fA-F]{0,2}|\\PC){0,20}") {
        let _ = uri_to_iri(&text);
        let _ = iri_to_uri(&text);
    }
}

/// The results are IRIs by RFC 3987's grammar (`grammars/iri.pest`, loaded at run time).
#[cfg(feature = "runtime-grammar")]
mod grammar {
    use super::*;
    use rfc3986::runtime::Grammar;

    fn iri_grammar() -> &'static Grammar {
        static LOADED: std::sync::OnceLock<Grammar> = std::sync::OnceLock::new();
        LOADED.get_or_init(|| Grammar::builtin("iri").unwrap().unwrap())
    }

    proptest! {
        #[test]
        fn uri_to_iri_gives_an_iri(u in uri()) {
            let iri = uri_to_iri(&u);
            prop_assert!(iri_grammar().parse("IRI-reference", &iri).is_ok(), "{} -> {}", u, iri);
        }

        #[test]
        fn iri_to_uri_of_an_iri_is_a_uri(text in "[a-z/\u{a0}-\u{d7ff}\u{10000}-\u{1fffd}]{0,12}") {
            let iri = format!("http://h/{text}");
            prop_assume!(iri_grammar().parse("IRI-reference", &iri).is_ok());
            prop_assert!(UriRef::parse(&iri_to_uri(&iri)).is_ok());
        }
    }
}
