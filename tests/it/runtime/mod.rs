//! Grammars loaded at run time (feature `runtime-grammar`): `uri.pest` loaded with pest_meta and run by
//! pest_vm agrees with the compiled parser; edited grammars change verdicts with no Rust change; the IRI
//! (RFC 3987) and zone-ID (RFC 6874) grammars of `grammars/`; the scheme grammars of `schemes/`.
#![cfg(feature = "runtime-grammar")]

/// The interpreter of loaded grammars against the built-in engine (was `tests/runtime_engine.rs`).
mod engine;

use std::sync::OnceLock;

use rfc3986::{
    runtime::Grammar, runtime::GrammarError, runtime::RuntimeParseError, runtime::SchemeGrammars,
    runtime::SCHEME_ENTRY_RULE, Rule, RuleMatch, UriRef,
};
use rstest::rstest;

const URI_PEST: &str = include_str!("../../../uri.pest");

fn runtime_uri_pest() -> &'static Grammar {
    static G: OnceLock<Grammar> = OnceLock::new();
    G.get_or_init(|| Grammar::load(URI_PEST).expect("uri.pest loads at run time"))
}

fn iri() -> &'static Grammar {
    static G: OnceLock<Grammar> = OnceLock::new();
    G.get_or_init(|| Grammar::from_file("grammars/iri.pest").expect("iri.pest loads"))
}

fn zone() -> &'static Grammar {
    static G: OnceLock<Grammar> = OnceLock::new();
    G.get_or_init(|| {
        Grammar::from_file_or_overlay("grammars/ipv6-zone-id.pest").expect("zone grammar loads")
    })
}

/// Everything the typed value says, to compare two parses.
/// A reference seen as a match of `URI-reference`, to compare with a loaded grammar's match.
fn as_match<'a>(r: &'a UriRef<'_>) -> RuleMatch<'a> {
    rfc3986::parse_as(rfc3986::Rule::URI_REFERENCE, r.as_str()).unwrap()
}

fn components(u: &RuleMatch<'_>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        u.scheme(),
        u.authority(),
        u.userinfo(),
        u.host_str(),
        u.host_kind(),
        u.host(),
        u.port(),
        u.path(),
        u.path_kind(),
        u.query(),
        u.fragment()
    )
}

/// The compiled parser and `uri.pest` loaded at run time give the same verdict, the same components, and
/// for a rejection the same offset.
#[track_caller]
fn assert_agree(rule: Rule, input: &str) {
    let compiled = rfc3986::parse_as(rule, input);
    assert_eq!(
        compiled.is_ok(),
        rfc3986::validate(rule, input).is_ok(),
        "validate and parse_as disagree"
    );
    let loaded = runtime_uri_pest()
        .entry(rule.abnf_name())
        .expect("every built-in rule is in uri.pest")
        .parse(input);
    match (&compiled, &loaded) {
        (Ok(a), Ok(b)) => assert_eq!(
            components(a),
            components(b),
            "rule {rule} on {input:?}: components differ"
        ),
        (Err(a), Err(b)) => {
            assert_eq!(a.offset(), b.offset(), "rule {rule} on {input:?}: offsets");
            assert_eq!(b.rule_name(), rule.abnf_name());
        }
        _ => panic!(
            "rule {rule} on {input:?}: compiled {:?}, loaded {:?}",
            compiled.is_ok(),
            loaded.is_ok()
        ),
    }
}

const TRICKY: &[&str] = &[
    "",
    ":",
    "/",
    "//",
    "///",
    "?",
    "#",
    "a:",
    "a:b",
    "./a:b",
    "a/b:c",
    ":a",
    "//@",
    "//u@h:1/p?q#f",
    "http://a/b c",
    "%",
    "%4",
    "%41",
    "%GG",
    "http://%s/",
    "1.2.3.4",
    "//1.2.3.4",
    "//1.2.3.4x",
    "//1.2.3.256",
    "//1.2.3",
    "//01.2.3.4",
    "//255.255.255.255",
    "//[::]",
    "//[::1]",
    "//[1::]",
    "//[1:2:3:4:5:6:7:8]",
    "//[1:2:3:4:5:6:7::]",
    "//[::2:3:4:5:6:7:8]",
    "//[1:2:3:4:5:6:1.2.3.4]",
    "//[::1.2.3.4]",
    "//[1::1.2.3.4]",
    "//[1:2:3:4:5:6:7:8:9]",
    "//[1::2::3]",
    "//[12345::]",
    "//[v1.x]",
    "//[V1.x]",
    "//[v.x]",
    "//[vg.x]",
    "//[fe80::1%25eth0]",
    "http://h:",
    "http://h:99999",
    "http://h:x",
    "http://host:port/",
    "http://[::1",
    "a#b#c",
    "#también",
    "https://{bucket}.example/",
    "/a[1]",
    "a|b",
    "mailto:John.Doe@example.com",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "tel:+1-816-555-1212",
    "news:comp.infosystems.www.servers.unix",
    "telnet://192.0.2.16:80/",
    "foo://example.com:8042/over/there?name=ferret#nose",
    "g;x=1/../y",
    "../g;x?y#s",
    "file:///etc/hosts",
    "http://user:pass@[v7.fe80::a+en1]:0080/a//b/?q?r#f/?",
];

#[test]
fn runtime_uri_pest_agrees_on_tricky_inputs_for_every_rule() {
    for rule in Rule::all() {
        for input in TRICKY {
            assert_agree(rule, input);
        }
    }
}

/// Every line of the shipped sample, and of the file named by `RFC3986_CORPUS` when it is set (the full
/// corpus: `RFC3986_CORPUS=FILE cargo test --release --test runtime`).
#[test]
fn runtime_uri_pest_agrees_on_real_uris() {
    let mut text = include_str!("../../../data/real-uris-sample.txt").to_string();
    if let Ok(path) = std::env::var("RFC3986_CORPUS") {
        text.push_str(&std::fs::read_to_string(&path).expect("RFC3986_CORPUS is readable"));
    }
    let mut n = 0;
    for line in text.lines() {
        for rule in [
            Rule::URI_REFERENCE,
            Rule::URI,
            Rule::ABSOLUTE_URI,
            Rule::RELATIVE_REF,
        ] {
            assert_agree(rule, line);
        }
        n += 1;
    }
    assert!(n > 100, "the sample has lines");
}

#[rstest]
#[case::abnf("URI-reference")]
#[case::pest("uri_reference")]
#[case::abnf_case_insensitive("uri-REFERENCE")]
fn grammar_entry_accepts_abnf_and_pest_names(#[case] name: &str) {
    let entry = runtime_uri_pest().entry(name).unwrap();
    assert_eq!(entry.abnf_name(), "URI-reference");
    assert_eq!(entry.pest_name(), "uri_reference");
    assert_eq!(entry.definition(), "URI / relative-ref");
    assert_eq!(entry.source(), "RFC 3986 section 4.1.");
}

#[rstest]
#[case::unknown("no-such-rule")]
#[case::empty("")]
#[case::builtin_of_pest("SOI")]
#[case::generated_entry("entry uri")]
fn grammar_parse_unknown_rule_is_an_error_not_a_panic(#[case] name: &str) {
    let g = runtime_uri_pest();
    let err = g.parse(name, "http://a/").unwrap_err();
    assert!(matches!(err, RuntimeParseError::UnknownRule(ref u) if u.name() == name));
    assert!(err.to_string().contains("no rule"));
}

#[test]
fn grammar_parse_error_names_loaded_rules() {
    let err = runtime_uri_pest().parse("URI", "http://a/b c").unwrap_err();
    let RuntimeParseError::Parse(e) = err else {
        panic!("expected a parse error")
    };
    assert_eq!(e.offset(), 10);
    assert_eq!(e.kind(), rfc3986::ParseErrorKind::Space);
    assert_eq!(e.rule_name(), "URI");
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    assert!(expected.contains(&"\"/\"".to_string()), "{expected:?}");
}

/// Long inputs: no stack overflow, no call limit, valid and invalid.
#[test]
fn grammar_parse_one_mebibyte_input() {
    let g = runtime_uri_pest().entry("URI-reference").unwrap();
    let long = format!("http://example.com/{}", "a/".repeat(512 * 1024));
    let u = g.parse(&long).unwrap();
    assert_eq!(u.path().unwrap().len(), 1 + 1024 * 1024);
    let bad = format!("?{} x", "q".repeat(1 << 20));
    let e = g.parse(&bad).unwrap_err();
    assert_eq!(e.offset(), 1 + (1 << 20));
    assert_eq!(e.kind(), rfc3986::ParseErrorKind::Space);
}

/// A recursive grammar nested a mebibyte deep, on a small stack: pest's stack guard gives an error.
#[test]
fn grammar_parse_deep_recursion_is_an_error_not_a_stack_overflow() {
    let g: Grammar = "nest = { \"(\" ~ nest? ~ \")\" }\n".parse().unwrap();
    assert!(g.parse("nest", "((()))").is_ok());
    let deep = format!("{}{}", "(".repeat(1 << 20), ")".repeat(1 << 20));
    let result = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || g.parse("nest", &deep).map(|_| ()))
        .unwrap()
        .join()
        .expect("no stack overflow");
    match result {
        Err(RuntimeParseError::Parse(e)) => {
            assert_eq!(e.kind(), rfc3986::ParseErrorKind::LimitReached)
        }
        other => panic!("{other:?}"),
    }
}

// -------------------------------------------------------------------------------------------------------
// Edited grammars: verdicts change, no Rust change
// -------------------------------------------------------------------------------------------------------

#[test]
fn edited_grammar_authority_without_userinfo() {
    let edited = URI_PEST.replace(
        r#"authority = { (userinfo ~ "@")? ~ host ~ (":" ~ port)? }"#,
        r#"authority = { host ~ (":" ~ port)? }"#,
    );
    assert_ne!(edited, URI_PEST);
    let g = Grammar::load(&edited).unwrap();
    assert!(rfc3986::UriRef::parse("http://user@host/").is_ok());
    let e = g.parse("URI", "http://user@host/").unwrap_err();
    assert!(matches!(e, RuntimeParseError::Parse(ref p) if p.offset() == 11));
    let u = g.parse("URI", "http://host:80/").unwrap();
    assert_eq!(u.host_str(), Some("host"));
    assert_eq!(u.port(), Some("80"));
}

#[test]
fn edited_grammar_userinfo_that_matches_nothing() {
    let edited = URI_PEST.replace(
        r#"userinfo = @{ (unreserved | pct_encoded | sub_delims | ":")* }"#,
        r#"userinfo = @{ !"" ~ ANY }"#,
    );
    assert_ne!(edited, URI_PEST);
    let g = Grammar::load(&edited).unwrap();
    assert!(g.parse("URI", "ftp://anonymous@ftp.example/").is_err());
    assert!(g.parse("URI", "ftp://@ftp.example/").is_err());
    assert!(g.parse("URI", "ftp://ftp.example/").is_ok());
    assert!(g.parse("userinfo", "").is_err());
}

// -------------------------------------------------------------------------------------------------------
// Broken grammar files
// -------------------------------------------------------------------------------------------------------

#[test]
fn broken_grammar_syntax_error_has_line_and_column() {
    let e = Grammar::load("a = { \"x\" }\nb = { a ~ }\n").unwrap_err();
    let issues = e.issues();
    assert_eq!(issues.len(), 1, "{e}");
    assert_eq!((issues[0].line(), issues[0].column()), (2, 11), "{e}");
    assert!(e.to_string().starts_with("2:11: "), "{e}");
}

#[test]
fn broken_grammar_lists_every_undefined_rule() {
    let e = Grammar::load("a = { b }\n\nc = { d ~ a }\n").unwrap_err();
    let at: Vec<(usize, usize)> = e.issues().iter().map(|i| (i.line(), i.column())).collect();
    assert_eq!(at, [(1, 7), (3, 7)], "{e}");
    assert!(e.issues()[0].message().contains('b'), "{e}");
}

#[test]
fn broken_grammar_left_recursion() {
    let e = Grammar::load("a = { a ~ \"x\" | \"y\" }\n").unwrap_err();
    assert!(!e.issues().is_empty());
    assert!(e.to_string().contains("left-recursi"), "{e}");
}

#[test]
fn grammar_from_file_missing_and_broken() {
    let e = Grammar::from_file("grammars/no-such-file.pest").unwrap_err();
    assert!(matches!(e, GrammarError::Io { .. }));
    let dir = std::env::temp_dir().join(format!("rfc3986-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.pest");
    std::fs::write(&path, "ok = { \"a\" }\nbad = { ok ~~ ok }\n").unwrap();
    let e = Grammar::from_file(&path).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!("{}:2:", path.display())),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// -------------------------------------------------------------------------------------------------------
// grammars/iri.pest (RFC 3987 section 2.2)
// -------------------------------------------------------------------------------------------------------

#[rstest]
#[case::resume_path("http://example.com/résumé")]
#[case::query("http://example.com/?q=ü")]
#[case::host("http://résumé.example.org/")]
#[case::userinfo("ftp://jürgen@example.org/")]
#[case::fragment("http://example.com/#très")]
#[case::cjk_path("http://example.com/日本語/ファイル")]
#[case::astral("http://example.com/\u{1F600}")]
#[case::iprivate_in_query("http://example.com/?\u{E000}")]
#[case::rfc3987_3_1_example("http://r\u{E9}sum\u{E9}.example.org")]
#[case::relative("résumé/café?x#y")]
#[case::plain_uri("http://a/b?c#d")]
#[case::pct_encoded("http://example.com/r%C3%A9sum%C3%A9")]
fn iri_accepts(#[case] input: &str) {
    let u = iri().parse("IRI-reference", input).unwrap();
    assert_eq!(u.as_str(), input);
    // Every component of a plain URI is what the built-in grammar says.
    if let Ok(b) = UriRef::parse(input) {
        assert_eq!(components(&u), components(&as_match(&b)));
    }
}

#[rstest]
#[case::iprivate_in_path("http://example.com/\u{E000}", 19)]
#[case::iprivate_in_fragment("http://example.com/#\u{E000}", 20)]
#[case::iprivate_in_host("http://\u{E000}/", 7)]
#[case::noncharacter("http://example.com/\u{FFFE}", 19)]
#[case::control_c1("http://example.com/\u{85}", 19)]
#[case::space("http://example.com/a b", 20)]
#[case::non_ascii_first_segment_colon("é:x", 2)]
#[case::non_ascii_port("http://h:٣/", 9)]
fn iri_rejects(#[case] input: &str, #[case] offset: usize) {
    let Err(RuntimeParseError::Parse(e)) = iri().parse("IRI-reference", input) else {
        panic!("{input:?} should be rejected")
    };
    assert_eq!(e.offset(), offset, "{input:?}: {e}");
    assert_eq!(e.rule_name(), "IRI-reference");
}

#[test]
fn iri_components_and_names() {
    let u = iri()
        .parse("uri", "http://jürgen@bücher.example:8080/straße?größe=1#ü")
        .unwrap();
    assert_eq!(u.userinfo(), Some("jürgen"));
    assert_eq!(u.host_str(), Some("bücher.example"));
    assert_eq!(u.host_kind(), Some(rfc3986::HostKind::RegName));
    assert_eq!(u.port(), Some("8080"));
    assert_eq!(u.path(), Some("/straße"));
    assert_eq!(u.query(), Some("größe=1"));
    assert_eq!(u.fragment(), Some("ü"));
    assert_eq!(iri().entry("ireg-name").unwrap().pest_name(), "reg_name");
    assert_eq!(iri().entry("IRI").unwrap().pest_name(), "uri");
    assert!(iri().header().next().unwrap().contains("RFC 3987"));
}

// -------------------------------------------------------------------------------------------------------
// grammars/ipv6-zone-id.pest (RFC 6874 section 2)
// -------------------------------------------------------------------------------------------------------

#[rstest]
#[case::rfc6874_example("http://[fe80::a%25en1]", "fe80::a")]
#[case::eth0("http://[fe80::1%25eth0]:8080/", "fe80::1")]
#[case::numeric_zone("http://[fe80::1%251]/", "fe80::1")]
#[case::pct_encoded_zone("http://[fe80::1%25%65th0]/", "fe80::1")]
#[case::no_zone("http://[fe80::1]/", "fe80::1")]
#[case::ipv4_tail("http://[::ffff:1.2.3.4%25x]/", "::ffff:1.2.3.4")]
fn zone_id_accepts(#[case] input: &str, #[case] address: &str) {
    let u = zone().parse("URI-reference", input).unwrap();
    assert_eq!(u.host_kind(), Some(rfc3986::HostKind::Ipv6address));
    assert_eq!(
        u.host(),
        Some(rfc3986::Host::Ipv6(address.parse().unwrap()))
    );
    assert!(u.host_str().unwrap().starts_with('['));
    // As a value too (regression: its address was taken to end before the "]", zone included).
    let r = u.clone().into_uri_ref().unwrap();
    assert_eq!(
        (r.host_str(), r.host()),
        (
            u.host_str(),
            Some(rfc3986::Host::Ipv6(address.parse().unwrap()))
        )
    );
    if !input.contains("%25") {
        assert_eq!(
            components(&u),
            components(&as_match(&UriRef::parse(input).unwrap()))
        );
    } else {
        assert!(UriRef::parse(input).is_err(), "RFC 3986 has no zone IDs");
    }
}

#[rstest]
#[case::bare_percent("http://[fe80::a%en1]")]
#[case::empty_zone("http://[fe80::a%25]")]
#[case::zone_on_ipvfuture("http://[v1.x%25en1]")]
#[case::zone_with_slash("http://[fe80::a%25en/1]")]
#[case::bad_address("http://[fe80::a::b%25en1]")]
fn zone_id_rejects(#[case] input: &str) {
    assert!(zone().parse("URI-reference", input).is_err(), "{input:?}");
}

#[test]
fn zone_id_header_says_obsoleted() {
    let header: Vec<&str> = zone().header().collect();
    let text = header.join(" ");
    assert!(text.contains("RFC 6874"));
    assert!(text.contains("RFC 9844"));
}

// -------------------------------------------------------------------------------------------------------
// schemes/ (RFC 3986 section 3.1: schemes restrict the generic syntax)
// -------------------------------------------------------------------------------------------------------

#[track_caller]
fn scheme_check(input: &str) -> Option<Result<(), rfc3986::runtime::SchemeError>> {
    let u = UriRef::parse(input).unwrap_or_else(|e| panic!("{input:?} is a URI: {e}"));
    SchemeGrammars::builtin().check(&u)
}

#[rstest]
// RFC 9110 sections 4.2.1, 4.2.2, 4.2.3
#[case::http("http://www.example.com/")]
#[case::http_port_query("http://www.example.com:8080/a/b?q=1")]
#[case::https("https://example.com")]
#[case::uppercase("HTTP://EXAMPLE.COM:/%7Esmith/home.html")]
#[case::ipv6("http://[2001:db8::1]/")]
#[case::ipv4("http://192.0.2.1/")]
#[case::fragment("https://example.com/a#section-4.2.1")]
#[case::userinfo_deprecated_but_syntax("http://user@example.com/")]
// RFC 8141 section 2 and examples
#[case::urn_isbn("urn:isbn:0451450523")]
#[case::urn_example("urn:example:a123,z456")]
#[case::urn_upper("URN:EXAMPLE:a123,z456")]
#[case::urn_ietf("urn:ietf:rfc:2648")]
#[case::urn_q("urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z")]
#[case::urn_r("urn:example:foo-bar-baz-qux?+CCResolve:cc=uk")]
#[case::urn_r_and_q("urn:example:a?+r?x?=q/1")]
#[case::urn_nss_slash("urn:example:a/b//c")]
#[case::urn_f("urn:example:a123,z456#789")]
#[case::urn_nid_32("urn:abcdefghijklmnopqrstuvwxyz-12345:x")]
// RFC 6068 section 6
#[case::mailto("mailto:chris@example.com")]
#[case::mailto_subject("mailto:infobot@example.com?subject=current-issue")]
#[case::mailto_body("mailto:infobot@example.com?body=send%20current-issue")]
#[case::mailto_in_reply_to("mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E")]
#[case::mailto_cc("mailto:joe@example.com?cc=bob@example.com&body=hello")]
#[case::mailto_to_field("mailto:?to=addr1@an.example,addr2@an.example")]
#[case::mailto_two("mailto:addr1@an.example,addr2@an.example")]
#[case::mailto_pct_percent("mailto:gorby%25kremvax@example.com")]
#[case::mailto_pct_question("mailto:unlikely%3Faddress@example.com?blat=foop")]
#[case::mailto_quoted("mailto:%22not%40me%22@example.org")]
#[case::mailto_quoted_backslash("mailto:%22oh%5C%5Cno%22@example.org")]
#[case::mailto_quoted_ugly("mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org")]
#[case::mailto_utf8_subject("mailto:user@example.org?subject=caf%C3%A9")]
#[case::mailto_amp("mailto:Mike%26family@example.org")]
#[case::mailto_idn("mailto:user@%E7%B4%8D%E8%B1%86.example.org")]
#[case::mailto_empty("mailto:")]
#[case::mailto_domain_literal("mailto:user@%5B192.0.2.1%5D")]
// RFC 3986 2.1: any character may be percent-encoded; RFC 5322 3.2.3 atext, 3.2.1 quoted-pair
#[case::mailto_pct_encoded_unreserved_local_part("mailto:%41lice@example.org")]
#[case::mailto_pct_encoded_atext_lower_hex("mailto:b%6fb@example.org")]
#[case::mailto_quoted_pct_encoded_vchar("mailto:%22a%2Cb%22@example.org")]
#[case::mailto_domain_literal_pct_encoded_vchar("mailto:user@%5BIPv6%3A2001%3Adb8%3A%3A1%5D")]
// RFC 8089 section 2 and Appendix B
#[case::file_empty_host("file:///path/to/file")]
#[case::file_local("file:/path/to/file")]
#[case::file_host("file://host.example.com/path/to/file")]
#[case::file_localhost("file://localhost/etc/fstab")]
#[case::file_localhost_prefix("file://localhost.example/x")]
#[case::file_root("file:///")]
// RFC 2397 sections 3 and 4
#[case::data_note("data:,A%20brief%20note")]
#[case::data_gif("data:image/gif;base64,R0lGODdhMAAwAPAAAAAAAP///ywAAAAAMAAwAAAC8IyPqcvt3wCcDkiLc7C0qwyGHhSWpjQu5yqmCYsapyuvUUlvONmOZtfzgFzByTB10QgxOR0TqBQejhRNzOfkVJ+5YiUqrXF5Y5lKh/DeuNcP5yLWGsEbtLiOSpa/TPg7JpJHxyendzWTBfX0cxOnKPjgBzi4diinWGdkF8kjdfnycQZXZeYGejmJlZeGl9i2icVqaNVailT6F5iJ90m6mvuTS4OK05M0vDk0Q4XUtwvKOzrcd3iq9uisF81M1OIcR7lEewwcLp7tuNNkM3uNna3F2JQFo97Vriy/Xl4/f1cf5VWzXyym7PHhhx4dbgYKAAA7")]
#[case::data_charset("data:text/plain;charset=US-ASCII,hello")]
#[case::data_vnd("data:application/vnd-xxx-query,select_vcount,fcol_from_fieldtable/local")]
#[case::data_params_only(";charset=utf-8,x")]
#[case::data_base64_upper("DATA:;BASE64,SGVsbG8=")]
#[case::data_question("data:,a?b")]
// RFC 2397 section 3: tokens "represented using URL escaped encoding ... as necessary"
#[case::data_pct_encoded_subtype("data:text/x%23y,abc")]
#[case::data_pct_encoded_attribute("data:text/plain;ch%61rset=utf-8,x")]
fn scheme_accepts(#[case] input: &str) {
    let input = if input.starts_with(';') {
        format!("data:{input}")
    } else {
        input.to_string()
    };
    match scheme_check(&input) {
        Some(Ok(())) => {}
        Some(Err(e)) => panic!("{input:?}: {e}"),
        None => panic!("{input:?}: no grammar"),
    }
}

#[rstest]
// RFC 9110 4.2.1: authority required, host not empty
#[case::http_no_authority("http:/a", "RFC 9110", 4)]
#[case::http_rootless("http:example.com", "RFC 9110", 4)]
#[case::http_empty_host("http:///a", "RFC 9110", 7)]
// pest reports the furthest byte: ":443" could have been a userinfo followed by "@".
#[case::https_empty_host("https://:443/", "RFC 9110", 12)]
#[case::http_empty("http://", "RFC 9110", 7)]
#[case::http_userinfo_no_host("http://user@/", "RFC 9110", 12)]
// RFC 8141 section 2
#[case::urn_nid_one_char("urn:a:b", "RFC 8141", 5)]
#[case::urn_nid_leading_hyphen("urn:-ab:x", "RFC 8141", 4)]
#[case::urn_nid_trailing_hyphen("urn:ab-:x", "RFC 8141", 7)]
#[case::urn_nid_33("urn:abcdefghijklmnopqrstuvwxyz-123456:x", "RFC 8141", 36)]
#[case::urn_empty_nss("urn:example:", "RFC 8141", 12)]
#[case::urn_nss_slash_first("urn:example:/a", "RFC 8141", 12)]
#[case::urn_bare_query("urn:example:a?x", "RFC 8141", 13)]
#[case::urn_empty_q("urn:example:a?=", "RFC 8141", 15)]
#[case::urn_authority("urn://example/a", "RFC 8141", 4)]
// RFC 6068 section 2
#[case::mailto_no_at("mailto:no-at-sign", "RFC 6068", 17)]
#[case::mailto_amp_in_address("mailto:joe&sons@example.com", "RFC 6068", 10)]
#[case::mailto_trailing_comma("mailto:a@example.com,", "RFC 6068", 21)]
#[case::mailto_slash_in_hfvalue("mailto:a@example.com?subject=a/b", "RFC 6068", 30)]
#[case::mailto_hfield_without_equals("mailto:a@example.com?subject", "RFC 6068", 28)]
#[case::mailto_authority("mailto://a@example.com", "RFC 6068", 7)]
// dtext-no-obs excludes "[", "]" and "\\" (RFC 6068 section 2), encoded or not
#[case::mailto_domain_literal_inner_bracket("mailto:a@%5Bx%5By%5D", "RFC 6068", 15)]
#[case::mailto_domain_literal_backslash("mailto:a@%5Bx%5Cy%5D", "RFC 6068", 15)]
// qtext and quoted-pair hold no control character and no unescaped space (RFC 5322 3.2.4; RFC 6068
// section 2, items 2 and 3)
#[case::mailto_quoted_nul("mailto:%22a%00b%22@example.org", "RFC 6068", 12)]
// (pest does not track character ranges, so the error points at the first hex digit of the octet)
#[case::mailto_quoted_space("mailto:%22a%20b%22@example.org", "RFC 6068", 12)]
#[case::mailto_quoted_escaped_nul("mailto:%22a%5C%00b%22@example.org", "RFC 6068", 15)]
// RFC 8089 section 2 (Appendix E forms are nonstandard)
#[case::file_drive_letter("file:c:/path/to/file", "RFC 8089", 5)]
#[case::file_no_path("file://localhost", "RFC 8089", 16)]
#[case::file_unc("file:////host/share/file", "RFC 8089", 8)]
#[case::file_userinfo("file://user@host/x", "RFC 8089", 11)]
#[case::file_port("file://host:21/x", "RFC 8089", 11)]
#[case::file_relative("file:etc/fstab", "RFC 8089", 5)]
// RFC 2397 section 3
#[case::data_no_comma("data:text/plain", "RFC 2397", 15)]
#[case::data_empty_subtype("data:text/;x=1,a", "RFC 2397", 10)]
#[case::data_parameter_without_value("data:text/plain;charset,x", "RFC 2397", 23)]
#[case::data_authority("data://x,y", "RFC 2397", 5)]
// a tspecial (RFC 2045 5.1) is not a token character, encoded or not
#[case::data_pct_encoded_tspecial_in_subtype("data:text/x%22y,abc", "RFC 2397", 13)]
fn scheme_rejects(#[case] input: &str, #[case] rfc: &str, #[case] offset: usize) {
    match scheme_check(input) {
        Some(Err(e)) => {
            assert!(e.citation().starts_with(rfc), "{input:?}: {}", e.citation());
            assert!(e.to_string().contains(rfc));
            assert_eq!(e.parse_error().offset(), offset, "{input:?}: {e}");
            assert_eq!(
                e.scheme(),
                input.split(':').next().unwrap().to_ascii_lowercase()
            );
        }
        Some(Ok(())) => panic!("{input:?} should break its scheme's grammar"),
        None => panic!("{input:?}: no grammar"),
    }
}

#[test]
fn scheme_rfc2397_example_with_bad_percent_is_not_a_uri() {
    // RFC 2397 section 4's "%be%fg%be" has an invalid pct-encoded ("%fg"): the generic grammar rejects it.
    assert!(UriRef::parse("data:text/plain;charset=iso-8859-7,%be%fg%be").is_err());
    assert_eq!(
        scheme_check("data:text/plain;charset=iso-8859-7,%be%d3%be"),
        Some(Ok(()))
    );
}

#[rstest]
#[case::relative("//example.com/a")]
#[case::unknown_scheme("foo:bar")]
#[case::ftp("ftp://example.com/")]
fn scheme_without_grammar_is_none(#[case] input: &str) {
    assert_eq!(scheme_check(input), None);
}

#[test]
fn scheme_grammars_from_dir_match_builtin() {
    let dir = SchemeGrammars::from_dir("schemes").unwrap();
    let names: Vec<&str> = dir.schemes().collect();
    assert_eq!(names, ["data", "file", "http", "https", "mailto", "urn"]);
    assert_eq!(
        SchemeGrammars::builtin().schemes().collect::<Vec<_>>(),
        names
    );
    let u = UriRef::parse("https:///x").unwrap();
    assert!(matches!(dir.check(&u), Some(Err(_))));
    // Every scheme grammar defines the entry rule and cites its RFC first.
    for scheme in names {
        let g = dir.grammar(scheme).unwrap();
        assert!(g.entry(SCHEME_ENTRY_RULE).is_ok());
        assert!(g.header().next().unwrap().starts_with("RFC "), "{scheme}");
    }
}

#[test]
fn scheme_grammar_gives_components() {
    let g = SchemeGrammars::builtin().grammar("HTTPS").unwrap();
    let u = g
        .parse(SCHEME_ENTRY_RULE, "https://user@example.com:8443/a?b")
        .unwrap();
    assert_eq!(u.scheme(), Some("https"));
    assert_eq!(u.host_str(), Some("example.com"));
    assert_eq!(u.port(), Some("8443"));
    assert_eq!(u.path(), Some("/a"));
    assert_eq!(u.query(), Some("b"));
}

#[test]
fn scheme_grammar_errors_keep_file_lines() {
    let mut s = SchemeGrammars::new();
    let e = s
        .add(
            "x",
            "//! RFC 0 section 0\n\nscheme_uri = { scheme ~ \":\" ~ nope }\n",
        )
        .unwrap_err();
    let at: Vec<(usize, usize)> = e.issues().iter().map(|i| (i.line(), i.column())).collect();
    assert_eq!(at, [(3, 31)], "{e}");
    let e = s.add("x", "//! RFC 0\nother = { \"x\" }\n").unwrap_err();
    assert!(e.to_string().contains(SCHEME_ENTRY_RULE), "{e}");
    s.add(
        "x",
        "//! RFC 0\n//! Schemes: x, y\nscheme_uri = { scheme ~ \":x\" }\n",
    )
    .unwrap();
    assert_eq!(s.schemes().collect::<Vec<_>>(), ["x", "y"]);
    assert_eq!(s.check(&UriRef::parse("Y:x").unwrap()), Some(Ok(())));
    assert!(matches!(
        s.check(&UriRef::parse("y:z").unwrap()),
        Some(Err(_))
    ));
}

#[test]
fn grammar_files_have_headers() {
    for text in [
        include_str!("../../../grammars/iri.pest"),
        include_str!("../../../grammars/ipv6-zone-id.pest"),
        include_str!("../../../schemes/http.pest"),
        include_str!("../../../schemes/urn.pest"),
        include_str!("../../../schemes/mailto.pest"),
        include_str!("../../../schemes/file.pest"),
        include_str!("../../../schemes/data.pest"),
    ] {
        assert!(text.starts_with("//! "));
    }
}

/// `grammars/ipv6-zone-id.pest` is an overlay: only the three rules RFC 6874 changes or adds; loaded on
/// top of uri.pest it gives the same answers as the full grammar it replaces (RFC 6874 section 2).
#[rstest]
#[case::zone("http://[fe80::1%25eth0]/", true)]
#[case::zone_with_port("http://[fe80::a%25en1]:8080/p", true)]
#[case::bare_percent("http://[fe80::1%eth0]/", false)]
#[case::empty_zone("http://[fe80::1%25]/", false)]
#[case::plain_ipv6("http://[::1]/", true)]
#[case::ipvfuture("//[v1.x]", true)]
fn zone_id_overlay(#[case] input: &str, #[case] valid: bool) {
    let text = include_str!("../../../grammars/ipv6-zone-id.pest");
    assert!(
        Grammar::load(text).is_err(),
        "an overlay does not stand alone"
    );
    let overlay = Grammar::overlay(text).unwrap();
    assert_eq!(
        overlay.parse("URI-reference", input).is_ok(),
        valid,
        "{input}"
    );
    assert_eq!(zone().parse("URI-reference", input).is_ok(), valid);
    assert!(text.lines().filter(|l| l.contains(" = ")).count() <= 9);
}

/// A value of a reference type is made only from a reference rule of its own specification (RFC 3986
/// 4.1 for a `UriRef`, RFC 3987 2.2 for an `IriRef`): a match of the IRI grammar's `IRI-reference` is
/// refused as a `UriRef` (even on ASCII text, which both grammars accept) and becomes an `IriRef` with
/// the same components as `IriRef::parse`; a match of `uri.pest`'s `URI-reference` is refused as an
/// `IriRef`; a match of a non-reference rule is neither.
#[rstest]
#[case::iri_reference_ascii("IRI-reference", "http://a/b?q#f")]
#[case::iri_reference_unicode("IRI-reference", "//\u{e9}.example/caf\u{e9}?\u{e000}")]
#[case::iri("IRI", "http://\u{4f8b}.jp/a")]
#[case::irelative_ref("irelative-ref", "../d\u{fc}rst")]
#[case::absolute_iri("absolute-IRI", "urn:\u{e9}")]
fn iri_rules_give_iri_refs_not_uri_refs(#[case] rule: &str, #[case] input: &str) {
    let matched = iri().parse(rule, input).unwrap();
    let refused = matched.clone().into_uri_ref().unwrap_err();
    assert_eq!(refused.rule_name(), rule);
    assert!(
        refused.to_string().contains("not a URI reference"),
        "{refused}"
    );
    assert!(matches!(
        iri().entry(rule).unwrap().parse_uri_ref(input),
        Err(RuntimeParseError::NotAReference(_))
    ));
    let iri_ref = matched.into_iri_ref().unwrap();
    assert_eq!(iri_ref, rfc3986::iri::IriRef::parse(input).unwrap());
    assert_eq!(
        format!("{iri_ref:?}"),
        format!("{:?}", rfc3986::iri::IriRef::parse(input).unwrap())
    );
}

#[rstest]
#[case::uri_reference_as_iri(&runtime_uri_pest, "URI-reference", "http://a/b", true)]
#[case::host_as_iri(&iri, "ihost", "\u{e9}.example", false)]
#[case::ipath_as_iri(&iri, "ipath-absolute", "/caf\u{e9}", false)]
fn other_rules_are_not_iri_refs(
    #[case] grammar: &dyn Fn() -> &'static Grammar,
    #[case] rule: &str,
    #[case] input: &str,
    #[case] is_uri_reference: bool,
) {
    let matched = grammar().parse(rule, input).unwrap();
    let refused = matched.clone().into_iri_ref().unwrap_err();
    assert_eq!(refused.rule_name(), rule);
    assert!(
        refused.to_string().contains("not an IRI reference"),
        "{refused}"
    );
    assert_eq!(matched.into_uri_ref().is_ok(), is_uri_reference);
}
