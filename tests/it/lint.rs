//! Lint findings (SHOULD-level and security, RFC 3986 sections 2 to 7): which inputs trigger each code,
//! which must not, span correctness, order, and that no output repeats a password.

use rfc3986::lint::{lint, Code, Finding};
use rfc3986::{Uri, UriRef};
use rstest::rstest;

/// One minimal triggering input per code, with the exact text its span must slice out.
const TRIGGERS: &[(Code, &str, &str)] = &[
    (Code::SchemeNotLowercase, "HTTP://a/", "HTTP"),
    (Code::PctEncodedLowercaseHex, "/a%2fb", "%2f"),
    (Code::PctEncodedUnreserved, "/%7E", "%7E"),
    (Code::PctEncodedNul, "/a%00", "%00"),
    (Code::UserinfoPassword, "//user:hunter2@h/", "hunter2"),
    (
        Code::UserinfoLooksLikeHost,
        "http://www.example.com@evil.test/",
        "www.example.com",
    ),
    (Code::RegNameNotLowercase, "//Example.com", "Example.com"),
    (Code::RegNameNotDns, "//a_b.example", "a_b.example"),
    (Code::RegNameTooLong, LONG_HOST_URI, LONG_HOST),
    (Code::RegNameNotUtf8, "//a%FFb", "%FF"),
    (Code::RegNameNumeric, "//127.1/", "127.1"),
    (Code::Ipv6NotLowercase, "//[2001:DB8::1]/", "2001:DB8::1"),
    (Code::IpvFuture, "//[v7.x]/", "[v7.x]"),
    (Code::PortEmpty, "//h:/", ":"),
    (Code::PortDefault, "http://h:80/", ":80"),
    (Code::PortZero, "//h:0/", ":0"),
    (Code::PortOutOfRange, "//h:65536/", ":65536"),
    (
        Code::PathEncodedTraversal,
        "http://a/b/..%2F..%2Fetc",
        "..%2F..%2Fetc",
    ),
    (Code::PathDotSegments, "http://a/b/../c", ".."),
];

const LONG_HOST_URI: &str = concat!(
    "//",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "example",
    "/"
);
const LONG_HOST: &str = concat!(
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
    "example",
);

#[track_caller]
fn findings(input: &str) -> Vec<Finding> {
    let uri = UriRef::parse(input).unwrap_or_else(|e| panic!("{input:?} does not parse: {e}"));
    let findings = uri.lint();
    assert_eq!(findings, lint(&uri), "method and function differ");
    for f in &findings {
        assert!(f.start() <= f.end() && f.end() <= input.len(), "{f:?}");
        assert!(input.is_char_boundary(f.start()) && input.is_char_boundary(f.end()));
        assert_eq!(f.span(), (f.start(), f.end()));
    }
    findings
}

/// The spans (as text) of the findings of `code` on `input`.
#[track_caller]
fn slices(input: &str, code: Code) -> Vec<&str> {
    findings(input)
        .iter()
        .filter(|f| f.code() == code)
        .map(|f| &input[f.start()..f.end()])
        .collect()
}

#[track_caller]
fn assert_triggers(input: &str, code: Code, span_text: &str) {
    let found = slices(input, code);
    assert!(
        found.contains(&span_text),
        "{input:?}: expected {code} on {span_text:?}, got {:?}",
        findings(input)
    );
}

#[track_caller]
fn assert_not_triggers(input: &str, code: Code) {
    let found = slices(input, code);
    assert!(
        found.is_empty(),
        "{input:?}: unexpected {code} on {found:?}"
    );
}

#[rstest]
#[case::scheme_not_lowercase(Code::SchemeNotLowercase)]
#[case::pct_encoded_lowercase_hex(Code::PctEncodedLowercaseHex)]
#[case::pct_encoded_unreserved(Code::PctEncodedUnreserved)]
#[case::pct_encoded_nul(Code::PctEncodedNul)]
#[case::userinfo_password(Code::UserinfoPassword)]
#[case::userinfo_looks_like_host(Code::UserinfoLooksLikeHost)]
#[case::reg_name_not_lowercase(Code::RegNameNotLowercase)]
#[case::reg_name_not_dns(Code::RegNameNotDns)]
#[case::reg_name_too_long(Code::RegNameTooLong)]
#[case::reg_name_not_utf8(Code::RegNameNotUtf8)]
#[case::reg_name_numeric(Code::RegNameNumeric)]
#[case::ipv6_not_lowercase(Code::Ipv6NotLowercase)]
#[case::ipvfuture(Code::IpvFuture)]
#[case::port_empty(Code::PortEmpty)]
#[case::port_default(Code::PortDefault)]
#[case::port_zero(Code::PortZero)]
#[case::port_out_of_range(Code::PortOutOfRange)]
#[case::path_encoded_traversal(Code::PathEncodedTraversal)]
#[case::path_dot_segments(Code::PathDotSegments)]
fn lint_trigger(#[case] code: Code) {
    let &(_, input, span_text) = TRIGGERS
        .iter()
        .find(|(c, _, _)| *c == code)
        .unwrap_or_else(|| panic!("no trigger for {code}"));
    assert_triggers(input, code, span_text);
}

#[test]
fn lint_every_code_has_a_trigger() {
    for &code in Code::ALL {
        let Some(&(_, input, span_text)) = TRIGGERS.iter().find(|(c, _, _)| *c == code) else {
            panic!("Code::{code:?} has no triggering case in TRIGGERS");
        };
        assert_triggers(input, code, span_text);
    }
    assert_eq!(TRIGGERS.len(), Code::ALL.len());
}

#[test]
fn lint_codes_are_stable_names() {
    let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    for (code, name) in Code::ALL.iter().zip(&names) {
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{name}"
        );
        assert_eq!(Code::from_name(name), Some(*code));
        assert_eq!(code.to_string(), *name);
        let section = code.section();
        assert!(
            ["2.", "3.", "5.", "6.", "7."]
                .iter()
                .any(|p| section.starts_with(p)),
            "{section}"
        );
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Code::ALL.len(), "duplicate code names");
    assert_eq!(Code::from_name("not-a-code"), None);
}

#[rstest]
#[case::scheme_not_lowercase("HTTP://a/", "3.1")]
#[case::pct_encoded_lowercase_hex("/%2f", "2.1")]
#[case::pct_encoded_unreserved("/%7E", "2.3")]
#[case::userinfo_password("//u:p@h", "3.2.1")]
#[case::reg_name_not_dns("//a_b", "3.2.2")]
#[case::port_default("http://h:80", "3.2.3")]
#[case::path_dot_segments("a:./b", "6.2.2.3")]
#[case::reg_name_numeric("//0x7f.1", "7.4")]
#[case::userinfo_looks_like_host("//a.example.com@h", "7.6")]
fn lint_sections(#[case] input: &str, #[case] section: &str) {
    let f = findings(input);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].section(), section);
    assert_eq!(f[0].code().section(), section);
}

#[test]
fn lint_messages_are_one_line_lower_case_but_names() {
    for &(code, input, _) in TRIGGERS {
        for f in findings(input).iter().filter(|f| f.code() == code) {
            let m = f.message();
            assert!(
                !m.is_empty() && !m.contains('\n') && !m.ends_with('.'),
                "{m:?}"
            );
            // Lower case, except a name spelled as its RFC spells it.
            assert!(
                !m.starts_with(|c: char| c.is_ascii_uppercase())
                    || ["IPv6 ", "IPvFuture "].iter().any(|w| m.starts_with(w)),
                "{m:?}"
            );
            let shown = f.to_string();
            assert!(shown.starts_with(code.as_str()), "{shown}");
            assert!(shown.ends_with(&format!("(RFC 3986 {})", code.section())));
        }
    }
}

// --- clean inputs ---

#[rstest]
#[case::http("http://example.com/a/b?c=d#e")]
#[case::https_port("https://www.example.com:8443/")]
#[case::relative("../g;x?y#s")]
#[case::urn("urn:example:animal:ferret:nose")]
#[case::mailto("mailto:John.Doe@example.com")]
#[case::file_empty_host("file:///etc/hosts")]
#[case::ipv4("http://192.0.2.16/")]
#[case::ipv6("http://[2001:db8::7]/")]
#[case::uppercase_pct("/a%2Fb%C3%A9")]
#[case::fqdn_trailing_dot("http://example.com./")]
#[case::user_only("ftp://anonymous@ftp.example.com/")]
#[case::empty("")]
fn lint_clean(#[case] input: &str) {
    assert_eq!(findings(input), [], "{input:?}");
}

// --- each code: inputs that trigger it and inputs that must not ---

#[rstest]
#[case::upper("HTTP://a/", true)]
#[case::mixed("Http://a/", true)]
#[case::lower("http://a/", false)]
#[case::digits_plus("coap+tcp://a/", false)]
fn lint_scheme_not_lowercase(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::SchemeNotLowercase, triggers);
}

#[rstest]
#[case::lower_hex("/%7e", Code::PctEncodedLowercaseHex, true)]
#[case::lower_hex_unreserved("/%7e", Code::PctEncodedUnreserved, true)]
#[case::lower_second_digit("/%2f", Code::PctEncodedLowercaseHex, true)]
#[case::lower_first_digit("/%e2%82%AC", Code::PctEncodedLowercaseHex, true)]
#[case::upper_hex("/%2F", Code::PctEncodedLowercaseHex, false)]
#[case::digits_only("/%20", Code::PctEncodedLowercaseHex, false)]
#[case::slash_is_reserved("/%2F", Code::PctEncodedUnreserved, false)]
#[case::space("/%20", Code::PctEncodedUnreserved, false)]
#[case::alpha("/%41", Code::PctEncodedUnreserved, true)]
#[case::digit("?%30", Code::PctEncodedUnreserved, true)]
#[case::hyphen_in_host("//a%2Db/", Code::PctEncodedUnreserved, true)]
#[case::dot("#%2E", Code::PctEncodedUnreserved, true)]
#[case::underscore("/%5F", Code::PctEncodedUnreserved, true)]
#[case::non_ascii("/%C3%A9", Code::PctEncodedUnreserved, false)]
#[case::nul("/%00", Code::PctEncodedNul, true)]
#[case::not_nul("/%01%10", Code::PctEncodedNul, false)]
fn lint_pct_encoded(#[case] input: &str, #[case] code: Code, #[case] triggers: bool) {
    check(input, code, triggers);
}

#[test]
fn lint_pct_encoded_spans_each_triplet() {
    assert_eq!(
        slices("http://a/%7e/%7E?%2f#%41", Code::PctEncodedLowercaseHex),
        ["%7e", "%2f"]
    );
    assert_eq!(
        slices("http://a/%7e/%7E?%2f#%41", Code::PctEncodedUnreserved),
        ["%7e", "%7E", "%41"]
    );
}

#[rstest]
#[case::password("//user:pw@host", true)]
#[case::password_with_colons("//user:a:b@host", true)]
#[case::empty_user_password("//:pw@host", true)]
#[case::no_password("//user@host", false)]
// 3.2.1: "unless the data after the colon is the empty string (indicating no password)".
#[case::empty_password("//user:@host", false)]
#[case::empty_userinfo("//@host", false)]
#[case::colon_in_path("http://host/user:pw@x", false)]
fn lint_userinfo_password(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::UserinfoPassword, triggers);
}

#[test]
fn lint_userinfo_password_span_is_after_the_first_colon() {
    assert_eq!(
        slices("ftp://me:a:b%40c@h/", Code::UserinfoPassword),
        ["a:b%40c"]
    );
}

/// 3.2.1: applications should not render the data after the first ":" of a userinfo. No message,
/// `Display` or `Debug` of any finding may contain it.
#[rstest]
#[case("http://alice:Hunter2Secret@example.com/", "Hunter2Secret")]
#[case("HTTP://alice:Hunter2Secret@Example.COM:80/%7e/./x", "Hunter2Secret")]
#[case("//alice:pass.example.com@h/", "pass.example.com")]
#[case("//alice:s3cr3t%7e%00@h/", "s3cr3t")]
#[case("//alice:127.0.0.1@h/", "127.0.0.1")]
fn lint_never_shows_the_password(#[case] input: &str, #[case] password: &str) {
    let all = findings(input);
    assert!(all.iter().any(|f| f.code() == Code::UserinfoPassword));
    for f in &all {
        for shown in [f.message().to_owned(), f.to_string(), format!("{f:?}")] {
            assert!(!shown.contains(password), "{shown:?} shows the password");
        }
    }
    assert!(!format!("{all:?}").contains(password));
}

#[rstest]
#[case::rfc_7_6_example(
    "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
    Some("cnn.example.com")
)]
#[case::www("http://www.example.com@evil.test/", Some("www.example.com"))]
#[case::gtld("http://paypal.com@evil.test/", Some("paypal.com"))]
#[case::cctld("http://bank.de:x@evil.test/", Some("bank.de"))]
#[case::ipv4("http://10.0.0.1@evil.test/", Some("10.0.0.1"))]
#[case::fqdn("http://www.example.com.@evil.test/", Some("www.example.com."))]
#[case::plain_user("http://user@example.com/", None)]
#[case::dotted_user("ftp://john.doe@ftp.example.com/", None)]
#[case::numeric_tld("http://a.b.123@h/", None)]
#[case::no_userinfo("http://www.example.com/", None)]
fn lint_userinfo_looks_like_host(#[case] input: &str, #[case] span_text: Option<&str>) {
    let found = slices(input, Code::UserinfoLooksLikeHost);
    assert_eq!(
        found,
        span_text.into_iter().collect::<Vec<_>>(),
        "{input:?}"
    );
}

#[rstest]
#[case::upper("//EXAMPLE.com/", true)]
#[case::one_letter("http://exAmple.com/", true)]
#[case::lower("//example.com/", false)]
#[case::pct_hex_upper_is_fine("//%C3%A9t%C3%A9.example/", false)]
#[case::ipv4("//192.0.2.1/", false)]
#[case::ipv6_not_reg_name("//[2001:DB8::1]/", false)]
fn lint_reg_name_not_lowercase(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::RegNameNotLowercase, triggers);
}

#[rstest]
#[case::underscore("//_dmarc.example.com/", true)]
#[case::leading_hyphen("//-a.example/", true)]
#[case::trailing_hyphen("//a-.example/", true)]
#[case::empty_label("//a..example/", true)]
#[case::leading_dot("//.example/", true)]
#[case::two_trailing_dots("//example.com../", true)]
#[case::label_64(concat!("//", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", ".example/"), true)]
#[case::pct_encoded("//%C3%A9.example/", true)]
#[case::sub_delims("//a!b/", true)]
#[case::tilde("//~a/", true)]
#[case::label_63(concat!("//", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", ".example/"), false)]
#[case::dns("//www.example-1.com/", false)]
#[case::trailing_dot("//example.com./", false)]
#[case::digit_first("//3com.example/", false)]
#[case::single_label("//localhost/", false)]
#[case::empty("file:///x", false)]
#[case::long_but_dns(LONG_HOST_URI, false)]
fn lint_reg_name_not_dns(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::RegNameNotDns, triggers);
}

#[test]
fn lint_reg_name_too_long_boundary() {
    assert_eq!(LONG_HOST.len(), 263);
    let host_255 = &LONG_HOST[LONG_HOST.len() - 255..];
    let host_256 = &LONG_HOST[LONG_HOST.len() - 256..];
    assert_not_triggers(&format!("//{host_255}/"), Code::RegNameTooLong);
    assert_triggers(&format!("//{host_256}/"), Code::RegNameTooLong, host_256);
}

#[rstest]
#[case::lone_ff("//%FF/", Some(vec!["%FF"]))]
#[case::truncated("//a%C3/", Some(vec!["%C3"]))]
#[case::truncated_then_ascii("//%E2%82x%FE/", Some(vec!["%E2%82", "%FE"]))]
#[case::overlong("//%C0%AF/", Some(vec!["%C0", "%AF"]))]
#[case::valid_two_octets("//%C3%A9/", None)]
#[case::valid_lowercase("//%c3%a9/", None)]
#[case::valid_four_octets("//%F0%9F%98%80.example/", None)]
#[case::not_in_reg_name("/%FF", None)]
fn lint_reg_name_not_utf8(#[case] input: &str, #[case] spans: Option<Vec<&str>>) {
    assert_eq!(
        slices(input, Code::RegNameNotUtf8),
        spans.unwrap_or_default(),
        "{input:?}"
    );
}

#[rstest]
#[case::short_two_parts("http://127.1/", true)]
#[case::short_three_parts("http://127.0.1/", true)]
#[case::hex("http://0x7f.1/", true)]
#[case::hex_upper("http://0X7F.0.0.1/", true)]
#[case::hex_whole("http://0x7f000001/", true)]
#[case::octal("http://017700000001/", true)]
#[case::octal_parts("http://0177.0.0.01/", true)]
#[case::decimal_whole("http://2130706433/", true)]
#[case::out_of_range("http://1.2.3.256/", true)]
#[case::five_parts("http://1.2.3.4.5/", true)]
#[case::trailing_dot("http://127.0.0.1./", true)]
#[case::ipv4address("http://127.0.0.1/", false)]
#[case::name("http://example.com/", false)]
#[case::digit_name("http://123.example/", false)]
#[case::hex_name("http://0xfg.1/", false)]
#[case::empty("file:///x", false)]
fn lint_reg_name_numeric(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::RegNameNumeric, triggers);
}

#[rstest]
#[case::upper("http://[2001:DB8::1]/", true)]
#[case::upper_v4_suffix("http://[::FFFF:192.0.2.1]/", true)]
#[case::lower("http://[2001:db8::1]/", false)]
#[case::digits("http://[::1]/", false)]
fn lint_ipv6_not_lowercase(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::Ipv6NotLowercase, triggers);
}

#[rstest]
#[case::future("http://[v7.fe80::a+en1]/", true)]
#[case::future_upper_v("http://[V1F.x]/", true)]
#[case::ipv6("http://[::1]/", false)]
fn lint_ipvfuture(#[case] input: &str, #[case] triggers: bool) {
    check(input, Code::IpvFuture, triggers);
}

#[rstest]
#[case::empty_port("http://h:/", Code::PortEmpty, Some(":"))]
#[case::empty_port_end("//h:", Code::PortEmpty, Some(":"))]
#[case::empty_port_no_default_scheme("foo://h:/", Code::PortEmpty, Some(":"))]
#[case::empty_port_not_default("http://h:/", Code::PortDefault, None)]
#[case::no_port("http://h/", Code::PortEmpty, None)]
#[case::http_80("http://h:80/", Code::PortDefault, Some(":80"))]
#[case::http_leading_zeros("http://h:0080/", Code::PortDefault, Some(":0080"))]
#[case::http_upper_scheme("HTTP://h:80/", Code::PortDefault, Some(":80"))]
#[case::https_443("https://h:443", Code::PortDefault, Some(":443"))]
#[case::ws_80("ws://h:80/chat", Code::PortDefault, Some(":80"))]
#[case::wss_443("wss://h:443/chat", Code::PortDefault, Some(":443"))]
#[case::ftp_21("ftp://h:21/", Code::PortDefault, Some(":21"))]
#[case::http_8080("http://h:8080/", Code::PortDefault, None)]
#[case::https_80("https://h:80/", Code::PortDefault, None)]
#[case::unknown_scheme("foo://h:80/", Code::PortDefault, None)]
#[case::relative("//h:80/", Code::PortDefault, None)]
#[case::huge("http://h:99999999999999999999/", Code::PortDefault, None)]
#[case::port_80_in_65616("http://h:65616/", Code::PortDefault, None)]
fn lint_port(#[case] input: &str, #[case] code: Code, #[case] span_text: Option<&str>) {
    assert_eq!(
        slices(input, code),
        span_text.into_iter().collect::<Vec<_>>(),
        "{input:?}"
    );
}

#[test]
fn lint_port_default_message_names_port_and_scheme() {
    let f = findings("HTTPS://h:443/");
    let f = f.iter().find(|f| f.code() == Code::PortDefault).unwrap();
    assert_eq!(
        f.message(),
        "port 443 is the default for https and should be omitted"
    );
}

#[rstest]
#[case::dotdot("http://a/b/../c", Some(vec![".."]))]
#[case::dot("http://a/./b", Some(vec!["."]))]
#[case::trailing("http://a/b/..", Some(vec![".."]))]
#[case::several("http://a/./b/../../c/.", Some(vec![".", "..", "..", "."]))]
#[case::rootless("a:./b", Some(vec!["."]))]
#[case::path_absolute("a:/../b", Some(vec![".."]))]
#[case::encoded("http://a/%2e%2E/b", Some(vec!["%2e%2E"]))]
#[case::half_encoded("http://a/.%2e/b", Some(vec![".%2e"]))]
#[case::relative_dotdot("../c", None)]
#[case::relative_dot("./c", None)]
#[case::network_path("//a/b/../c", None)]
#[case::absolute_path_ref("/a/../c", None)]
#[case::three_dots("http://a/.../b", None)]
#[case::dot_in_name("http://a/.b/c./d.e", None)]
#[case::dots_in_query("http://a/b?x=../c#./d", None)]
#[case::dots_in_names_before_it("http://a/x.yy/z.w/./q.r/..", Some(vec![".", ".."]))]
#[case::past_the_first_eight_bytes("http://host/abcdefgh.i/jklmnop/../q", Some(vec![".."]))]
#[case::first_of_two_dots_in_a_name("http://a/b/..c/../d", Some(vec![".."]))]
fn lint_path_dot_segments(#[case] input: &str, #[case] spans: Option<Vec<&str>>) {
    assert_eq!(
        slices(input, Code::PathDotSegments),
        spans.unwrap_or_default(),
        "{input:?}"
    );
}

#[track_caller]
fn check(input: &str, code: Code, triggers: bool) {
    let found = slices(input, code);
    if triggers {
        assert!(!found.is_empty(), "{input:?}: expected {code}");
    } else {
        assert!(
            found.is_empty(),
            "{input:?}: unexpected {code} on {found:?}"
        );
    }
}

// --- spans and order ---

#[test]
fn lint_spans_slice_the_offending_text() {
    let input = "HTTP://u:pw@Www.Example.COM:80/a/./%7e?q=%2f#%00";
    let got: Vec<(&str, &str)> = findings(input)
        .iter()
        .map(|f| (f.code().as_str(), &input[f.start()..f.end()]))
        .collect();
    assert_eq!(
        got,
        [
            ("scheme-not-lowercase", "HTTP"),
            ("userinfo-password", "pw"),
            ("reg-name-not-lowercase", "Www.Example.COM"),
            ("port-default", ":80"),
            ("path-dot-segments", "."),
            ("pct-encoded-lowercase-hex", "%7e"),
            ("pct-encoded-unreserved", "%7e"),
            ("pct-encoded-lowercase-hex", "%2f"),
            ("pct-encoded-nul", "%00"),
        ]
    );
}

#[test]
fn lint_order_is_by_start_then_code() {
    let input = "HTTP://a.b.c.d%2e@0x7F.1:/%7e/../%7e";
    let all = findings(input);
    assert!(all.len() >= 8, "{all:?}");
    let keys: Vec<(usize, &str, usize)> = all
        .iter()
        .map(|f| (f.start(), f.code().as_str(), f.end()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    // Deterministic: the same input gives the same findings.
    assert_eq!(all, findings(input));
}

#[test]
fn lint_uri_and_owned_values() {
    let uri = Uri::parse("HTTP://h:80/").unwrap();
    assert_eq!(uri.lint(), uri.as_uri_ref().lint());
    let owned: UriRef<'static> = "HTTP://h:80/".parse().unwrap();
    assert_eq!(owned.lint(), uri.lint());
    let spans: Vec<(usize, usize)> = owned.lint().iter().map(Finding::span).collect();
    assert_eq!(spans, [(0, 4), (8, 11)]);
}

#[test]
fn lint_values_parsed_by_other_rules() {
    // No ":" before a port parsed alone, no brackets around a bare IPv6address: no panic, sane spans.
    for (rule, input) in [
        (rfc3986::Rule::PORT, ""),
        (rfc3986::Rule::PORT, "80"),
        (rfc3986::Rule::IPV6ADDRESS, "::FFFF:1"),
        (rfc3986::Rule::HOST, "Example.COM"),
        (rfc3986::Rule::AUTHORITY, "u:p@[V1.x]:"),
        (rfc3986::Rule::PATH_ABSOLUTE, "/a/../b"),
    ] {
        let value = rfc3986::parse_as(rule, input).unwrap();
        for f in value.lint() {
            assert!(f.end() <= input.len(), "{input:?}: {f:?}");
        }
    }
    let v6 = rfc3986::parse_as(rfc3986::Rule::IPV6ADDRESS, "::FFFF:1").unwrap();
    assert_eq!(v6.lint()[0].span(), (0, 8));
    let port = rfc3986::parse_as(rfc3986::Rule::PORT, "").unwrap();
    assert_eq!(port.lint(), []);
}

#[test]
fn lint_real_samples_do_not_panic() {
    let data = concat!(
        include_str!("../../data/real-uris-sample.txt"),
        include_str!("../../data/real-refs-sample.tsv")
    );
    let mut linted = 0;
    for line in data.lines().flat_map(|l| l.split('\t')) {
        if let Ok(uri) = UriRef::parse(line) {
            for f in uri.lint() {
                assert!(f.end() <= line.len() && line.is_char_boundary(f.start()));
            }
            linted += 1;
        }
    }
    assert!(linted > 1000, "{linted}");
}

/// Ports: TCP and UDP ports are 0 to 65535 and 0 is reserved (RFC 6335 6); RFC 3986 3.2.3 writes the
/// port in decimal, so leading zeros do not change the value.
#[rstest]
#[case::zero("//h:0", Code::PortZero, true)]
#[case::zeros("//h:000", Code::PortZero, true)]
#[case::one("//h:1", Code::PortZero, false)]
#[case::leading_zero_not_zero("//h:010", Code::PortZero, false)]
#[case::max("//h:65535", Code::PortOutOfRange, false)]
#[case::max_plus_one("//h:65536", Code::PortOutOfRange, true)]
#[case::six_digits("//h:123456", Code::PortOutOfRange, true)]
#[case::leading_zeros_in_range("//h:0000065535", Code::PortOutOfRange, false)]
#[case::twenty_digits("//h:99999999999999999999", Code::PortOutOfRange, true)]
#[case::empty_is_port_empty_only("//h:", Code::PortZero, false)]
fn lint_port_range(#[case] input: &str, #[case] code: Code, #[case] triggers: bool) {
    if triggers {
        assert_eq!(slices(input, code).len(), 1, "{input}");
    } else {
        assert_not_triggers(input, code);
    }
}

/// A percent-encoded "/" that a decoding back end would read as a delimiter next to a dot-segment
/// (RFC 3986 7.3); plain `%2F` in a name is left alone.
#[rstest]
#[case::dot_dot_slash("/..%2Fetc", Some("..%2Fetc"))]
#[case::lower_hex("/..%2fetc", Some("..%2fetc"))]
#[case::encoded_dots("/%2E%2E%2Fetc", Some("%2E%2E%2Fetc"))]
#[case::slash_then_dot_dot("/a%2F..", Some("a%2F.."))]
#[case::single_dot("/.%2Fa", Some(".%2Fa"))]
#[case::relative_reference("x/..%2F..%2Fy", Some("..%2F..%2Fy"))]
#[case::name_with_slash("/group%2Fproject", None)]
#[case::dots_in_name("/a..%2Fb", None)]
#[case::in_query_not_path("/a?..%2Fb", None)]
#[case::plain_dot_dot("http://a/b/../c", None)]
fn lint_path_encoded_traversal(#[case] input: &str, #[case] span: Option<&str>) {
    let found = slices(input, Code::PathEncodedTraversal);
    assert_eq!(found, span.into_iter().collect::<Vec<_>>(), "{input}");
}

/// A reg-name whose percent-encoded octets decode to a numeric host (RFC 3986 2.1, 6.2.2.2, 7.4).
#[rstest]
#[case::encoded_dotted_quad("//%31.2.3.4/", true)]
#[case::encoded_short_form("//%31%32%37.1/", true)]
#[case::encoded_hex("//0x7f.%30.0.1/", true)]
#[case::encoded_letters("//%61.example/", false)]
#[case::non_ascii("//%C3%A9.1/", false)]
fn lint_reg_name_numeric_after_decoding(#[case] input: &str, #[case] triggers: bool) {
    if triggers {
        assert_eq!(slices(input, Code::RegNameNumeric).len(), 1, "{input}");
    } else {
        assert_not_triggers(input, Code::RegNameNumeric);
    }
}

/// A userinfo that is itself an IPv4 address is reported as looking like a host (RFC 3986 7.6).
#[rstest]
#[case::ipv4_userinfo("http://10.0.0.1@evil.test/", Some("10.0.0.1"))]
#[case::ipv4_user_with_password("http://192.0.2.1:x@evil.test/", Some("192.0.2.1"))]
#[case::not_an_address("http://1.2.3@evil.test/", None)]
fn lint_userinfo_ipv4(#[case] input: &str, #[case] span: Option<&str>) {
    let found = slices(input, Code::UserinfoLooksLikeHost);
    assert_eq!(found, span.into_iter().collect::<Vec<_>>(), "{input}");
}
