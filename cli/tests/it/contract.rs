//! The command line as the README describes it, run as a process: exit status, text diagnostics, the
//! summary line, JSON shapes, input handling (bytes, CRLF, blank lines, files and standard input).

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use rstest::rstest;
use serde_json::Value;

/// What a run of the binary gave.
#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

use crate::common;

/// Runs `rfc3986 ARGS` with `stdin` as standard input.
#[track_caller]
fn run(args: &[&str], stdin: &[u8]) -> Run {
    let output = common::spawn(args, stdin);
    Run {
        code: output.status.code().expect("exit code, not a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Parses every line of `text` as one JSON object.
#[track_caller]
fn json_lines(text: &str) -> Vec<serde_json::Map<String, Value>> {
    text.lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(Value::Object(object)) => object,
            other => panic!("not a JSON object: {line:?} ({other:?})"),
        })
        .collect()
}

/// The keys of a JSON object, in any order.
fn keys(object: &serde_json::Map<String, Value>) -> Vec<&str> {
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// Writes `contents` to a file of this test run and returns its path.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

// ---------------------------------------------------------------- exit status

#[rstest]
#[case::all_valid(&["check"], "http://a/b\n/relative\n", 0)]
#[case::empty_input(&["check"], "", 0)]
#[case::only_blank_lines(&["check"], "\n\n", 0)]
#[case::some_invalid(&["check"], "http://a/b\nhttp://a/b c\n", 1)]
#[case::unknown_rule(&["check", "--rule", "no-such-rule"], "http://a/\n", 2)]
#[case::unknown_format(&["check", "--format", "xml"], "http://a/\n", 2)]
#[case::unknown_subcommand(&["frobnicate"], "", 2)]
#[case::missing_file(&["check", "/nonexistent/uris.txt"], "", 2)]
#[case::parse_valid(&["parse", "http://a/"], "", 0)]
#[case::parse_invalid(&["parse", "http://a/", "http://a b/"], "", 1)]
#[case::parse_unknown_rule(&["parse", "--rule", "Urx"], "", 2)]
fn exit_status(#[case] args: &[&str], #[case] stdin: &str, #[case] code: i32) {
    let r = run(args, stdin.as_bytes());
    assert_eq!(r.code, code, "{r:?}");
}

// ---------------------------------------------------------------- check: text

#[test]
fn check_text_diagnostic_and_caret() {
    let r = run(&["check"], b"http://a/ok\nhttp://a/b c\n");
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{:?}", r.stdout);
    assert!(
        lines[0].starts_with("<stdin>:2:11: error: space not allowed here"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("expected pchar"), "{}", lines[0]);
    assert_eq!(lines[1], "http://a/b c");
    assert_eq!(lines[2], "          ^");
}

#[rstest]
#[case::first_byte("{x}", 1)]
#[case::space_in_path("http://a/b c", 11)]
#[case::bad_port("http://host:port/", 13)]
#[case::second_hash("a#b#c", 4)]
#[case::end_of_input("http://[::1", 12)]
fn check_text_column_is_byte_offset_plus_one(#[case] input: &str, #[case] column: usize) {
    let r = run(&["check"], format!("{input}\n").as_bytes());
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].starts_with(&format!("<stdin>:1:{column}: error: ")),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], input);
    assert_eq!(lines[2], format!("{}^", " ".repeat(column - 1)));
}

#[test]
fn check_summary_on_stderr() {
    let r = run(&["check"], b"http://a/\n\nhttp://a b/\n/ok\n");
    assert_eq!(
        r.stderr,
        "3 checked, 2 valid, 1 invalid, 0 warnings, 1 skipped (rule URI-reference)\n"
    );
    assert!(!r.stdout.contains("checked"));
}

#[test]
fn check_valid_input_prints_nothing_on_stdout() {
    let r = run(&["check"], b"http://a/\n");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

#[rstest]
#[case::short("-q")]
#[case::long("--quiet")]
fn check_quiet_keeps_only_the_summary(#[case] flag: &str) {
    let r = run(&["check", flag], b"http://a b/\nhttp://a/\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "2 checked, 1 valid, 1 invalid, 0 warnings, 0 skipped (rule URI-reference)\n"
    );
}

#[test]
fn check_strict_is_accepted_without_warnings() {
    let r = run(&["check", "--strict"], b"http://a/\n");
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stderr,
        "1 checked, 1 valid, 0 invalid, 0 warnings, 0 skipped (rule URI-reference)\n"
    );
}

// ---------------------------------------------------------------- check: jsonl

#[test]
fn check_jsonl_shape() {
    let r = run(
        &["check", "--format", "jsonl"],
        b"http://a/\nhttp://a/b c\n",
    );
    assert_eq!(r.code, 1);
    let objects = json_lines(&r.stdout);
    assert_eq!(objects.len(), 2);
    for (i, o) in objects.iter().enumerate() {
        assert_eq!(
            keys(o),
            ["error", "file", "input", "line", "valid", "warnings"]
        );
        assert_eq!(o["file"], "<stdin>");
        assert_eq!(o["line"], i as u64 + 1);
        assert_eq!(o["warnings"], Value::Array(vec![]));
    }
    assert_eq!(objects[0]["input"], "http://a/");
    assert_eq!(objects[0]["valid"], true);
    assert_eq!(objects[0]["error"], Value::Null);

    assert_eq!(objects[1]["input"], "http://a/b c");
    assert_eq!(objects[1]["valid"], false);
    let error = objects[1]["error"].as_object().expect("error object");
    assert_eq!(
        keys(error),
        ["column", "expected", "hint", "kind", "message", "offset"]
    );
    assert_eq!(error["offset"], 10);
    assert_eq!(error["column"], 11);
    assert_eq!(error["kind"], "space");
    assert_eq!(
        error["hint"],
        "percent-encode a space as %20 (RFC 3986 2.1)"
    );
    assert!(error["message"]
        .as_str()
        .unwrap()
        .starts_with("space not allowed here"));
    let expected: Vec<&str> = error["expected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().expect("expected items are strings"))
        .collect();
    assert!(expected.contains(&"pchar"), "{expected:?}");
    assert!(expected.contains(&"\"/\""), "{expected:?}");
    assert!(expected.contains(&"end of input"), "{expected:?}");
}

#[test]
fn check_jsonl_one_object_per_checked_line_in_order() {
    let input = "a\n\nb c\n\r\nhttp://x/\n";
    let r = run(&["check", "--format", "jsonl"], input.as_bytes());
    let lines: Vec<(u64, bool)> = json_lines(&r.stdout)
        .iter()
        .map(|o| (o["line"].as_u64().unwrap(), o["valid"].as_bool().unwrap()))
        .collect();
    assert_eq!(lines, [(1, true), (3, false), (5, true)]);
    assert_eq!(
        r.stderr,
        "3 checked, 2 valid, 1 invalid, 0 warnings, 2 skipped (rule URI-reference)\n"
    );
}

// ---------------------------------------------------------------- input handling

#[test]
fn check_non_utf8_line_is_invalid_at_the_first_bad_byte() {
    let r = run(
        &["check", "--format", "jsonl"],
        b"http://a/\xff\nhttp://a/\n",
    );
    assert_eq!(r.code, 1);
    let objects = json_lines(&r.stdout);
    assert_eq!(objects.len(), 2, "never skipped");
    assert_eq!(objects[0]["valid"], false);
    assert_eq!(objects[0]["input"], "http://a/\u{FFFD}");
    assert_eq!(objects[0]["error"]["offset"], 9);
    assert_eq!(objects[1]["valid"], true, "not fatal");
}

#[test]
fn check_non_utf8_line_text() {
    let r = run(&["check"], b"http://a/\xff\n");
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].starts_with("<stdin>:1:10: error: invalid UTF-8"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[2], format!("{}^", " ".repeat(9)));
}

#[test]
fn check_non_utf8_after_a_grammar_error_reports_the_grammar_error() {
    let r = run(&["check", "--format", "jsonl"], b"http://a b/\xff\n");
    let objects = json_lines(&r.stdout);
    assert_eq!(objects[0]["error"]["offset"], 8);
}

#[rstest]
#[case::crlf(b"http://a/\r\n".as_slice(), 0)]
#[case::crlf_without_final_newline(b"http://a/\r".as_slice(), 0)]
#[case::no_final_newline(b"http://a/".as_slice(), 0)]
#[case::only_one_cr_removed(b"http://a/\r\r\n".as_slice(), 1)]
fn check_line_terminators(#[case] input: &[u8], #[case] code: i32) {
    let r = run(&["check"], input);
    assert_eq!(r.code, code, "{r:?}");
}

#[test]
fn check_crlf_diagnostic_does_not_show_the_cr() {
    let r = run(&["check", "--format", "jsonl"], b"http://a b/\r\n");
    let objects = json_lines(&r.stdout);
    assert_eq!(objects[0]["input"], "http://a b/");
}

#[test]
fn check_blank_lines_are_skipped_and_counted() {
    let r = run(&["check"], b"\nhttp://a/\n\r\n\n");
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stderr,
        "1 checked, 1 valid, 0 invalid, 0 warnings, 3 skipped (rule URI-reference)\n"
    );
}

#[test]
fn check_a_line_of_spaces_is_not_blank() {
    let r = run(&["check"], b"  \n");
    assert_eq!(r.code, 1);
}

#[test]
fn check_files_stdin_and_dash() {
    let a = temp_file("check_files_a.txt", b"http://a/\nhttp://a b/\n");
    let b = temp_file("check_files_b.txt", b"\n/ok\n");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let r = run(&["check", "--format", "jsonl", a, "-", b], b"from-stdin\n");
    assert_eq!(r.code, 1);
    let seen: Vec<(String, u64)> = json_lines(&r.stdout)
        .iter()
        .map(|o| {
            (
                o["file"].as_str().unwrap().to_string(),
                o["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (a.to_string(), 1),
            (a.to_string(), 2),
            ("<stdin>".to_string(), 1),
            (b.to_string(), 2),
        ]
    );
    assert_eq!(
        r.stderr,
        "4 checked, 3 valid, 1 invalid, 0 warnings, 1 skipped (rule URI-reference)\n"
    );
}

#[test]
fn check_text_names_the_file() {
    let a = temp_file("check_text_file.txt", b"ok\nhttp://a/%zz\n");
    let a = a.to_str().unwrap();
    let r = run(&["check", a], b"");
    assert!(
        r.stdout.starts_with(&format!("{a}:2:11: error: ")),
        "{}",
        r.stdout
    );
}

#[test]
fn check_missing_file_is_reported_and_the_others_are_checked() {
    let ok = temp_file("check_missing_ok.txt", b"http://a/\n");
    let ok = ok.to_str().unwrap();
    let r = run(&["check", "/nonexistent/uris.txt", ok], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("/nonexistent/uris.txt"), "{}", r.stderr);
    assert!(
        r.stderr.ends_with(
            "1 checked, 1 valid, 0 invalid, 0 warnings, 0 skipped (rule URI-reference)\n"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn check_io_error_wins_over_invalid() {
    let bad = temp_file("check_io_bad.txt", b"a b\n");
    let r = run(&["check", bad.to_str().unwrap(), "/nonexistent"], b"");
    assert_eq!(r.code, 2);
}

#[test]
fn check_unreadable_file_is_reported_and_the_others_are_checked() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let r = run(&["check", dir, "-"], b"http://a/\n");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(&format!("rfc3986: {dir}: ")),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.ends_with(
            "1 checked, 1 valid, 0 invalid, 0 warnings, 0 skipped (rule URI-reference)\n"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn check_closed_stdout_exits_2() {
    let big = "http://a b/\n".repeat(200_000);
    let path = temp_file("check_closed_stdout.txt", big.as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc3986"))
        .args(["check", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout dropped: the pipe is closed.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Not every line was checked: not a success (issue 28, defect 10).
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("standard output was closed"), "{stderr}");
}

// ---------------------------------------------------------------- --rule

#[test]
fn unknown_rule_lists_the_valid_names() {
    let r = run(&["check", "--rule", "no-such-rule"], b"");
    assert_eq!(r.code, 2);
    for name in [
        "URI-reference",
        "IPv6address",
        "path-abempty",
        "dec-octet",
        "HEXDIG",
    ] {
        assert!(r.stderr.contains(name), "{name} in {}", r.stderr);
    }
}

#[rstest]
#[case::lower_case("ipv6address", "::1", 0)]
#[case::upper_case("IPV6ADDRESS", "::1", 0)]
#[case::mixed_case_rejects("iPv6Address", "1.2.3.4", 1)]
#[case::uri_reference_any_case("uri-REFERENCE", "../a", 0)]
fn rule_names_are_case_insensitive(#[case] rule: &str, #[case] input: &str, #[case] code: i32) {
    // RFC 5234 2.1: "rule names are case insensitive".
    let r = run(&["check", "--rule", rule], format!("{input}\n").as_bytes());
    assert_eq!(r.code, code, "{}", r.stderr);
}

#[rstest]
#[case::ipv6address_loopback("IPv6address", "::1", 0)]
#[case::ipv6address_full("IPv6address", "2001:db8:0:0:0:0:0:7", 0)]
#[case::ipv6address_two_double_colons("IPv6address", "1::2::3", 1)]
#[case::ipv6address_brackets("IPv6address", "[::1]", 1)]
#[case::ipv4address("IPv4address", "192.0.2.16", 0)]
#[case::ipv4address_out_of_range("IPv4address", "192.0.2.256", 1)]
#[case::host_reg_name("host", "192.0.2.256", 0)]
#[case::dec_octet("dec-octet", "255", 0)]
#[case::dec_octet_256("dec-octet", "256", 1)]
#[case::hexdig("HEXDIG", "f", 0)]
#[case::path_abempty("path-abempty", "/a//b", 0)]
#[case::path_abempty_relative("path-abempty", "a/b", 1)]
#[case::uri_requires_scheme("URI", "/a", 1)]
#[case::uri_reference_relative("URI-reference", "/a", 0)]
#[case::absolute_uri_no_fragment("absolute-URI", "a:b#c", 1)]
fn check_rule(#[case] rule: &str, #[case] input: &str, #[case] code: i32) {
    let r = run(&["check", "--rule", rule], format!("{input}\n").as_bytes());
    assert_eq!(r.code, code, "{r:?}");
}

// ---------------------------------------------------------------- parse

/// `parse --format json` of one argument.
#[track_caller]
fn parse_json(args: &[&str]) -> serde_json::Map<String, Value> {
    let mut all = vec!["parse", "--format", "json"];
    all.extend_from_slice(args);
    let r = run(&all, b"");
    let mut objects = json_lines(&r.stdout);
    assert_eq!(objects.len(), 1, "{r:?}");
    objects.remove(0)
}

#[test]
fn parse_json_shape() {
    let o = parse_json(&["http://user@[::1]:8080/p/q?x=1#frag"]);
    assert_eq!(
        keys(&o),
        [
            "authority",
            "fragment",
            "host",
            "host_kind",
            "input",
            "line",
            "path",
            "port",
            "query",
            "scheme",
            "userinfo",
            "valid"
        ]
    );
    assert_eq!(o["input"], "http://user@[::1]:8080/p/q?x=1#frag");
    assert_eq!(o["valid"], true);
    assert_eq!(o["scheme"], "http");
    assert_eq!(o["authority"], "user@[::1]:8080");
    assert_eq!(o["userinfo"], "user");
    assert_eq!(o["host"], "[::1]", "host as written, brackets included");
    assert_eq!(o["host_kind"], "IPv6address");
    assert_eq!(o["port"], "8080");
    assert_eq!(o["path"], "/p/q");
    assert_eq!(o["query"], "x=1");
    assert_eq!(o["fragment"], "frag");
}

#[rstest]
#[case::empty_query("http://h?", "query", Value::from(""))]
#[case::undefined_query("http://h", "query", Value::Null)]
#[case::empty_fragment("a#", "fragment", Value::from(""))]
#[case::undefined_fragment("a", "fragment", Value::Null)]
#[case::empty_port("http://h:/", "port", Value::from(""))]
#[case::empty_userinfo("//@h", "userinfo", Value::from(""))]
#[case::empty_host("file:///x", "host", Value::from(""))]
#[case::undefined_host("mailto:a@b", "host", Value::Null)]
#[case::undefined_host_kind("mailto:a@b", "host_kind", Value::Null)]
#[case::empty_path("http://h", "path", Value::from(""))]
#[case::undefined_scheme("//h/p", "scheme", Value::Null)]
#[case::ipv4_host_kind("http://192.0.2.1/", "host_kind", Value::from("IPv4address"))]
#[case::reg_name_host_kind("http://192.0.2.256/", "host_kind", Value::from("reg-name"))]
#[case::ipvfuture_host_kind("http://[v7.x]/", "host_kind", Value::from("IPvFuture"))]
fn parse_json_null_vs_empty(#[case] input: &str, #[case] key: &str, #[case] value: Value) {
    assert_eq!(parse_json(&[input])[key], value);
}

#[test]
fn parse_json_invalid() {
    let o = parse_json(&["http://a b/"]);
    assert_eq!(keys(&o), ["error", "input", "line", "valid"]);
    assert_eq!(o["line"], 1);
    assert_eq!(o["input"], "http://a b/");
    assert_eq!(o["valid"], false);
    assert_eq!(o["error"]["offset"], 8);
    assert!(o["error"]["expected"].is_array());
    assert!(o["error"]["message"].is_string());
}

#[test]
fn parse_json_rule() {
    let o = parse_json(&["--rule", "authority", "user@[::1]:8080"]);
    assert_eq!(o["userinfo"], "user");
    assert_eq!(o["host"], "[::1]");
    assert_eq!(o["port"], "8080");
    assert_eq!(o["scheme"], Value::Null);
}

#[test]
fn parse_reads_stdin_lines_without_arguments() {
    let r = run(
        &["parse", "--format", "json"],
        b"http://h?\r\n\nhttp://a/\xff\n//x\n",
    );
    assert_eq!(r.code, 1);
    let objects = json_lines(&r.stdout);
    let summary: Vec<(&str, bool)> = objects
        .iter()
        .map(|o| (o["input"].as_str().unwrap(), o["valid"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            ("http://h?", true),
            // A blank line is the empty reference (relative-ref with path-empty, RFC 3986 4.2): one
            // record per input line.
            ("", true),
            ("http://a/\u{FFFD}", false),
            ("//x", true)
        ]
    );
    assert_eq!(objects[2]["error"]["offset"], 9);
}

#[test]
fn parse_text_block() {
    let r = run(&["parse", "http://h?"], b"");
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "\
input:     http://h?
valid:     true
scheme:    http
authority: h
userinfo:  (undefined)
host:      h
host_kind: reg-name
port:      (undefined)
path:      \"\"
query:     \"\"
fragment:  (undefined)
"
    );
}

#[test]
fn parse_text_error_with_caret() {
    // The one diagnostic shape of every subcommand: SOURCE:LINE:COL: error: MESSAGE, the line, a caret
    // (LINE: the position among the arguments).
    // The components on standard output, the diagnostic on standard error (issue 28, defect 13).
    let r = run(&["parse", "http://a/", "http://a b/"], b"");
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.starts_with("input:     http://a/\n"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("error"), "{}", r.stdout);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert!(
        lines[0].starts_with("<argument>:2:9: error: space not allowed here"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "http://a b/");
    assert_eq!(lines[2], format!("{}^", " ".repeat(8)));
}

// ---------------------------------------------------------------- check: chunks and threads

/// A deterministic input of `lines` lines over many chunks: valid and invalid URIs, blank lines, CRLF
/// terminators, one line that is not UTF-8, a valid line longer than a chunk (256 KiB), a long invalid
/// line, and no final newline.
fn many_lines(lines: usize) -> Vec<u8> {
    let mut input = Vec::new();
    for i in 1..=lines {
        match i % 97 {
            0 => {}                                                              // blank
            13 => input.extend_from_slice(b"\r"),                                // blank, CRLF
            29 => input.extend_from_slice(format!("http://h/{i} x").as_bytes()), // space
            41 => input.extend_from_slice(format!("http://h:{i}a/").as_bytes()), // port
            _ => input.extend_from_slice(format!("http://example.com/p/{i}?q={i}#f").as_bytes()),
        }
        if i == lines / 2 {
            input.extend_from_slice(b"/not-utf8/\xff\xfe");
        }
        if i == lines / 3 {
            input.extend_from_slice(format!("/{}", "a".repeat(300_000)).as_bytes());
        }
        if i == 2 * lines / 3 {
            input.extend_from_slice(format!("/{} b", "a".repeat(5_000)).as_bytes());
        }
        if i % 5 == 0 {
            input.push(b'\r');
        }
        if i < lines {
            input.push(b'\n');
        }
    }
    input
}

/// The lines of `input` as `check` numbers them, without terminators.
fn numbered(input: &[u8]) -> Vec<(u64, String)> {
    input
        .split(|&b| b == b'\n')
        .zip(1..)
        .map(|(line, n)| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            (n, String::from_utf8_lossy(line).into_owned())
        })
        .collect()
}

#[rstest]
#[case::text("text")]
#[case::jsonl("jsonl")]
fn check_output_is_the_same_on_one_and_many_threads(#[case] format: &str) {
    let input = many_lines(50_000);
    let file = temp_file(&format!("check_threads_{format}.txt"), &input);
    let file = file.to_str().unwrap();
    let one = run(&["check", "-j", "1", "--format", format, file], b"");
    assert_eq!(one.code, 1);
    let skipped = numbered(&input)
        .iter()
        .filter(|(_, line)| line.is_empty())
        .count();
    assert!(
        one.stderr.ends_with(&format!(
            " 0 warnings, {skipped} skipped (rule URI-reference)\n"
        )),
        "{}",
        one.stderr
    );
    for jobs in ["2", "8"] {
        let many = run(&["check", "--jobs", jobs, "--format", format, file], b"");
        assert_eq!(
            (many.code, &many.stderr),
            (one.code, &one.stderr),
            "-j {jobs}"
        );
        assert!(many.stdout == one.stdout, "-j {jobs}: output differs");
    }
    // Standard input comes in other pieces than a file.
    let stdin = run(&["check", "-j", "2", "--format", format], &input);
    assert!(
        stdin.stdout == one.stdout.replace(file, "<stdin>"),
        "standard input: output differs"
    );
}

#[test]
fn check_jsonl_line_numbers_across_chunks() {
    let input = many_lines(50_000);
    let file = temp_file("check_jsonl_line_numbers.txt", &input);
    let r = run(
        &[
            "check",
            "-j",
            "2",
            "--format",
            "jsonl",
            file.to_str().unwrap(),
        ],
        b"",
    );
    let expected: Vec<(u64, String)> = numbered(&input)
        .into_iter()
        .filter(|(_, line)| !line.is_empty())
        .collect();
    let seen: Vec<(u64, String)> = json_lines(&r.stdout)
        .iter()
        .map(|o| {
            (
                o["line"].as_u64().unwrap(),
                o["input"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(seen.len(), expected.len());
    for (seen, expected) in seen.iter().zip(&expected) {
        assert!(seen == expected, "line {} vs {}", seen.0, expected.0);
    }
    let invalid = json_lines(&r.stdout)
        .iter()
        .filter(|o| o["valid"] == false)
        .count();
    assert!(
        r.stderr.starts_with(&format!(
            "{} checked, {} valid, {invalid} invalid,",
            seen.len(),
            seen.len() - invalid
        )),
        "{}",
        r.stderr
    );
}

#[test]
fn check_text_line_numbers_across_chunks() {
    let input = many_lines(50_000);
    let lines = numbered(&input);
    let r = run(&["check", "-j", "2"], &input);
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(out.len() % 3, 0);
    let mut seen = Vec::new();
    for diagnostic in out.chunks(3) {
        let rest = diagnostic[0]
            .strip_prefix("<stdin>:")
            .expect("plain diagnostic");
        let (number, rest) = rest.split_once(':').unwrap();
        let (column, _) = rest.split_once(": error: ").unwrap();
        let number: usize = number.parse().unwrap();
        let column: usize = column.parse().unwrap();
        // As drawn: control characters as `\u{..}` escapes; long lines cut around the caret.
        let escape = |text: &str| -> String {
            text.chars()
                .map(|c| {
                    if c.is_control() {
                        format!("\\u{{{:x}}}", c as u32)
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        };
        let raw = &lines[number - 1].1;
        let line = escape(raw);
        if raw.chars().count() <= 120 {
            assert_eq!(diagnostic[1], line, "line {number}");
            let before = escape(&raw[..column - 1]).chars().count();
            assert_eq!(diagnostic[2], format!("{}^", " ".repeat(before)));
        }
        seen.push(number as u64);
    }
    let jsonl = run(&["check", "-j", "1", "--format", "jsonl"], &input);
    let invalid: Vec<u64> = json_lines(&jsonl.stdout)
        .iter()
        .filter(|o| o["valid"] == false)
        .map(|o| o["line"].as_u64().unwrap())
        .collect();
    assert_eq!(seen, invalid);
    assert!(invalid.len() > 2 * (50_000 / 97), "{}", invalid.len());
    assert!(
        r.stderr.contains(&format!(" {} invalid,", invalid.len())),
        "{}",
        r.stderr
    );
}

#[rstest]
#[case::zero(&["check", "-j", "0"])]
#[case::not_a_number(&["check", "--jobs", "all"])]
fn check_jobs_must_be_a_positive_number(#[case] args: &[&str]) {
    let r = run(args, b"http://a/\n");
    assert_eq!(r.code, 2, "{r:?}");
}

#[rstest]
#[case::sequential("1")]
#[case::parallel("2")]
fn check_closed_stdout_exits_2_on_any_jobs(#[case] jobs: &str) {
    let big = "http://a b/\n".repeat(200_000);
    let path = temp_file(&format!("check_closed_stdout_{jobs}.txt"), big.as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc3986"))
        .args(["check", "-j", jobs, path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Not every line was checked: not a success (issue 28, defect 10).
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("standard output was closed"), "{stderr}");
}

#[rstest]
#[case::sequential("1")]
#[case::parallel("2")]
fn check_missing_file_is_reported_in_its_place(#[case] jobs: &str) {
    let ok = temp_file(&format!("check_missing_place_{jobs}.txt"), b"http://a/\n");
    let ok = ok.to_str().unwrap();
    let r = run(&["check", "-j", jobs, ok, "/nonexistent/uris.txt", ok], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("rfc3986: /nonexistent/uris.txt: "),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.ends_with(
            "\n2 checked, 2 valid, 0 invalid, 0 warnings, 0 skipped (rule URI-reference)\n"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn check_no_progress_output_in_a_pipe() {
    let input = many_lines(50_000);
    let r = run(&["check", "-j", "2", "--format", "jsonl"], &input);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.ends_with(" skipped (rule URI-reference)\n"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains('\r') && !r.stderr.contains('\x1b'));
}

// ---------------------------------------------------------------- check: --diagnostics, --color

#[test]
fn check_diagnostics_rich() {
    let r = run(
        &["check", "--diagnostics", "rich"],
        b"http://a/ok\nhttp://a/b c\n",
    );
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "error: space not allowed here");
    assert_eq!(lines[1], " --> <stdin>:2:11");
    assert_eq!(lines[2], "  |");
    assert_eq!(lines[3], "2 | http://a/b c");
    assert!(
        lines[4].starts_with("  |           ^ expected pchar, "),
        "{}",
        lines[4]
    );
    assert!(lines[4].ends_with(" or end of input"), "{}", lines[4]);
    assert_eq!(
        lines[6],
        "  = help: percent-encode a space as %20 (RFC 3986 2.1)"
    );
    assert!(!r.stdout.contains('\x1b'));
    assert_eq!(
        r.stderr,
        "2 checked, 1 valid, 1 invalid, 0 warnings, 0 skipped (rule URI-reference)\n"
    );
}

#[test]
fn check_diagnostics_rich_end_of_input_and_no_hint() {
    let r = run(&["check", "--diagnostics", "rich"], b"http://[::1\n");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "error: unexpected end of input");
    assert_eq!(lines[1], " --> <stdin>:1:12");
    assert!(
        lines[4].starts_with("  |            ^ expected "),
        "{}",
        lines[4]
    );
    assert!(!r.stdout.contains("help:"), "{}", r.stdout);
}

#[test]
fn check_diagnostics_plain_is_the_default_in_a_pipe() {
    let input = b"http://a/b c\n";
    let auto = run(&["check"], input);
    let plain = run(&["check", "--diagnostics", "plain"], input);
    assert_eq!(auto.stdout, plain.stdout);
    assert!(auto.stdout.starts_with("<stdin>:1:11: error: "));
}

#[rstest]
#[case::plain("plain")]
#[case::rich("rich")]
fn check_color_always_writes_ansi_escapes(#[case] diagnostics: &str) {
    let r = run(
        &["check", "--color", "always", "--diagnostics", diagnostics],
        b"http://a/b c\n",
    );
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("\x1b["), "{:?}", r.stdout);
    assert!(!r.stderr.contains('\x1b'), "the summary is not coloured");
    let bare = regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(&r.stdout, "")
        .into_owned();
    let uncoloured = run(
        &["check", "--color", "never", "--diagnostics", diagnostics],
        b"http://a/b c\n",
    );
    assert_eq!(bare, uncoloured.stdout);
}

#[rstest]
#[case::never(&["check", "--color", "never"])]
#[case::auto_in_a_pipe(&["check", "--color", "auto"])]
#[case::default_in_a_pipe(&["check"])]
#[case::rich_in_a_pipe(&["check", "--diagnostics", "rich"])]
fn check_no_colour(#[case] args: &[&str]) {
    let r = run(args, b"http://a/b c\n");
    assert_eq!(r.code, 1);
    assert!(!r.stdout.is_empty());
    assert!(!r.stdout.contains('\x1b'), "{:?}", r.stdout);
}

#[test]
fn check_color_does_not_touch_jsonl() {
    let input = b"http://a/b c\n";
    let coloured = run(&["check", "--color", "always", "--format", "jsonl"], input);
    let plain = run(&["check", "--format", "jsonl"], input);
    assert_eq!(coloured.stdout, plain.stdout);
}

#[test]
fn check_help_documents_the_text_layouts() {
    let r = run(&["check", "--help"], b"");
    assert_eq!(r.code, 0);
    for text in [
        "--jobs",
        "--color",
        "--diagnostics",
        "NO_COLOR",
        "not a terminal",
    ] {
        assert!(r.stdout.contains(text), "{text} in {}", r.stdout);
    }
}

#[test]
fn summary_says_one_warning_in_the_singular() {
    // An upper-case scheme is the one finding (RFC 3986 3.1: schemes should be lowercase).
    let r = run(&["check"], b"HTTP://a/\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.ends_with(
            "1 checked, 1 valid, 0 invalid, 1 warning, 0 skipped (rule URI-reference)\n"
        ),
        "{}",
        r.stderr
    );
}

#[rstest]
#[case::bash("bash", "complete -F")]
#[case::zsh("zsh", "#compdef rfc3986")]
#[case::fish("fish", "complete -c rfc3986")]
fn completions_name_every_subcommand(#[case] shell: &str, #[case] marker: &str) {
    let r = run(&["completions", shell], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(marker), "{}", r.stdout);
    for sub in ["check", "parse", "resolve", "normalize", "equiv"] {
        assert!(
            r.stdout.contains(sub),
            "{sub} missing from the {shell} script"
        );
    }
}

#[test]
fn man_page_is_roff_with_every_subcommand() {
    let r = run(&["man"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(".ie") || r.stdout.contains(".TH rfc3986 1"),
        "{}",
        &r.stdout[..200.min(r.stdout.len())]
    );
    for sub in ["check", "parse", "resolve", "normalize", "equiv"] {
        assert!(r.stdout.contains(sub), "{sub} missing from the man page");
    }
}

#[test]
fn help_fits_80_columns() {
    // clap wraps help text to the terminal width, capped at 100 columns; without a terminal it uses
    // the COLUMNS variable when set.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rfc3986"))
        .args(["check", "--help"])
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest <= 80, "a help line has {widest} characters:\n{text}");
}

/// `check` reads files: a missing "file" that is a URI gets a pointer to `parse` and to a pipe; a file
/// name's control characters are escaped, not sent to the terminal.
#[test]
fn check_a_uri_argument_is_not_a_file() {
    let r = run(&["check", "http://x/a b"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("rfc3986 parse URI"), "{}", r.stderr);
    let r = run(&["check", "bad\nname\u{1b}[31m"], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("bad\\u{a}name\\u{1b}[31m"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains('\u{1b}'));
}
