//! Normalization and comparison (RFC 3986 section 6): one table per rule of 6.2.2 and 6.2.3 with the RFC's
//! examples, equivalence, and the laws of normal forms on generated inputs.

use proptest::prelude::*;
use rfc3986::{normalize::default_port, normalize::equivalent, normalize::Level, Uri, UriRef};
use rstest::rstest;

use crate::common::generate::{opt, path, reference_text};

#[track_caller]
fn assert_normal(input: &str, level: Level, expected: &str) {
    let r = UriRef::parse(input).expect("input parses");
    let n = r.normalize_with(level);
    assert_eq!(n.as_str(), expected, "{input:?} at {level:?}");
    if let Ok(u) = Uri::parse(input) {
        assert_eq!(
            u.normalize_with(level).as_str(),
            expected,
            "Uri {input:?} at {level:?}"
        );
    }
}

#[test]
fn normalize_contract_example() -> Result<(), rfc3986::Error> {
    let n = Uri::parse("HTTP://a/./b/%7e")?.normalize();
    assert_eq!(n.to_string(), "http://a/b/~");
    Ok(())
}

/// 6.2.2.1: scheme and host to lower case, percent-encoding hex digits to upper case; nothing else.
#[rstest]
#[case::rfc_example("HTTP://www.EXAMPLE.com/", "http://www.example.com/")]
#[case::pct_hex_upper_path("http://a/%3a%c3%a9", "http://a/%3A%C3%A9")]
#[case::pct_hex_upper_query("http://a/?%3d", "http://a/?%3D")]
#[case::pct_hex_upper_fragment("http://a/#%3d", "http://a/#%3D")]
#[case::pct_hex_upper_userinfo("http://%3a@a/", "http://%3A@a/")]
#[case::pct_hex_upper_host("http://%c3%a9.example/", "http://%C3%A9.example/")]
#[case::userinfo_case_kept("http://User:PW@a/", "http://User:PW@a/")]
#[case::path_case_kept("http://a/ABC?Q#F", "http://a/ABC?Q#F")]
#[case::ipv6_lower("http://[2001:DB8::A]/", "http://[2001:db8::a]/")]
#[case::ipv6_with_ipv4("http://[::FFFF:1.2.3.4]/", "http://[::ffff:1.2.3.4]/")]
#[case::ipvfuture_lower("http://[V7.AB:Cd]/", "http://[v7.ab:cd]/")]
#[case::ipv4_unchanged("http://192.0.2.16/", "http://192.0.2.16/")]
#[case::scheme_only("MAILTO:Joe@Example.COM", "mailto:Joe@Example.COM")]
#[case::relative_reference_host("//EXAMPLE.com/A", "//example.com/A")]
fn normalize_rfc3986_6_2_2_1_case(#[case] input: &str, #[case] expected: &str) {
    assert_normal(input, Level::Syntax, expected);
}

/// 6.2.2.2 (and 2.3): decode the octets of unreserved characters, and only those.
#[rstest]
#[case::tilde_lower("http://a/%7e", "http://a/~")]
#[case::tilde_upper("http://a/%7E", "http://a/~")]
#[case::alpha_digit("http://a/%41%61%30", "http://a/Aa0")]
#[case::hyphen_period_underscore("http://a/%2D%2e%5F", "http://a/-._")]
#[case::host_decoded_to_lower("http://%41%42c.example/", "http://abc.example/")]
#[case::host_becomes_ipv4("http://%31.2.3.4/", "http://1.2.3.4/")]
#[case::userinfo("http://%75ser@a/", "http://user@a/")]
#[case::query_and_fragment("http://a/?%7e=%41#%7e", "http://a/?~=A#~")]
#[case::slash_stays("http://a/b%2fc", "http://a/b%2Fc")]
#[case::percent_stays("http://a/%25", "http://a/%25")]
#[case::no_double_decoding("http://a/%2541", "http://a/%2541")]
#[case::space_stays("http://a/%20", "http://a/%20")]
#[case::reserved_stay(
    "http://a/%3A%40%21%24%26%27%28%29%2A%2B%2C%3B%3D",
    "http://a/%3A%40%21%24%26%27%28%29%2A%2B%2C%3B%3D"
)]
#[case::gen_delims_stay("http://a/?%2F%3F%23%5B%5D", "http://a/?%2F%3F%23%5B%5D")]
#[case::non_ascii_stays("http://a/%e2%82%ac", "http://a/%E2%82%AC")]
#[case::relative_reference("%7efoo/%41", "~foo/A")]
#[case::normal_triplets_between_changed_ones(
    "http://a/x%C3%A9y%c3%a9z%41%E2%82%AC",
    "http://a/x%C3%A9y%C3%A9zA%E2%82%AC"
)]
#[case::host_letters_lowered_around_upper_hex(
    "http://EX%C3%A9MPLE.com/",
    "http://ex%C3%A9mple.com/"
)]
#[case::host_lower_hex_between_letters("http://Ab%c3%a9Cd/", "http://ab%C3%A9cd/")]
fn normalize_rfc3986_6_2_2_2_percent_encoding(#[case] input: &str, #[case] expected: &str) {
    assert_normal(input, Level::Syntax, expected);
}

/// 6.2.2.3: remove_dot_segments on the path, after percent-encoding normalization.
#[rstest]
#[case::rfc_example("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D")]
#[case::dot("http://a/./b", "http://a/b")]
#[case::dot_dot("http://a/b/../c", "http://a/c")]
#[case::above_root("http://a/../../c", "http://a/c")]
#[case::final_dot_dot("http://a/b/..", "http://a/")]
#[case::encoded_dot_dot("http://a/b/%2E%2E/c", "http://a/c")]
#[case::mixed_encoded_dot_dot("http://a/b/.%2e/c", "http://a/c")]
#[case::encoded_dot_final("http://a/b/%2e", "http://a/b/")]
#[case::not_complete_segments("http://a/g./..g/%2Eg", "http://a/g./..g/.g")]
#[case::query_untouched("http://a/b?x/../y", "http://a/b?x/../y")]
#[case::fragment_untouched("http://a/b#x/./y", "http://a/b#x/./y")]
#[case::rootless_path("foo:a/../b", "foo:/b")]
#[case::rootless_leading_dot("foo:./b:c", "foo:b:c")]
#[case::no_authority_double_slash("foo:/a/..//g", "foo:/.//g")]
#[case::no_authority_double_slash_stable("foo:/.//g", "foo:/.//g")]
#[case::empty_authority("file:///a/./b", "file:///a/b")]
#[case::absolute_path_reference("/a/./b/../c", "/a/c")]
#[case::absolute_path_reference_double_slash("/.//g", "/.//g")]
#[case::network_path_reference("//H/a/../b", "//h/b")]
// Relative-path references: only what is the same against every hierarchical base goes (5.2.3, 5.2.4).
#[case::relative_path_reference_reduced("../a/./b/..", "../a/")]
#[case::relative_path_reference_reduced_2("../a/x/./b/..", "../a/x/")]
#[case::relative_path_reference_pair("x/a/../b", "x/b")]
#[case::relative_path_reference_first_segment_kept("a/../b", "a/../b")]
#[case::relative_path_reference_leading_dot_dot_kept("../../g", "../../g")]
#[case::relative_path_reference_encoded_dots("%2E%2E/g", "../g")]
fn normalize_rfc3986_6_2_2_3_path_segments(#[case] input: &str, #[case] expected: &str) {
    assert_normal(input, Level::Syntax, expected);
}

/// Inputs without percent-encoding that are one change away from their normal form, one per rule of
/// 6.2.2 and 3.2.3 (an input already normal is returned as it is, found without rewriting it), and inputs
/// that are normal though they look close to a change.
#[rstest]
#[case::already_normal(
    "http://user:pw@example.com:8080/a/b?q=1#f",
    "http://user:pw@example.com:8080/a/b?q=1#f"
)]
#[case::only_the_scheme_upper("HTTP://a/", "http://a/")]
#[case::only_the_host_upper("http://a.Example/", "http://a.example/")]
#[case::only_an_ipv6_hex_digit_upper("http://[::A]/", "http://[::a]/")]
#[case::only_an_empty_port("http://a:/b", "http://a/b")]
#[case::only_a_dot_segment("http://a/b/./c", "http://a/b/c")]
#[case::only_a_final_dot_dot("mailto:a/..", "mailto:/")]
#[case::only_a_dot_in_a_relative_path("a/./b", "a/b")]
#[case::dot_that_begins_a_segment_name("http://a/.well-known/x", "http://a/.well-known/x")]
#[case::dot_dot_that_begins_a_segment_name("/..a/b", "/..a/b")]
#[case::upper_case_in_userinfo_path_query_fragment("http://U@a/P?Q#F", "http://U@a/P?Q#F")]
#[case::relative_path_kept_leading_dot_dot("../g", "../g")]
fn normalize_one_change_from_normal(#[case] input: &str, #[case] expected: &str) {
    assert_normal(input, Level::Syntax, expected);
    let r = UriRef::parse(input).unwrap();
    assert_eq!(r.is_normalized(), input == expected, "{input:?}");
    let normal = r.normalize();
    assert!(normal.is_normalized(), "{expected:?}");
    // The components of the normal form are those the grammar finds in its text.
    let reparsed = UriRef::parse(normal.as_str()).unwrap();
    assert_eq!(
        (
            normal.scheme(),
            normal.authority().map(|a| a.as_str()),
            normal.userinfo(),
            normal.host_str(),
            normal.port()
        ),
        (
            reparsed.scheme(),
            reparsed.authority().map(|a| a.as_str()),
            reparsed.userinfo(),
            reparsed.host_str(),
            reparsed.port()
        )
    );
    assert_eq!(
        (
            normal.path(),
            normal.query(),
            normal.fragment(),
            normal.host_kind()
        ),
        (
            reparsed.path(),
            reparsed.query(),
            reparsed.fragment(),
            reparsed.host_kind()
        )
    );
}

/// 3.2.3: an empty port goes with its ":" at the syntax level; a non-empty one stays.
#[rstest]
#[case::empty_port("http://example.com:/", "http://example.com/")]
#[case::empty_port_no_path("foo://h:", "foo://h")]
#[case::empty_port_ipv6("foo://[::1]:/x", "foo://[::1]/x")]
#[case::default_port_kept("http://example.com:80/", "http://example.com:80/")]
#[case::leading_zeros_kept("http://example.com:0080/", "http://example.com:0080/")]
#[case::empty_path_kept("http://example.com", "http://example.com")]
fn normalize_rfc3986_3_2_3_port(#[case] input: &str, #[case] expected: &str) {
    assert_normal(input, Level::Syntax, expected);
}

/// 6.2.3: default ports and, for http(s), "/" for an empty path; empty delimiters stay.
#[rstest]
#[case::rfc_no_path("http://example.com", "http://example.com/")]
#[case::rfc_slash("http://example.com/", "http://example.com/")]
#[case::rfc_empty_port("http://example.com:/", "http://example.com/")]
#[case::rfc_default_port("http://example.com:80/", "http://example.com/")]
#[case::default_port_no_path("HTTP://Example.COM:80", "http://example.com/")]
#[case::default_port_leading_zeros("http://a:080/", "http://a/")]
#[case::https("https://a:443", "https://a/")]
#[case::https_not_80("https://a:80/", "https://a:80/")]
#[case::http_not_443("http://a:443/", "http://a:443/")]
#[case::ws("ws://a:80/chat", "ws://a/chat")]
#[case::wss("wss://a:443/chat", "wss://a/chat")]
// RFC 6455 3: the resource name is "/" when the path component is empty.
#[case::ws_empty_path_is_root("ws://a", "ws://a/")]
#[case::wss_empty_path_is_root("WSS://a:443?x", "wss://a/?x")]
#[case::ftp_empty_path_kept("ftp://a", "ftp://a")]
#[case::ftp("ftp://u@a:21/f.txt", "ftp://u@a/f.txt")]
#[case::unknown_scheme("foo://a:80", "foo://a:80")]
#[case::empty_query_kept("http://example.com/?", "http://example.com/?")]
#[case::empty_query_no_path("http://example.com?", "http://example.com/?")]
#[case::empty_fragment_kept("http://example.com#", "http://example.com/#")]
#[case::http_without_authority("http:g", "http:g")]
#[case::relative_reference("//a:80", "//a:80")]
fn normalize_rfc3986_6_2_3_scheme(#[case] input: &str, #[case] expected: &str) {
    assert_normal(input, Level::Scheme, expected);
}

#[rstest]
#[case::http("http", Some(80))]
#[case::https("HTTPS", Some(443))]
#[case::ws("ws", Some(80))]
#[case::wss("wss", Some(443))]
#[case::ftp("ftp", Some(21))]
#[case::unknown("gopher", None)]
fn normalize_default_port(#[case] scheme: &str, #[case] port: Option<u16>) {
    assert_eq!(default_port(scheme), port);
}

#[rstest]
#[case::simple_same("http://a/b", "http://a/b", Level::Simple, true)]
#[case::simple_case("http://a/b", "HTTP://a/b", Level::Simple, false)]
#[case::rfc_6_2_2(
    "example://a/b/c/%7Bfoo%7D",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    Level::Syntax,
    true
)]
#[case::rfc_6_2_2_simple(
    "example://a/b/c/%7Bfoo%7D",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    Level::Simple,
    false
)]
#[case::rfc_6_2_2_1(
    "HTTP://www.EXAMPLE.com/",
    "http://www.example.com/",
    Level::Syntax,
    true
)]
#[case::rfc_6_2_3_a("http://example.com", "http://example.com/", Level::Scheme, true)]
#[case::rfc_6_2_3_b("http://example.com/", "http://example.com:/", Level::Scheme, true)]
#[case::rfc_6_2_3_c("http://example.com:/", "http://example.com:80/", Level::Scheme, true)]
#[case::rfc_6_2_3_d("http://example.com:80/", "http://example.com", Level::Scheme, true)]
#[case::rfc_6_2_3_syntax("http://example.com", "http://example.com/", Level::Syntax, false)]
#[case::rfc_6_2_3_empty_query("http://example.com/?", "http://example.com/", Level::Scheme, false)]
#[case::fragment_delimiter("http://a/#", "http://a/", Level::Scheme, false)]
#[case::path_case("http://a/B", "http://a/b", Level::Scheme, false)]
#[case::userinfo_case("http://U@a/", "http://u@a/", Level::Scheme, false)]
#[case::encoded_slash("http://a/b%2Fc", "http://a/b/c", Level::Scheme, false)]
#[case::relative_absolute_path("/a/../g", "/g", Level::Syntax, true)]
#[case::relative_path_dots_kept("../g", "g", Level::Syntax, false)]
#[case::relative_path_encoded("%7e/g", "~/g", Level::Syntax, true)]
fn equivalent_rfc3986_6_2(
    #[case] a: &str,
    #[case] b: &str,
    #[case] level: Level,
    #[case] expected: bool,
) {
    let (a, b) = (UriRef::parse(a).unwrap(), UriRef::parse(b).unwrap());
    assert_eq!(
        equivalent(&a, &b, level),
        expected,
        "{a} ~ {b} at {level:?}"
    );
    assert_eq!(equivalent(&b, &a, level), expected, "symmetric");
}

#[test]
fn normalize_simple_is_identity() {
    let r = UriRef::parse("HTTP://A/./%7e").unwrap();
    assert_eq!(r.normalize_with(Level::Simple), r);
    assert_eq!(Level::default(), Level::Scheme);
    assert!(Level::Simple < Level::Syntax && Level::Syntax < Level::Scheme);
}

#[test]
fn normalize_result_is_owned() {
    let n = {
        let text = String::from("HTTP://A/%7e");
        Uri::parse(&text).unwrap().normalize()
    };
    assert_eq!(n.as_str(), "http://a/~");
    assert_eq!(n.host_str(), Some("a"));
}

/// Resolving keeps `%2E` (5.2.4 only removes complete `.` and `..` segments) while normalizing decodes
/// it to `.` (2.3), so normalizing a reference before resolving it can change the target's normal form
/// when a real `..` follows an encoded one: the literal `..` cancels `%2E%2E` during resolution, but
/// after decoding there are two `..`.
#[test]
fn regression_encoded_dot_segments_resolve_then_normalize() {
    let base = Uri::parse("http://h/a/c").unwrap();
    let r = UriRef::parse("%2E%2E/../b").unwrap();
    let resolved_first = r.resolve_against(&base).unwrap().normalize();
    let normalized_first = r.normalize().resolve_against(&base).unwrap().normalize();
    assert_eq!(resolved_first.as_str(), "http://h/a/b");
    assert_eq!(normalized_first.as_str(), "http://h/b");
}

const SEGMENTS: &[&str] = &[
    "a", "B", ".", "..", "%2E", "%2e", "%2E%2e", ".%2E", "%7e", "%7E", "%2F", "%2f", "%25", "%41",
    "", "x:y", "g;x",
];
const SEGMENTS_WITHOUT_ENCODED_DOTS: &[&str] = &[
    "a", "B", ".", "..", "%7e", "%2F", "%2f", "%25", "%41", "", "x:y", "g;x",
];

fn reference(
    scheme_required: bool,
    segments: &'static [&'static str],
) -> impl Strategy<Value = String> {
    let schemes = vec!["http", "HTTP", "https", "ws", "f", "eXAMPLE"];
    (
        prop::option::weighted(
            if scheme_required { 0.95 } else { 0.5 },
            prop::sample::select(schemes),
        ),
        opt(vec![
            "a",
            "A",
            "u@H:80",
            "U%3a@h:",
            "[::A]",
            "[v1.X]",
            "h:",
            "h:080",
            "%41b",
            "%7e",
            "",
            "1.2.3.4",
            "%31.2.3.4",
            "h:443",
        ]),
        path(segments),
        opt(vec!["", "q", "%7e", "%2f", "a/../b"]),
        opt(vec!["", "f", "%7E", "%2F/./x"]),
    )
        .prop_map(|(s, a, p, q, f)| reference_text(s, a, &p, q, f))
}

fn level() -> impl Strategy<Value = Level> {
    prop::sample::select(vec![Level::Simple, Level::Syntax, Level::Scheme])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Normalizing is idempotent, the normal form parses (as a URI when the input is one) to the
    /// components it was written from, and it is equivalent to the input at that level and above.
    #[test]
    fn normalize_laws(text in reference(false, SEGMENTS), level in level()) {
        let Ok(r) = UriRef::parse(&text) else {
            return Err(TestCaseError::reject("not a URI-reference"));
        };
        let n = r.normalize_with(level);
        let nn = n.normalize_with(level);
        prop_assert_eq!(nn.as_str(), n.as_str(), "idempotent");
        let again = UriRef::parse(n.as_str()).unwrap();
        prop_assert_eq!(again.scheme(), n.scheme());
        prop_assert_eq!(again.authority().map(|a| a.as_str()), n.authority().map(|a| a.as_str()));
        prop_assert_eq!(again.path(), n.path());
        prop_assert_eq!(again.query(), n.query());
        prop_assert_eq!(again.fragment(), n.fragment());
        prop_assert_eq!(n.is_uri(), r.is_uri());
        prop_assert!(equivalent(&r, &n, level));
        prop_assert!(equivalent(&r, &n, Level::Scheme));
        if let Ok(u) = Uri::parse(&text) {
            let un = u.normalize_with(level);
            prop_assert_eq!(un.as_str(), n.as_str());
        }
        if level >= Level::Syntax {
            // No lower-case percent-encoding and no encoded unreserved character is left.
            let s = n.as_str().as_bytes();
            for (i, _) in n.as_str().match_indices('%') {
                let octet = u8::from_str_radix(&n.as_str()[i + 1..i + 3], 16).unwrap();
                prop_assert!(!(octet.is_ascii_alphanumeric() || b"-._~".contains(&octet)));
                prop_assert!(!s[i + 1].is_ascii_lowercase() && !s[i + 2].is_ascii_lowercase());
            }
        }
    }

    /// Syntax-level equivalence implies scheme-level equivalence, and simple implies syntax.
    #[test]
    fn equivalent_ladder(a in reference(true, SEGMENTS), b in reference(true, SEGMENTS)) {
        let (Ok(a), Ok(b)) = (UriRef::parse(&a), UriRef::parse(&b)) else {
            return Err(TestCaseError::reject("not a URI-reference"));
        };
        if equivalent(&a, &b, Level::Simple) {
            prop_assert!(equivalent(&a, &b, Level::Syntax));
        }
        if equivalent(&a, &b, Level::Syntax) {
            prop_assert!(equivalent(&a, &b, Level::Scheme));
        }
    }

    /// Resolving a reference and normalizing gives a normal form: normalizing it again changes nothing.
    #[test]
    fn resolve_then_normalize_is_normal(
        base in reference(true, SEGMENTS),
        r in reference(false, SEGMENTS),
        level in level(),
    ) {
        let (Ok(b), Ok(r)) = (Uri::parse(&base), UriRef::parse(&r)) else {
            return Err(TestCaseError::reject("not a URI / URI-reference"));
        };
        let t = r.resolve_against(&b).unwrap().normalize_with(level);
        let tt = t.normalize_with(level);
        prop_assert_eq!(tt.as_str(), t.as_str());
    }

    /// Normalizing the reference before resolving it does not change the target's normal form, when no
    /// dot-segment is percent-encoded (see regression_encoded_dot_segments_resolve_then_normalize).
    #[test]
    fn resolve_normalized_reference(
        base in reference(true, SEGMENTS_WITHOUT_ENCODED_DOTS),
        r in reference(false, SEGMENTS_WITHOUT_ENCODED_DOTS),
        level in level(),
    ) {
        let (Ok(b), Ok(r)) = (Uri::parse(&base), UriRef::parse(&r)) else {
            return Err(TestCaseError::reject("not a URI / URI-reference"));
        };
        let plain = r.resolve_against(&b).unwrap().normalize_with(level);
        let normalized_first = r.normalize_with(level).resolve_against(&b).unwrap().normalize_with(level);
        prop_assert_eq!(normalized_first.as_str(), plain.as_str());
    }
}

/// RFC 5952 section 4 canonical text, as an option ([`Options::ipv6_rfc5952`]); the examples are the
/// RFC's own (4.1 leading zeros, 4.2.1 shorten as much as possible, 4.2.2 one zero field, 4.2.3 placement,
/// 4.3 lower case, 5 IPv4-mapped).
#[rstest]
#[case::leading_zeros_4_1("2001:0db8::0001", "2001:db8::1")]
#[case::shorten_4_2_1("2001:db8:0:0:0:0:2:1", "2001:db8::2:1")]
#[case::shorten_not_just_part_4_2_1("2001:db8::0:1", "2001:db8::1")]
#[case::one_zero_field_4_2_2("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1")]
#[case::one_zero_field_compressed_4_2_2("2001:db8::1:1:1:1:1", "2001:db8:0:1:1:1:1:1")]
#[case::longest_run_4_2_3("2001:0:0:1:0:0:0:1", "2001:0:0:1::1")]
#[case::first_of_equal_runs_4_2_3("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1")]
#[case::lower_case_4_3(
    "2001:db8:aaaa:bbbb:cccc:dddd:eeee:AaAa",
    "2001:db8:aaaa:bbbb:cccc:dddd:eeee:aaaa"
)]
#[case::ipv4_mapped_5("::FFFF:192.0.2.1", "::ffff:192.0.2.1")]
#[case::unspecified("0:0:0:0:0:0:0:0", "::")]
fn normalize_ipv6_rfc5952(#[case] written: &str, #[case] canonical: &str) {
    use rfc3986::normalize::Options;
    let options = Options::from(Level::Syntax).ipv6_rfc5952(true);
    let text = format!("http://[{written}]:8080/p");
    let uri = Uri::parse(&text).unwrap();
    let normal = uri.normalize_with_options(options.clone());
    assert_eq!(normal.as_str(), format!("http://[{canonical}]:8080/p"));
    assert_eq!(normal.host_str(), Some(format!("[{canonical}]").as_str()));
    // Off by default: RFC 3986 6.2.2.1 only lower-cases.
    assert_eq!(
        uri.normalize().host_str(),
        Some(format!("[{}]", written.to_ascii_lowercase()).as_str())
    );
    // At the scheme rung too, and the normal form is stable.
    let scheme = Options::from(Level::Scheme).ipv6_rfc5952(true);
    assert_eq!(
        uri.normalize_with_options(scheme).as_str(),
        format!("http://[{canonical}]:8080/p")
    );
    assert_eq!(normal.normalize_with_options(options), normal);
}

#[test]
fn rfc5952_option_leaves_other_hosts_and_simple_level_alone() {
    use rfc3986::normalize::{equivalent_with, Options};
    let on = |level: Level| Options::from(level).ipv6_rfc5952(true);
    for text in [
        "http://Example.COM/",
        "http://192.0.2.1/",
        "http://[v1.X]/",
        "a/b",
    ] {
        let r = UriRef::parse(text).unwrap();
        assert_eq!(
            r.normalize_with_options(on(Level::Syntax)),
            r.normalize(),
            "{text}"
        );
    }
    let a = UriRef::parse("http://[2001:db8:0::1]/").unwrap();
    let b = UriRef::parse("http://[2001:db8::1]/").unwrap();
    assert!(!equivalent_with(&a, &b, on(Level::Simple)));
    assert!(equivalent_with(&a, &b, on(Level::Syntax)));
    assert!(!equivalent(&a, &b, Level::Scheme));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `is_normalized` says whether `normalize` would change the text: every normal form is normalized, at
    /// every level, and a text that is normalized is its own normal form.
    #[test]
    fn is_normalized_of_normal_form(text in reference(false, SEGMENTS), level in level()) {
        let Ok(r) = UriRef::parse(&text) else {
            return Err(TestCaseError::reject("not a URI-reference"));
        };
        let n = r.normalize_with(level);
        prop_assert!(n.is_normalized_with(level), "{} -> {}", text, n);
        prop_assert_eq!(r.is_normalized_with(level), n.as_str() == r.as_str());
        // With an extended port table as well.
        let options = rfc3986::normalize::Options::from(level)
            .default_ports(rfc3986::normalize::DefaultPorts::new().with("f", 80));
        let n = r.normalize_with_options(options.clone());
        prop_assert!(n.is_normalized_with(options));
    }
}

/// RFC 3986 6.2.2's example: the second form is not normal, the first is.
#[rstest]
#[case::rfc3986_6_2_2_normal("example://a/b/c/%7Bfoo%7D", true)]
#[case::rfc3986_6_2_2_not_normal("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", false)]
#[case::rfc3986_6_2_2_1_hex_case("http://a/%7b", false)]
#[case::rfc3986_6_2_2_1_host_case("http://A/", false)]
#[case::rfc3986_6_2_2_2_unreserved("http://a/%41", false)]
#[case::rfc3986_6_2_2_3_dot_segments("http://a/b/../c", false)]
#[case::rfc3986_3_2_3_empty_port("http://a:/", false)]
#[case::default_port_is_syntax_normal("http://a:80/", true)]
#[case::relative_popped_first_segment_kept("a/../b", true)]
#[case::relative_dot("./a", false)]
#[case::empty_reference("", true)]
fn is_normalized_syntax(#[case] text: &str, #[case] normal: bool) {
    assert_eq!(
        UriRef::parse(text)
            .unwrap()
            .is_normalized_with(Level::Syntax),
        normal
    );
}

/// The default level is scheme-based (6.2.2 then 6.2.3), as the url and fluent-uri crates normalize: a
/// default port goes and an empty http path becomes "/"; other schemes stay as 6.2.2 leaves them.
#[rstest]
#[case::rfc3986_6_2_3_default_port("HTTP://Example.com:80/a/./b", "http://example.com/a/b")]
#[case::rfc3986_6_2_3_default_port_leading_zero("http://h:080/", "http://h/")]
#[case::rfc3986_6_2_3_no_path("http://example.com", "http://example.com/")]
#[case::rfc3986_6_2_3_https("https://h:443?q", "https://h/?q")]
#[case::other_port_kept("http://h:8080/", "http://h:8080/")]
#[case::port_above_u16_kept("http://h:65616/", "http://h:65616/")]
#[case::no_table_entry("foo://h:80", "foo://h:80")]
#[case::relative_reference("//h:80", "//h:80")]
fn normalize_default_level_is_scheme_based(#[case] text: &str, #[case] normal: &str) {
    let r = UriRef::parse(text).unwrap();
    assert_eq!(r.normalize().as_str(), normal);
    assert_eq!(r.normalize(), r.normalize_with(Level::Scheme));
    assert_eq!(r.is_normalized(), text == normal);
}

/// RFC 3986 6.2.3's example: all four are equivalent; only the last is the scheme-based normal form.
#[rstest]
#[case::rfc3986_6_2_3_no_path("http://example.com", false)]
#[case::rfc3986_6_2_3_slash("http://example.com/", true)]
#[case::rfc3986_6_2_3_empty_port("http://example.com:/", false)]
#[case::rfc3986_6_2_3_default_port("http://example.com:80/", false)]
fn is_normalized_scheme(#[case] text: &str, #[case] normal: bool) {
    assert_eq!(
        UriRef::parse(text)
            .unwrap()
            .is_normalized_with(Level::Scheme),
        normal
    );
}

#[rstest]
#[case::absent_port("http://h/", Some(80))]
#[case::empty_port_means_default("https://h:/", Some(443))]
#[case::explicit_port("http://h:8080/", Some(8080))]
#[case::leading_zeros("http://h:0080/", Some(80))]
#[case::over_65535_is_not_replaced("http://h:65536/", None)]
#[case::scheme_case_ignored("WSS://h", Some(443))]
#[case::ftp("ftp://h/f", Some(21))]
#[case::unknown_scheme("gopher://h/", None)]
#[case::no_authority("http:/a", None)]
#[case::relative("//h/a", None)]
#[case::relative_with_port("//h:1/a", Some(1))]
fn port_or_default_builtin(#[case] text: &str, #[case] port: Option<u16>) {
    assert_eq!(UriRef::parse(text).unwrap().port_or_default(), port);
}

#[test]
fn default_ports_extend_and_override() {
    use rfc3986::normalize::{DefaultPorts, Options};
    let ports = DefaultPorts::new().with("gopher", 70).with("HTTP", 8080);
    assert_eq!(ports.get("gopher"), Some(70));
    assert_eq!(ports.get("http"), Some(8080));
    assert_eq!(ports.get("https"), Some(443));
    let r = UriRef::parse("gopher://h:70/1").unwrap();
    assert_eq!(r.port_or_default_with(&ports), Some(70));
    let options = Options::from(Level::Scheme).default_ports(ports);
    assert_eq!(
        r.normalize_with_options(options.clone()).as_str(),
        "gopher://h/1"
    );
    // The overridden http default: port 80 is no longer the default, 8080 is.
    let h = UriRef::parse("http://h:80/").unwrap();
    assert_eq!(
        h.normalize_with_options(options.clone()).as_str(),
        "http://h:80/"
    );
    let h = UriRef::parse("http://h:8080/").unwrap();
    assert_eq!(h.normalize_with_options(options).as_str(), "http://h/");
    // The built-in table is the one default_port reads.
    for scheme in ["http", "https", "ws", "wss", "ftp", "urn", ""] {
        assert_eq!(DefaultPorts::new().get(scheme), default_port(scheme));
        assert_eq!(DefaultPorts::empty().get(scheme), None);
    }
}
