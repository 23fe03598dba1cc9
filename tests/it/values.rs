//! Value layer: the components of parsed references (RFC 3986 3, 4), checked against the RFC's examples,
//! against Appendix B's regular expression, and by round trip.

use crate::common;

use std::net::{Ipv4Addr, Ipv6Addr};

use rfc3986::{parse_as, Host, HostKind, PathKind, Rule, Uri, UriRef};
use rstest::rstest;

/// The components of a reference: scheme, authority, userinfo, host (as written), port, path, query,
/// fragment. `None` is undefined, `Some("")` empty; the path is always defined.
type Components<'a> = (
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
);

#[track_caller]
fn assert_components(input: &str, expected: Components<'_>) {
    let r = UriRef::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    let actual = (
        r.scheme(),
        r.authority().map(|a| a.as_str()),
        r.userinfo(),
        r.host_str(),
        r.port(),
        r.path(),
        r.query(),
        r.fragment(),
    );
    assert_eq!(actual, expected, "components of {input:?}");
    assert_eq!(r.is_uri(), expected.0.is_some(), "{input:?}");
    assert_eq!(r.host_kind().is_some(), expected.1.is_some(), "{input:?}");
    assert_eq!(r.host().is_some(), expected.1.is_some(), "{input:?}");
    // A URI has the same components through `Uri`.
    if let Ok(u) = Uri::parse(input) {
        assert_eq!(Some(u.scheme()), expected.0);
        let actual = (
            u.authority().map(|a| a.as_str()),
            u.userinfo(),
            u.host_str(),
            u.port(),
            u.path(),
            u.query(),
            u.fragment(),
        );
        let (_, a, ui, h, p, pa, q, f) = expected;
        assert_eq!(
            actual,
            (a, ui, h, p, pa, q, f),
            "Uri components of {input:?}"
        );
    } else {
        assert!(expected.0.is_none(), "Uri::parse rejects {input:?}");
    }
}

#[track_caller]
fn parse(input: &str) -> UriRef<'_> {
    UriRef::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"))
}

/// RFC 3986 1.1.2: the example URIs, every component read off the ABNF by hand.
#[rstest]
#[case::ftp(
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    (Some("ftp"), Some("ftp.is.co.za"), None, Some("ftp.is.co.za"), None, "/rfc/rfc1808.txt", None, None),
    Some(Host::RegName("ftp.is.co.za")),
    PathKind::Abempty
)]
#[case::http(
    "http://www.ietf.org/rfc/rfc2396.txt",
    (Some("http"), Some("www.ietf.org"), None, Some("www.ietf.org"), None, "/rfc/rfc2396.txt", None, None),
    Some(Host::RegName("www.ietf.org")),
    PathKind::Abempty
)]
#[case::ldap_ipv6(
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    (Some("ldap"), Some("[2001:db8::7]"), None, Some("[2001:db8::7]"), None, "/c=GB", Some("objectClass?one"), None),
    Some(Host::Ipv6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 7))),
    PathKind::Abempty
)]
#[case::mailto(
    "mailto:John.Doe@example.com",
    (Some("mailto"), None, None, None, None, "John.Doe@example.com", None, None),
    None,
    PathKind::Rootless
)]
#[case::news(
    "news:comp.infosystems.www.servers.unix",
    (Some("news"), None, None, None, None, "comp.infosystems.www.servers.unix", None, None),
    None,
    PathKind::Rootless
)]
#[case::tel(
    "tel:+1-816-555-1212",
    (Some("tel"), None, None, None, None, "+1-816-555-1212", None, None),
    None,
    PathKind::Rootless
)]
#[case::telnet_ipv4_port(
    "telnet://192.0.2.16:80/",
    (Some("telnet"), Some("192.0.2.16:80"), None, Some("192.0.2.16"), Some("80"), "/", None, None),
    Some(Host::Ipv4(Ipv4Addr::new(192, 0, 2, 16))),
    PathKind::Abempty
)]
#[case::urn(
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    (Some("urn"), None, None, None, None, "oasis:names:specification:docbook:dtd:xml:4.1.2", None, None),
    None,
    PathKind::Rootless
)]
fn rfc3986_1_1_2_examples(
    #[case] input: &str,
    #[case] expected: Components<'_>,
    #[case] host: Option<Host<'_>>,
    #[case] path_kind: PathKind,
) {
    assert_components(input, expected);
    let r = parse(input);
    assert_eq!(r.host(), host);
    assert_eq!(r.path_kind(), path_kind);
    assert!(Uri::parse(input).is_ok());
    assert!(
        Uri::parse_absolute(input).is_ok(),
        "no fragment: an absolute-URI"
    );
}

/// RFC 3986 3: the two example URIs and their component parts.
#[test]
fn rfc3986_3_examples() {
    assert_components(
        "foo://example.com:8042/over/there?name=ferret#nose",
        (
            Some("foo"),
            Some("example.com:8042"),
            None,
            Some("example.com"),
            Some("8042"),
            "/over/there",
            Some("name=ferret"),
            Some("nose"),
        ),
    );
    let u = Uri::parse("foo://example.com:8042/over/there?name=ferret#nose").unwrap();
    assert_eq!(u.port_u16(), Some(8042));
    assert_eq!(u.host(), Some(Host::RegName("example.com")));
    assert_eq!(u.path_kind(), PathKind::Abempty);
    assert_eq!(u.path_segments().collect::<Vec<_>>(), ["over", "there"]);
    assert!(Uri::parse_absolute(u.as_str()).is_err(), "has a fragment");

    assert_components(
        "urn:example:animal:ferret:nose",
        (
            Some("urn"),
            None,
            None,
            None,
            None,
            "example:animal:ferret:nose",
            None,
            None,
        ),
    );
    assert_eq!(
        parse("urn:example:animal:ferret:nose").path_kind(),
        PathKind::Rootless
    );
}

/// RFC 3986 5.4: the base URI and every reference of 5.4.1 and 5.4.2 parse; the references with a scheme
/// are URIs, the others relative references, with the path kind their first characters select (4.2).
#[rstest]
#[case::base("http://a/b/c/d;p?q", true, PathKind::Abempty)]
#[case::g_colon_h("g:h", true, PathKind::Rootless)]
#[case::g("g", false, PathKind::Noscheme)]
#[case::dot_g("./g", false, PathKind::Noscheme)]
#[case::g_slash("g/", false, PathKind::Noscheme)]
#[case::slash_g("/g", false, PathKind::Absolute)]
#[case::network_path("//g", false, PathKind::Abempty)]
#[case::query("?y", false, PathKind::Empty)]
#[case::g_query("g?y", false, PathKind::Noscheme)]
#[case::fragment("#s", false, PathKind::Empty)]
#[case::g_fragment("g#s", false, PathKind::Noscheme)]
#[case::g_query_fragment("g?y#s", false, PathKind::Noscheme)]
#[case::params(";x", false, PathKind::Noscheme)]
#[case::g_params("g;x", false, PathKind::Noscheme)]
#[case::g_params_query_fragment("g;x?y#s", false, PathKind::Noscheme)]
#[case::empty("", false, PathKind::Empty)]
#[case::dot(".", false, PathKind::Noscheme)]
#[case::dot_slash("./", false, PathKind::Noscheme)]
#[case::dot_dot("..", false, PathKind::Noscheme)]
#[case::dot_dot_slash("../", false, PathKind::Noscheme)]
#[case::dot_dot_g("../g", false, PathKind::Noscheme)]
#[case::dot_dot_twice("../..", false, PathKind::Noscheme)]
#[case::dot_dot_twice_slash("../../", false, PathKind::Noscheme)]
#[case::dot_dot_twice_g("../../g", false, PathKind::Noscheme)]
#[case::abnormal_three_up("../../../g", false, PathKind::Noscheme)]
#[case::abnormal_four_up("../../../../g", false, PathKind::Noscheme)]
#[case::abnormal_slash_dot("/./g", false, PathKind::Absolute)]
#[case::abnormal_slash_dot_dot("/../g", false, PathKind::Absolute)]
#[case::abnormal_g_dot("g.", false, PathKind::Noscheme)]
#[case::abnormal_dot_g(".g", false, PathKind::Noscheme)]
#[case::abnormal_g_dot_dot("g..", false, PathKind::Noscheme)]
#[case::abnormal_dot_dot_g("..g", false, PathKind::Noscheme)]
#[case::abnormal_dot_up("./../g", false, PathKind::Noscheme)]
#[case::abnormal_g_dot_end("./g/.", false, PathKind::Noscheme)]
#[case::abnormal_g_dot_h("g/./h", false, PathKind::Noscheme)]
#[case::abnormal_g_up_h("g/../h", false, PathKind::Noscheme)]
#[case::abnormal_params_dot("g;x=1/./y", false, PathKind::Noscheme)]
#[case::abnormal_params_up("g;x=1/../y", false, PathKind::Noscheme)]
#[case::abnormal_query_dots("g?y/./x", false, PathKind::Noscheme)]
#[case::abnormal_query_up("g?y/../x", false, PathKind::Noscheme)]
#[case::abnormal_fragment_dots("g#s/./x", false, PathKind::Noscheme)]
#[case::abnormal_fragment_up("g#s/../x", false, PathKind::Noscheme)]
#[case::abnormal_http_g("http:g", true, PathKind::Rootless)]
fn rfc3986_5_4_references(#[case] input: &str, #[case] is_uri: bool, #[case] kind: PathKind) {
    let r = parse(input);
    assert_eq!(r.is_uri(), is_uri, "{input:?}");
    assert_eq!(r.path_kind(), kind, "{input:?}");
    assert_eq!(UriRef::parse_relative(input).is_ok(), !is_uri, "{input:?}");
    assert_eq!(Uri::parse(input).is_ok(), is_uri, "{input:?}");
}

#[test]
fn rfc3986_5_4_base_components() {
    assert_components(
        "http://a/b/c/d;p?q",
        (
            Some("http"),
            Some("a"),
            None,
            Some("a"),
            None,
            "/b/c/d;p",
            Some("q"),
            None,
        ),
    );
    assert_eq!(
        parse("http://a/b/c/d;p?q")
            .path_segments()
            .collect::<Vec<_>>(),
        ["b", "c", "d;p"]
    );
}

/// Undefined (`None`) versus empty (`Some("")`) components (RFC 3986 5.3 depends on the difference).
#[rstest]
#[case::nothing_but_path("a", (None, None, None, None, None, "a", None, None))]
#[case::empty_query("http://h?", (Some("http"), Some("h"), None, Some("h"), None, "", Some(""), None))]
#[case::no_query("http://h", (Some("http"), Some("h"), None, Some("h"), None, "", None, None))]
#[case::empty_fragment("a#", (None, None, None, None, None, "a", None, Some("")))]
#[case::empty_query_and_fragment("?#", (None, None, None, None, None, "", Some(""), Some("")))]
#[case::empty_userinfo("//@h", (None, Some("@h"), Some(""), Some("h"), None, "", None, None))]
#[case::empty_authority("file:///x", (Some("file"), Some(""), None, Some(""), None, "/x", None, None))]
#[case::empty_authority_only("//", (None, Some(""), None, Some(""), None, "", None, None))]
#[case::empty_port("http://h:/", (Some("http"), Some("h:"), None, Some("h"), Some(""), "/", None, None))]
#[case::empty_host_and_port("//:", (None, Some(":"), None, Some(""), Some(""), "", None, None))]
#[case::everything_empty("//@:?#", (None, Some("@:"), Some(""), Some(""), Some(""), "", Some(""), Some("")))]
#[case::userinfo_with_colons("//u:p:q@h:1", (None, Some("u:p:q@h:1"), Some("u:p:q"), Some("h"), Some("1"), "", None, None))]
#[case::scheme_empty_path("a:", (Some("a"), None, None, None, None, "", None, None))]
#[case::query_with_question_and_slash("a?b/c?d#e/f?g", (None, None, None, None, None, "a", Some("b/c?d"), Some("e/f?g")))]
#[case::double_slash_path("a:////b", (Some("a"), Some(""), None, Some(""), None, "//b", None, None))]
#[case::userinfo_looks_like_host("ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm", (Some("ftp"), Some("cnn.example.com&story=breaking_news@10.0.0.1"), Some("cnn.example.com&story=breaking_news"), Some("10.0.0.1"), None, "/top_story.htm", None, None))]
fn parse_components(#[case] input: &str, #[case] expected: Components<'_>) {
    assert_components(input, expected);
}

/// RFC 3986 3.2.2: a host that matches IPv4address is an IPv4 address; anything else that matches
/// reg-name is a registered name ("first-match-wins").
#[rstest]
#[case::ipv4(
    "1.2.3.4",
    HostKind::Ipv4address,
    Host::Ipv4(Ipv4Addr::new(1, 2, 3, 4))
)]
#[case::ipv4_limits(
    "255.0.255.0",
    HostKind::Ipv4address,
    Host::Ipv4(Ipv4Addr::new(255, 0, 255, 0))
)]
#[case::ipv4_zero("0.0.0.0", HostKind::Ipv4address, Host::Ipv4(Ipv4Addr::UNSPECIFIED))]
#[case::trailing_letter("1.2.3.4x", HostKind::RegName, Host::RegName("1.2.3.4x"))]
#[case::trailing_dot("1.2.3.4.", HostKind::RegName, Host::RegName("1.2.3.4."))]
#[case::trailing_pct("1.2.3.4%41", HostKind::RegName, Host::RegName("1.2.3.4%41"))]
#[case::octet_too_big("1.2.3.256", HostKind::RegName, Host::RegName("1.2.3.256"))]
#[case::three_octets("1.2.3", HostKind::RegName, Host::RegName("1.2.3"))]
#[case::five_octets("1.2.3.4.5", HostKind::RegName, Host::RegName("1.2.3.4.5"))]
#[case::leading_zero("01.2.3.4", HostKind::RegName, Host::RegName("01.2.3.4"))]
#[case::leading_zero_last("1.2.3.04", HostKind::RegName, Host::RegName("1.2.3.04"))]
#[case::name("example.com", HostKind::RegName, Host::RegName("example.com"))]
#[case::empty("", HostKind::RegName, Host::RegName(""))]
#[case::ipv6("[::1]", HostKind::Ipv6address, Host::Ipv6(Ipv6Addr::LOCALHOST))]
#[case::ipvfuture("[v7.fe80::a+en1]", HostKind::IpvFuture, Host::IpvFuture { version: "7", address: "fe80::a+en1" })]
#[case::ipvfuture_upper_v("[VAF.x]", HostKind::IpvFuture, Host::IpvFuture { version: "AF", address: "x" })]
fn parse_host(#[case] host: &str, #[case] kind: HostKind, #[case] value: Host<'_>) {
    for input in [
        format!("//{host}"),
        format!("//{host}:80/p"),
        format!("s://u@{host}?q"),
    ] {
        let r = parse(&input);
        assert_eq!(r.host_kind(), Some(kind), "{input:?}");
        assert_eq!(r.host(), Some(value), "{input:?}");
        assert_eq!(r.host_str(), Some(host), "{input:?}");
    }
    // The rule `host` alone says the same.
    let h = parse_as(Rule::HOST, host).unwrap();
    assert_eq!(h.host_kind(), Some(kind));
    assert_eq!(h.host(), Some(value));
    // The oracle: IPv4 exactly when the whole host matches IPv4address.
    assert_eq!(
        kind == HostKind::Ipv4address,
        common::abnf_matches("IPv4address", host).unwrap()
    );
    assert_eq!(
        kind.abnf_name(),
        match kind {
            HostKind::Ipv4address => "IPv4address",
            HostKind::Ipv6address => "IPv6address",
            HostKind::IpvFuture => "IPvFuture",
            HostKind::RegName => "reg-name",
            other => panic!("a new host kind {other:?}"),
        }
    );
}

/// RFC 3986 3.2.3: `port = *DIGIT`, possibly empty, of any length; `port_u16` only for what fits.
#[rstest]
#[case::empty("http://h:/", Some(""), None)]
#[case::absent("http://h/", None, None)]
#[case::zero("http://h:0/", Some("0"), Some(0))]
#[case::zeros("http://h:000/", Some("000"), Some(0))]
#[case::max("http://h:65535/", Some("65535"), Some(65535))]
#[case::max_plus_one("http://h:65536/", Some("65536"), None)]
#[case::leading_zeros("http://h:0080/", Some("0080"), Some(80))]
#[case::many_leading_zeros(
    "http://h:00000000000000000000443",
    Some("00000000000000000000443"),
    Some(443)
)]
#[case::long(
    "http://h:123456789012345678901234567890/",
    Some("123456789012345678901234567890"),
    None
)]
#[case::ipv6_host("http://[::1]:8080", Some("8080"), Some(8080))]
#[case::userinfo_with_colon("http://u:1@h:2/", Some("2"), Some(2))]
fn parse_port(#[case] input: &str, #[case] port: Option<&str>, #[case] number: Option<u16>) {
    let r = parse(input);
    assert_eq!(r.port(), port, "{input:?}");
    assert_eq!(r.port_u16(), number, "{input:?}");
    let u = Uri::parse(input).unwrap();
    assert_eq!(u.port_u16(), number);
}

#[rstest]
#[case::letters("http://h:port/")]
#[case::sign("http://h:+80/")]
#[case::negative("http://h:-1/")]
#[case::two_ports("http://h:80:80/")]
#[case::hex("http://h:0x50/")]
#[case::space("http://h:8 0/")]
#[case::after_ipv6("http://[::1]:a/")]
fn parse_port_rejects_non_digits(#[case] input: &str) {
    assert!(UriRef::parse(input).is_err(), "{input:?}");
}

/// The value of every valid IPv6address form (Appendix A), compared with std's parser, which follows
/// RFC 4291 2.2 for these forms.
#[rstest]
#[case::form1("1:2:3:4:5:6:7:8")]
#[case::form1_ipv4("1:2:3:4:5:6:192.0.2.33")]
#[case::form2("::2:3:4:5:6:7:8")]
#[case::form2_ipv4("::2:3:4:5:6:192.0.2.33")]
#[case::form3("1::3:4:5:6:7:8")]
#[case::form3_no_head("::3:4:5:6:7:8")]
#[case::form3_ipv4("1::3:4:5:6:192.0.2.33")]
#[case::form4("1:2::4:5:6:7:8")]
#[case::form4_ipv4("1:2::4:5:6:192.0.2.33")]
#[case::form5("1:2:3::5:6:7:8")]
#[case::form5_ipv4("1:2:3::5:6:192.0.2.33")]
#[case::form6("1:2:3:4::6:7:8")]
#[case::form6_ipv4("1:2:3:4::6:192.0.2.33")]
#[case::form7("1:2:3:4:5::7:8")]
#[case::form7_ipv4("1:2:3:4:5::192.0.2.33")]
#[case::form7_ipv4_only("::192.0.2.33")]
#[case::form7_mapped("::ffff:192.0.2.128")]
#[case::form8("1:2:3:4:5:6::8")]
#[case::form8_short("::8")]
#[case::form9("1:2:3:4:5:6:7::")]
#[case::form9_unspecified("::")]
#[case::form9_one_head("fe80::")]
#[case::full_width("ffff:FFFF:0000:abcd:ABCD:1234:5678:9abc")]
#[case::leading_zeros_in_groups("0001:0002::000a")]
#[case::rfc_example("2001:db8::7")]
#[case::link_local("fe80::1")]
fn parse_ipv6address_value(#[case] address: &str) {
    let expected: Ipv6Addr = address.parse().unwrap();
    let input = format!("http://[{address}]:443/");
    let r = parse(&input);
    assert_eq!(r.host_kind(), Some(HostKind::Ipv6address));
    assert_eq!(r.host(), Some(Host::Ipv6(expected)), "{address}");
    assert_eq!(r.host_str(), Some(format!("[{address}]").as_str()));
    assert_eq!(r.port_u16(), Some(443));
}

/// Every split of eight groups by "::", with distinct group values, compared with std's parser.
#[test]
fn ipv6address_every_compressed_value() {
    for before in 0..=7usize {
        for after in 0..=(7 - before) {
            let head: Vec<String> = (1..=before).map(|i| format!("{:x}", i * 0x111)).collect();
            let tail: Vec<String> = (0..after).map(|i| format!("a{i:x}")).collect();
            let address = format!("{}::{}", head.join(":"), tail.join(":"));
            let expected: Ipv6Addr = address.parse().unwrap();
            let input = format!("//[{address}]");
            assert_eq!(
                parse(&input).host(),
                Some(Host::Ipv6(expected)),
                "{address}"
            );
        }
    }
}

#[test]
fn parse_ip_literal_rejects() {
    for input in [
        "//[]",
        "//[::1%25eth0]",
        "//[1:2:3:4:5:6:7:8:9]",
        "//[1::2::3]",
        "//[12345::]",
        "//[:::]",
        "//[::1.2.3.256]",
        "//[1.2.3.4]",
        "//[example.com]",
        "//[v1.]",
        "//[v.1]",
        "//::1",
        "//[::1",
    ] {
        assert!(UriRef::parse(input).is_err(), "{input:?}");
    }
}

/// RFC 3986 4.1 / 4.2: which alternative an input is, as values.
#[rstest]
#[case::uri("a:b", Some("a"), "b")]
#[case::dot_segment("./a:b", None, "./a:b")]
#[case::colon_later("a/b:c", None, "a/b:c")]
#[case::empty_authority("//", None, "")]
#[case::query("?", None, "")]
#[case::fragment("#", None, "")]
#[case::empty("", None, "")]
fn parse_uri_reference(#[case] input: &str, #[case] scheme: Option<&str>, #[case] path: &str) {
    let r = parse(input);
    assert_eq!(r.scheme(), scheme);
    assert_eq!(r.path(), path);
    match Uri::try_from(r.clone()) {
        Ok(u) => {
            assert_eq!(Some(u.scheme()), scheme);
            assert_eq!(UriRef::from(u), r);
        }
        Err(back) => {
            assert_eq!(scheme, None);
            assert_eq!(back, r);
        }
    }
    assert_eq!(r.as_uri().is_some(), scheme.is_some());
}

/// RFC 3986 3.3: segments of the path.
#[rstest]
#[case::absolute("/a/b", &["a", "b"])]
#[case::rootless("a/b", &["a", "b"])]
#[case::root("/", &[""])]
#[case::empty("", &[])]
#[case::empty_segments("a//b/", &["a", "", "b", ""])]
#[case::after_authority("//h/x/y", &["x", "y"])]
#[case::no_path_after_authority("//h", &[])]
#[case::dots("../g/./h", &["..", "g", ".", "h"])]
#[case::encoded_slash("/a%2Fb", &["a%2Fb"])]
fn parse_segments(#[case] input: &str, #[case] segments: &[&str]) {
    assert_eq!(parse(input).path_segments().collect::<Vec<_>>(), segments);
}

#[track_caller]
fn assert_appendix_b(input: &str) {
    let r = parse(input);
    let [scheme, authority, path, query, fragment] = common::appendix_b(input);
    assert_eq!(r.scheme(), scheme, "scheme of {input:?}");
    assert_eq!(
        r.authority().map(|a| a.as_str()),
        authority,
        "authority of {input:?}"
    );
    assert_eq!(Some(r.path()), path, "path of {input:?}");
    assert_eq!(r.query(), query, "query of {input:?}");
    assert_eq!(r.fragment(), fragment, "fragment of {input:?}");
}

/// RFC 3986 Appendix B: for a valid reference, the regular expression's split is the parser's.
#[test]
fn rfc3986_appendix_b_on_valid_references() {
    for input in common::VALID_REFERENCES
        .iter()
        .chain(common::INLINE_CORPUS.iter())
    {
        assert_appendix_b(input);
    }
}

#[test]
fn rfc3986_appendix_b_example() {
    // The example of Appendix B, with the groups the RFC lists.
    assert_eq!(
        common::appendix_b("http://www.ics.uci.edu/pub/ietf/uri/#Related"),
        [
            Some("http"),
            Some("www.ics.uci.edu"),
            Some("/pub/ietf/uri/"),
            None,
            Some("Related")
        ]
    );
    assert_appendix_b("http://www.ics.uci.edu/pub/ietf/uri/#Related");
}

/// Appendix B on every valid line of the corpus.
#[test]
fn rfc3986_appendix_b_on_corpus() {
    let lines = common::corpus();
    let mut checked = 0;
    for line in &lines {
        if UriRef::parse(line).is_ok() {
            assert_appendix_b(line);
            checked += 1;
        }
    }
    assert!(checked > lines.len() / 2, "only {checked} valid lines");
}

#[track_caller]
fn assert_round_trip(input: &str) {
    let r = parse(input);
    assert_eq!(r.to_string(), input);
    assert_eq!(r.as_str(), input);
    assert_eq!(AsRef::<str>::as_ref(&r), input);
    let from_str: UriRef<'static> = input.parse().unwrap();
    assert_eq!(from_str, r);
    let try_from = UriRef::try_from(input).unwrap();
    assert_eq!(try_from, r);
    let owned = r.clone().into_owned();
    assert_eq!(owned, r);
    assert_eq!(format!("{owned:?}"), format!("{r:?}"));
    assert_eq!(
        (
            owned.scheme(),
            owned.authority().map(|a| a.as_str()),
            owned.path(),
            owned.query(),
            owned.fragment()
        ),
        (
            r.scheme(),
            r.authority().map(|a| a.as_str()),
            r.path(),
            r.query(),
            r.fragment()
        )
    );
    if r.is_uri() {
        let u = Uri::parse(input).unwrap();
        assert_eq!(u.to_string(), input);
        assert_eq!(u.as_str(), input);
        let from_str: Uri<'static> = input.parse().unwrap();
        assert_eq!(from_str, u);
        assert_eq!(Uri::try_from(input).unwrap(), u);
        assert_eq!(u.clone().into_owned(), u);
        assert_eq!(u.as_uri_ref(), &r);
    } else {
        assert!(Uri::parse(input).is_err());
        assert!(input.parse::<Uri<'static>>().is_err());
    }
}

/// Every valid input gives its text back unchanged.
#[test]
fn round_trip_valid_references() {
    for input in common::VALID_REFERENCES
        .iter()
        .chain(common::INLINE_CORPUS.iter())
    {
        assert_round_trip(input);
    }
    for line in common::corpus() {
        if UriRef::parse(&line).is_ok() {
            assert_round_trip(&line);
        }
    }
}

/// Eq and Hash compare the text (RFC 3986 6.2.1): no normalization.
#[rstest]
#[case::percent_vs_tilde("http://a/%7e", "http://a/~")]
#[case::hex_case("http://a/%7e", "http://a/%7E")]
#[case::scheme_case("HTTP://a/", "http://a/")]
#[case::empty_port("http://a:/", "http://a/")]
#[case::empty_query("http://a/?", "http://a/")]
fn rfc3986_6_2_1_simple_string_comparison(#[case] a: &str, #[case] b: &str) {
    use std::collections::HashSet;
    assert_ne!(parse(a), parse(b));
    let set: HashSet<UriRef<'_>> = [parse(a), parse(b), parse(a)].into_iter().collect();
    assert_eq!(set.len(), 2);
}

/// `parse_as` on component rules gives the components the rule contains.
#[rstest]
#[case::authority(
    Rule::AUTHORITY,
    "user@[::1]:8080",
    Some("user"),
    Some("[::1]"),
    Some("8080")
)]
#[case::authority_empty(Rule::AUTHORITY, "", None, Some(""), None)]
#[case::host(Rule::HOST, "example.com", None, Some("example.com"), None)]
fn parse_as_component_rules(
    #[case] rule: Rule,
    #[case] input: &str,
    #[case] userinfo: Option<&str>,
    #[case] host: Option<&str>,
    #[case] port: Option<&str>,
) {
    let r = parse_as(rule, input).unwrap();
    assert_eq!(
        (r.userinfo(), r.host_str(), r.port()),
        (userinfo, host, port)
    );
    assert_eq!(r.scheme(), None);
    assert_eq!(r.query(), None);
}
