//! One test per input the fuzz targets (`fuzz/`) flagged, named `regression_<slug>`, with the target and
//! what it reported. Inputs that exposed a bug in the fuzz harness rather than in the crate stay here too:
//! they pin down the behaviour the harness now expects.

use rfc3986::{HostKind, Rule, UriRef};

/// parse_any_rule, crash-71f097117d2164a816138e5b550e56700a5f40fb (harness bug): matched by the rule
/// `host` (or `reg-name`), a text has a host but no authority. The harness required "no authority, no
/// host" for every rule; it now does so only for URI, URI-reference, absolute-URI and relative-ref.
#[test]
fn regression_host_rule_has_host_without_authority() {
    for rule in [Rule::HOST, Rule::REG_NAME] {
        let r = rfc3986::parse_as(rule, "ontrib-dblink-exec.html").unwrap();
        assert_eq!(r.authority(), None);
        assert_eq!(r.host_str(), Some("ontrib-dblink-exec.html"));
        assert_eq!(r.host_kind(), Some(HostKind::RegName));
        assert_eq!(r.to_string(), "ontrib-dblink-exec.html");
    }
}

/// parse_any_rule, crash-bcfa75ca74ae108d1861f3ed5e9d7b430bebcfda (harness bug): matched by the rule
/// `authority`, a text has an authority and an empty path of kind path-empty, not path-abempty. The
/// harness now requires path-abempty after an authority only for the four top rules.
#[test]
fn regression_authority_rule_has_empty_path() {
    let r = rfc3986::parse_as(Rule::AUTHORITY, "t7~sqlarl").unwrap();
    assert_eq!(r.authority(), Some("t7~sqlarl"));
    // The rule `authority` contains no path: none is reported.
    assert_eq!(r.path(), None);
    assert_eq!(r.path_kind(), None);
    // In a reference, the same authority is followed by path-abempty.
    assert_eq!(
        UriRef::parse("//t7~sqlarl").unwrap().path_kind(),
        rfc3986::PathKind::Abempty
    );
}

/// parse_any_rule, crash-a71cb7a2de6ffd865bcd2659f2b9ff25cb6585f5 (harness bug): matched by the rule
/// `reg-name` itself, `1.2.3.4` is a reg-name; first-match-wins (RFC 3986 3.2.2) applies to `host`, which
/// makes it an IPv4address. The harness now requires "not IPv4" of a reg-name only outside `reg-name`.
#[test]
fn regression_reg_name_rule_takes_ipv4_text() {
    let r = rfc3986::parse_as(Rule::REG_NAME, "1.2.3.4").unwrap();
    assert_eq!(r.host_kind(), Some(HostKind::RegName));
    let r = rfc3986::parse_as(Rule::HOST, "1.2.3.4").unwrap();
    assert_eq!(r.host_kind(), Some(HostKind::Ipv4address));
}

/// resolve, crash-1f0fa77ee1a588aa8cdfade0fbcda133df47a77b (harness bug): base `g::)//`, reference
/// `g::)//X`. Non-strict resolution drops the reference's scheme (RFC 3986 5.2.2, "if ((not strict) and
/// (R.scheme == Base.scheme)) then undefine(R.scheme)"); the harness re-parsed the text after the scheme,
/// `:)//X`, as a reference, but a relative-ref's first segment cannot hold a colon (4.2). The pseudo-code
/// works on components, so the non-strict target is the base's scheme and authority with the reference's
/// path, and the harness now compares only when the remainder is a reference.
#[test]
fn regression_non_strict_reference_path_with_leading_colon() {
    use rfc3986::{resolve::Resolver, Uri};
    let base = Uri::parse("g::)//").unwrap();
    let r = UriRef::parse("g::)//X").unwrap();
    assert!(UriRef::parse(":)//X").is_err());
    assert_eq!(r.resolve_against(&base).unwrap().as_str(), "g::)//X");
    // Base path `:)//` merged with `:)//X` (5.2.3), then dot-segments removed: nothing to remove.
    let lax = Resolver::new().strict(false).resolve(&base, &r).unwrap();
    assert_eq!(lax.as_str(), "g::)//:)//X");
    assert_eq!(Uri::parse(lax.as_str()).unwrap().path(), ":)//:)//X");
}

/// resolve, crash-a9fe39161d86dc7563a21148d037e2126fcf578b (harness bug): base `g:)/.`, reference `""`.
/// An empty reference path takes the base's path as written (RFC 3986 5.2.2, "T.path = Base.path"; no
/// remove_dot_segments on that branch), so the target `g:)/.` keeps its dot-segment, and resolving the
/// target again (it has a scheme: "T.path = remove_dot_segments(R.path)") gives `g:)/`. The harness now
/// expects a stable target one step later in that case.
#[test]
fn regression_empty_reference_keeps_base_dot_segments() {
    use rfc3986::Uri;
    let base = Uri::parse("g:)/.").unwrap();
    let target = UriRef::parse("").unwrap().resolve_against(&base).unwrap();
    assert_eq!(target.as_str(), "g:)/.");
    let twice = target.as_uri_ref().resolve_against(&base).unwrap();
    assert_eq!(twice.as_str(), "g:)/");
    assert_eq!(
        twice.as_uri_ref().resolve_against(&base).unwrap().as_str(),
        "g:)/"
    );
}

/// parse_any_rule, crash-2c54c82139737d025aa2769dbb30ae80f9a0c2ad (harness bug): matched by a rule below
/// `host` (here `IPv6address`, picked by the first byte), `d::` is reported as a host without the brackets
/// of an IP-literal, which the rule `host` (RFC 3986 3.2.2) does not accept on its own. The harness now
/// checks a host against `host` only for rules that contain the whole of `host`.
#[test]
fn regression_ipv6address_rule_host_without_brackets() {
    let rules: Vec<Rule> = Rule::all().collect();
    assert_eq!(rules[0xfa % rules.len()], Rule::IPV6ADDRESS);
    let r = rfc3986::parse_as(Rule::IPV6ADDRESS, "d::").unwrap();
    assert_eq!(r.host_str(), Some("d::"));
    assert_eq!(r.host_kind(), Some(HostKind::Ipv6address));
    assert!(rfc3986::validate(Rule::HOST, "d::").is_err());
    assert!(rfc3986::validate(Rule::HOST, "[d::]").is_ok());
}

/// lint, crash-fce5007f9a2c81356d607de407bb98b88a6b06a6 (harness bug): the password `nts:` of
/// `xptp://:nts:@/-ght/./t:s` occurs in the fixed text `path-dot-segments: ` of a finding's Display form,
/// not in its message. The harness now checks the message and that Display is `CODE: MESSAGE (RFC 3986
/// SECTION)`, fixed text around it.
#[test]
fn regression_password_inside_a_finding_code() {
    let text = "xptp://:nts:@/-ght/./t:s";
    let r = UriRef::parse(text).unwrap();
    assert_eq!(r.userinfo(), Some(":nts:"));
    let findings = r.lint();
    let codes: Vec<&str> = findings.iter().map(|f| f.code().as_str()).collect();
    assert!(codes.contains(&"path-dot-segments"), "{codes:?}");
    for f in &findings {
        assert!(!f.message().contains("nts:"), "{f}");
        assert_eq!(
            f.to_string(),
            format!(
                "{}: {} (RFC 3986 {})",
                f.code().as_str(),
                f.message(),
                f.section()
            )
        );
    }
}

/// grammar_text, a stack overflow libFuzzer could not report (the process died of SIGSEGV; the input
/// was kept with `RFC3986_FUZZ_LAST_INPUT`): an overlay whose silent `sub_delims` calls itself inside a
/// repetition. Lowering the program inlined the rule's alternatives into its own body without end, and
/// the loader thread's stack overflowed (the command line aborted with "has overflowed its stack").
#[cfg(feature = "runtime-grammar")]
#[test]
fn regression_silent_rule_calls_itself_in_a_repetition() {
    let text = "//! Thex of RFC 7//! Rn  9110 so RFC 3986:\n//! - an authority is required (\"//\" after the 974 (It// overlayRFC 6874\n//\" / \"=\"\n/// RFC 3987 section 2.2.\nsub_delims = _{ \"!\" | \"$\" | \"&\" | \"'\" | \"(\" | \")\" | \"9*\" | \"+\" | \",\" | \";heme), so `http:/a`a nd `http:a` are not http URIs;\n//!syntax\n//! of RFC 3986//-! The IRI syntax ofiers), sectio//! The generic URI syntax of R\" ~ (unreserved | sub_delims | \":\")+ }\n\n/// IPv6address = 6( h16 \":\" ) ls32 / \"::\" 5( h16 \":\" ) ls32 / [ h16 ] \"::\" 4( h16 \":\" ) ls32 / [ *1";
    // The text as a grammar of its own fails (it calls rules it does not define); as an overlay on
    // uri.pest it loads, and matches.
    assert!(rfc3986::runtime::Grammar::load(text).is_err());
    let grammar = rfc3986::runtime::Grammar::overlay(text).expect("loads as an overlay");
    let entry = grammar.start_rule().expect("a start rule");
    assert!(entry.parse("http://a/b?c#d").is_ok());
    assert!(entry.parse("http://a/b?c#d!x:").is_ok());
    assert!(entry.parse("http://a/ b").is_err());
}
