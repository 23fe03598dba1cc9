//! Recomposition (RFC 3986 5.3) with `UriBuilder`: each component against its rule, the structural rules
//! of sections 3 and 4.2, and round trips.

use proptest::prelude::*;
use rfc3986::percent::{decode_utf8, encode, Component};
use rfc3986::{recompose::BuildError, Rule, Uri, UriBuilder, UriRef};
use rstest::rstest;

#[track_caller]
fn assert_invalid(builder: UriBuilder<'_>, component: &str, rule: Rule, offset: usize) {
    match builder.build() {
        Err(BuildError::InvalidComponent {
            component: c,
            error,
        }) => {
            assert_eq!(c, component);
            assert_eq!(error.rule(), rule);
            assert_eq!(error.offset(), offset, "{error}");
        }
        other => panic!("expected an invalid {component}, got {other:?}"),
    }
}

/// Each component is matched against its own rule, and the error names it.
#[rstest]
#[case::scheme_digit_first(UriBuilder::new().scheme("1http"), "scheme", Rule::SCHEME, 0)]
#[case::scheme_empty(UriBuilder::new().scheme(""), "scheme", Rule::SCHEME, 0)]
#[case::scheme_with_colon(UriBuilder::new().scheme("http:"), "scheme", Rule::SCHEME, 4)]
#[case::userinfo_at(UriBuilder::new().userinfo("a@b").host("h"), "userinfo", Rule::USERINFO, 1)]
#[case::userinfo_bad_percent(UriBuilder::new().userinfo("a%2").host("h"), "userinfo", Rule::USERINFO, 3)]
#[case::host_space(UriBuilder::new().host("exa mple"), "host", Rule::HOST, 3)]
#[case::host_unbracketed_ipv6(UriBuilder::new().host("::1"), "host", Rule::HOST, 0)]
#[case::host_zone_id(UriBuilder::new().host("[fe80::1%25eth0]"), "host", Rule::HOST, 8)]
#[case::host_with_port(UriBuilder::new().host("h:80"), "host", Rule::HOST, 1)]
#[case::port_letters(UriBuilder::new().host("h").port("80a"), "port", Rule::PORT, 2)]
#[case::port_colon(UriBuilder::new().host("h").port(":80"), "port", Rule::PORT, 0)]
#[case::path_space(UriBuilder::new().path("/a b"), "path", Rule::PATH, 2)]
#[case::path_question_mark(UriBuilder::new().path("/a?b"), "path", Rule::PATH, 2)]
#[case::path_hash(UriBuilder::new().path("/a#b"), "path", Rule::PATH, 2)]
#[case::query_hash(UriBuilder::new().query("a#b"), "query", Rule::QUERY, 1)]
#[case::query_bracket(UriBuilder::new().query("a[0]"), "query", Rule::QUERY, 1)]
#[case::fragment_hash(UriBuilder::new().fragment("a#b"), "fragment", Rule::FRAGMENT, 1)]
#[case::fragment_non_ascii(UriBuilder::new().fragment("también"), "fragment", Rule::FRAGMENT, 5)]
fn build_invalid_component(
    #[case] builder: UriBuilder<'static>,
    #[case] component: &str,
    #[case] rule: Rule,
    #[case] offset: usize,
) {
    assert_invalid(builder, component, rule, offset);
}

/// Components are checked in URI order: the first invalid one is reported.
#[test]
fn build_reports_first_invalid_component() {
    let b = UriBuilder::new().scheme("1").host(" ").fragment("#");
    assert_invalid(b, "scheme", Rule::SCHEME, 0);
}

/// Section 3 and 4.2: how the components fit together.
#[rstest]
#[case::rfc3986_3_2_userinfo_needs_host(
    UriBuilder::new().userinfo("u"),
    BuildError::MissingHost { component: "userinfo" }
)]
#[case::rfc3986_3_2_port_needs_host(
    UriBuilder::new().scheme("http").port("80"),
    BuildError::MissingHost { component: "port" }
)]
#[case::rfc3986_3_3_path_after_authority(
    UriBuilder::new().scheme("http").host("h").path("a"),
    BuildError::RelativePathWithAuthority
)]
#[case::rfc3986_3_3_rootless_after_authority(
    UriBuilder::new().host("h").path("a:b"),
    BuildError::RelativePathWithAuthority
)]
#[case::rfc3986_3_3_two_slashes_without_authority(
    UriBuilder::new().scheme("file").path("//etc/passwd"),
    BuildError::PathStartsWithTwoSlashes
)]
#[case::rfc3986_3_3_two_slashes_relative(UriBuilder::new().path("//a"), BuildError::PathStartsWithTwoSlashes)]
#[case::rfc3986_3_3_only_two_slashes(UriBuilder::new().path("//"), BuildError::PathStartsWithTwoSlashes)]
#[case::rfc3986_4_2_colon_in_first_segment(UriBuilder::new().path("this:that"), BuildError::ColonInFirstSegment)]
#[case::rfc3986_4_2_colon_first(UriBuilder::new().path(":a/b"), BuildError::ColonInFirstSegment)]
fn build_structure(#[case] builder: UriBuilder<'static>, #[case] expected: BuildError) {
    assert_eq!(builder.build(), Err(expected.clone()));
    assert!(!expected.to_string().is_empty());
}

/// What is allowed right next to those rules.
#[rstest]
#[case::rfc3986_4_2_dot_segment_before_colon(UriBuilder::new().path("./this:that"), "./this:that", Rule::RELATIVE_REF)]
#[case::colon_in_later_segment(UriBuilder::new().path("a/b:c"), "a/b:c", Rule::RELATIVE_REF)]
#[case::colon_with_scheme(UriBuilder::new().scheme("urn").path("a:b"), "urn:a:b", Rule::URI)]
#[case::two_slashes_with_authority(UriBuilder::new().scheme("http").host("h").path("//a"), "http://h//a", Rule::URI)]
#[case::empty_authority(UriBuilder::new().scheme("file").host("").path("/etc/passwd"), "file:///etc/passwd", Rule::URI)]
#[case::empty_port(UriBuilder::new().scheme("http").host("h").port("").path("/"), "http://h:/", Rule::URI)]
#[case::long_port(UriBuilder::new().scheme("http").host("h").port("99999"), "http://h:99999", Rule::URI)]
#[case::empty_userinfo(UriBuilder::new().userinfo("").host("h"), "//@h", Rule::RELATIVE_REF)]
#[case::empty_query_and_fragment(UriBuilder::new().path("a").query("").fragment(""), "a?#", Rule::RELATIVE_REF)]
#[case::empty(UriBuilder::new(), "", Rule::RELATIVE_REF)]
#[case::only_fragment(UriBuilder::new().fragment("f"), "#f", Rule::RELATIVE_REF)]
#[case::absolute_path_without_authority(UriBuilder::new().scheme("s").path("/a"), "s:/a", Rule::URI)]
#[case::scheme_only(UriBuilder::new().scheme("about"), "about:", Rule::URI)]
#[case::ipv6(UriBuilder::new().scheme("ldap").host("[2001:db8::7]").path("/c=GB").query("objectClass?one"), "ldap://[2001:db8::7]/c=GB?objectClass?one", Rule::URI)]
#[case::ipvfuture(UriBuilder::new().host("[v7.fe80::a+en1]"), "//[v7.fe80::a+en1]", Rule::RELATIVE_REF)]
fn build_allowed(#[case] builder: UriBuilder<'static>, #[case] expected: &str, #[case] rule: Rule) {
    let r = builder.build().unwrap();
    assert_eq!(r.as_str(), expected);
    rfc3986::validate(rule, r.as_str()).unwrap();
    assert_eq!(r.is_uri(), rule == Rule::URI);
}

/// Undefined and empty stay apart (5.3).
#[test]
fn build_keeps_undefined_and_empty_apart() {
    let r = UriBuilder::new().scheme("s").build().unwrap();
    assert_eq!(
        (r.authority().map(|a| a.as_str()), r.query(), r.fragment()),
        (None, None, None)
    );
    let r = UriBuilder::new()
        .scheme("s")
        .host("")
        .query("")
        .fragment("")
        .build()
        .unwrap();
    assert_eq!(r.as_str(), "s://?#");
    assert_eq!(
        (
            r.authority().map(|a| a.as_str()),
            r.host_str(),
            r.query(),
            r.fragment()
        ),
        (Some(""), Some(""), Some(""), Some(""))
    );
}

#[test]
fn build_uri_needs_scheme() {
    assert_eq!(
        UriBuilder::new().path("/a").build_uri(),
        Err(BuildError::MissingScheme)
    );
    let uri: Uri<'static> = UriBuilder::new()
        .scheme("mailto")
        .path("John.Doe@example.com")
        .build_uri()
        .unwrap();
    assert_eq!(uri.scheme(), "mailto");
}

#[test]
fn build_host_ip_and_port_u16() {
    let r = UriBuilder::new()
        .scheme("telnet")
        .host_ip("192.0.2.16".parse().unwrap())
        .port_u16(80)
        .path("/")
        .build()
        .unwrap();
    assert_eq!(r.as_str(), "telnet://192.0.2.16:80/");
    assert_eq!(r.host_kind(), Some(rfc3986::HostKind::Ipv4address));
    let r = UriBuilder::new()
        .host_ip("2001:db8::7".parse().unwrap())
        .build()
        .unwrap();
    assert_eq!(r.as_str(), "//[2001:db8::7]");
}

#[test]
fn build_error_converts_to_umbrella_error() {
    fn f() -> Result<UriRef<'static>, rfc3986::Error> {
        Ok(UriBuilder::new().path("a:b").build()?)
    }
    assert!(matches!(f(), Err(rfc3986::Error::Build(_))));
    let e = UriBuilder::new().host("a b").build().unwrap_err();
    assert!(e.to_string().starts_with("invalid host: "), "{e}");
}

/// Every reference recomposes from its own components to the same text (RFC 3986 1.1.2, 3, 4.2, 5.4).
#[rstest]
#[case("ftp://ftp.is.co.za/rfc/rfc1808.txt")]
#[case("http://www.ietf.org/rfc/rfc2396.txt")]
#[case("ldap://[2001:db8::7]/c=GB?objectClass?one")]
#[case("mailto:John.Doe@example.com")]
#[case("news:comp.infosystems.www.servers.unix")]
#[case("tel:+1-816-555-1212")]
#[case("telnet://192.0.2.16:80/")]
#[case("urn:oasis:names:specification:docbook:dtd:xml:4.1.2")]
#[case("foo://example.com:8042/over/there?name=ferret#nose")]
#[case("foo://user:pass@example.com:/over/there?#")]
#[case("//g")]
#[case("?y")]
#[case("g;x?y#s")]
#[case("../../g")]
#[case("")]
#[case("#s")]
#[case("file:///etc/hosts")]
#[case("s://@:")]
fn recompose_round_trip(#[case] text: &str) {
    let r = UriRef::parse(text).unwrap();
    let rebuilt = UriBuilder::from(&r).build().unwrap();
    assert_eq!(rebuilt, r);
    if let Some(uri) = r.as_uri() {
        assert_eq!(UriBuilder::from(&uri).build_uri().unwrap(), uri);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text, encoded for its component, builds; the parsed components decode back to the text.
    #[test]
    fn build_encoded_components(
        userinfo in proptest::option::of(any::<String>()),
        host in any::<String>(),
        port in proptest::option::of(any::<u16>()),
        segments in prop::collection::vec(any::<String>(), 0..4),
        query in proptest::option::of(any::<String>()),
        fragment in proptest::option::of(any::<String>()),
    ) {
        let path: String = segments.iter().map(|s| format!("/{}", encode(s, Component::PathSegment))).collect();
        let mut b = UriBuilder::new().scheme("s").host(encode(&host, Component::Host)).path(path);
        if let Some(u) = &userinfo {
            b = b.userinfo(encode(u, Component::Userinfo));
        }
        if let Some(p) = port {
            b = b.port_u16(p);
        }
        if let Some(q) = &query {
            b = b.query(encode(q, Component::Query));
        }
        if let Some(f) = &fragment {
            b = b.fragment(encode(f, Component::Fragment));
        }
        let uri = b.build_uri().unwrap();
        let decode = |s: Option<&str>| s.map(|s| decode_utf8(s).unwrap().into_owned());
        prop_assert_eq!(decode(uri.userinfo()), userinfo);
        prop_assert_eq!(uri.port_u16(), port);
        prop_assert_eq!(decode(uri.query()), query);
        prop_assert_eq!(decode(uri.fragment()), fragment);
        let got: Vec<String> = uri.path_segments().map(|s| decode_utf8(s).unwrap().into_owned()).collect();
        prop_assert_eq!(got, segments);
        // An encoded host is a reg-name, unless it happens to spell an IPv4 address.
        prop_assert_eq!(decode(uri.host_str()), Some(host));
    }

    /// A relative path of encoded segments builds when its first segment has no ':' (4.2).
    #[test]
    fn build_relative_path(segments in prop::collection::vec(any::<String>(), 1..4)) {
        let path = segments.iter().map(|s| encode(s, Component::PathSegment)).collect::<Vec<_>>().join("/");
        let result = UriBuilder::new().path(path.as_str()).build();
        let first = path.split('/').next().unwrap_or("");
        if first.contains(':') {
            prop_assert_eq!(result, Err(BuildError::ColonInFirstSegment));
        } else if path.starts_with("//") {
            prop_assert_eq!(result, Err(BuildError::PathStartsWithTwoSlashes));
        } else {
            let r = result.unwrap();
            prop_assert_eq!(r.path(), path.as_str());
        }
    }
}
