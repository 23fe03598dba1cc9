//! `check` beyond the grammar, through the built binary: SHOULD-level findings (`--strict`), scheme
//! grammars (`--schemes`, `--scheme-dir`) and grammars loaded at run time (`--grammar`).

use std::process::Output;

use rstest::rstest;

use crate::common;

#[track_caller]
fn run(args: &[&str], stdin: &str) -> Output {
    common::spawn_at_root(args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[rstest]
#[case::scheme_not_lowercase("HTTP://a/", "scheme-not-lowercase", "3.1", 1)]
#[case::default_port("http://a:80/", "port-default", "3.2.3", 9)]
#[case::dot_segments("http://a/b/../c", "path-dot-segments", "6.2.2.3", 12)]
#[case::password("http://user:hunter2@a/", "userinfo-password", "3.2.1", 13)]
fn check_reports_findings_as_warnings(
    #[case] input: &str,
    #[case] code: &str,
    #[case] section: &str,
    #[case] column: usize,
) {
    let output = run(&["check"], &format!("{input}\n"));
    assert_eq!(
        output.status.code(),
        Some(0),
        "a warning alone does not fail the line"
    );
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!("<stdin>:1:{column}: warning: "))
            && stdout.contains(&format!("(RFC 3986 {section}) [{code}]")),
        "{stdout}"
    );
    assert!(text(&output.stderr).contains("1 checked, 1 valid, 0 invalid, 1 warning,"));

    let strict = run(&["check", "--strict"], &format!("{input}\n"));
    assert_eq!(strict.status.code(), Some(1), "--strict fails on a warning");
    assert!(text(&strict.stderr).contains("1 checked, 0 valid, 1 invalid, 1 warning,"));
}

#[test]
fn check_never_echoes_a_password_in_findings() {
    let output = run(&["check"], "http://user:hunter2@a/\n");
    assert!(!text(&output.stdout).contains("hunter2"));
}

#[test]
fn check_jsonl_warnings_have_code_section_message_and_span() {
    let output = run(&["check", "--format", "jsonl"], "HTTP://a/\n");
    let value: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(value["valid"], true);
    let warning = &value["warnings"][0];
    assert_eq!(warning["code"], "scheme-not-lowercase");
    assert_eq!(warning["section"], "3.1");
    assert!(warning["message"].is_string());
    assert_eq!(warning["span"], serde_json::json!([0, 4]));
}

#[rstest]
#[case::http_without_host("https:///no-host", "RFC 9110")]
#[case::urn_without_nss("urn:x", "RFC 8141")]
fn check_schemes_cites_the_scheme_rfc(#[case] input: &str, #[case] rfc: &str) {
    assert_eq!(
        run(&["check"], &format!("{input}\n")).status.code(),
        Some(0),
        "valid generic syntax"
    );
    let output = run(
        &["check", "--schemes", "--format", "jsonl"],
        &format!("{input}\n"),
    );
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(value["valid"], false);
    assert!(value["error"]["message"].as_str().unwrap().contains(rfc));
}

#[test]
fn check_schemes_leaves_other_schemes_alone() {
    let output = run(&["check", "--schemes"], "foo:bar\nhttps://example.com/\n");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn check_scheme_dir_adds_a_users_grammar() {
    let dir = std::env::temp_dir().join(format!("rfc3986-schemes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A made-up scheme `only-a` whose URIs are `only-a:` followed by one or more "a".
    std::fs::write(
        dir.join("only-a.pest"),
        "//! Test grammar\n/// scheme-uri = \"only-a:\" 1*\"a\"\n/// test\nscheme_uri = { ^\"only-a:\" ~ \"a\"+ }\n",
    )
    .unwrap();
    let dir_arg = dir.to_str().unwrap();
    let ok = run(&["check", "--scheme-dir", dir_arg], "only-a:aaa\n");
    let bad = run(&["check", "--scheme-dir", dir_arg], "only-a:b\n");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn check_grammar_loads_an_iri_grammar_at_run_time() {
    let input = "http://example.com/r%C3%A9sum%C3%A9\nhttp://example.com/résumé\n";
    let builtin = run(&["check", "--quiet"], input);
    assert!(text(&builtin.stderr).contains("2 checked, 1 valid, 1 invalid"));
    let iri = run(
        &[
            "check",
            "--quiet",
            "--grammar",
            "grammars/iri.pest",
            "--rule",
            "IRI-reference",
        ],
        input,
    );
    assert_eq!(iri.status.code(), Some(0), "{}", text(&iri.stderr));
    assert!(text(&iri.stderr).contains("2 checked, 2 valid, 0 invalid"));
}

#[test]
fn check_grammar_uri_pest_agrees_with_the_built_in_grammar_on_the_sample() {
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/real-uris-sample.txt"
    ))
    .unwrap();
    let sample: String = sample.lines().take(500).map(|l| format!("{l}\n")).collect();
    let builtin = run(&["check", "--format", "jsonl"], &sample);
    let loaded = run(
        &["check", "--format", "jsonl", "--grammar", "uri.pest"],
        &sample,
    );
    let verdicts = |o: &Output| -> Vec<(bool, Option<u64>)> {
        text(&o.stdout)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (v["valid"].as_bool().unwrap(), v["error"]["offset"].as_u64())
            })
            .collect()
    };
    assert_eq!(verdicts(&builtin), verdicts(&loaded));
}

/// Issue 12: a loaded grammar is compiled into the built-in recognizer's program and explains
/// rejections as the built-in twin does, so `--grammar uri.pest` prints byte for byte what the
/// built-in grammar prints (every diagnostic, expected items in the same order, the summary).
#[rstest]
#[case::text(&["check", "--diagnostics", "plain"])]
#[case::text_strict(&["check", "--diagnostics", "plain", "--strict"])]
#[case::json(&["check", "--format", "json"])]
fn check_grammar_uri_pest_prints_what_the_built_in_grammar_prints(#[case] args: &[&str]) {
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/real-uris-sample.txt"
    ))
    .unwrap();
    let builtin = run(args, &sample);
    let with_grammar: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--grammar", "uri.pest"])
        .collect();
    let loaded = run(&with_grammar, &sample);
    assert_eq!(builtin.status.code(), loaded.status.code());
    assert!(text(&builtin.stdout).lines().count() > 100);
    assert!(
        text(&builtin.stdout) == text(&loaded.stdout),
        "standard output differs"
    );
    assert_eq!(text(&builtin.stderr), text(&loaded.stderr));
}

#[rstest]
#[case::missing_file(&["check", "--grammar", "/nonexistent/x.pest"], "x.pest")]
#[case::unknown_rule(&["check", "--grammar", "uri.pest", "--rule", "nope"], "nope")]
#[case::unknown_builtin_rule(&["check", "--rule", "nope"], "nope")]
fn check_usage_errors_exit_2(#[case] args: &[&str], #[case] mentions: &str) {
    let output = run(args, "a\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains(mentions));
}

#[test]
fn check_grammar_errors_give_line_and_column() {
    let path = std::env::temp_dir().join(format!("rfc3986-bad-{}.pest", std::process::id()));
    std::fs::write(&path, "uri = { \"a\" ~ }\n").unwrap();
    let output = run(&["check", "--grammar", path.to_str().unwrap()], "a\n");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains(":1:15:"),
        "{}",
        text(&output.stderr)
    );
}
