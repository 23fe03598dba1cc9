//! Grammar layer: does each rule of `uri.pest` accept exactly the language of its ABNF rule in RFC 3986
//! Appendix A (and RFC 5234 B.1 for ALPHA, DIGIT, HEXDIG), matched against the whole input?

use crate::common;

use proptest::prelude::*;
use rfc3986::{validate, validate_bytes, Rule};
use rstest::rstest;

/// Accepting and rejecting inputs for every rule, keyed by the rule's ABNF name. Each line was checked by
/// hand against the ABNF; a rule of the grammar without a line here fails `every_rule_has_cases`.
const CASES: &[(&str, &[&str], &[&str])] = &[
    // RFC 5234 B.1
    (
        "ALPHA",
        &["a", "z", "A", "Z", "m"],
        &["", "0", "ab", "@", "[", "`", "{", "é", "-"],
    ),
    ("DIGIT", &["0", "5", "9"], &["", "a", "/", ":", "10", "٣"]),
    (
        "HEXDIG",
        &["0", "9", "a", "f", "A", "F"],
        &["", "g", "G", "0a", "x", "%"],
    ),
    // RFC 3986 3
    (
        "URI",
        &[
            "a:",
            "a:b",
            "a://",
            "a:/",
            "a:?",
            "a:#",
            "http://a/b/c/d;p?q",
            "foo://example.com:8042/over/there?name=ferret#nose",
            "urn:example:animal:ferret:nose",
            "a:b:c",
            "a:////b",
        ],
        &[
            "",
            "a",
            "/a",
            "//a",
            "1a:b",
            "-a:b",
            ":a",
            "a:b#c#d",
            "a b:c",
            "a:b c",
            "a://[::1",
            "http://a:b:c/",
            "a:[",
            "a:%",
        ],
    ),
    (
        "hier-part",
        &["//a/b", "//", "///", "/a", "/", "a:b", ":", "", "//u@h:1/p"],
        &["?", "#", "//a b", "//a?", "a?", "//a:b:c", "[", "//[v1]"],
    ),
    // RFC 3986 4.1
    (
        "URI-reference",
        &[
            "a:b",
            "./a:b",
            "a/b:c",
            "",
            "//",
            "?",
            "#",
            "http://a/b/c/d;p?q",
            "../../g",
        ],
        &[
            ":a", ":", "a b", "%", "#a#b", "a:b:c d", "//a/[", "@:", "\\", "a\nb",
        ],
    ),
    // RFC 3986 4.3
    (
        "absolute-URI",
        &["a:b?c", "a:", "a:?", "http://a/b?q", "a:b?c?d"],
        &["a:b#c", "a:#", "/a", "a", "", "?q"],
    ),
    // RFC 3986 4.2
    (
        "relative-ref",
        &["", "//a", "/a?b#c", "a/b:c", "?", "#", "./a:b", "//a:1?#"],
        &["a:b", ":a", "a#b#c", "http://a/", "a:"],
    ),
    (
        "relative-part",
        &["//a/b", "//", "/a", "a", "", "a/b:c", "./a:b"],
        &["a:b", ":", "?", "//a?b", "#", "a?"],
    ),
    // RFC 3986 3.1
    (
        "scheme",
        &["a", "A", "a+b-c.d", "z9", "http", "HTTP", "a.+-"],
        &["", "1a", "+a", ".a", "a_b", "a:", "a b", "a~", "a%41"],
    ),
    // RFC 3986 3.2
    (
        "authority",
        &[
            "",
            "h",
            "u@h",
            "u:p@h:1",
            "[::1]:80",
            "@",
            ":",
            "@:",
            "h:",
            "1.2.3.4:5",
            "u@[v1.x]:",
        ],
        &[
            "a@b@c", "h:p", "[::1", "h/", "[::1]x", "a b", "h:1:2", "h#", "[::1]@h",
        ],
    ),
    // RFC 3986 3.2.1
    (
        "userinfo",
        &["", "u", "u:p:", ":", "%41!$&'()*+,;=-._~"],
        &["@", "u@", "[", "%4", "/", "u?", "u#", "é"],
    ),
    // RFC 3986 3.2.2
    (
        "host",
        &[
            "",
            "h",
            "1.2.3.4",
            "[::1]",
            "[v1.a]",
            "1.2.3.256",
            "1.2.3.4x",
            "a%20b",
            "EXAMPLE.com",
        ],
        &[
            "a:b", "[::1", "a@b", "[]", "a/b", "a b", "[::1]x", "x[::1]", "%",
        ],
    ),
    // RFC 3986 3.2.3
    (
        "port",
        &["", "0", "65535", "65536", "0080", "99999999999999999999999"],
        &["a", "-1", "1 ", "8o", "+1", ":1", "0x1F"],
    ),
    (
        "IP-literal",
        &[
            "[::1]",
            "[v1.a]",
            "[V1.a]",
            "[1:2:3:4:5:6:7:8]",
            "[::ffff:1.2.3.4]",
        ],
        &[
            "::1",
            "[]",
            "[::1%25eth0]",
            "[1.2.3.4]",
            "[v1.]",
            "[::1]]",
            "[[::1]]",
            "[example.com]",
            "[::1",
            "::1]",
        ],
    ),
    (
        "IPvFuture",
        &[
            "v1.a",
            "V1.a",
            "vF.a:b",
            "v1a.!$",
            "v0.~",
            "vABCDEF0123456789.x:y:z",
        ],
        &[
            "v.a", "v1.", "va", "vg.a", "w1.a", "v1.a/b", "v1.a@b", "v1.%20", "1.a", "v1a",
        ],
    ),
    (
        "IPv6address",
        &[
            "1:2:3:4:5:6:7:8",
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6::8",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4",
            "::1.2.3.4",
            "::ffff:192.0.2.128",
            "FFFF:ffff::Ab:cD",
        ],
        &[
            "",
            "1",
            ":",
            ":::",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1::2::3",
            "12345::",
            ":1::",
            "1::1:",
            "1.2.3.4::",
            "::1.2.3.256",
            "[::1]",
        ],
    ),
    (
        "h16",
        &["0", "ffff", "FFFF", "1a2B", "000"],
        &["", "12345", "g", "1:", ":1", "-1"],
    ),
    (
        "ls32",
        &["1:2", "ffff:ffff", "1.2.3.4", "255.255.255.255", "0:0"],
        &[
            "1",
            "1:2:3",
            "1.2.3",
            "1.2.3.256",
            ":1",
            "1:",
            "1:1.2.3.4",
            "12345:1",
        ],
    ),
    (
        "IPv4address",
        &["0.0.0.0", "255.255.255.255", "192.0.2.16", "9.99.199.249"],
        &[
            "1.2.3",
            "1.2.3.4.5",
            "256.1.1.1",
            "01.1.1.1",
            "1.2.3.4.",
            ".1.2.3.4",
            "1..2.3",
            "a.b.c.d",
            "1.2.3.4x",
            "0x1.2.3.4",
            "",
        ],
    ),
    (
        "dec-octet",
        &[
            "0", "9", "10", "99", "100", "199", "200", "249", "250", "255",
        ],
        &[
            "256", "300", "00", "01", "099", "1000", "-1", "", "a", "2550",
        ],
    ),
    (
        "reg-name",
        &[
            "",
            "example.com",
            "%41",
            "!$&'()*+,;=",
            "-._~",
            "1.2.3.256",
            "1.2.3.4",
        ],
        &[":", "a:b", "@", "[", "%", "%4g", "/", "a b", "é"],
    ),
    // RFC 3986 3.3
    (
        "path",
        &[
            "", "/", "//", "/a", "a", "a:b", ":", "a/b", "//a/b", "/a:b/", "@",
        ],
        &["?", "#", "a b", "/a?b", "%", "a#", "[", "/a]"],
    ),
    (
        "path-abempty",
        &["", "/", "//", "/a/b/", "/:@", "///a"],
        &["a", "a/", "?", ":", "/a?"],
    ),
    (
        "path-absolute",
        &["/", "/a", "/a//b", "/a:b", "/a/", "/:"],
        &["", "//", "//a", "a", "/a?", "/%"],
    ),
    (
        "path-noscheme",
        &["a", "a/b:c", "@", "a//", "%3A", "a/:"],
        &["", ":", "a:b", "/a", "a?", "@:"],
    ),
    (
        "path-rootless",
        &["a", "a:b", ":", ":/", "a//", "@"],
        &["", "/a", "?", "a?", "a b"],
    ),
    ("path-empty", &[""], &["a", "/", " ", ":", "?"]),
    (
        "segment",
        &["", "a", ":@", "%20", "!$&'()*+,;=-._~"],
        &["/", "a/b", "?", "#", "%2"],
    ),
    ("segment-nz", &["a", ":", "@", "::"], &["", "/", "a/", "?"]),
    (
        "segment-nz-nc",
        &["a", "@", "%3A", "a@b"],
        &["", ":", "a:", "/", "a:b"],
    ),
    (
        "pchar",
        &["a", "Z", "0", ":", "@", "%20", "!", "~", "=", "%fF"],
        &["", "/", "?", "#", "%", "aa", "[", "]", " ", "%2"],
    ),
    // RFC 3986 3.4, 3.5
    (
        "query",
        &["", "a", "/?:@", "a?b", "%20", "?", "x=1&y=2"],
        &["#", "[", "]", "a b", "%", "a#b", "\""],
    ),
    (
        "fragment",
        &["", "/?", "a?b", "s/../x", "%23", "frag/ment?"],
        &["#", "a#", "[", "a b", "%z0"],
    ),
    // RFC 3986 2.1
    (
        "pct-encoded",
        &["%00", "%ff", "%FF", "%aF", "%7e"],
        &["%", "%0", "%GG", "%0g", "%000", "25", "", "%%20"],
    ),
    // RFC 3986 2.3
    (
        "unreserved",
        &["a", "Z", "0", "9", "-", ".", "_", "~"],
        &["", "%", "/", "!", "é", "aa", " "],
    ),
    // RFC 3986 2.2
    (
        "reserved",
        &[
            ":", "/", "?", "#", "[", "]", "@", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";",
            "=",
        ],
        &["", "a", "%", "-", "~", "::", "\"", "<"],
    ),
    (
        "gen-delims",
        &[":", "/", "?", "#", "[", "]", "@"],
        &["", "!", "a", "//", "%"],
    ),
    (
        "sub-delims",
        &["!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "="],
        &["", ":", "a", "%", "!!", "\"", "{"],
    ),
];

fn cases(abnf: &str) -> (&'static [&'static str], &'static [&'static str]) {
    let (_, accept, reject) = CASES
        .iter()
        .find(|(name, _, _)| *name == abnf)
        .unwrap_or_else(|| panic!("no cases for rule {abnf}"));
    (accept, reject)
}

fn rule(abnf: &str) -> Rule {
    Rule::from_abnf_name(abnf).unwrap_or_else(|| panic!("the grammar has no rule {abnf}"))
}

#[track_caller]
fn assert_accepts(rule: Rule, input: &str) {
    if let Err(e) = validate(rule, input) {
        panic!(
            "{rule} should accept {input:?}, rejected at {}: {e}",
            e.offset()
        );
    }
    assert!(
        validate_bytes(rule, input.as_bytes()).is_ok(),
        "{rule}: validate_bytes disagrees with validate on {input:?}"
    );
}

#[track_caller]
fn assert_rejects(rule: Rule, input: &str) {
    let e = match validate(rule, input) {
        Ok(()) => panic!("{rule} should reject {input:?}"),
        Err(e) => e,
    };
    assert!(
        e.offset() <= input.len(),
        "{rule} on {input:?}: offset {} past the end",
        e.offset()
    );
    assert_eq!(
        e.rule(),
        rule,
        "{rule} on {input:?}: error names another rule"
    );
    assert!(
        validate_bytes(rule, input.as_bytes()).is_err(),
        "{rule}: validate_bytes disagrees with validate on {input:?}"
    );
}

/// Every rule of the grammar has at least one accepting and one rejecting case, every table key is a rule
/// of the grammar, and the regular-expression oracle covers every rule.
#[test]
fn every_rule_has_cases() {
    let names: Vec<&str> = Rule::all().map(Rule::abnf_name).collect();
    for name in &names {
        let (accept, reject) = cases(name);
        assert!(!accept.is_empty(), "rule {name} has no accepting case");
        assert!(!reject.is_empty(), "rule {name} has no rejecting case");
        assert!(
            common::abnf_matches(name, "").is_some(),
            "the ABNF regex oracle has no rule {name}"
        );
    }
    for (name, _, _) in CASES {
        assert!(
            names.contains(name),
            "table names {name}, which the grammar lacks"
        );
    }
    // Appendix A has 36 rules besides ALPHA, DIGIT and HEXDIG (RFC 5234 B.1).
    assert_eq!(names.len(), 39, "rules: {names:?}");
    let mut oracle = common::abnf_names();
    oracle.sort_unstable();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(oracle, sorted);
}

#[rstest]
#[case::uri_reference("URI-reference", Rule::URI_REFERENCE)]
#[case::uri("URI", Rule::URI)]
#[case::absolute_uri("absolute-URI", Rule::ABSOLUTE_URI)]
#[case::relative_ref("relative-ref", Rule::RELATIVE_REF)]
#[case::ipv6address("IPv6address", Rule::IPV6ADDRESS)]
#[case::ip_literal("IP-literal", Rule::IP_LITERAL)]
#[case::ipvfuture("IPvFuture", Rule::IPVFUTURE)]
#[case::ipv4address("IPv4address", Rule::IPV4ADDRESS)]
#[case::dec_octet("dec-octet", Rule::DEC_OCTET)]
#[case::segment_nz_nc("segment-nz-nc", Rule::SEGMENT_NZ_NC)]
#[case::hexdig("HEXDIG", Rule::HEXDIG)]
#[case::path_empty("path-empty", Rule::PATH_EMPTY)]
fn rule_names(#[case] abnf: &str, #[case] constant: Rule) {
    assert_eq!(Rule::from_abnf_name(abnf), Some(constant));
    assert_eq!(constant.abnf_name(), abnf);
    assert_eq!(constant.to_string(), abnf);
}

#[test]
fn rule_from_abnf_name_ignores_case_only() {
    for r in Rule::all() {
        assert_eq!(Rule::from_abnf_name(r.abnf_name()), Some(r));
    }
    // RFC 5234 2.1: rule names are case-insensitive.
    assert_eq!(Rule::from_abnf_name("ipv6address"), Some(Rule::IPV6ADDRESS));
    assert_eq!(
        Rule::from_abnf_name("uri-REFERENCE"),
        Some(Rule::URI_REFERENCE)
    );
    assert_eq!(Rule::from_abnf_name("uri_reference"), None);
    assert_eq!(Rule::from_abnf_name(""), None);
}

/// The table of every rule, one case per rule.
#[rstest]
#[case::alpha("ALPHA")]
#[case::digit("DIGIT")]
#[case::hexdig("HEXDIG")]
#[case::uri("URI")]
#[case::hier_part("hier-part")]
#[case::uri_reference("URI-reference")]
#[case::absolute_uri("absolute-URI")]
#[case::relative_ref("relative-ref")]
#[case::relative_part("relative-part")]
#[case::scheme("scheme")]
#[case::authority("authority")]
#[case::userinfo("userinfo")]
#[case::host("host")]
#[case::port("port")]
#[case::ip_literal("IP-literal")]
#[case::ipvfuture("IPvFuture")]
#[case::ipv6address("IPv6address")]
#[case::h16("h16")]
#[case::ls32("ls32")]
#[case::ipv4address("IPv4address")]
#[case::dec_octet("dec-octet")]
#[case::reg_name("reg-name")]
#[case::path("path")]
#[case::path_abempty("path-abempty")]
#[case::path_absolute("path-absolute")]
#[case::path_noscheme("path-noscheme")]
#[case::path_rootless("path-rootless")]
#[case::path_empty("path-empty")]
#[case::segment("segment")]
#[case::segment_nz("segment-nz")]
#[case::segment_nz_nc("segment-nz-nc")]
#[case::pchar("pchar")]
#[case::query("query")]
#[case::fragment("fragment")]
#[case::pct_encoded("pct-encoded")]
#[case::unreserved("unreserved")]
#[case::reserved("reserved")]
#[case::gen_delims("gen-delims")]
#[case::sub_delims("sub-delims")]
fn parse_rule_table(#[case] abnf: &str) {
    let r = rule(abnf);
    let (accept, reject) = cases(abnf);
    for input in accept {
        assert_accepts(r, input);
        assert_eq!(
            common::abnf_matches(abnf, input),
            Some(true),
            "ABNF regex oracle rejects accepting case {input:?} of {abnf}"
        );
    }
    for input in reject {
        assert_rejects(r, input);
        assert_eq!(
            common::abnf_matches(abnf, input),
            Some(false),
            "ABNF regex oracle accepts rejecting case {input:?} of {abnf}"
        );
    }
}

/// Every input of every table, tried against every rule: the grammar and the regular-expression
/// transcription of Appendix A agree on all of them (about 39 x 500 decisions).
#[test]
fn every_rule_agrees_with_abnf_regex_on_all_table_inputs() {
    let mut inputs: Vec<&str> = CASES
        .iter()
        .flat_map(|(_, a, r)| a.iter().chain(r.iter()).copied())
        .chain(common::VALID_REFERENCES.iter().copied())
        .collect();
    inputs.sort_unstable();
    inputs.dedup();
    let mut disagreements = Vec::new();
    for r in Rule::all() {
        for input in &inputs {
            let ours = validate(r, input).is_ok();
            let oracle = common::abnf_matches(r.abnf_name(), input).unwrap();
            if ours != oracle {
                disagreements.push(format!("{r} on {input:?}: ours {ours}, ABNF {oracle}"));
            }
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

/// RFC 3986 3.2.2: dec-octet is 0-255 without leading zeros.
#[rstest]
#[case::zero("0", true)]
#[case::nine("9", true)]
#[case::ten("10", true)]
#[case::ninety_nine("99", true)]
#[case::one_hundred("100", true)]
#[case::one_ninety_nine("199", true)]
#[case::two_hundred("200", true)]
#[case::two_forty_nine("249", true)]
#[case::two_fifty("250", true)]
#[case::two_fifty_five("255", true)]
#[case::two_fifty_six("256", false)]
#[case::three_hundred("300", false)]
#[case::double_zero("00", false)]
#[case::leading_zero("01", false)]
#[case::leading_zero_three_digits("099", false)]
#[case::four_digits("1000", false)]
#[case::negative("-1", false)]
#[case::empty("", false)]
fn parse_dec_octet(#[case] input: &str, #[case] valid: bool) {
    assert_eq!(validate(Rule::DEC_OCTET, input).is_ok(), valid, "{input:?}");
    // The same octet in each of the four positions of an IPv4address.
    for position in 0..4 {
        let mut octets = ["1"; 4];
        octets[position] = input;
        let address = octets.join(".");
        assert_eq!(
            validate(Rule::IPV4ADDRESS, &address).is_ok(),
            valid,
            "{address:?}"
        );
    }
}

/// RFC 3986 3.2.2 and Appendix A: the nine forms of IPv6address at their limits (the valid ones are also
/// checked for their value in `tests/values.rs`), and the invalid shapes.
#[rstest]
#[case::form1_six_h16_then_ls32("1:2:3:4:5:6:7:8", true)]
#[case::form1_ls32_ipv4("1:2:3:4:5:6:1.2.3.4", true)]
#[case::form2_five_after("::2:3:4:5:6:7:8", true)]
#[case::form2_ls32_ipv4("::2:3:4:5:6:1.2.3.4", true)]
#[case::form3_one_before("1::3:4:5:6:7:8", true)]
#[case::form3_ls32_ipv4("1::3:4:5:6:1.2.3.4", true)]
#[case::form4_two_before("1:2::4:5:6:7:8", true)]
#[case::form4_ls32_ipv4("1:2::4:5:6:1.2.3.4", true)]
#[case::form5_three_before("1:2:3::5:6:7:8", true)]
#[case::form5_ls32_ipv4("1:2:3::5:6:1.2.3.4", true)]
#[case::form6_four_before("1:2:3:4::6:7:8", true)]
#[case::form6_ls32_ipv4("1:2:3:4::6:1.2.3.4", true)]
#[case::form7_five_before("1:2:3:4:5::7:8", true)]
#[case::form7_ls32_ipv4("1:2:3:4:5::1.2.3.4", true)]
#[case::form8_six_before("1:2:3:4:5:6::8", true)]
#[case::form9_seven_before("1:2:3:4:5:6:7::", true)]
#[case::form9_empty("::", true)]
#[case::four_digit_h16("ffff:FFFF:0000:abcd:ABCD:1234:5678:9abc", true)]
#[case::ipv4_with_zero_groups("::1.2.3.4", true)]
#[case::nine_groups("1:2:3:4:5:6:7:8:9", false)]
#[case::eight_groups_and_double_colon_after("1:2:3:4:5:6:7:8::", false)]
#[case::eight_groups_and_double_colon_before("::1:2:3:4:5:6:7:8", false)]
#[case::eight_groups_and_double_colon_inside("1:2:3:4::5:6:7:8", false)]
#[case::seven_groups_no_double_colon("1:2:3:4:5:6:7", false)]
#[case::two_double_colons("1::2::3", false)]
#[case::double_colon_twice_adjacent("::1::", false)]
#[case::five_digit_h16("12345::", false)]
#[case::five_digit_h16_last("::12345", false)]
#[case::triple_colon(":::", false)]
#[case::triple_colon_inside("1:::2", false)]
#[case::leading_single_colon(":1::", false)]
#[case::leading_single_colon_full(":1:2:3:4:5:6:7:8", false)]
#[case::trailing_single_colon("1::1:", false)]
#[case::trailing_single_colon_full("1:2:3:4:5:6:7:8:", false)]
#[case::ipv4_not_last("::1.2.3.4:1", false)]
#[case::ipv4_first("1.2.3.4::", false)]
#[case::ipv4_too_many_groups("1:2:3:4:5:6:7:1.2.3.4", false)]
#[case::ipv4_after_form8_head("1:2:3:4:5:6::1.2.3.4", false)]
#[case::bad_ipv4_octet("::1.2.3.256", false)]
#[case::short_ipv4("::1.2.3", false)]
#[case::ipv4_leading_zero("::1.2.3.04", false)]
#[case::single_colon(":", false)]
#[case::empty("", false)]
#[case::non_hex("::g", false)]
#[case::zone_id("fe80::1%25eth0", false)]
fn parse_ipv6address(#[case] input: &str, #[case] valid: bool) {
    assert_eq!(
        validate(Rule::IPV6ADDRESS, input).is_ok(),
        valid,
        "IPv6address {input:?}"
    );
    let literal = format!("[{input}]");
    assert_eq!(
        validate(Rule::IP_LITERAL, &literal).is_ok(),
        valid,
        "IP-literal {literal:?}"
    );
    let reference = format!("//{literal}/");
    assert_eq!(
        validate(Rule::URI_REFERENCE, &reference).is_ok(),
        valid,
        "URI-reference {reference:?}"
    );
    assert_eq!(common::abnf_matches("IPv6address", input), Some(valid));
}

/// Every split of eight groups by "::" (RFC 4291 2.2 form 2, as the nine ABNF forms spell it): `k` groups
/// before, `m` after, `k + m <= 7`, with the last 32 bits written as h16 ":" h16 or as an IPv4address.
#[test]
fn ipv6address_every_compressed_shape() {
    for before in 0..=7usize {
        for after in 0..=(7 - before) {
            let head: Vec<String> = (1..=before).map(|i| format!("{i:x}")).collect();
            let tail: Vec<String> = (0..after).map(|i| format!("a{i:x}")).collect();
            let text = format!("{}::{}", head.join(":"), tail.join(":"));
            assert!(
                validate(Rule::IPV6ADDRESS, &text).is_ok(),
                "{text:?} ({before} before, {after} after)"
            );
            // Nine groups in all is one too many.
            if before + after == 7 {
                for extra in [format!("{text}:1"), format!("1:{text}")] {
                    if extra.starts_with("1:::") || extra.ends_with(":::1") {
                        continue;
                    }
                    assert!(validate(Rule::IPV6ADDRESS, &extra).is_err(), "{extra:?}");
                }
            }
            // An IPv4address stands for the last two groups when at least two follow "::".
            if after >= 2 {
                let mut tail4 = tail[..after - 2].to_vec();
                tail4.push("192.0.2.1".to_string());
                let text4 = format!("{}::{}", head.join(":"), tail4.join(":"));
                assert!(validate(Rule::IPV6ADDRESS, &text4).is_ok(), "{text4:?}");
            } else if after == 0 && before <= 5 {
                let text4 = format!("{}::192.0.2.1", head.join(":"));
                assert!(validate(Rule::IPV6ADDRESS, &text4).is_ok(), "{text4:?}");
            }
        }
    }
}

/// RFC 3986 4.1 / 4.2: which alternative of URI-reference an input is.
#[rstest]
#[case::scheme_and_path("a:b", true, true)]
#[case::dot_segment_before_colon("./a:b", false, true)]
#[case::colon_in_second_segment("a/b:c", false, true)]
#[case::colon_first(":a", false, false)]
#[case::colon_only(":", false, false)]
#[case::empty_authority("//", false, true)]
#[case::query_only("?", false, true)]
#[case::fragment_only("#", false, true)]
#[case::empty("", false, true)]
#[case::digit_first_scheme("1a:b", false, false)]
#[case::percent_in_scheme("a%41:b", false, false)]
fn uri_reference_alternatives(#[case] input: &str, #[case] uri: bool, #[case] valid: bool) {
    assert_eq!(
        validate(Rule::URI_REFERENCE, input).is_ok(),
        valid,
        "{input:?}"
    );
    assert_eq!(validate(Rule::URI, input).is_ok(), uri, "URI {input:?}");
    assert_eq!(
        validate(Rule::RELATIVE_REF, input).is_ok(),
        valid && !uri,
        "relative-ref {input:?}"
    );
}

/// The grammar and the ABNF regex agree on every line of the corpus, valid or not.
#[test]
fn uri_reference_agrees_with_abnf_regex_on_corpus() {
    let lines = common::corpus();
    assert!(!lines.is_empty());
    let mut valid = 0;
    for line in &lines {
        let ours = validate(Rule::URI_REFERENCE, line).is_ok();
        valid += usize::from(ours);
        assert_eq!(
            Some(ours),
            common::abnf_matches("URI-reference", line),
            "{line:?}"
        );
    }
    assert!(
        valid > lines.len() / 2,
        "only {valid} of {} valid",
        lines.len()
    );
}

/// Pieces that URIs are made of, including the ones at the edges of the grammar.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a", "Z", "0", "9", "f", "v", "V", "-", ".", "_", "~", ":", "/", "?", "#", "[", "]", "@",
        "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", "%", "%2", "%41", "%zz", " ", "é",
        "\\", "{", "//", "::", "1.2.3.4", "255", "256", "01", "ffff", "12345", "http:", "[::1]",
        "v1.",
    ])
}

fn ipv6_piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "0",
        "1",
        "a",
        "F",
        "ff",
        "abc",
        "ffff",
        "12345",
        ":",
        ":",
        ":",
        "::",
        ".",
        "1.2.3.4",
        "255.255.255.255",
        "1.2.3.256",
        "1.2.3",
        "01",
        "g",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The grammar agrees with the ABNF regex on random strings, for every rule that builds a URI.
    #[test]
    fn uri_reference_matches_abnf_regex(pieces in prop::collection::vec(piece(), 0..12)) {
        let input: String = pieces.concat();
        for abnf in ["URI-reference", "URI", "relative-ref", "absolute-URI", "authority", "host", "path"] {
            let ours = validate(rule(abnf), &input).is_ok();
            prop_assert_eq!(Some(ours), common::abnf_matches(abnf, &input), "{} on {:?}", abnf, input);
        }
    }

    /// The grammar agrees with the ABNF regex on random colon-hex strings.
    #[test]
    fn ipv6address_matches_abnf_regex(pieces in prop::collection::vec(ipv6_piece(), 0..18)) {
        let input: String = pieces.concat();
        for abnf in ["IPv6address", "ls32", "IPv4address", "h16"] {
            let ours = validate(rule(abnf), &input).is_ok();
            prop_assert_eq!(Some(ours), common::abnf_matches(abnf, &input), "{} on {:?}", abnf, input);
        }
    }
}
