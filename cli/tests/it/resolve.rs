//! The `resolve`, `normalize` and `equiv` subcommands through the built binary: output
//! shapes and exit statuses. The values themselves are RFC 3986's own examples (5.4, 6.2.2, 6.2.3).

use std::process::Output;

use rstest::rstest;

use crate::common;

#[track_caller]
fn run(args: &[&str], stdin: &[u8]) -> Output {
    common::spawn(args, stdin)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

const BASE: &str = "http://a/b/c/d;p?q";

#[rstest]
#[case::normal_g("g", "http://a/b/c/g")]
#[case::normal_dot_slash_g("./g", "http://a/b/c/g")]
#[case::normal_network_path("//g", "http://g")]
#[case::normal_query("?y", "http://a/b/c/d;p?y")]
#[case::normal_fragment("#s", "http://a/b/c/d;p?q#s")]
#[case::normal_empty("", "http://a/b/c/d;p?q")]
#[case::normal_dot_dot_g("../../g", "http://a/g")]
#[case::abnormal_too_many_dot_dots("../../../../g", "http://a/g")]
#[case::abnormal_g_dot("g.", "http://a/b/c/g.")]
#[case::abnormal_strict_scheme("http:g", "http:g")]
fn resolve_rfc3986_5_4_examples_as_arguments(#[case] reference: &str, #[case] target: &str) {
    let output = run(&["resolve", BASE, reference], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), format!("{target}\n"));
}

#[test]
fn resolve_non_strict_ignores_a_scheme_equal_to_the_base() {
    let output = run(&["resolve", "--non-strict", BASE, "http:g"], b"");
    assert_eq!(stdout(&output), "http://a/b/c/g\n");
}

#[test]
fn resolve_reads_references_from_standard_input() {
    // The empty line is the empty reference: the base without its fragment (RFC 3986 5.4.1).
    let output = run(&["resolve", BASE], b"g\r\n\n../g\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "http://a/b/c/g\nhttp://a/b/c/d;p?q\nhttp://a/b/g\n"
    );
}

#[test]
fn resolve_json_has_one_object_per_reference_with_errors_inline() {
    let output = run(&["resolve", "--format", "json", BASE, "g", "a b"], b"");
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["base"], BASE);
    assert_eq!(lines[0]["ref"], "g");
    assert_eq!(lines[0]["target"], "http://a/b/c/g");
    assert!(lines[0]["error"].is_null());
    assert!(lines[1]["target"].is_null());
    assert_eq!(lines[1]["error"]["input"], "ref");
    assert_eq!(lines[1]["error"]["offset"], 1);
    assert!(lines[1]["error"]["expected"].is_array());
}

#[test]
fn resolve_pairs_reads_base_tab_reference_lines() {
    let output = run(
        &["resolve", "--pairs", "-"],
        b"http://a/b/c\t../d\nfile:///x/y\tz#f\n",
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "http://a/d\nfile:///x/z#f\n");
}

#[rstest]
#[case::relative_base("/a/b", "base")]
#[case::invalid_reference("%zz", "ref")]
fn resolve_reports_which_input_is_invalid(#[case] input: &str, #[case] which: &str) {
    let (base, reference) = if which == "base" {
        (input, "g")
    } else {
        (BASE, input)
    };
    let output = run(&["resolve", "--format", "json", base, reference], b"");
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(value["error"]["input"], which);
}

#[test]
fn resolve_pairs_line_without_tab_is_an_error_not_a_skip() {
    let output = run(&["resolve", "--pairs", "-"], b"no tab here\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("<stdin>:1"));
}

#[rstest]
#[case::contract_example("syntax", "HTTP://a/./b/%7e", "http://a/b/~")]
#[case::rfc_6_2_2_example(
    "syntax",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    "example://a/b/c/%7Bfoo%7D"
)]
#[case::syntax_keeps_default_port("syntax", "http://example.com:80", "http://example.com:80")]
#[case::scheme_drops_default_port_and_adds_slash(
    "scheme",
    "http://example.com:80",
    "http://example.com/"
)]
#[case::empty_port_dropped("syntax", "http://example.com:/", "http://example.com/")]
fn normalize_levels(#[case] level: &str, #[case] input: &str, #[case] normal: &str) {
    let output = run(&["normalize", "--level", level, input], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), format!("{normal}\n"));
}

#[test]
fn normalize_json_shape() {
    let output = run(&["normalize", "--format", "json"], b"HTTP://A/\na b\n");
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["normalized"], "http://a/");
    assert!(lines[0]["error"].is_null());
    assert!(lines[1]["normalized"].is_null());
    assert_eq!(lines[1]["error"]["offset"], 1);
}

#[rstest]
#[case::rfc_6_2_2(
    "syntax",
    "example://a/b/c/%7Bfoo%7D",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    0
)]
#[case::default_port_differs_at_syntax_level(
    "syntax",
    "http://example.com",
    "http://example.com:80/",
    1
)]
#[case::rfc_6_2_3("scheme", "http://example.com", "http://example.com:80/", 0)]
#[case::simple_string_comparison("simple", "http://a/%7e", "http://a/~", 1)]
fn equiv_exit_status(#[case] level: &str, #[case] a: &str, #[case] b: &str, #[case] code: i32) {
    let output = run(&["equiv", "--level", level, a, b], b"");
    assert_eq!(output.status.code(), Some(code));
    let expected = if code == 0 {
        "equivalent\n"
    } else {
        "not equivalent\n"
    };
    assert_eq!(stdout(&output), expected);
}

#[test]
fn equiv_invalid_input_is_reported_and_exits_2() {
    // 1 means "valid and not equivalent"; trouble is 2, as for cmp and diff.
    let output = run(&["equiv", "http://a/", "a b"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("<argument>:2:2: error"));
}

#[rstest]
#[case::off(&["normalize", "http://[2001:DB8:0:0::1]/"][..], "http://[2001:db8:0:0::1]/\n", 0)]
#[case::on(&["normalize", "--ipv6-rfc5952", "http://[2001:DB8:0:0::1]/"][..], "http://[2001:db8::1]/\n", 0)]
#[case::equiv_off(&["equiv", "http://[2001:db8:0::1]/", "http://[2001:db8::1]/"][..], "not equivalent\n", 1)]
#[case::equiv_on(&["equiv", "--ipv6-rfc5952", "http://[2001:db8:0::1]/", "http://[2001:db8::1]/"][..], "equivalent\n", 0)]
fn ipv6_rfc5952_option(#[case] args: &[&str], #[case] expected: &str, #[case] code: i32) {
    // RFC 5952 4.2.1: "::" is used to its maximum capability; 4.3: lower case.
    let output = run(args, b"");
    assert_eq!(output.status.code(), Some(code));
    assert_eq!(stdout(&output), expected);
}

fn json_records(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// `-` means standard input for every subcommand , between arguments, in order.
#[rstest]
#[case::parse(&["parse", "--format", "json", "x:a", "-", "x:c"][..])]
#[case::normalize(&["normalize", "--format", "json", "x:a", "-", "x:c"][..])]
#[case::resolve(&["resolve", "--format", "json", "x:/", "x:a", "-", "x:c"][..])]
fn dash_is_standard_input(#[case] args: &[&str]) {
    let output = run(args, b"x:b\n");
    assert_eq!(output.status.code(), Some(0), "{:?}", output);
    let records = json_records(&output);
    let inputs: Vec<String> = records
        .iter()
        .map(|r| {
            r.get("input")
                .or_else(|| r.get("ref"))
                .and_then(|v| v.as_str())
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(inputs, ["x:a", "x:b", "x:c"]);
}

/// Every JSON record carries `line`: the input line on standard input (a blank line is the empty reference
/// and has its record), the position among arguments.
#[rstest]
#[case::parse_stdin(&["parse", "--format", "json"][..], b"a\n\nb c\n" as &[u8], &[1u64, 2, 3][..])]
#[case::normalize_stdin(&["normalize", "--format", "jsonl"][..], b"a\nb c\n", &[1, 2][..])]
#[case::resolve_stdin(&["resolve", "--format", "json", "http://h/d?q#f"][..], b"a\n\nb c\n", &[1, 2, 3][..])]
#[case::parse_arguments(&["parse", "--format", "json", "a", "b c"][..], b"", &[1, 2][..])]
#[case::resolve_pairs_blank_line(&["resolve", "--format", "json", "--pairs", "-"][..], b"http://h/\ta\n\nhttp://h/\tb\n", &[1, 2, 3][..])]
#[case::equiv_blank_line(&["equiv", "--format", "json"][..], b"a\ta\n\nb\tb\n", &[1, 2, 3][..])]
#[case::expand_blank_line(&["expand", "--format", "json", "-"][..], b"/a\n\n/b\n", &[1, 2, 3][..])]
fn json_records_have_line_numbers(
    #[case] args: &[&str],
    #[case] stdin: &[u8],
    #[case] lines: &[u64],
) {
    let output = run(args, stdin);
    let got: Vec<u64> = json_records(&output)
        .iter()
        .map(|r| r["line"].as_u64().expect("line"))
        .collect();
    assert_eq!(got, lines);
}

/// An empty reference is a reference (RFC 3986 4.2): it resolves to the base without its fragment (5.2.2,
/// 5.4.1 has `""` -> `http://a/b/c/d;p?q`), so an empty line of standard input gives a target.
#[test]
fn resolve_empty_line_is_the_empty_reference() {
    let output = run(&["resolve", BASE], b"g\n\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "http://a/b/c/g\nhttp://a/b/c/d;p?q\n");
}

/// `--pairs --format json`: a line without a tab is a record too, with its line number.
#[test]
fn resolve_pairs_json_reports_a_line_without_tab() {
    let output = run(
        &["resolve", "--format", "json", "--pairs", "-"],
        b"http://a/\tb\nno tab here\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let records = json_records(&output);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["target"], "http://a/b");
    assert_eq!(records[1]["line"], 2);
    assert_eq!(records[1]["target"], serde_json::Value::Null);
    assert_eq!(records[1]["error"]["kind"], "missing-tab");
}

/// `--pairs --format json`: a blank line has no tab either, so it is the same error record as a line without
/// a tab, with its line number; the lines around it keep theirs (issue 13: one record per input line).
#[test]
fn resolve_pairs_json_gives_a_blank_line_its_error_record() {
    let output = run(
        &["resolve", "--format", "json", "--pairs", "-"],
        b"http://a/\tb\n\nhttp://a/\tc\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let records = json_records(&output);
    let lines: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3]);
    assert_eq!(records[0]["target"], "http://a/b");
    assert_eq!(records[1]["file"], "<stdin>");
    assert_eq!(records[1]["target"], serde_json::Value::Null);
    assert_eq!(records[1]["error"]["input"], "line");
    assert_eq!(records[1]["error"]["kind"], "missing-tab");
    assert_eq!(records[2]["target"], "http://a/c");
}

/// `--pairs` in text: a blank line is reported as a line without a tab is, at its line, and the targets
/// of the other lines are written as before.
#[test]
fn resolve_pairs_text_reports_a_blank_line_as_a_line_without_tab() {
    let output = run(
        &["resolve", "--pairs", "-"],
        b"http://a/\tb\n\nhttp://a/\tc\n",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "http://a/b\nhttp://a/c\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("<stdin>:2:1: error: expected BASE<TAB>REF, found no tab"),
        "{stderr}"
    );
}

/// `equiv` on `A<TAB>B` lines, JSON: a blank line is a `missing-tab` error record with its line number,
/// and exit 2 (an input that is not a pair), as for a line without a tab.
#[test]
fn equiv_json_gives_a_blank_line_its_error_record() {
    let output = run(
        &["equiv", "--format", "json"],
        b"http://a/\thttp://A/\n\nhttp://a/b\thttp://a/c\n",
    );
    assert_eq!(output.status.code(), Some(2));
    let records = json_records(&output);
    let lines: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3]);
    assert_eq!(records[0]["equivalent"], true);
    assert_eq!(records[1]["equivalent"], serde_json::Value::Null);
    assert_eq!(records[1]["error"]["input"], "line");
    assert_eq!(records[1]["error"]["kind"], "missing-tab");
    assert_eq!(records[2]["equivalent"], false);
}

/// `equiv` on `A<TAB>B` lines, text: a blank line is reported at its line, as a line without a tab is.
#[test]
fn equiv_text_reports_a_blank_line_as_a_line_without_tab() {
    let output = run(&["equiv"], b"http://a/\thttp://A/\n\n");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "equivalent\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("<stdin>:2:1: error: expected A<TAB>B, found no tab"),
        "{stderr}"
    );
}

/// `equiv --format json` shows both normal forms ; the example is RFC 3986 6.2.2's.
#[test]
fn equiv_json_shows_both_normal_forms() {
    let output = run(
        &[
            "equiv",
            "--format",
            "json",
            "example://a/b/c/%7Bfoo%7D",
            "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0));
    let records = json_records(&output);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["equivalent"], true);
    assert_eq!(records[0]["normal_a"], "example://a/b/c/%7Bfoo%7D");
    assert_eq!(records[0]["normal_b"], "example://a/b/c/%7Bfoo%7D");
    assert_eq!(records[0]["line"], 1);
}

/// Without A and B, `equiv` reads `A<TAB>B` pairs from standard input: one answer per pair, exit 1 if
/// some pair differs, 2 if some input is not a URI reference or has no tab.
#[rstest]
#[case::all_equivalent(b"HTTP://a/\thttp://a/\nhttp://a/%7e\thttp://a/~\n" as &[u8], "equivalent\nequivalent\n", 0)]
#[case::one_differs(
    b"http://a/\thttp://a/\nhttp://a/b\thttp://a/c\n",
    "equivalent\nnot equivalent\n",
    1
)]
#[case::one_invalid(b"http://a/\thttp://a/\nhttp://a b\thttp://a/\n", "equivalent\n", 2)]
#[case::no_tab(b"http://a/ http://a/\n", "", 2)]
#[case::blank_line(
    b"http://a/\thttp://a/\n\nhttp://a/\thttp://A/\n",
    "equivalent\nequivalent\n",
    2
)]
fn equiv_reads_pairs_from_standard_input(
    #[case] stdin: &[u8],
    #[case] expected: &str,
    #[case] code: i32,
) {
    let output = run(&["equiv"], stdin);
    assert_eq!(stdout(&output), expected);
    assert_eq!(output.status.code(), Some(code));
}

#[test]
fn equiv_json_pairs_have_one_record_per_line() {
    let output = run(
        &["equiv", "--format", "json"],
        b"http://a/\thttp://A/\nx y\tz\nno tab\n",
    );
    assert_eq!(output.status.code(), Some(2));
    let records = json_records(&output);
    let lines: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3]);
    assert_eq!(records[0]["equivalent"], true);
    assert_eq!(records[1]["error"]["input"], "a");
    assert_eq!(records[1]["error"]["kind"], "space");
    assert_eq!(records[2]["error"]["kind"], "missing-tab");
}
