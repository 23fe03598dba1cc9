//! The command line as CONTRACT.md describes it, run as a process: exit status, text diagnostics, the
//! summary line, JSON shapes, input handling (bytes, CRLF, blank lines, files and standard input).

use std::io::{Read, Write};
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

/// Runs `rfc3986 ARGS` with `stdin` as standard input.
#[track_caller]
fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc3986"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rfc3986");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The binary may exit before reading everything (a usage error): ignore a broken pipe.
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("wait for rfc3986");
    writer.join().unwrap();
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
        "3 checked, 2 valid, 1 invalid, 0 warnings, 1 skipped\n"
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
        "2 checked, 1 valid, 1 invalid, 0 warnings, 0 skipped\n"
    );
}

#[test]
fn check_strict_is_accepted_without_warnings() {
    let r = run(&["check", "--strict"], b"http://a/\n");
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stderr,
        "1 checked, 1 valid, 0 invalid, 0 warnings, 0 skipped\n"
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
    assert_eq!(keys(error), ["expected", "message", "offset"]);
    assert_eq!(error["offset"], 10);
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
        "3 checked, 2 valid, 1 invalid, 0 warnings, 2 skipped\n"
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
        "1 checked, 1 valid, 0 invalid, 0 warnings, 3 skipped\n"
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
        "4 checked, 3 valid, 1 invalid, 0 warnings, 1 skipped\n"
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
        r.stderr
            .ends_with("1 checked, 1 valid, 0 invalid, 0 warnings, 0 skipped\n"),
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
        r.stderr
            .ends_with("1 checked, 1 valid, 0 invalid, 0 warnings, 0 skipped\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_closed_stdout_exits_quietly() {
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
    assert_eq!(output.status.code(), Some(0), "{stderr}");
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
