//! Error layer: offsets, expected items (in ABNF spelling), kinds and messages of rejected input, the
//! caret of `render`, invalid UTF-8, and large inputs.

use rfc3986::{validate, validate_bytes, ParseError, ParseErrorKind, Rule, Uri, UriRef};
use rstest::rstest;

#[track_caller]
fn parse_err(input: &str) -> ParseError {
    match UriRef::parse(input) {
        Ok(r) => panic!("{input:?} should be rejected, parsed as {r:?}"),
        Err(e) => e,
    }
}

fn expected_items(e: &ParseError) -> Vec<String> {
    e.expected().iter().map(ToString::to_string).collect()
}

#[track_caller]
fn assert_error(input: &str, offset: usize, kind: ParseErrorKind, expected: &[&str]) -> ParseError {
    let e = parse_err(input);
    assert_eq!(e.offset(), offset, "offset for {input:?}: {e}");
    assert_eq!(e.kind(), kind, "kind for {input:?}: {e}");
    assert_eq!(
        e.found(),
        input[offset..].chars().next(),
        "found for {input:?}"
    );
    assert_eq!(e.rule(), Rule::URI_REFERENCE);
    let items = expected_items(&e);
    for x in expected {
        assert!(
            items.iter().any(|i| i == x),
            "{input:?}: expected items {items:?} lack {x}"
        );
    }
    let message = e.to_string();
    assert!(!message.contains('\n'), "Display is one line: {message:?}");
    assert!(!message.ends_with('.'), "no period: {message:?}");
    assert!(
        message.starts_with(|c: char| !c.is_uppercase()),
        "lower case: {message:?}"
    );
    for x in &items {
        assert!(
            message.contains(x.as_str()),
            "{message:?} does not list {x}"
        );
    }
    e
}

/// After a path segment (RFC 3986 3.3, 3.4, 3.5, 4.1) only these can follow.
const AFTER_SEGMENT: &[&str] = &["pchar", "\"/\"", "\"?\"", "\"#\"", "end of input"];

#[rstest]
#[case::space_in_path("http://a/b c", 10, ParseErrorKind::Space)]
#[case::brace_in_path("/a}", 2, ParseErrorKind::Brace)]
#[case::open_brace_in_path("/a{b}", 2, ParseErrorKind::Brace)]
#[case::bracket_in_path("/a[1]", 2, ParseErrorKind::Bracket)]
#[case::bracket_in_path_after_authority("http://a/[", 9, ParseErrorKind::Bracket)]
#[case::closing_bracket_in_path("/a]", 2, ParseErrorKind::Bracket)]
#[case::non_ascii("http://a/é", 9, ParseErrorKind::NonAscii)]
#[case::tab("http://a/b\tc", 10, ParseErrorKind::InvalidCharacter)]
#[case::pipe("/a|b", 2, ParseErrorKind::InvalidCharacter)]
#[case::backslash("/a\\b", 2, ParseErrorKind::InvalidCharacter)]
#[case::angle("/a<b>", 2, ParseErrorKind::InvalidCharacter)]
#[case::quote("/a\"", 2, ParseErrorKind::InvalidCharacter)]
fn error_in_path(#[case] input: &str, #[case] offset: usize, #[case] kind: ParseErrorKind) {
    let e = assert_error(input, offset, kind, AFTER_SEGMENT);
    let mut items = expected_items(&e);
    items.sort();
    let mut after: Vec<String> = AFTER_SEGMENT.iter().map(|s| s.to_string()).collect();
    after.sort();
    assert_eq!(items, after, "{input:?}");
}

/// RFC 3986 2.1: `pct-encoded = "%" HEXDIG HEXDIG`; the error is at the byte that is not a hex digit.
#[rstest]
#[case::not_hex("%GG", 1)]
#[case::not_hex_in_path("/a%GG", 3)]
#[case::second_not_hex("/a%4G", 4)]
#[case::in_host("http://%s/", 8)]
#[case::in_query("?a=%zz", 4)]
#[case::in_fragment("#%-1", 2)]
#[case::in_userinfo("//u%@h", 4)]
#[case::trailing("/a%", 3)]
#[case::trailing_one_digit("/a%4", 4)]
#[case::only_percent("%", 1)]
fn error_pct_encoded(#[case] input: &str, #[case] offset: usize) {
    let e = assert_error(
        input,
        offset,
        ParseErrorKind::InvalidPercentEncoding,
        &["HEXDIG"],
    );
    assert_eq!(expected_items(&e), ["HEXDIG"], "{input:?}");
    assert!(e.to_string().contains("RFC 3986 2.1"), "{e}");
}

/// RFC 3986 3.2.3: `port = *DIGIT`; the error is at the first non-digit of the port.
#[rstest]
#[case::word("http://google.com:foo", 18)]
#[case::word_then_path("http://h:port/", 9)]
#[case::digits_then_letter("http://h:80a/", 11)]
#[case::with_userinfo("http://u@h:x/", 11)]
#[case::with_userinfo_colon("http://u:p@h:x/", 13)]
#[case::after_ipv6("http://[::1]:a/", 13)]
#[case::after_ipv6_with_userinfo("http://u:p@[::1]:a/", 17)]
#[case::userinfo_colon_then_ipv4("http://u:1@1.2.3.4:z", 19)]
#[case::second_colon("http://a:80:80/", 11)]
#[case::relative("//h:-1", 4)]
fn error_port(#[case] input: &str, #[case] offset: usize) {
    let e = assert_error(
        input,
        offset,
        ParseErrorKind::InvalidPort,
        &["DIGIT", "\"/\"", "\"?\"", "\"#\"", "end of input"],
    );
    assert!(e.to_string().contains("port"), "{e}");
}

/// RFC 3986 3.5: a fragment cannot contain "#".
#[rstest]
#[case::relative("a#b#c", 3)]
#[case::uri("http://a/#x#", 11)]
#[case::empty_fragments("##", 1)]
fn error_second_hash(#[case] input: &str, #[case] offset: usize) {
    let e = assert_error(
        input,
        offset,
        ParseErrorKind::SecondHash,
        &["pchar", "\"/\"", "\"?\"", "end of input"],
    );
    assert!(!expected_items(&e).iter().any(|x| x == "\"#\""));
}

/// RFC 3986 2.1, 2.5: non-ASCII characters must be percent-encoded as UTF-8 octets; the message says how.
#[rstest]
#[case::e_acute("http://a/é", 9, "%C3%A9")]
#[case::fragment("#también", 6, "%C3%A9")]
#[case::euro("/€", 1, "%E2%82%AC")]
#[case::four_bytes("?😀", 1, "%F0%9F%98%80")]
#[case::host("http://bücher.example/", 8, "%C3%BC")]
fn error_non_ascii(#[case] input: &str, #[case] offset: usize, #[case] encoded: &str) {
    let e = assert_error(input, offset, ParseErrorKind::NonAscii, &[]);
    assert!(e.to_string().contains(encoded), "{e}");
}

/// RFC 3986 3.2.2: an IP-literal holds an IPv6address or an IPvFuture; zone identifiers (RFC 6874) are
/// not part of RFC 3986.
#[test]
fn error_ip_literal_zone_id() {
    let e = assert_error(
        "http://[fe80::1%25eth0]/",
        15,
        ParseErrorKind::InvalidIpLiteral,
        &["HEXDIG", "\":\"", "\"]\""],
    );
    assert!(e.to_string().contains("zone"), "{e}");
}

#[rstest]
#[case::empty("http://[]/", 8)]
#[case::name("gs://[PROJECT]/", 6)]
#[case::too_many_groups("http://[1:2:3:4:5:6:7:8:9]/", 23)]
#[case::ipvfuture_without_dot("http://[v1]/", 10)]
fn error_ip_literal(#[case] input: &str, #[case] offset: usize) {
    assert_error(input, offset, ParseErrorKind::InvalidIpLiteral, &[]);
}

/// The input ends where the grammar needs more.
#[rstest]
#[case::ipv6_unclosed("http://[::1", &["\"]\"", "\":\"", "HEXDIG"])]
#[case::ipvfuture_unclosed("//[v1.x", &["\"]\""])]
#[case::ipvfuture_no_address("//[v1.", &[])]
fn error_unexpected_end(#[case] input: &str, #[case] expected: &[&str]) {
    let e = assert_error(input, input.len(), ParseErrorKind::UnexpectedEnd, expected);
    assert_eq!(e.found(), None);
}

/// RFC 3986 4.2: a relative-path reference cannot start with a segment that contains ":", and a scheme
/// starts with a letter.
#[rstest]
#[case::colon_first(":a", 0)]
#[case::digit_scheme("1a:b/c", 2)]
#[case::colon_in_first_segment("a%41:b", 4)]
fn error_unexpected(#[case] input: &str, #[case] offset: usize) {
    assert_error(input, offset, ParseErrorKind::Unexpected, &[]);
}

#[test]
fn error_colon_first_expected_items() {
    // URI: scheme starts with ALPHA; relative-ref: "//", "/", a segment-nz-nc, "?", "#" or nothing.
    let e = parse_err(":a");
    let mut items = expected_items(&e);
    items.sort();
    let mut want: Vec<String> = [
        "ALPHA",
        "segment-nz-nc",
        "\"//\"",
        "\"/\"",
        "\"?\"",
        "\"#\"",
        "end of input",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(items, want);
}

#[test]
fn error_rule_is_the_rule_matched() {
    assert_eq!(Uri::parse("/a").unwrap_err().rule(), Rule::URI);
    assert_eq!(
        Uri::parse_absolute("a:b#c").unwrap_err().rule(),
        Rule::ABSOLUTE_URI
    );
    assert_eq!(Uri::parse_absolute("a:b#c").unwrap_err().offset(), 3);
    assert_eq!(
        UriRef::parse_relative("a:b").unwrap_err().rule(),
        Rule::RELATIVE_REF
    );
    let e = validate(Rule::IPV4ADDRESS, "1.2.3.256").unwrap_err();
    assert_eq!(e.rule(), Rule::IPV4ADDRESS);
    // "25" is a dec-octet; the "6" cannot follow it.
    assert_eq!(e.offset(), 8);
}

/// The caret of `render` sits under the byte at the offset.
#[rstest]
#[case::space("http://a/b c")]
#[case::start(":a")]
#[case::end("http://[::1")]
#[case::port("http://google.com:foo")]
#[case::tab_escaped("http://a/b\tc\td")]
#[case::bidi_override_escaped("http://a/\u{202e}b c")]
#[case::escape_character_escaped("http://a/\u{1b}[31m c")]
fn annotate_caret(#[case] input: &str) {
    let e = parse_err(input);
    let rendered = e.annotate(input).to_string();
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(lines.len(), 2, "{rendered}");
    // Controls and bidi overrides are written as \u{..} escapes; nothing raw reaches a terminal.
    let mut shown = String::new();
    for c in input.chars() {
        if c.is_control() || c == '\u{202e}' {
            shown.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            shown.push(c);
        }
    }
    assert_eq!(lines[0], shown);
    // The caret sits under the offending character of the shown line.
    let caret = lines[1].find('^').unwrap();
    let before: String = {
        let mut b = String::new();
        for c in input[..e.offset()].chars() {
            if c.is_control() || c == '\u{202e}' {
                b.push_str(&format!("\\u{{{:x}}}", c as u32));
            } else {
                b.push(c);
            }
        }
        b
    };
    assert_eq!(caret, before.chars().count(), "{rendered}");
    assert!(lines[1][..caret].chars().all(|c| c == ' '));
    assert!(lines[1].ends_with(&e.message()));
    assert_eq!(
        e.annotate(input).without_message().to_string(),
        format!("{}\n{}^", lines[0], " ".repeat(caret))
    );
}

#[test]
fn render_caret_long_input() {
    let input = format!("http://a/{} b", "x".repeat(200));
    let e = parse_err(&input);
    assert_eq!(e.offset(), 209);
    let rendered = e.annotate(&input).to_string();
    let lines: Vec<&str> = rendered.lines().collect();
    let caret = lines[1].find('^').unwrap();
    // The caret points at the space in the text shown above it.
    assert_eq!(lines[0].as_bytes()[caret], b' ');
    assert!(lines[0].starts_with("..."));
    assert!(lines[0].len() < input.len());
}

/// `validate_bytes`: invalid UTF-8 is reported at the first byte that is not part of a UTF-8 sequence,
/// unless the grammar fails earlier.
#[rstest]
#[case::ff(b"/a\xffb", 2, ParseErrorKind::InvalidUtf8)]
#[case::first(b"\xff", 0, ParseErrorKind::InvalidUtf8)]
#[case::truncated_sequence(b"http://a/\xe2\x82", 9, ParseErrorKind::InvalidUtf8)]
#[case::lone_continuation(b"http://a/b?\x80", 11, ParseErrorKind::InvalidUtf8)]
#[case::overlong(b"/\xc0\xaf", 1, ParseErrorKind::InvalidUtf8)]
#[case::surrogate(b"/\xed\xa0\x80", 1, ParseErrorKind::InvalidUtf8)]
#[case::after_bad_percent(b"/a%\xff", 3, ParseErrorKind::InvalidUtf8)]
#[case::grammar_error_first(b"a b\xff", 1, ParseErrorKind::Space)]
#[case::valid_utf8_non_ascii(b"/\xc3\xa9", 1, ParseErrorKind::NonAscii)]
fn error_validate_bytes(#[case] input: &[u8], #[case] offset: usize, #[case] kind: ParseErrorKind) {
    let e = validate_bytes(Rule::URI_REFERENCE, input).unwrap_err();
    assert_eq!((e.offset(), e.kind()), (offset, kind), "{input:?}: {e}");
    assert_eq!(e.rule(), Rule::URI_REFERENCE);
    if kind == ParseErrorKind::InvalidUtf8 {
        assert!(e.to_string().contains("UTF-8"), "{e}");
        assert_eq!(
            std::str::from_utf8(input).unwrap_err().valid_up_to(),
            offset
        );
    }
}

/// Runs `f` on a thread with a 2 MiB stack (Rust's default for spawned threads), to show that nothing
/// depends on the main thread's larger stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no panic, no stack overflow")
}

const MIB: usize = 1 << 20;

#[test]
fn large_valid_input() {
    on_small_stack(|| {
        let input = format!("http://a/{}", "a".repeat(MIB));
        let r = UriRef::parse(&input).unwrap();
        assert_eq!(r.path().len(), MIB + 1);
        assert_eq!(r.to_string(), input);
        assert!(validate_bytes(Rule::URI_REFERENCE, input.as_bytes()).is_ok());
    });
}

#[test]
fn large_input_bad_byte_at_end() {
    on_small_stack(|| {
        let input = format!("http://a/{} ", "a".repeat(MIB));
        let e = UriRef::parse(&input).unwrap_err();
        assert_eq!(e.offset(), input.len() - 1);
        assert_eq!(e.kind(), ParseErrorKind::Space);
        assert!(e.expected().iter().any(|x| x.to_string() == "end of input"));
        let rendered = e.annotate(&input).to_string();
        assert!(rendered.len() < 1000, "render cuts long input");

        let mut bytes = format!("http://a/{}", "a".repeat(MIB)).into_bytes();
        let bad = bytes.len();
        bytes.push(0xff);
        let e = validate_bytes(Rule::URI_REFERENCE, &bytes).unwrap_err();
        assert_eq!((e.offset(), e.kind()), (bad, ParseErrorKind::InvalidUtf8));
    });
}

/// Suspected bug: above the detail parser's limit (64 KiB), a broken `pct-encoded` is reported at the
/// "%" (or earlier) with kind `Unexpected` and only "end of input" expected, while the same mistake in a
/// short input is reported at the byte that is not a hex digit with kind `InvalidPercentEncoding`.
#[test]
fn regression_large_input_bad_percent_offset() {
    on_small_stack(|| {
        let input = format!("?{}%4", "%41".repeat(MIB / 3));
        let e = UriRef::parse(&input).unwrap_err();
        assert_eq!(e.offset(), input.len());
        assert_eq!(e.kind(), ParseErrorKind::InvalidPercentEncoding);
    });
}

#[test]
fn many_segments() {
    on_small_stack(|| {
        let input = "/a".repeat(100_000);
        let r = UriRef::parse(&input).unwrap();
        assert_eq!(r.path_segments().count(), 100_000);
        let input = format!("http://h{}", "/".repeat(100_000));
        let r = UriRef::parse(&input).unwrap();
        assert_eq!(r.path().len(), 100_000);
        let input = format!("{}x", "../".repeat(100_000));
        assert!(UriRef::parse(&input).is_ok());
    });
}

/// Errors as data: each field on its own, none cut out of a string.
#[rstest]
#[case::space("http://a/b c", 10, 10..11, "space", Some("percent-encode a space as %20 (RFC 3986 2.1)"))]
#[case::end("http://[::1", 11, 11..11, "unexpected-end", None)]
#[case::bad_percent("/a%zz", 3, 3..4, "invalid-percent-encoding", Some("\"%\" must be followed by two hex digits (pct-encoded, RFC 3986 2.1)"))]
#[case::non_ascii("/é", 1, 1..3, "non-ascii", Some("a URI is ASCII: percent-encode the character's UTF-8 octets as %C3%A9 (RFC 3986 2.1, 2.5)"))]
#[case::port("http://h:8x/", 10, 10..11, "invalid-port", Some("a port is digits only (port = *DIGIT, RFC 3986 3.2.3)"))]
#[case::unexpected(":a", 0, 0..1, "unexpected", None)]
fn error_fields(
    #[case] input: &str,
    #[case] offset: usize,
    #[case] span: std::ops::Range<usize>,
    #[case] kind: &str,
    #[case] hint: Option<&str>,
) {
    let e = parse_err(input);
    assert_eq!(e.offset(), offset);
    assert_eq!(e.span(), span);
    assert_eq!(e.kind().name(), kind);
    assert_eq!(e.hint().as_deref(), hint);
    assert_eq!(e.found(), input[offset..].chars().next());
    // The short message says what was found, nothing more.
    assert!(!e.message().contains(';'), "{}", e.message());
    // Display: one line, with the position.
    let shown = e.to_string();
    assert!(!shown.contains('\n'));
    assert!(shown.starts_with(&format!("at byte {offset}: {}", e.message())));
    assert!(shown.ends_with(&e.expected_list()));
}

/// Expected items are folded: an item that a listed character class accepts entirely is left out
/// (computed from the grammar: `unreserved` holds ALPHA, DIGIT, "-", ".", "_", "~").
#[rstest]
#[case::reg_name_space("a b")]
#[case::path_space("http://a/b c")]
#[case::userinfo_space("//u b@h")]
#[case::query_space("?a b")]
fn expected_items_are_folded(#[case] input: &str) {
    let e = parse_err(input);
    let items: Vec<String> = e.expected().iter().map(ToString::to_string).collect();
    let has = |x: &str| items.iter().any(|i| i == x);
    if has("unreserved") || has("pchar") {
        for inner in ["ALPHA", "DIGIT", "\"-\"", "\".\"", "\"_\"", "\"~\""] {
            assert!(!has(inner), "{inner} listed with its class: {items:?}");
        }
    }
    if has("pchar") {
        for inner in ["unreserved", "sub-delims", "\":\"", "\"@\""] {
            assert!(!has(inner), "{inner} listed with pchar: {items:?}");
        }
    }
    assert!(!items.is_empty());
}

#[test]
fn expected_items_for_a_space_in_a_path() {
    let e = parse_err("http://a/b c");
    let items: Vec<String> = e.expected().iter().map(ToString::to_string).collect();
    assert_eq!(items, ["pchar", "\"?\"", "\"#\"", "\"/\"", "end of input"]);
}

#[test]
fn kind_names_are_stable_kebab_case() {
    use rfc3986::ParseErrorKind as K;
    for (kind, name) in [
        (K::UnexpectedEnd, "unexpected-end"),
        (K::Space, "space"),
        (K::InvalidPercentEncoding, "invalid-percent-encoding"),
        (K::Brace, "brace"),
        (K::Bracket, "bracket"),
        (K::InvalidIpLiteral, "invalid-ip-literal"),
        (K::InvalidPort, "invalid-port"),
        (K::SecondHash, "second-hash"),
        (K::NonAscii, "non-ascii"),
        (K::InvalidUtf8, "invalid-utf8"),
        (K::InvalidCharacter, "invalid-character"),
        (K::Unexpected, "unexpected"),
        (K::LimitReached, "limit-reached"),
    ] {
        assert_eq!(kind.name(), name);
    }
}

/// Hints that the rule and the input around the error give (issue: messages that could say what is
/// wrong): a relative reference where a URI is needed (RFC 3986 3, 4.2, 5.1), a fragment in an
/// absolute-URI (4.3), a dec-octet above 255 (3.2.2).
#[rstest]
#[case::relative_as_uri(Rule::URI, "/relative", "a URI begins with a scheme")]
#[case::relative_as_absolute_uri(Rule::ABSOLUTE_URI, "g?y", "a URI begins with a scheme")]
#[case::fragment_in_absolute_uri(
    Rule::ABSOLUTE_URI,
    "http://a/b#f",
    "an absolute-URI has no fragment"
)]
#[case::octet_256(
    Rule::IPV4ADDRESS,
    "1.2.3.256",
    "a dec-octet is a number from 0 to 255"
)]
#[case::octet_300(Rule::DEC_OCTET, "300", "a dec-octet is a number from 0 to 255")]
fn context_hints(#[case] rule: Rule, #[case] input: &str, #[case] hint: &str) {
    let e = validate(rule, input).unwrap_err();
    let got = e.hint().unwrap_or_default();
    assert!(got.starts_with(hint), "{got:?}");
    assert!(e.to_string().contains(hint));
}

#[rstest]
#[case::octet_in_range(Rule::IPV4ADDRESS, "1.2.3.4x")]
#[case::uri_with_scheme(Rule::URI, "http://a b")]
fn no_context_hint_where_it_does_not_apply(#[case] rule: Rule, #[case] input: &str) {
    let e = validate(rule, input).unwrap_err();
    let hint = e.hint().unwrap_or_default();
    assert!(
        !hint.contains("dec-octet") && !hint.contains("begins with a scheme"),
        "{hint}"
    );
}

/// `detail()` assembled from the parts, which do not go through the per-thread cache of details.
fn detail_of_parts(e: &ParseError) -> String {
    let mut parts = vec![e.message()];
    parts.extend(e.hint());
    if !e.expected().is_empty() {
        parts.push(e.expected_list());
    }
    parts.join("; ")
}

// The message names the character (quoted, with its code point when not ASCII; by code point alone when
// it is invisible) and the hint spells its UTF-8 octets percent-encoded (RFC 3986 2.1, 2.5).
#[rstest]
#[case::space(
    "/a b",
    "space not allowed here",
    Some("percent-encode a space as %20 (RFC 3986 2.1)")
)]
#[case::brace(
    "/a{b",
    "'{' not allowed here",
    Some("no URI contains braces: expand the template or percent-encode as %7B (RFC 3986 2.1)")
)]
#[case::control(
    "/a\u{1}b",
    "control character U+0001 not allowed here",
    Some("no URI contains it: percent-encode it as %01 (RFC 3986 2.1)")
)]
#[case::two_octets(
    "#tamb\u{e9}n",
    "'\u{e9}' (U+00E9) not allowed here",
    Some(
        "a URI is ASCII: percent-encode the character's UTF-8 octets as %C3%A9 (RFC 3986 2.1, 2.5)"
    )
)]
#[case::four_octets(
    "#a\u{1f600}",
    "'\u{1f600}' (U+1F600) not allowed here",
    Some("a URI is ASCII: percent-encode the character's UTF-8 octets as %F0%9F%98%80 (RFC 3986 2.1, 2.5)")
)]
#[case::bidi_control(
    "/a\u{202e}b",
    "invisible formatting character U+202E not allowed here",
    Some("a URI is ASCII: percent-encode the character's UTF-8 octets as %E2%80%AE (RFC 3986 2.1, 2.5)")
)]
#[case::end("http://[::1", "unexpected end of input", None)]
fn error_text_written_in_pieces(
    #[case] input: &str,
    #[case] message: &str,
    #[case] hint: Option<&str>,
) {
    let e = parse_err(input);
    assert_eq!(e.message(), message);
    assert_eq!(e.hint().as_deref(), hint);
    // The writers write what the `String` methods return.
    let mut written = String::new();
    e.write_message(&mut written).unwrap();
    assert_eq!(written, message);
    written.clear();
    assert_eq!(e.write_hint(&mut written).unwrap(), hint.is_some());
    assert_eq!(written, hint.unwrap_or(""));
    written.clear();
    e.write_expected_list(&mut written).unwrap();
    assert_eq!(written, e.expected_list());
    // Twice: once made, once from the cache of details.
    for _ in 0..2 {
        written.clear();
        e.write_detail(&mut written).unwrap();
        assert_eq!(written, detail_of_parts(&e));
        assert_eq!(e.to_string(), format!("at byte {}: {written}", e.offset()));
    }
}

/// Errors that share their list of expected items but not their character or kind each keep their own
/// detail, in whatever order they are written.
#[test]
fn regression_detail_cache_tells_errors_apart() {
    let inputs = [
        "#a\u{e9}", "#a\u{fc}", "#a b", "#a{", "#a|", "#a#", "#a%2", "/a b", "/a\u{e9}", "a:b c",
    ];
    let errors: Vec<ParseError> = inputs.iter().map(|i| parse_err(i)).collect();
    for round in 0..3 {
        for (i, e) in errors.iter().enumerate().rev().skip(round) {
            assert_eq!(e.detail(), detail_of_parts(e), "{:?}", inputs[i]);
        }
    }
}

/// A `fmt::Write` that writes another error's text while it is handed one (the per-thread cache of
/// details is then in use): no panic, and the same text.
#[test]
fn regression_write_detail_into_a_writer_that_writes_errors() {
    struct Nested<'e>(String, &'e ParseError);
    impl std::fmt::Write for Nested<'_> {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let inner = self.1.to_string();
            assert!(inner.starts_with("at byte "));
            self.0.push_str(s);
            Ok(())
        }
    }
    let outer = parse_err("/a b");
    let inner = parse_err("#a\u{e9}");
    let mut nested = Nested(String::new(), &inner);
    outer.write_detail(&mut nested).unwrap();
    assert_eq!(nested.0, detail_of_parts(&outer));
}
