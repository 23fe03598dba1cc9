//! A match of any rule is a `RuleMatch`; only URI-reference, URI, relative-ref and absolute-URI make a
//! `UriRef` (issue: misuses of a host or a scheme as a reference). Component spans checked by hand
//! against the ABNF of RFC 3986 Appendix A.

use rfc3986::{parse_as, HostKind, PathKind, Rule, UriRef};
use rstest::rstest;

/// The misuses that used to compile and misbehave: each is now an error (or does not compile, see the
/// `compile_fail` examples on `RuleMatch`).
#[rstest]
#[case::host(Rule::HOST, "x")]
#[case::host_upper(Rule::HOST, "X")]
#[case::scheme(Rule::SCHEME, "http")]
#[case::authority(Rule::AUTHORITY, "a:80")]
#[case::path_absolute(Rule::PATH_ABSOLUTE, "/b")]
#[case::query(Rule::QUERY, "a=b")]
#[case::ipv4(Rule::IPV4ADDRESS, "192.0.2.1")]
fn non_reference_rules_do_not_become_references(#[case] rule: Rule, #[case] input: &str) {
    let m = parse_as(rule, input).unwrap();
    assert!(!m.is_reference());
    let err = m.clone().into_uri_ref().unwrap_err();
    assert_eq!(err.rule_name(), rule.abnf_name());
    assert!(UriRef::try_from(m).is_err());
}

#[rstest]
#[case::uri_reference(Rule::URI_REFERENCE, "../g?y")]
#[case::uri(Rule::URI, "http://a/b#f")]
#[case::relative_ref(Rule::RELATIVE_REF, "//a/b")]
#[case::absolute_uri(Rule::ABSOLUTE_URI, "urn:a:b")]
fn reference_rules_become_references(#[case] rule: Rule, #[case] input: &str) {
    let m = parse_as(rule, input).unwrap();
    assert!(m.is_reference());
    let r = m.into_uri_ref().unwrap();
    assert_eq!(r.as_str(), input);
    // The same components as parsing the text as a URI-reference.
    assert_eq!(r, UriRef::parse(input).unwrap());
    assert_eq!(
        format!("{r:?}"),
        format!("{:?}", UriRef::parse(input).unwrap())
    );
}

/// Component spans of matches of inner rules, by hand from Appendix A:
/// `authority = [ userinfo "@" ] host [ ":" port ]`, `host = IP-literal / IPv4address / reg-name`, ...
#[rstest]
#[case::authority_full(Rule::AUTHORITY, "u:p@[::1]:8080", None, Some(0..3), Some(4..9), Some(10..14), None)]
#[case::authority_empty_port(Rule::AUTHORITY, "h:", None, None, Some(0..1), Some(2..2), None)]
#[case::authority_empty(Rule::AUTHORITY, "", None, None, Some(0..0), None, None)]
#[case::host_ip_literal(Rule::HOST, "[v7.x]", None, None, Some(0..6), None, None)]
#[case::ip_literal(Rule::IP_LITERAL, "[::1]", None, None, Some(0..5), None, None)]
#[case::reg_name(Rule::REG_NAME, "example.com", None, None, Some(0..11), None, None)]
#[case::port_digits(Rule::PORT, "123456", None, None, None, Some(0..6), None)]
#[case::path_abempty(Rule::PATH_ABEMPTY, "/a/b", None, None, None, None, Some(0..4))]
#[case::path_empty(Rule::PATH_EMPTY, "", None, None, None, None, Some(0..0))]
#[case::scheme(Rule::SCHEME, "coap+tcp", Some(0..8), None, None, None, None)]
#[case::hier_part(Rule::HIER_PART, "//h/p", None, None, Some(2..3), None, Some(3..5))]
#[allow(clippy::too_many_arguments)]
fn component_spans(
    #[case] rule: Rule,
    #[case] input: &str,
    #[case] scheme: Option<std::ops::Range<usize>>,
    #[case] userinfo: Option<std::ops::Range<usize>>,
    #[case] host: Option<std::ops::Range<usize>>,
    #[case] port: Option<std::ops::Range<usize>>,
    #[case] path: Option<std::ops::Range<usize>>,
) {
    let m = parse_as(rule, input).unwrap();
    let spans = m.spans();
    assert_eq!(spans.scheme, scheme, "scheme");
    assert_eq!(spans.userinfo, userinfo, "userinfo");
    assert_eq!(spans.host, host, "host");
    assert_eq!(spans.port, port, "port");
    assert_eq!(spans.path, path, "path");
    assert_eq!(m.span(), 0..input.len());
    assert_eq!(m.rule(), Some(rule));
    assert_eq!(m.rule_name(), rule.abnf_name());
    // Accessors slice the same spans.
    assert_eq!(m.host_str(), host.map(|r| &input[r]));
    assert_eq!(m.path(), path.map(|r| &input[r]));
}

#[test]
fn kinds_and_typed_values() {
    let m = parse_as(Rule::HOST, "192.0.2.1").unwrap();
    assert_eq!(m.host_kind(), Some(HostKind::Ipv4address));
    assert_eq!(
        m.host(),
        Some(rfc3986::Host::Ipv4("192.0.2.1".parse().unwrap()))
    );
    // reg-name alone: first-match-wins applies to `host` only (3.2.2).
    let m = parse_as(Rule::REG_NAME, "192.0.2.1").unwrap();
    assert_eq!(m.host_kind(), Some(HostKind::RegName));
    let m = parse_as(Rule::PATH, "a:b/c").unwrap();
    assert_eq!(m.path_kind(), Some(PathKind::Rootless));
    assert_eq!(parse_as(Rule::HOST, "h").unwrap().path_kind(), None);
    let m = parse_as(Rule::PORT, "0080").unwrap();
    assert_eq!(m.port_u16(), Some(80));
}

#[test]
fn lint_on_a_match_looks_at_its_components() {
    use rfc3986::lint::Code;
    let codes = |rule, input| -> Vec<Code> {
        parse_as(rule, input)
            .unwrap()
            .lint()
            .iter()
            .map(|f| f.code())
            .collect()
    };
    assert_eq!(
        codes(Rule::HOST, "Example.COM"),
        [Code::RegNameNotLowercase]
    );
    assert_eq!(codes(Rule::SCHEME, "HTTP"), [Code::SchemeNotLowercase]);
    assert!(codes(Rule::PORT, "80").is_empty()); // no scheme: no default port to compare with
    assert_eq!(codes(Rule::PORT, "0"), [Code::PortZero]);
}

#[test]
fn a_rejection_is_a_parse_error() {
    let e = parse_as(Rule::IPV4ADDRESS, "1.2.3.256").unwrap_err();
    assert_eq!(e.offset(), 8); // "25" then "6": dec-octet is at most 255
}

/// `match_as` is `parse_as` without the explanation: the same match (rule, text, every component span)
/// or `None` exactly where `parse_as` fails, for every rule on every line of the shipped sample (3 % of
/// which no rule accepts as a reference) and on its near-misses.
#[test]
fn match_as_is_parse_as_without_the_error() {
    let sample = include_str!("../../data/real-uris-sample.txt");
    let mut rejected = 0;
    for line in sample.lines().take(1500) {
        for input in [line.to_string(), format!("{line} "), format!("[{line}")] {
            for rule in Rule::all() {
                let quiet = rfc3986::match_as(rule, &input);
                let full = parse_as(rule, &input);
                rejected += usize::from(full.is_err());
                assert_eq!(quiet, full.ok(), "{} on {input:?}", rule.abnf_name());
            }
        }
    }
    assert!(rejected > 1000, "{rejected}");
}
