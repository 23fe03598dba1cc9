//! IRI text (RFC 3987): `iri::iri_to_uri` (3.1) and `iri::uri_to_iri` (3.2), with the RFC's examples and
//! the laws the RFC states (the mapping is the identity on URIs and idempotent; a converted URI maps back
//! to the URI, up to percent-encoding case and unreserved characters).

use proptest::prelude::*;
use rfc3986::iri::{iri_to_uri, uri_to_iri, Iri, IriRef};
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

/// IriRef components: the undefined / empty distinction and non-ASCII text in each component.
#[rstest]
#[case::rfc3987_3_1_reg_name(
    "http://r\u{e9}sum\u{e9}.example.org",
    [Some("http"), Some("r\u{e9}sum\u{e9}.example.org"), Some(""), None, None]
)]
#[case::all_components(
    "s://\u{fc}@h\u{fc}:8/\u{fc}?\u{E000}#\u{fc}",
    [Some("s"), Some("\u{fc}@h\u{fc}:8"), Some("/\u{fc}"), Some("\u{E000}"), Some("\u{fc}")]
)]
#[case::relative_empty_query_fragment("\u{fc}?#", [None, None, Some("\u{fc}"), Some(""), Some("")])]
#[case::ipv6("http://[::1]/", [Some("http"), Some("[::1]"), Some("/"), None, None])]
fn iri_ref_components(#[case] text: &str, #[case] expected: [Option<&str>; 5]) {
    let r = IriRef::parse(text).unwrap();
    assert_eq!(
        [
            r.scheme(),
            r.authority().map(|a| a.as_str()),
            Some(r.path()),
            r.query(),
            r.fragment()
        ],
        expected
    );
    assert_eq!(r.to_string(), text);
    // The URI: the same components, each mapped.
    let u = r.to_uri();
    assert_eq!(u.as_str(), iri_to_uri(text));
    assert_eq!(
        u.query().map(|q| q.to_owned()),
        r.query().map(|q| iri_to_uri(q).into_owned())
    );
    assert_eq!(
        u.fragment().map(|q| q.to_owned()),
        r.fragment().map(|q| iri_to_uri(q).into_owned())
    );
}

#[rstest]
#[case::space("a b")]
#[case::iprivate_in_path("/\u{E000}")]
#[case::delete_control("\u{7f}")]
#[case::non_ascii_scheme("\u{e9}:x")]
#[case::non_ascii_port("//h:\u{661}")]
#[case::unclosed_ip_literal("http://[::1")]
fn iri_ref_rejects(#[case] text: &str) {
    assert!(IriRef::parse(text).is_err(), "{text}");
}

#[test]
fn iri_requires_scheme_and_maps_to_uri() {
    assert!(Iri::parse("//h/\u{e9}").is_err());
    let iri = Iri::parse("http://h/\u{e9}#x").unwrap();
    assert_eq!(iri.scheme(), "http");
    let uri = iri.to_uri();
    assert_eq!(uri.as_str(), "http://h/%C3%A9#x");
    assert_eq!(Iri::from_uri(&uri), iri);
}

/// A reg-name that decoding turns into an IPv4address is one (RFC 3986 3.2.2 prefers it).
#[test]
fn from_uri_reg_name_becoming_ipv4() {
    let uri = UriRef::parse("http://%31.2.3.4/").unwrap();
    let iri = IriRef::from_uri(&uri);
    assert_eq!(iri.host_str(), Some("1.2.3.4"));
    assert_eq!(iri.host_kind(), Some(rfc3986::HostKind::Ipv4address));
    assert_eq!(
        IriRef::parse("http://1.2.3.4/").unwrap().host_kind(),
        iri.host_kind()
    );
}

/// RFC 3986 5.4.1's normal examples, resolved as IRIs (RFC 3987 6.5), give the URI results; with
/// non-ASCII text in them too.
#[rstest]
#[case::g("g", "http://a/b/c/g")]
#[case::dot_g("./g", "http://a/b/c/g")]
#[case::g_slash("g/", "http://a/b/c/g/")]
#[case::slash_g("/g", "http://a/g")]
#[case::network_path("//g", "http://g")]
#[case::query("?y", "http://a/b/c/d;p?y")]
#[case::fragment("#s", "http://a/b/c/d;p?q#s")]
#[case::empty("", "http://a/b/c/d;p?q")]
#[case::dot_dot_g("../g", "http://a/b/g")]
#[case::three_up("../../../g", "http://a/g")]
#[case::non_ascii_segment("../\u{fc}/./x?\u{e9}#\u{e9}", "http://a/b/\u{fc}/x?\u{e9}#\u{e9}")]
#[case::non_ascii_authority("//\u{e9}.example/p", "http://\u{e9}.example/p")]
fn rfc3987_6_5_resolution(#[case] reference: &str, #[case] target: &str) {
    let base = Iri::parse("http://a/b/c/d;p?q").unwrap();
    let t = IriRef::parse(reference)
        .unwrap()
        .resolve_against(&base)
        .unwrap();
    assert_eq!(t.as_str(), target);
    assert_eq!(Iri::parse(target).unwrap().host_str(), t.host_str());
}

fn iri_ref() -> impl Strategy<Value = String> {
    (
        prop::option::of(prop::sample::select(vec!["http:", "HTTP:", "f:"])),
        prop::option::of("[a-zA-Z\u{e9}\u{4e00}]{0,3}"),
        prop::collection::vec(
            prop::sample::select(vec![".", "..", "a", "\u{fc}", "%41", "%c3%bc", "", "%2E"]),
            0..5,
        ),
        any::<bool>(),
        prop::option::of("[a-z\u{e9}\u{E000}%2F]{0,3}"),
        prop::option::of("[a-z\u{e9}]{0,3}"),
    )
        .prop_map(|(scheme, host, segments, absolute, query, fragment)| {
            let mut s = String::new();
            if let Some(x) = scheme {
                s.push_str(x);
            }
            let has_host = host.is_some();
            if let Some(h) = host {
                s.push_str("//");
                s.push_str(&h);
            }
            if absolute || (has_host && !segments.is_empty()) {
                s.push('/');
            }
            s.push_str(&segments.join("/"));
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
}

proptest! {
    /// Mapping to URIs (3.1) commutes with resolution (6.5) and with syntax-based normalization (5.3.2):
    /// both work on ASCII delimiters and dot-segments only, which the mapping does not touch.
    #[test]
    fn iri_mapping_commutes(text in iri_ref(), base in iri_ref()) {
        let (Ok(r), Ok(base)) = (IriRef::parse(&text), Iri::parse(&base)) else {
            return Err(TestCaseError::reject("not an IRI reference and an IRI"));
        };
        let n = r.normalize();
        prop_assert_eq!(n.to_uri(), r.to_uri().normalize());
        prop_assert!(n.is_normalized());
        prop_assert_eq!(IriRef::parse(n.as_str()).unwrap(), n.clone());
        let t = r.resolve_against(&base).unwrap();
        prop_assert_eq!(t.to_uri(), r.to_uri().resolve_against(&base.to_uri()).unwrap());
        let reparsed = Iri::parse(t.as_str()).unwrap();
        prop_assert_eq!(
            [reparsed.authority().map(|a| a.as_str()), Some(reparsed.path()), reparsed.query(), reparsed.fragment()],
            [t.authority().map(|a| a.as_str()), Some(t.path()), t.query(), t.fragment()]
        );
    }
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

    /// IriRef::from_uri then to_uri gives an equivalent URI (RFC 3987 3.2), and the IRI's components
    /// are those a parse of its text finds.
    #[test]
    fn iri_ref_from_uri_to_uri(u in uri()) {
        let uri = UriRef::parse(&u).unwrap();
        let iri = IriRef::from_uri(&uri);
        let reparsed = IriRef::parse(iri.as_str()).unwrap();
        prop_assert_eq!(
            [reparsed.scheme(), reparsed.authority().map(|a| a.as_str()), Some(reparsed.path()), reparsed.query(), reparsed.fragment()],
            [iri.scheme(), iri.authority().map(|a| a.as_str()), Some(iri.path()), iri.query(), iri.fragment()]
        );
        prop_assert_eq!(reparsed.host_kind(), iri.host_kind());
        prop_assert_eq!(iri.to_uri().normalize(), uri.normalize());
    }

    /// to_uri of a parsed IRI is iri_to_uri of its text, with the components the URI grammar finds.
    #[test]
    fn iri_ref_to_uri_is_the_text_mapping(text in "[a-z/?#:@.\u{a0}-\u{d7ff}\u{10000}-\u{1fffd}]{0,16}") {
        let Ok(iri) = IriRef::parse(&text) else {
            return Err(TestCaseError::reject("not an IRI reference"));
        };
        let uri = iri.to_uri();
        prop_assert_eq!(uri.as_str(), iri_to_uri(&text));
        let reparsed = UriRef::parse(uri.as_str()).unwrap();
        prop_assert_eq!(
            [reparsed.scheme(), reparsed.authority().map(|a| a.as_str()), Some(reparsed.path()), reparsed.query(), reparsed.fragment()],
            [uri.scheme(), uri.authority().map(|a| a.as_str()), Some(uri.path()), uri.query(), uri.fragment()]
        );
    }

    /// On any text (not only IRIs): `iri_to_uri` leaves only ASCII (RFC 3987 3.1 encodes every
    /// non-ASCII character) and keeps ASCII text as it is; on text whose every `%` starts a triplet,
    /// `uri_to_iri` (3.2) only decodes triplets, so the round trip through it stands for the same octets
    /// (`%A%30` shows why the condition: decoding `%30` makes a new triplet `%A0`).
    #[test]
    fn any_text_maps_to_ascii_and_back(text in "(%[0-9a-fA-F]{0,2}|\\PC){0,20}") {
        let uri = iri_to_uri(&text);
        prop_assert!(uri.is_ascii());
        if text.is_ascii() {
            prop_assert_eq!(&*uri, text.as_str());
        }
        let back = iri_to_uri(&uri_to_iri(&text)).into_owned();
        if rfc3986::percent::decode(&text).is_ok() {
            prop_assert_eq!(
                rfc3986::percent::decode(&back).ok(),
                rfc3986::percent::decode(&uri).ok(),
                "{} vs {}", back, uri
            );
        }
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

        /// The compiled IRI grammar and the one loaded at run time agree.
        #[test]
        fn iri_ref_parse_agrees_with_loaded_grammar(text in "[a-z/?#:@.%0-9\\[\\] \u{a0}-\u{200}\u{E000}]{0,14}") {
            prop_assert_eq!(
                IriRef::parse(&text).is_ok(),
                iri_grammar().parse("IRI-reference", &text).is_ok(),
                "{}", text
            );
        }

        #[test]
        fn iri_to_uri_of_an_iri_is_a_uri(text in "[a-z/\u{a0}-\u{d7ff}\u{10000}-\u{1fffd}]{0,12}") {
            let iri = format!("http://h/{text}");
            prop_assume!(iri_grammar().parse("IRI-reference", &iri).is_ok());
            prop_assert!(UriRef::parse(&iri_to_uri(&iri)).is_ok());
        }
    }
}

/// The accessors an `IriRef` shares with a `UriRef` (one generic implementation): the typed authority,
/// host, port and path segments, read by hand from RFC 3987 2.2 (`iauthority = [ iuserinfo "@" ] ihost
/// [ ":" port ]`, `ihost = IP-literal / IPv4address / ireg-name`, `port = *DIGIT`, `ipath-abempty =
/// *( "/" isegment )`).
#[rstest::rstest]
#[case::reg_name("http://u\u{e9}@\u{4f8b}\u{3048}.jp:8080/a/d\u{fc}rst/", Some("u\u{e9}@\u{4f8b}\u{3048}.jp:8080"), Some(rfc3986::Host::RegName("\u{4f8b}\u{3048}.jp")), Some(8080), &["a", "d\u{fc}rst", ""])]
#[case::ipv6("//[2001:db8::7]/", Some("[2001:db8::7]"), Some(rfc3986::Host::Ipv6(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 7))), None, &[""])]
#[case::big_port("//\u{e9}:99999", Some("\u{e9}:99999"), Some(rfc3986::Host::RegName("\u{e9}")), None, &[])]
#[case::no_authority("caf\u{e9}/x", None, None, None, &["caf\u{e9}", "x"])]
fn iri_ref_has_the_accessors_of_a_uri_ref(
    #[case] input: &str,
    #[case] authority: Option<&str>,
    #[case] host: Option<rfc3986::Host<'_>>,
    #[case] port: Option<u16>,
    #[case] segments: &[&str],
) {
    let r = IriRef::parse(input).unwrap();
    assert_eq!(r.authority().map(|a| a.as_str()), authority);
    assert_eq!(r.authority().map(|a| a.host()), host);
    assert_eq!(r.host(), host);
    assert_eq!(r.port_u16(), port);
    assert_eq!(r.authority().and_then(|a| a.port_u16()), port);
    assert_eq!(r.path_segments().collect::<Vec<_>>(), segments);
}

/// A rejected IRI is explained as a rejected URI is, through the IRI grammar (its detail parser): the
/// offset, the items RFC 3987 2.2 allows there (checked by hand against its ABNF) and a hint.
#[rstest::rstest]
// After `/caf\u{e9}` (6 bytes) in `ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]`: more of the
// segment (`ipchar`), the next segment, `?` iquery, `#` ifragment, or the end.
#[case::space_in_path("/caf\u{e9} x", 6, &["ipchar", "\"?\"", "\"#\"", "\"/\"", "end of input"], Some("%20"))]
// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`: after `::1`, an h16 goes on (HEXDIG), ":" another
// group, "." makes `1` the start of an IPv4address in ls32, or "]".
#[case::unclosed_ip_literal("http://[::1", 11, &["HEXDIG", "\":\"", "\".\"", "\"]\""], None)]
// `port = *DIGIT`, then ipath-abempty, iquery or ifragment.
#[case::letter_in_port("http://h:8a/", 10, &["DIGIT", "\"/\"", "\"?\"", "\"#\"", "end of input"], Some("port"))]
// `iprivate` is allowed in `iquery` only: not in a path segment.
#[case::private_use_in_path("/\u{e000}", 1, &["ipchar", "\"?\"", "\"#\"", "end of input"], Some("%EE%80%80"))]
// `pct-encoded = "%" HEXDIG HEXDIG`.
#[case::bad_percent("%zz", 1, &["HEXDIG"], Some("hex"))]
// `ifragment = *( ipchar / "/" / "?" )`: no second "#".
#[case::second_hash("http://a/#b#c", 11, &["ipchar", "\"?\"", "\"/\"", "end of input"], Some("%23"))]
fn iri_errors_say_where_and_what(
    #[case] input: &str,
    #[case] offset: usize,
    #[case] expected: &[&str],
    #[case] hint: Option<&str>,
) {
    let e = IriRef::parse(input).unwrap_err();
    assert_eq!(e.offset(), offset, "{e}");
    assert_eq!(e.rule(), "IRI-reference");
    let listed: Vec<String> = e.expected().iter().map(ToString::to_string).collect();
    assert_eq!(listed, expected, "{e}");
    match hint {
        Some(words) => assert!(e.hint().is_some_and(|h| h.contains(words)), "{e}"),
        None => assert_eq!(e.hint(), None, "{e}"),
    }
    assert!(
        e.to_string().starts_with(&format!("at byte {offset}: ")),
        "{e}"
    );
}

/// `IRI = scheme ":" ...`: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, ASCII only.
#[rstest::rstest]
#[case::relative("/a")]
#[case::non_ascii_scheme("\u{e9}:x")]
fn an_iri_begins_with_an_ascii_scheme(#[case] input: &str) {
    let e = Iri::parse(input).unwrap_err();
    assert_eq!((e.offset(), e.rule()), (0, "IRI"));
    assert_eq!(e.expected(), [rfc3986::Expected::Rule("ALPHA".into())]);
}

/// A rejected IRI longer than the detail parser explains (64 KiB; it holds about 240 bytes per input
/// byte) gets the offset where the grammar stops matching, as a limit, in time and memory linear in its
/// length; a shorter one keeps its expected items.
#[test]
fn regression_long_rejected_iri_is_not_explained_item_by_item() {
    let long = format!("http://a/{} x", "a".repeat(1 << 20));
    let e = rfc3986::iri::IriRef::parse(&long).unwrap_err();
    assert_eq!(e.offset(), 9 + (1 << 20));
    assert!(e.expected().is_empty());
    assert!(e
        .to_string()
        .contains("the expected items are listed for inputs of at most 65536 bytes"));
    let short = format!("http://a/{} x", "a".repeat(1000));
    let e = rfc3986::iri::IriRef::parse(&short).unwrap_err();
    assert_eq!((e.offset(), e.found()), (1009, Some(' ')));
    assert!(!e.expected().is_empty());
}
