//! One test per defect of issue 28 (the command line: one reader, one printer), each failing on the
//! binary before the reader and the printer (main c17c3c6): run them against an older build with
//! `RFC3986_TEST_BIN=/path/to/rfc3986 cargo test -p rfc3986-cli --test it regressions`.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn all(output: &Output) -> String {
    format!("{}{}", text(&output.stdout), text(&output.stderr))
}

/// What a terminal would obey: ESC, BEL, the C1 controls, bidirectional controls, line separators.
fn has_terminal_control(s: &str) -> bool {
    s.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
    })
}

/// Defect 1: the second field of an `A<TAB>B` line had its password in clear in text diagnostics.
#[rstest::rstest]
#[case::equiv(&["equiv"])]
#[case::resolve_pairs(&["resolve", "--pairs", "-"])]
fn regression_two_field_password_in_text(#[case] args: &[&str]) {
    let output = common::spawn(args, b"http://a/b\thttp://u:hunter2@h/ x\n");
    let err = text(&output.stderr);
    assert!(err.contains("http://u:****@h/ x"), "{err}");
    assert!(!all(&output).contains("hunter2"), "{}", all(&output));
}

/// Defect 2: `--redact` left the password in result fields (`expand`'s template and expansion,
/// `normalize`'s normal form, `resolve`'s target, `equiv`'s normal forms), in JSON and in text.
#[rstest::rstest]
#[case::expand_json(&["expand", "--redact", "--format", "json", "http://u:hunter2@h/{x}", "x=1"], "")]
#[case::expand_text(&["expand", "--redact", "http://u:hunter2@h/{x}", "x=1"], "")]
#[case::normalize_json(&["normalize", "--redact", "--format", "json"], "HTTP://u:hunter2@h/%7e\n")]
#[case::normalize_text(&["normalize", "--redact"], "HTTP://u:hunter2@h/%7e\n")]
#[case::resolve_json(&["resolve", "--redact", "--format", "json", "http://u:hunter2@h/a", "b"], "")]
#[case::resolve_text(&["resolve", "--redact", "http://u:hunter2@h/a", "b"], "")]
#[case::equiv_json(&["equiv", "--redact", "--format", "json"], "http://u:hunter2@h/\thttp://u:hunter%32@h/\n")]
#[case::parse_text(&["parse", "--redact"], "http://u:hunter2@h/\n")]
fn regression_redact_masks_results(#[case] args: &[&str], #[case] stdin: &str) {
    let output = common::spawn(args, stdin.as_bytes());
    let out = all(&output);
    assert!(!out.contains("hunter"), "{out}");
    assert!(out.contains("u:****@h"), "{out}");
}

/// Defect 3: a lint finding inside a password named its octet and its exact place under `--redact`,
/// and a JSON error there had a kind that tells the character (`space`); text diagnostics named the
/// octet always.
#[test]
fn regression_lint_finding_in_password_is_not_said() {
    let output = common::spawn(
        &["check", "--format", "json", "--redact"],
        b"http://u:p%00ss@h/\n",
    );
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let nul = record["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["code"] == "pct-encoded-nul")
        .expect("the finding is still reported");
    assert_eq!(
        nul["message"],
        "finding in the password of the userinfo (not shown)"
    );
    // The password's span (bytes 9..15 of the line), not the octet's.
    assert_eq!(nul["span"], serde_json::json!([9, 15]));
    assert!(
        !text(&output.stdout).contains("%00"),
        "{}",
        text(&output.stdout)
    );

    let output = common::spawn(
        &["check", "--format", "json", "--redact"],
        b"http://u:p s@h/\n",
    );
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(record["error"]["kind"], "invalid-character");

    let output = common::spawn(&["check"], b"http://u:p%00ss@h/\n");
    assert!(
        !text(&output.stdout).contains("(%00)"),
        "{}",
        text(&output.stdout)
    );
}

/// Defect 4: `decode`'s diagnostics echoed the password.
#[test]
fn regression_decode_diagnostic_masks_the_password() {
    let output = common::spawn(&["decode"], b"http://user:PW%zzsec@h/\n");
    assert_eq!(output.status.code(), Some(1));
    let err = text(&output.stderr);
    assert!(err.contains("http://user:****@h/"), "{err}");
    assert!(!err.contains("PW") && !err.contains("sec"), "{err}");
}

/// Defect 5: raw terminal escapes and bidirectional controls reached the terminal: a grammar's literal
/// in "expected", `fix`'s standard output for unrepairable lines, `parse --grammar iri` text output.
#[test]
fn regression_terminal_escapes_are_escaped() {
    let dir = std::env::temp_dir().join(format!("rfc3986-esc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grammar = dir.join("esc.pest");
    std::fs::write(&grammar, "r = { \"a\\u{1b}[2J\" }\n").unwrap();
    let grammar = grammar.to_str().unwrap();
    for look in ["plain", "rich"] {
        let args = [
            "check",
            "--grammar",
            grammar,
            "--rule",
            "r",
            "--diagnostics",
            look,
        ];
        let output = common::spawn(&args, b"b\n");
        assert_eq!(output.status.code(), Some(1));
        assert!(
            !has_terminal_control(&all(&output)),
            "{look}: {:?}",
            all(&output)
        );
        assert!(all(&output).contains("\\u{1b}[2J"), "{:?}", all(&output));
    }
    let output = common::spawn(&["fix"], b"a\x1b]0;pwned\x07\x1b[2J:b\n");
    assert!(!has_terminal_control(&all(&output)), "{:?}", all(&output));
    assert_eq!(text(&output.stdout), "a\\u{1b}]0;pwned\\u{7}\\u{1b}[2J:b\n");
    let output = common::spawn(
        &["parse", "--grammar", "iri"],
        "http://h/a\u{202e}b\u{2028}c\n".as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(!has_terminal_control(&all(&output)), "{:?}", all(&output));
    assert!(text(&output.stdout).contains("a\\u{202e}b\\u{2028}c"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Defect 5, JSON: U+2028, U+2029, the C1 controls and bidirectional controls are escaped (some readers
/// split records at them); the value is the same.
#[test]
fn regression_json_escapes_separators_and_c1() {
    let input = "http://h/a\u{2028}b\u{2029}c\u{85}d\u{202e}e\n";
    let output = common::spawn(
        &["parse", "--grammar", "iri", "--format", "json"],
        input.as_bytes(),
    );
    let out = text(&output.stdout);
    assert!(out.is_ascii(), "{out:?}");
    assert!(out.contains("\\u2028") && out.contains("\\u2029") && out.contains("\\u0085"));
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["input"], input.trim_end());
}

/// Defect 8: `expand --vars` read anything (`/dev/zero` grew without bound, a FIFO blocked forever).
#[test]
fn regression_expand_vars_is_a_bounded_regular_file() {
    let output = common::spawn_with_limit(
        &["expand", "--vars", "/dev/zero", "x"],
        b"",
        Duration::from_secs(20),
    )
    .expect("ends");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("not a regular file"),
        "{}",
        text(&output.stderr)
    );

    let dir = std::env::temp_dir().join(format!("rfc3986-vars-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("vars.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let output = common::spawn_with_limit(
            &["expand", "--vars", fifo.to_str().unwrap(), "x"],
            b"",
            Duration::from_secs(20),
        )
        .expect("a FIFO does not block");
        assert_eq!(output.status.code(), Some(2));
    }
    let big = dir.join("big.json");
    std::fs::write(&big, format!("{{\"x\": \"{}\"}}", "a".repeat(2 << 20))).unwrap();
    let output = common::spawn(&["expand", "--vars", big.to_str().unwrap(), "x"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("longer than"),
        "{}",
        text(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Defect 8, templates: a template whose expansion could be huge is refused before it is expanded.
#[test]
fn regression_expand_is_bounded() {
    let value = format!("x={}", "a".repeat(9999));
    // 4,000 expressions of up to 30,000 bytes each: over the expansion limit; 64 Ki: over the
    // template limit.
    for (expressions, what) in [(4000, "expansion"), (64 * 1024, "template")] {
        let template = format!("{}\n", "{x:9999}".repeat(expressions));
        // (`spawn`: the record, with the template, is larger than a pipe holds.)
        let output = common::spawn(
            &["expand", "--format", "json", "-", &value],
            template.as_bytes(),
        );
        assert_eq!(output.status.code(), Some(1));
        let record: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(record["expanded"], serde_json::Value::Null);
        let message = record["template_error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("the {what} could exceed the limit")),
            "{message}"
        );
    }
}

/// Defect 9: `completions` panicked (exit 101) when its output failed.
#[test]
fn regression_completions_to_a_full_device() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return;
    };
    for args in [&["completions", "bash"][..], &["man"][..]] {
        let output = Command::new(common::binary())
            .args(args)
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains("cannot write output"), "{err}");
    }
}

/// Defect 10: a reader that stopped early turned any result into exit 0 (`... | check --format json |
/// head -1`, every line invalid).
#[test]
fn regression_closed_output_is_not_success() {
    let input = "http://a/ b\n".repeat(100_000);
    let mut child = Command::new(common::binary())
        .args(["check", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = [0u8; 64];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_ne!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
}

/// Defect 11: `--scheme-dir` loaded any number of files.
#[test]
fn regression_scheme_dir_file_limit() {
    let dir = std::env::temp_dir().join(format!("rfc3986-schemes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..200 {
        std::fs::write(dir.join(format!("s{i}.pest")), "x = { \"a\" }\n").unwrap();
    }
    let output = common::spawn_with_limit(
        &["check", "--scheme-dir", dir.to_str().unwrap()],
        b"http://a/\n",
        Duration::from_secs(60),
    )
    .expect("ends");
    assert_eq!(output.status.code(), Some(2));
    let err = text(&output.stderr);
    assert!(
        err.contains("200 scheme grammars, more than the limit of 128"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Defect 12: `fix --format json` counted columns in characters, where its text notes count bytes.
#[test]
fn regression_fix_json_columns_count_bytes() {
    let output = common::spawn(&["fix", "--format", "json"], b"http://h/\xc3\xa9/x y{z}\n");
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let space = &record["repairs"][1];
    assert_eq!(space["found"], " ");
    assert_eq!(space["offset"], 13);
    assert_eq!(space["column"], 14);
    let output = common::spawn(&["fix"], b"http://h/\xc3\xa9/x y{z}\n");
    assert!(text(&output.stderr).contains("<stdin>:1:14: fixed: ' ' -> %20"));
    assert_eq!(record["error"]["column"], 16);
}

/// Defect 13: `parse` wrote its diagnostics on standard output; `check nope.txt` printed a `0 checked`
/// summary after the I/O error.
#[test]
fn regression_streams() {
    let output = common::spawn(&["parse", "http://a b/"], b"");
    assert_eq!(text(&output.stdout), "");
    assert!(text(&output.stderr).starts_with("<argument>:1:9: error: space not allowed here"));

    let output = common::spawn(&["check", "no-such-file-28.txt"], b"");
    assert_eq!(output.status.code(), Some(2));
    let err = text(&output.stderr);
    assert!(err.contains("no-such-file-28.txt: No such file"), "{err}");
    assert!(!err.contains("checked"), "{err}");
}

/// Defect 6: a loaded grammar's string literal cost one step whatever its length, so `(L | ANY)*` with
/// a long L was quadratic and the step budget never stopped it; its compared bytes count now, and the
/// match stops with `limit-reached` (exit 3) in time linear in the line.
#[rstest::rstest]
#[case::literal("")]
#[case::case_insensitive("^")]
fn regression_long_literal_costs_its_length(#[case] insensitive: &str) {
    let dir = std::env::temp_dir().join(format!("rfc3986-lit-{insensitive}{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grammar = dir.join("lit.pest");
    let literal = format!("{}b", "a".repeat(50_000));
    std::fs::write(
        &grammar,
        format!("r = {{ ({insensitive}\"{literal}\" | ANY)* }}\n"),
    )
    .unwrap();
    let line = format!("{}\n", "a".repeat(200_000));
    let output = common::spawn_with_limit(
        // Text: the diagnostic shows 60 bytes of the line, so the pipe never fills.
        &[
            "check",
            "--grammar",
            grammar.to_str().unwrap(),
            "--rule",
            "r",
        ],
        line.as_bytes(),
        Duration::from_secs(120),
    )
    .expect("ends");
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{err}");
    assert!(err.contains("1 stopped by a parser limit"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Defect 7: a grammar that runs on pest_vm held about 100 bytes per byte of a line (a 4 MiB line: 400
/// MB); a line over 64 KiB is now refused with `limit-reached` (exit 3), and memory stays bounded.
#[test]
fn regression_pest_vm_lines_are_bounded() {
    let dir = std::env::temp_dir().join(format!("rfc3986-vm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grammar = dir.join("vm.pest");
    // Implicit WHITESPACE: the program cannot express it, pest_vm runs it.
    std::fs::write(
        &grammar,
        "WHITESPACE = { \" \" }\nr = { a* }\na = { \"a\" }\n",
    )
    .unwrap();
    let line = format!("{}\n", "a".repeat(100_000));
    let output = common::spawn(
        &[
            "check",
            "--grammar",
            grammar.to_str().unwrap(),
            "--rule",
            "r",
        ],
        line.as_bytes(),
    );
    let out = all(&output);
    assert_eq!(output.status.code(), Some(3), "{out}");
    assert!(
        out.contains("a grammar that runs on pest_vm matches at most 65536 bytes"),
        "{out}"
    );
    // A short line still matches.
    let output = common::spawn(
        &[
            "check",
            "--grammar",
            grammar.to_str().unwrap(),
            "--rule",
            "r",
        ],
        b"aaaa\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", all(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
