//! `repair::fix` (RFC 3986 2.1, 2.4, 2.5, 3.2.2, 3.5; RFC 3987 3.1): the RFCs' own examples, what is
//! refused and why, and the invariants over arbitrary strings and near-URIs made from the corpus sample:
//! a result always passes the grammar, a valid input is left alone, fixing is idempotent, and a repair
//! only percent-encodes the character it found.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use rfc3986::percent::decode_utf8;
use rfc3986::repair::{fix, Cause, Fixed, Reason};
use rfc3986::{validate, ParseErrorKind, Rule};
use rstest::rstest;

/// The input with each repair applied, built from the repairs alone.
fn apply(input: &str, fixed: &Fixed) -> String {
    let mut out = String::new();
    let mut copied = 0;
    for r in fixed.repairs() {
        out.push_str(&input[copied..r.offset()]);
        out.push_str(&r.replacement());
        copied = r.span().end;
    }
    out.push_str(&input[copied..]);
    out
}

/// Every invariant of a successful fix.
#[track_caller]
fn assert_good_fix(input: &str, fixed: &Fixed) {
    validate(Rule::URI_REFERENCE, fixed.as_str())
        .unwrap_or_else(|e| panic!("{input:?} -> {:?}: {e}", fixed.as_str()));
    assert_eq!(apply(input, fixed), fixed.as_str(), "{input:?}");
    let mut last = None;
    for r in fixed.repairs() {
        assert_eq!(input[r.span()].chars().next(), Some(r.found()), "{input:?}");
        assert_eq!(
            decode_utf8(&r.replacement()).unwrap(),
            r.found().to_string()
        );
        assert!(last < Some(r.offset()), "repairs in order: {input:?}");
        last = Some(r.offset());
    }
    let again = fix(fixed.as_str()).expect("a fixed URI fixes again");
    assert_eq!(again.as_str(), fixed.as_str());
    assert!(again.repairs().is_empty(), "idempotent: {input:?}");
}

#[rstest]
// RFC 3987 3.1: "http://r&#xE9;sum&#xE9;.example.org" maps to "http://r%C3%A9sum%C3%A9.example.org".
#[case::rfc3987_3_1_resume("http://r\u{E9}sum\u{E9}.example.org", "http://r%C3%A9sum%C3%A9.example.org", &[(8, Reason::NonAscii), (13, Reason::NonAscii)])]
// RFC 3987 3.1 also shows "ros%C3%A9" for "rosé" in a path.
#[case::rfc3987_rose_in_path("http://www.example.org/red%09ros\u{E9}#red", "http://www.example.org/red%09ros%C3%A9#red", &[(32, Reason::NonAscii)])]
// RFC 3986 2.1: a space is %20.
#[case::rfc3986_2_1_space("capi3ref.html#SQLITE_DBSTATUS options", "capi3ref.html#SQLITE_DBSTATUS%20options", &[(29, Reason::Space)])]
#[case::space_in_mailto("mailto:a at b.org", "mailto:a%20at%20b.org", &[(8, Reason::Space), (11, Reason::Space)])]
// RFC 3986 2.4: "%" as data is "%25".
#[case::rfc3986_2_4_lone_percent("/100%", "/100%25", &[(4, Reason::PercentSign)])]
#[case::percent_before_non_hex("#%_sec_6.2", "#%25_sec_6.2", &[(1, Reason::PercentSign)])]
#[case::percent_one_hexdig_at_end("/a%2", "/a%252", &[(2, Reason::PercentSign)])]
#[case::pct_encoded_kept("/%41%zz", "/%41%25zz", &[(4, Reason::PercentSign)])]
// RFC 3986 3.5: the fragment has no "#".
#[case::rfc3986_3_5_second_hash("a#b#c", "a#b%23c", &[(3, Reason::SecondHash)])]
#[case::double_hash("fileformat2.html##sqltab", "fileformat2.html#%23sqltab", &[(17, Reason::SecondHash)])]
#[case::every_later_hash("https://matrix.to/#/#a:b#c", "https://matrix.to/#/%23a:b%23c", &[(20, Reason::SecondHash), (24, Reason::SecondHash)])]
// RFC 3986 3.2.2: brackets only enclose an IP-literal.
#[case::bracket_in_path("/a[1]", "/a%5B1%5D", &[(2, Reason::Bracket), (4, Reason::Bracket)])]
#[case::bracket_in_query("/p?x[]=1", "/p?x%5B%5D=1", &[(4, Reason::Bracket), (5, Reason::Bracket)])]
#[case::bracket_in_fragment("svn+http://h@rev#egg=F[baz]", "svn+http://h@rev#egg=F%5Bbaz%5D", &[(22, Reason::Bracket), (26, Reason::Bracket)])]
#[case::ipv6_literal_kept_bracket_in_path("http://[::1]/[x]", "http://[::1]/%5Bx%5D", &[(13, Reason::Bracket), (15, Reason::Bracket)])]
// RFC 3986 2, Appendix A: characters no rule has.
#[case::angle_brackets_inside("?search=Iterator<T>", "?search=Iterator%3CT%3E", &[(16, Reason::NotAllowed), (18, Reason::NotAllowed)])]
#[case::pipe_caret_backslash("/a|b^c\\e", "/a%7Cb%5Ec%5Ce", &[(2, Reason::NotAllowed), (4, Reason::NotAllowed), (6, Reason::NotAllowed)])]
#[case::lone_closing_brace("http://www.w3.org/2010/xml-c14n2}Attr", "http://www.w3.org/2010/xml-c14n2%7DAttr", &[(32, Reason::NotAllowed)])]
#[case::json_braces_not_a_template("/q={\"a\":1}", "/q=%7B%22a%22:1%7D", &[(3, Reason::NotAllowed), (4, Reason::NotAllowed), (6, Reason::NotAllowed), (9, Reason::NotAllowed)])]
#[case::nul_and_del("/a\0b\x7f", "/a%00b%7F", &[(2, Reason::NotAllowed), (4, Reason::NotAllowed)])]
#[case::four_byte_utf8("#\u{1F600}", "#%F0%9F%98%80", &[(1, Reason::NonAscii)])]
#[case::non_ascii_host("https://www.\u{430}pple.com/", "https://www.%D0%B0pple.com/", &[(12, Reason::NonAscii)])]
#[case::everything("/a b#c%#d[é]", "/a%20b#c%25%23d%5B%C3%A9%5D", &[(2, Reason::Space), (6, Reason::PercentSign), (7, Reason::SecondHash), (9, Reason::Bracket), (10, Reason::NonAscii), (12, Reason::Bracket)])]
fn fix_repairs(#[case] input: &str, #[case] expected: &str, #[case] repairs: &[(usize, Reason)]) {
    let fixed = fix(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(fixed.as_str(), expected);
    let got: Vec<_> = fixed
        .repairs()
        .iter()
        .map(|r| (r.offset(), r.reason()))
        .collect();
    assert_eq!(got, repairs);
    assert_good_fix(input, &fixed);
}

#[rstest]
#[case::rfc6570_template(
    "https://{bucket}.example.com/",
    Cause::Template,
    8,
    ParseErrorKind::Brace
)]
#[case::rfc6570_operator("/search{?q,lang}", Cause::Template, 7, ParseErrorKind::Brace)]
#[case::python_format_empty(
    "https://storage.googleapis.com/{}/{}",
    Cause::Template,
    31,
    ParseErrorKind::Brace
)]
#[case::template_cut_short("https://{$univers", Cause::Template, 8, ParseErrorKind::Brace)]
#[case::upper_case_bracket_placeholder(
    "gs://b/[OBJECT_NAME]",
    Cause::Template,
    7,
    ParseErrorKind::Bracket
)]
#[case::printf(
    "s://%s%s",
    Cause::FormatPlaceholder,
    4,
    ParseErrorKind::InvalidPercentEncoding
)]
#[case::printf_percent_percent(
    "/%%project%%",
    Cause::FormatPlaceholder,
    1,
    ParseErrorKind::InvalidPercentEncoding
)]
#[case::printf_in_port(
    "http://localhost:%d",
    Cause::FormatPlaceholder,
    17,
    ParseErrorKind::InvalidPort
)]
#[case::regex(
    "s3://([^/]+)/([^/]+/)*([^/]+)$",
    Cause::RegularExpression,
    6,
    ParseErrorKind::Bracket
)]
#[case::regex_alternation(
    "https://console.(?:cloud|developers).google.com",
    Cause::RegularExpression,
    24,
    ParseErrorKind::InvalidCharacter
)]
#[case::markdown(
    "https://docs.rs/http/badge.svg)][dox",
    Cause::Markup,
    31,
    ParseErrorKind::Bracket
)]
#[case::rfc3986_appendix_c_angle_brackets(
    "<http://a/>",
    Cause::Delimiters,
    0,
    ParseErrorKind::InvalidCharacter
)]
#[case::rfc3986_appendix_c_quotes(
    "\"http://a/\"",
    Cause::Delimiters,
    0,
    ParseErrorKind::InvalidCharacter
)]
#[case::leading_space(" http://a/", Cause::Whitespace, 0, ParseErrorKind::Space)]
#[case::trailing_space("http://a/b c ", Cause::Whitespace, 12, ParseErrorKind::Space)]
#[case::tab_inside(
    "http://a/b\tc",
    Cause::Whitespace,
    10,
    ParseErrorKind::InvalidCharacter
)]
#[case::rfc3986_3_2_3_port("http://host:port/", Cause::Syntax, 12, ParseErrorKind::InvalidPort)]
#[case::rfc3986_3_2_2_not_ip_literal(
    "gs://[b]/o",
    Cause::Syntax,
    7,
    ParseErrorKind::InvalidIpLiteral
)]
#[case::zone_id(
    "http://[fe80::1%25eth0]/",
    Cause::Syntax,
    15,
    ParseErrorKind::InvalidIpLiteral
)]
#[case::bracket_after_host("cfg://adict[f]", Cause::Syntax, 11, ParseErrorKind::Bracket)]
#[case::rfc3986_4_2_colon_in_first_segment(
    "git@github.com:a/b",
    Cause::Syntax,
    14,
    ParseErrorKind::Unexpected
)]
#[case::non_ascii_scheme("h\u{E9}:x", Cause::Syntax, 3, ParseErrorKind::Unexpected)]
#[case::rfc3986_3_2_2_space_in_host("http://exa mple.com/", Cause::Host, 10, ParseErrorKind::Space)]
#[case::rfc3986_3_2_2_pipe_in_host(
    "http://a|b.example/",
    Cause::Host,
    8,
    ParseErrorKind::InvalidCharacter
)]
#[case::rfc3986_3_2_2_lone_percent_in_host(
    "//a%b/",
    Cause::Host,
    3,
    ParseErrorKind::InvalidPercentEncoding
)]
fn fix_refuses(
    #[case] input: &str,
    #[case] cause: Cause,
    #[case] offset: usize,
    #[case] kind: ParseErrorKind,
) {
    let e = fix(input).expect_err(input);
    assert_eq!(
        (e.cause(), e.offset(), e.error().kind()),
        (cause, offset, kind),
        "{input:?}: {e}"
    );
    assert!(validate(Rule::URI_REFERENCE, e.partial()).is_err());
    // The error's offset is into the partial text, and points at the same place.
    assert!(e.error().offset() >= e.offset());
    assert!(e
        .to_string()
        .starts_with(&format!("cannot repair at byte {offset}: ")));
}

/// Repairs made before the stop are kept: the space is encoded, the port stops it.
#[test]
fn fix_unrepairable_keeps_partial_repairs() {
    let e = fix("http://a b:x/").unwrap_err();
    assert_eq!(e.partial(), "http://a%20b:x/");
    assert_eq!(e.repairs().len(), 1);
    assert_eq!((e.offset(), e.error().offset()), (11, 13));
}

/// RFC 3986's own examples (1.1.2, 5.4) and the corpus sample are URI references: left as they are.
#[test]
fn fix_leaves_valid_references_alone() {
    let sample = include_str!("../../data/real-uris-sample.txt");
    let rfc = [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "g;x?y#s",
        "../../../g",
        "",
        "#",
        "?",
    ];
    for line in sample.lines().chain(rfc) {
        if validate(Rule::URI_REFERENCE, line).is_ok() {
            let fixed = fix(line).unwrap();
            assert_eq!(fixed.as_str(), line);
            assert!(fixed.repairs().is_empty(), "{line:?}");
        }
    }
}

/// Hostile input: a 1 MiB line of spaces and of lone "%" (one encoding pass), of "#" and of "[" (one
/// batch each).
/// The check is on what was produced, and on growth: 16 times the input must not take anywhere near 256
/// times as long (what one parse per character would cost).
#[test]
fn fix_hostile_inputs_are_linear() {
    const MIB: usize = 1 << 20;
    for (fill, expected) in [(" ", "%20"), ("#", "%23"), ("[", "%5B"), ("%_", "%25_")] {
        let input = format!("/a#{}b", fill.repeat(MIB / fill.len()));
        let fixed = fix(&input).unwrap_or_else(|e| panic!("{fill:?}: {}", e.cause()));
        assert_eq!(fixed.repairs().len(), MIB / fill.len());
        assert_eq!(fixed.as_str().len(), input.len() + 2 * MIB / fill.len());
        assert!(fixed.as_str()[3..].starts_with(expected));
    }
    let time = |n: usize| {
        let input = format!("/a{}#{}", " [%".repeat(n), "#".repeat(n));
        (0..3)
            .map(|_| {
                let start = Instant::now();
                let fixed = fix(&input).unwrap_or_else(|e| panic!("{}", e.cause()));
                assert_eq!(fixed.repairs().len(), 4 * n);
                start.elapsed()
            })
            .min()
            .unwrap()
            .max(Duration::from_micros(100))
    };
    let small = time(16 * 1024);
    let large = time(256 * 1024);
    assert!(large < small * 64, "16x input took {large:?} vs {small:?}");
}

/// Near-URIs: a corpus line with one character no URI allows at its place put in somewhere.
fn near_uri() -> impl Strategy<Value = String> {
    let sample: Vec<&'static str> = include_str!("../../data/real-uris-sample.txt")
        .lines()
        .collect();
    let junk = prop::sample::select(vec![
        " ",
        "é",
        "变",
        "|",
        "^",
        "<",
        ">",
        "\\",
        "{",
        "}",
        "\"",
        "`",
        "%",
        "%z",
        "#",
        "[",
        "]",
        "\u{7}",
        "\u{1F600}",
        "{x}",
        "%s",
        "\t",
        "\u{202e}",
    ]);
    (
        prop::sample::select(sample),
        prop::collection::vec((any::<prop::sample::Index>(), junk), 1..4),
    )
        .prop_map(|(line, inserts)| {
            let mut s = line.to_string();
            for (at, junk) in inserts {
                let mut i = at.index(s.len() + 1);
                while !s.is_char_boundary(i) {
                    i -= 1;
                }
                s.insert_str(i, junk);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Whatever the input: a result is in the grammar, rebuilt from the input and its repairs alone,
    /// each repair decodes to the character it replaced, and fixing again changes nothing. A refusal
    /// leaves text the grammar rejects.
    #[test]
    fn fix_invariants_on_any_string(input in any::<String>()) {
        match fix(&input) {
            Ok(fixed) => assert_good_fix(&input, &fixed),
            Err(e) => prop_assert!(validate(Rule::URI_REFERENCE, e.partial()).is_err()),
        }
    }

    #[test]
    fn fix_invariants_on_near_uris(input in near_uri()) {
        match fix(&input) {
            Ok(fixed) => assert_good_fix(&input, &fixed),
            Err(e) => {
                prop_assert!(validate(Rule::URI_REFERENCE, e.partial()).is_err());
                prop_assert!(e.offset() <= input.len());
            }
        }
    }

    /// Text made of the characters of URIs and of the usual mistakes: the same invariants.
    #[test]
    fn fix_invariants_on_uri_alphabet(input in "[a-z:/?#\\[\\]@%0-9A-F .é|{}<>]{0,24}") {
        match fix(&input) {
            Ok(fixed) => assert_good_fix(&input, &fixed),
            Err(e) => prop_assert!(validate(Rule::URI_REFERENCE, e.partial()).is_err()),
        }
    }
}
