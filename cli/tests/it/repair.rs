//! The `encode`, `decode` and `fix` subcommands through the built binary: output shapes,
//! exit statuses, diagnostics on standard error. Values are the RFCs' own examples where they have them
//! (RFC 3986 2.1, 2.4, 2.5; RFC 3987 3.1).

use std::io::Write;
use std::process::Output;

use rstest::rstest;
use serde_json::Value;

use crate::common;

#[track_caller]
fn run(args: &[&str], stdin: &[u8]) -> Output {
    common::spawn(args, stdin)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

// --- encode / decode -------------------------------------------------------------------------------

#[rstest]
#[case::rfc3986_2_1_space_segment("segment", "a b/c", "a%20b%2Fc")]
#[case::path_keeps_slash("path", "a b/c", "a%20b/c")]
#[case::query_keeps_slash_and_question_mark("query", "a b/c?d#e", "a%20b/c?d%23e")]
#[case::fragment("fragment", "x#y", "x%23y")]
#[case::rfc3986_2_4_percent("query", "100%", "100%25")]
#[case::rfc3986_2_5_utf8("host", "r\u{E9}sum\u{E9}", "r%C3%A9sum%C3%A9")]
#[case::userinfo_keeps_colon("userinfo", "a:b@c", "a:b%40c")]
fn encode_component(#[case] component: &str, #[case] text: &str, #[case] expected: &str) {
    let output = run(&["encode", "--component", component, text], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), format!("{expected}\n"));
}

#[test]
fn encode_reads_lines_of_standard_input_blank_lines_included() {
    let output = run(&["encode"], b"a b\n\nc/d\r\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "a%20b\n\nc%2Fd\n");
}

#[test]
fn encode_json_names_the_component() {
    let output = run(
        &["encode", "--format", "json", "--component", "query", "a b"],
        b"",
    );
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["input"], "a b");
    assert_eq!(lines[0]["component"], "query");
    assert_eq!(lines[0]["encoded"], "a%20b");
}

#[test]
fn encode_then_decode_round_trips() {
    let text = "caf\u{E9} / 100% ?#[]";
    let encoded = stdout(&run(&["encode", text], b""));
    let decoded = run(&["decode", encoded.trim_end()], b"");
    assert_eq!(stdout(&decoded), format!("{text}\n"));
}

#[rstest]
#[case::rfc3986_2_1_space("a%20b", "a b")]
#[case::rfc3986_2_5_utf8("r%C3%A9sum%C3%A9", "r\u{E9}sum\u{E9}")]
#[case::lower_case_hex("%7e", "~")]
#[case::plus_stays_plus("a+b", "a+b")]
fn decode_text(#[case] text: &str, #[case] expected: &str) {
    let output = run(&["decode", text], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), format!("{expected}\n"));
}

#[test]
fn decode_errors_are_reported_per_line_with_exit_1() {
    let output = run(&["decode", "-"], b"ok%20\nx%FF\na%2\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "ok \n");
    let err = stderr(&output);
    assert!(err.contains("<stdin>:2:2: error: "), "{err}");
    assert!(err.contains("<stdin>:3:2: error: "), "{err}");
}

#[test]
fn decode_json_has_offset_column_and_kind() {
    let output = run(
        &["decode", "--format", "json", "a%20b", "\u{E9}%FF", "%zz"],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    let lines = json_lines(&output);
    assert_eq!(lines[0]["decoded"], "a b");
    assert_eq!(lines[0]["error"], Value::Null);
    assert_eq!(lines[1]["decoded"], Value::Null);
    assert_eq!(lines[1]["error"]["offset"], 2);
    assert_eq!(lines[1]["error"]["column"], 2);
    assert_eq!(lines[1]["error"]["kind"], "invalid-utf8");
    assert_eq!(lines[2]["error"]["kind"], "invalid-percent-encoding");
    assert_eq!(lines[2]["error"]["expected"], serde_json::json!(["HEXDIG"]));
    assert!(lines[2]["error"]["hint"].as_str().unwrap().contains("%25"));
    assert_eq!(lines[2]["line"], 3);
}

#[test]
fn decode_bytes_writes_raw_octets() {
    let output = run(&["decode", "--bytes", "%FF%00a"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stdout, b"\xff\x00a\n");
}

// --- fix -------------------------------------------------------------------------------------------

#[test]
fn fix_writes_one_line_per_line_and_reports_each_repair() {
    let input =
        "http://r\u{E9}sum\u{E9}.example.org\nhttp://a/b\n\nhttps://{bucket}.example.com/\na#b#c\n";
    let output = run(&["fix"], input.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "http://r%C3%A9sum%C3%A9.example.org\nhttp://a/b\n\nhttps://{bucket}.example.com/\na#b%23c\n"
    );
    let err = stderr(&output);
    assert!(
        err.contains("<stdin>:1:9: fixed: '\u{E9}' -> %C3%A9 (RFC 3986 2.5, RFC 3987 3.1)\n"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:5:4: fixed: '#' -> %23 (RFC 3986 3.5)\n"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:4:9: error: a URI template (RFC 6570)"),
        "{err}"
    );
    assert!(
        err.ends_with("5 lines, 2 already valid, 2 fixed, 1 unrepairable\n"),
        "{err}"
    );
}

#[test]
fn fix_exits_0_when_every_line_ends_valid_and_quiet_drops_the_notes() {
    let output = run(&["fix", "--quiet"], b"a b\n/c\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "a%20b\n/c\n");
    assert_eq!(
        stderr(&output),
        "2 lines, 1 already valid, 1 fixed, 0 unrepairable\n"
    );
}

/// The summary counts one line in the singular.
#[test]
fn fix_summary_says_one_line() {
    let output = run(&["fix", "--quiet"], b"/c\n");
    assert_eq!(
        stderr(&output),
        "1 line, 1 already valid, 0 fixed, 0 unrepairable\n"
    );
}

/// A line `fix` refuses for its cause gets the cause's advice as its JSON `hint`, not the grammar's hint
/// to percent-encode (which is what the refusal says would not help); a syntax error keeps the grammar's.
#[rstest]
#[case::host(
    "http://exa mple.com/\n",
    "host",
    "no host name contains this character"
)]
#[case::template(
    "https://{region}.example.com/\n",
    "template",
    "a URI template (RFC 6570)"
)]
#[case::syntax("http://[::1/\n", "syntax", "")]
fn regression_fix_json_hint_follows_the_cause(
    #[case] input: &str,
    #[case] cause: &str,
    #[case] hint_start: &str,
) {
    let output = run(&["fix", "--format", "json"], input.as_bytes());
    let records = json_lines(&output);
    assert_eq!(records.len(), 1);
    let error = &records[0]["error"];
    assert_eq!(error["cause"], cause);
    let hint = error["hint"].as_str().unwrap_or("");
    assert!(!hint.contains("%20"), "{hint}");
    if cause == "syntax" {
        let direct = rfc3986::validate(rfc3986::Rule::URI_REFERENCE, input.trim_end()).unwrap_err();
        assert_eq!(error["hint"], serde_json::json!(direct.hint()));
    } else {
        assert!(hint.starts_with(hint_start), "{hint}");
    }
}

/// What `fix` repairs always passes `check`: the corpus sample (templates and all) with a few near-URIs.
#[test]
fn fix_output_passes_check() {
    let sample =
        std::fs::read(common::repository_root().join("data/real-uris-sample.txt")).unwrap();
    let mut input = sample.clone();
    input.extend_from_slice(b"a b\n#\xc3\xa9\n/100%\n/x[1]?y[]\nfile:///a|b\n");
    let text = run(&["fix", "--quiet"], &input);
    assert_eq!(
        text.stdout.split(|&b| b == b'\n').count(),
        input.split(|&b| b == b'\n').count()
    );
    let json = run(&["fix", "--format", "json"], &input);
    let fixed: Vec<String> = json_lines(&json)
        .iter()
        .filter_map(|o| o["fixed"].as_str().map(str::to_string))
        .collect();
    assert!(fixed.len() > 3800, "{}", fixed.len());
    let checked = run(&["check"], fixed.join("\n").as_bytes());
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    for line in [
        "a%20b",
        "#%C3%A9",
        "/100%25",
        "/x%5B1%5D?y%5B%5D",
        "file:///a%7Cb",
    ] {
        assert!(fixed.iter().any(|f| f == line), "{line}");
    }
}

#[test]
fn fix_json_has_one_object_per_line_with_repairs_and_errors() {
    let input = "/a b\nhttp://host:port/\n/ok\n\n";
    let output = run(&["fix", "--format", "json"], input.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["file"], "<stdin>");
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["fixed"], "/a%20b");
    assert_eq!(lines[0]["error"], Value::Null);
    let repair = &lines[0]["repairs"][0];
    assert_eq!(repair["offset"], 2);
    assert_eq!(repair["column"], 3);
    assert_eq!(repair["found"], " ");
    assert_eq!(repair["replacement"], "%20");
    assert_eq!(repair["reason"], "space");
    assert_eq!(repair["section"], "RFC 3986 2.1");
    assert_eq!(lines[1]["fixed"], Value::Null);
    assert_eq!(lines[1]["error"]["kind"], "invalid-port");
    assert_eq!(lines[1]["error"]["cause"], "syntax");
    assert_eq!(lines[1]["error"]["offset"], 12);
    assert_eq!(lines[1]["error"]["column"], 13);
    assert_eq!(lines[2]["repairs"], Value::Array(vec![]));
    assert_eq!(lines[2]["fixed"], "/ok");
    assert_eq!(lines[3]["line"], 4);
    assert_eq!(lines[3]["fixed"], "");
}

/// An empty line is the empty URI reference (RFC 3986 4.1, 4.2: `relative-ref` with `path-empty`): it
/// gets its record with its line number, in input order, like any other line.
#[test]
fn fix_gives_a_blank_line_its_record_in_order() {
    let input = "\na b\n\n/ok\n\n";
    let output = run(&["fix", "--format", "json"], input.as_bytes());
    assert_eq!(output.status.code(), Some(0));
    let lines = json_lines(&output);
    let numbers: Vec<_> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    for i in [0, 2, 4] {
        assert_eq!(lines[i]["input"], "", "{}", lines[i]);
        assert_eq!(lines[i]["fixed"], "", "{}", lines[i]);
        assert_eq!(lines[i]["repairs"], Value::Array(vec![]), "{}", lines[i]);
        assert_eq!(lines[i]["error"], Value::Null, "{}", lines[i]);
    }
    assert_eq!(lines[1]["fixed"], "a%20b");
    assert_eq!(lines[3]["fixed"], "/ok");
    assert_eq!(
        stderr(&output),
        "5 lines, 4 already valid, 1 fixed, 0 unrepairable\n"
    );
    let text = run(&["fix"], input.as_bytes());
    assert_eq!(text.status.code(), Some(0));
    assert_eq!(stdout(&text), "\na%20b\n\n/ok\n\n");
    assert!(
        stderr(&text).ends_with("5 lines, 4 already valid, 1 fixed, 0 unrepairable\n"),
        "{}",
        stderr(&text)
    );
}

#[test]
fn fix_reads_files_and_names_them() {
    let dir = std::env::temp_dir().join(format!("rfc3986-cli-repair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("uris.txt");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(b"/ok\n/a|b\n")
        .unwrap();
    let name = path.to_str().unwrap();
    let output = run(&["fix", name], b"");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "/ok\n/a%7Cb\n");
    assert!(stderr(&output).contains(&format!("{name}:2:3: fixed: '|' -> %7C (RFC 3986 2.1)")));
}

#[test]
fn fix_escapes_controls_and_hides_a_password_in_diagnostics() {
    let output = run(&["fix"], b"/a\x1bb\nhttp://user:s\xc3\xa9cret@host:x/\n");
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("fixed: '\\u{1b}' -> %1B"), "{err}");
    assert!(!err.contains('\x1b'), "{err}");
    assert!(!err.contains("cret"), "{err}");
    assert!(err.contains("http://user:"), "{err}");
    // The product on standard output is written as it is.
    assert!(stdout(&output).contains("http://user:s\u{E9}cret@host:x/"));
}

#[test]
fn fix_reports_a_line_that_is_not_utf8_and_keeps_it() {
    let output = run(&["fix", "--format", "json"], b"/a\xff\n");
    assert_eq!(output.status.code(), Some(1));
    let lines = json_lines(&output);
    assert_eq!(lines[0]["error"]["kind"], "invalid-utf8");
    assert_eq!(lines[0]["error"]["offset"], 2);
    let text = run(&["fix"], b"/a\xff\n");
    assert_eq!(text.stdout, b"/a\xff\n");
}
