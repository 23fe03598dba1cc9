//! What scripts and people rely on in every subcommand's output (issues "hostile input" and "a command line
//! that scripts and people can trust"): one diagnostic shape, passwords masked, terminal escapes escaped,
//! `--allow`/`--deny`, bounded findings, `-j` bounds, parser limits as their own outcome, a closed
//! standard output reported.

use std::process::Output;

use rstest::rstest;

use crate::common;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[track_caller]
fn run(args: &[&str], stdin: &str) -> Output {
    common::spawn(args, stdin.as_bytes())
}

// ---------------------------------------------------------------- one location style

/// `SOURCE:LINE:COL: error: MESSAGE`, then the line and a caret, for every subcommand; COL is the 1-based
/// byte column in the line as read (for `BASE<TAB>REF` and `A<TAB>B` lines too).
#[rstest]
#[case::check(&["check"][..], "http://a/b c\n", "<stdin>:1:11: error: space not allowed here")]
#[case::parse_stdin(&["parse"][..], "http://a/b c\n", "<stdin>:1:11: error: space not allowed here")]
#[case::parse_argument(&["parse", "http://a/", "http://a/b c"][..], "", "<argument>:2:11: error: space")]
#[case::normalize(&["normalize", "http://a/b c"][..], "", "<argument>:1:11: error: space")]
#[case::resolve_argument(&["resolve", "http://a/", "b c"][..], "", "<argument>:1:2: error: space")]
#[case::resolve_bad_base(&["resolve", "http://a/ ", "b"][..], "", "<base>:1:10: error: space")]
#[case::resolve_pairs(&["resolve", "--pairs", "-"][..], "http://a/\tb c\n", "<stdin>:1:12: error: space")]
#[case::equiv_argument(&["equiv", "http://a/", "a b"][..], "", "<argument>:2:2: error: space")]
#[case::equiv_pairs(&["equiv"][..], "http://a/\ta b\n", "<stdin>:1:12: error: space")]
fn every_subcommand_has_one_diagnostic_shape(
    #[case] args: &[&str],
    #[case] stdin: &str,
    #[case] head: &str,
) {
    let output = run(args, stdin);
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    let line = all
        .lines()
        .find(|l| l.contains(": error: "))
        .unwrap_or_else(|| panic!("no diagnostic in {all:?}"));
    assert!(
        line.starts_with(head),
        "{line:?} should start with {head:?}"
    );
    // The line (or the part of it the error is in) follows with a caret.
    let mut lines = all.lines().skip_while(|l| !l.contains(": error: ")).skip(1);
    let echoed = lines.next().expect("the line");
    let caret = lines.next().expect("the caret");
    assert!(caret.trim_start() == "^", "{caret:?}");
    assert_eq!(
        &echoed[caret.len() - 1..caret.len()],
        " ",
        "caret under the space"
    );
}

#[test]
fn strict_findings_are_errors_and_warnings_otherwise() {
    let warning = run(&["check"], "HTTP://a/\n");
    assert!(text(&warning.stdout).starts_with("<stdin>:1:1: warning: scheme should be lowercase"));
    let strict = run(&["check", "--strict"], "HTTP://a/\n");
    assert_eq!(strict.status.code(), Some(1));
    assert!(
        text(&strict.stdout).starts_with("<stdin>:1:1: error: scheme should be lowercase"),
        "{}",
        text(&strict.stdout)
    );
}

#[test]
fn rich_warnings_show_the_line_and_caret() {
    let output = run(&["check", "--diagnostics", "rich"], "http://a:80/\n");
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("warning: port 80 is the default"),
        "{stdout}"
    );
    assert!(stdout.contains("1 | http://a:80/"), "{stdout}");
    assert!(stdout.contains("^^^"), "{stdout}");
}

#[test]
fn rich_diagnostics_for_every_subcommand() {
    let output = run(&["normalize", "--diagnostics", "rich", "http://a/b c"], "");
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("error: space not allowed here"),
        "{stderr}"
    );
    assert!(stderr.contains(" --> <argument>:1:"), "{stderr}");
    assert!(
        stderr.contains("= help: percent-encode a space as %20"),
        "{stderr}"
    );
}

#[test]
fn color_always_colours_every_subcommand() {
    let output = run(&["resolve", "--color", "always", "http://a/", "b c"], "");
    assert!(
        text(&output.stderr).contains("\u{1b}["),
        "{:?}",
        text(&output.stderr)
    );
    let output = run(&["resolve", "--color", "never", "http://a/", "b c"], "");
    assert!(!text(&output.stderr).contains('\u{1b}'));
}

// ---------------------------------------------------------------- --allow, --deny

#[rstest]
#[case::allowed(&["check", "--allow", "port-default"][..], 0, 0, "0 warnings")]
#[case::denied(&["check", "--deny", "port-default"][..], 1, 1, "1 warning,")]
#[case::deny_wins_over_allow(&["check", "--allow", "port-default", "--deny", "port-default"][..], 1, 1, "1 warning,")]
#[case::strict_but_allowed(&["check", "--strict", "--allow", "port-default"][..], 0, 0, "0 warnings")]
#[case::code_names_case_insensitive(&["check", "--deny", "PORT-DEFAULT"][..], 1, 1, "1 warning,")]
fn allow_and_deny_per_lint_code(
    #[case] args: &[&str],
    #[case] code: i32,
    #[case] invalid: u32,
    #[case] warnings: &str,
) {
    let output = run(args, "http://a:80/\n");
    assert_eq!(output.status.code(), Some(code));
    let summary = text(&output.stderr);
    assert!(
        summary.contains(&format!(", {invalid} invalid, ")),
        "{summary}"
    );
    assert!(summary.contains(warnings), "{summary}");
}

#[test]
fn unknown_lint_code_is_a_usage_error_listing_the_codes() {
    let output = run(&["check", "--deny", "no-such-code"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("port-default"));
}

#[test]
fn json_warnings_carry_their_level() {
    let output = run(
        &["check", "--format", "json", "--deny", "port-default"],
        "HTTP://a:80/\n",
    );
    let value: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(value["valid"], false);
    let levels: Vec<(&str, &str)> = value["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["code"].as_str().unwrap(), w["level"].as_str().unwrap()))
        .collect();
    assert_eq!(
        levels,
        [
            ("scheme-not-lowercase", "warning"),
            ("port-default", "error")
        ]
    );
}

// ---------------------------------------------------------------- bounded findings

/// A line with thousands of findings lists at most 10 of each code and says how many more there are;
/// the summary counts them all.
#[test]
fn findings_are_capped_per_code_and_counted() {
    let line = format!("http://a{}\n", "/%2e".repeat(5000));
    let output = run(&["check"], &line);
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 10 + 10 + 10 + 1, "{stdout}");
    assert!(
        stdout.lines().last().unwrap().ends_with(
            "warning: 14970 more findings on this line not listed (at most 10 of each code)"
        ),
        "{stdout}"
    );
    assert!(text(&output.stderr).contains("15000 warnings"));
    let json = run(&["check", "--format", "json"], &line);
    let value: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    assert_eq!(value["warnings"].as_array().unwrap().len(), 30);
    assert_eq!(value["warnings_not_listed"], 14970);
}

// ---------------------------------------------------------------- passwords

#[rstest]
#[case::check_error(&["check"][..], "http://user:hunter2@host/a b\n")]
#[case::check_error_in_password(&["check"][..], "http://user:hun ter2@host/\n")]
#[case::check_rich(&["check", "--diagnostics", "rich"][..], "http://user:hunter2@host/a b\n")]
#[case::check_warning_rich(&["check", "--diagnostics", "rich"][..], "http://user:hunter2@host/\n")]
#[case::parse_error(&["parse"][..], "http://user:hunter2@host/a b\n")]
#[case::normalize_error(&["normalize"][..], "http://user:hunter2@host/a b\n")]
#[case::resolve_error(&["resolve", "http://a/"][..], "//user:hunter2@host/a b\n")]
#[case::equiv_error(&["equiv"][..], "http://user:hunter2@host/a b\thttp://a/\n")]
#[case::json_redacted(&["check", "--format", "json", "--redact"][..], "http://user:hunter2@host/a b\n")]
#[case::parse_json_redacted(&["parse", "--format", "json", "--redact"][..], "http://user:hunter2@host/\n")]
fn passwords_are_never_echoed_in_diagnostics(#[case] args: &[&str], #[case] stdin: &str) {
    let output = run(args, stdin);
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(!all.contains("hunter2"), "{all}");
    assert!(!all.contains("hun ter2"), "{all}");
    assert!(all.contains("****"), "{all}");
}

#[test]
fn json_keeps_the_input_unless_redact() {
    let output = run(
        &["check", "--format", "json"],
        "http://user:hunter2@host/a b\n",
    );
    let value: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(value["input"], "http://user:hunter2@host/a b");
    // Offsets count the bytes of the line as read, with or without --redact.
    let redacted = run(
        &["check", "--format", "json", "--redact"],
        "http://user:hunter2@host/a b\n",
    );
    let value: serde_json::Value = serde_json::from_str(text(&redacted.stdout).trim()).unwrap();
    assert_eq!(value["input"], "http://user:****@host/a b");
    assert_eq!(value["error"]["offset"], 26);
}

// ---------------------------------------------------------------- terminal escapes

#[rstest]
#[case::escape_sequence("http://a/\u{1b}]0;x\u{7}b\n", "\\u{1b}]0;x\\u{7}b")]
#[case::bidi_override("http://a/\u{202e}b c\n", "\\u{202e}b c")]
#[case::line_separator("http://a/\u{2028}b\n", "\\u{2028}b")]
fn control_and_bidi_characters_are_escaped(#[case] input: &str, #[case] shown: &str) {
    for args in [
        &["check"][..],
        &["check", "--diagnostics", "rich"][..],
        &["parse"][..],
        &["normalize"][..],
    ] {
        let output = run(args, input);
        let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
        assert!(all.contains(shown), "{args:?}: {all}");
        for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{2028}'] {
            assert!(!all.contains(c), "{args:?}: raw {c:?} in {all:?}");
        }
    }
}

#[test]
fn file_names_are_escaped_in_diagnostics() {
    let dir = std::env::temp_dir().join(format!("rfc3986-escape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a\nb.txt");
    std::fs::write(&path, "http://a/b c\n").unwrap();
    let output = run(&["check", path.to_str().unwrap()], "");
    let stdout = text(&output.stdout);
    assert!(stdout.contains("a\\u{a}b.txt:1:11: error:"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------- -j, limits, closed output

#[test]
fn jobs_are_capped_with_a_clear_message() {
    let output = run(&["check", "-j", "30000"], "http://a/\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("-j 30000: at most"),
        "{}",
        text(&output.stderr)
    );
    assert!(output.stdout.is_empty());
}

/// A parser limit (here pest's stack guard, on a grammar loaded at run time) is neither valid nor
/// invalid: `valid: null`, kind `limit-reached`, exit 3, its own count in the summary.
#[test]
fn a_parser_limit_is_its_own_outcome() {
    let dir = std::env::temp_dir().join(format!("rfc3986-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grammar = dir.join("nest.pest");
    std::fs::write(&grammar, "nest = { \"(\" ~ nest? ~ \")\" }\n").unwrap();
    let deep = format!("{}{}\n()\n", "(".repeat(1 << 20), ")".repeat(1 << 20));
    let args = [
        "check",
        "--format",
        "json",
        "--grammar",
        grammar.to_str().unwrap(),
        "--rule",
        "nest",
    ];
    let output = run(&args, &deep);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["valid"], serde_json::Value::Null);
    assert_eq!(records[0]["error"]["kind"], "limit-reached");
    assert_eq!(records[1]["valid"], true);
    assert!(text(&output.stderr).contains("1 stopped by a parser limit"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `parse` treats a parser limit as `check` does: `valid: null`, kind `limit-reached`, exit 3, the
/// next line parsed as usual. Cases: pest's stack guard on a deep input, the step budget of the
/// compiled engine on a grammar where backtracking is exponential (2^40 paths on 41 bytes), and the
/// same grammar with implicit whitespace, which runs on pest_vm, where pest's call limit stops it.
#[rstest]
#[case::deep_nesting(
    "nest = { \"(\" ~ nest? ~ \")\" }\n",
    "nest",
    format!("{}{}\n()\n", "(".repeat(1 << 20), ")".repeat(1 << 20))
)]
#[case::exponential_backtracking(
    "r = { \"x\" ~ r ~ \"a\" | \"x\" ~ r ~ \"b\" | \"x\" }\nall = { r ~ \"c\" }\n",
    "all",
    format!("{}c\nxxxbac\n", "x".repeat(40))
)]
#[case::exponential_backtracking_on_pest_vm(
    "WHITESPACE = _{ \" \" }\nr = { \"x\" ~ r ~ \"a\" | \"x\" ~ r ~ \"b\" | \"x\" }\nall = { r ~ \"c\" }\n",
    "all",
    format!("{}c\nxxxbac\n", "x".repeat(40))
)]
fn parse_reports_a_parser_limit_as_its_own_outcome(
    #[case] grammar_text: &str,
    #[case] rule: &str,
    #[case] input: String,
) {
    let dir =
        std::env::temp_dir().join(format!("rfc3986-parse-limit-{}-{rule}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grammar = dir.join("g.pest");
    std::fs::write(&grammar, grammar_text).unwrap();
    let grammar = grammar.to_str().unwrap();
    let args = [
        "parse",
        "--format",
        "json",
        "--grammar",
        grammar,
        "--rule",
        rule,
    ];
    let output = run(&args, &input);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let records: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["valid"], serde_json::Value::Null);
    assert_eq!(records[0]["error"]["kind"], "limit-reached");
    assert_eq!(records[1]["valid"], true);
    let output = run(&["parse", "--grammar", grammar, "--rule", rule], &input);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        text(&output.stderr).contains("error: parser limit reached"),
        "{}",
        text(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn closed_standard_output_is_an_error() {
    use std::process::{Command, Stdio};
    // `rfc3986 parse http://a/ >&-`, through a shell that closes descriptor 1.
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' parse http://a/ >&- 2>/dev/null",
            env!("CARGO_BIN_EXE_rfc3986")
        ))
        .stdin(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' parse http://a/ >/dev/null",
            env!("CARGO_BIN_EXE_rfc3986")
        ))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0), "/dev/null is not a closed output");
    // Opened for reading and writing, as Python's `subprocess.DEVNULL` opens it (and as Rust's runtime
    // reopens a closed descriptor): still not a closed output.
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' parse http://a/ 1<>/dev/null",
            env!("CARGO_BIN_EXE_rfc3986")
        ))
        .status()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(0),
        "a read-write /dev/null is not a closed output"
    );
}

/// Every subcommand that writes to standard output says so and exits 2 when it is closed (`>&-`),
/// instead of dropping its output and exiting as if it had written it; `check -j 2` too.
#[rstest]
#[case::check("check -")]
#[case::check_two_jobs("check -j 2 -")]
#[case::check_json("check --format json -")]
#[case::resolve("resolve http://a/b -")]
#[case::normalize("normalize -")]
#[case::fix("fix -")]
#[case::equiv("equiv http://a/ http://A/")]
fn closed_standard_output_is_an_error_in_every_subcommand(#[case] command: &str) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' {command} >&-", env!("CARGO_BIN_EXE_rfc3986")))
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(b"http://a/b c\nhttp://a/\n");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{command}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("standard output is closed"),
        "{command}: {stderr}"
    );
}

/// A file that cannot be opened is reported after the diagnostics of the files before it.
#[test]
fn stderr_and_stdout_keep_input_order() {
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("rfc3986-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("first.txt");
    std::fs::write(&first, "http://a/b c\n").unwrap();
    for jobs in ["1", "2"] {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "'{}' check -j {jobs} '{}' '{}/missing.txt' 2>&1",
                env!("CARGO_BIN_EXE_rfc3986"),
                first.display(),
                dir.display()
            ))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let all = text(&output.stdout);
        let diagnostic = all.find("first.txt:1:11: error").expect(&all);
        let missing = all.find("missing.txt").expect(&all);
        assert!(diagnostic < missing, "-j {jobs}: {all}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------- grammars by name

/// The IRI and zone-ID grammars are built into the binary (they work outside the checkout), and a
/// loaded grammar's URI-reference-like rule is checked without --rule.
#[rstest]
#[case::iri_non_ascii_path(&["check", "--grammar", "iri"][..], "http://r\u{e9}sum\u{e9}.example.org/caf\u{e9}\n", 0)]
#[case::iri_rule_by_its_name(&["check", "--grammar", "IRI", "--rule", "ipath-abempty"][..], "/caf\u{e9}\n", 0)]
#[case::iri_still_rejects_space(&["check", "--grammar", "iri"][..], "http://a/b c\n", 1)]
#[case::zone_id(&["check", "--grammar", "zone-id"][..], "http://[fe80::1%25eth0]/\n", 0)]
#[case::zone_id_with_schemes(&["check", "--grammar", "zone-id", "--schemes"][..], "http://[fe80::1%25eth0]/\n", 0)]
#[case::builtin_uri_by_name(&["check", "--grammar", "uri"][..], "http://a/\n", 0)]
fn builtin_grammars_by_name(#[case] args: &[&str], #[case] stdin: &str, #[case] code: i32) {
    // Run outside the repository: nothing is read from grammars/.
    let output = run(args, stdin);
    assert_eq!(output.status.code(), Some(code), "{}", text(&output.stderr));
}

#[test]
fn zone_id_grammar_says_percent_must_be_25() {
    let output = run(
        &["check", "--grammar", "zone-id"],
        "http://[fe80::1%eth0]/\n",
    );
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(
            "a zone identifier is introduced by \"%25\", the percent-encoded \"%\" (RFC 6874 2)"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("not part of RFC 3986"), "{stdout}");
}

#[test]
fn iri_grammar_does_not_say_a_uri_is_ascii() {
    // U+00A0 is not ucschar-allowed at the start of a scheme: the IRI grammar explains it by itself.
    let output = run(&["check", "--grammar", "iri"], "http://a/\u{fffe}\n");
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("the grammar does not allow this character here"),
        "{stdout}"
    );
    assert!(!stdout.contains("a URI is ASCII"), "{stdout}");
    let output = common::spawn(&["check", "--grammar", "iri"], b"http://a/\xff\n");
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("invalid UTF-8; the line is not UTF-8 text"),
        "{stdout}"
    );
}

#[test]
fn unknown_grammar_name_lists_the_built_in_ones() {
    let output = run(&["check", "--grammar", "nope"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("built-in grammars, by name: uri, iri, zone-id"));
}

/// A grammar file's name and a rule's name reach the diagnostics escaped: an escape sequence or a newline
/// in them can neither drive the terminal nor split the diagnostic in two (an invalid grammar, a missing
/// one, a `--scheme-dir` that is not there, an unknown rule of the built-in or of a loaded grammar).
#[test]
fn grammar_file_names_are_escaped_in_diagnostics() {
    let dir = std::env::temp_dir().join(format!("rfc3986-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("e\u{1b}[31mvil\nx.pest");
    std::fs::write(&bad, "a = { \"\\u{D800}\" }\n").unwrap();
    let shown = format!("{}/e\\u{{1b}}[31mvil\\u{{a}}x.pest", dir.display());
    let missing = dir.join("gone\u{1b}.pest");
    let no_dir = dir.join("none\u{202e}");
    let cases = [
        (
            vec!["check", "--grammar", bad.to_str().unwrap()],
            format!("{shown}:1:"),
        ),
        (
            vec!["check", "--grammar", missing.to_str().unwrap()],
            format!("{}/gone\\u{{1b}}.pest: error", dir.display()),
        ),
        (
            vec!["check", "--scheme-dir", no_dir.to_str().unwrap()],
            format!("{}/none\\u{{202e}}: ", dir.display()),
        ),
        // Rule names as typed, in the built-in grammar and in a loaded one.
        (
            vec!["check", "--rule", "no\u{1b}pe\nX"],
            "unknown rule 'no\\u{1b}pe\\u{a}X'".to_string(),
        ),
        (
            vec!["check", "--grammar", "iri", "--rule", "x\u{1b}y"],
            "no rule `x\\u{1b}y`".to_string(),
        ),
    ];
    for (args, expected) in cases {
        let output = run(&args, "http://a/\n");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(&expected), "{args:?}: {stderr}");
        assert!(
            !stderr.contains('\u{1b}') && !stderr.contains('\u{202e}'),
            "{stderr}"
        );
        // On the first line: nothing split the diagnostic before it.
        assert!(
            stderr.lines().next().unwrap().contains(&expected),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What clap quotes back in a usage error (an invalid value, an unknown option or subcommand) is escaped
/// like a file name: an escape sequence, a BEL, a newline or a bidi override passed as an argument can
/// neither drive the terminal nor split the message.
#[rstest]
#[case::invalid_value(&["check", "--format", "js\u{1b}[31mon\nX"], "'js\\u{1b}[31mon\\u{a}X'")]
#[case::invalid_number(&["check", "-j", "\u{202e}4"], "'\\u{202e}4'")]
#[case::unknown_option(&["check", "--bogus\u{7}"], "'--bogus\\u{7}'")]
#[case::unknown_subcommand(&["che\u{1b}]0;t\u{7}ck"], "'che\\u{1b}]0;t\\u{7}ck'")]
fn usage_errors_quote_arguments_escaped(#[case] args: &[&str], #[case] quoted: &str) {
    let output = run(args, "");
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    let stderr = text(&output.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("error: ") && first.contains(quoted),
        "{stderr}"
    );
    assert!(
        !stderr.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "{stderr:?}"
    );
}

#[test]
fn a_relative_base_is_told_the_base_must_be_a_uri() {
    let output = run(&["resolve", "/rel", "g"], "");
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("<base>:1:1: error: '/' not allowed here; a URI begins with a scheme"),
        "{stderr}"
    );
    assert!(
        stderr.contains("in the base URI, which must be a URI with a scheme (RFC 3986 5.1)"),
        "{stderr}"
    );
}

/// The rich location counts bytes of the line as read, not of the masked or escaped line it shows.
#[rstest]
#[case::after_a_masked_password("http://user:secret@host/a b\n", " --> <stdin>:1:26")]
#[case::after_an_escaped_control("http://a/\u{1}b c\n", " --> <stdin>:1:10")]
fn rich_location_is_the_column_in_the_line_as_read(#[case] input: &str, #[case] location: &str) {
    let output = run(&["check", "--diagnostics", "rich"], input);
    let stdout = text(&output.stdout);
    assert!(stdout.lines().any(|l| l == location), "{stdout}");
}

/// Records of lines read from a file carry `file` (the README: every record of a file says its `file`).
#[rstest]
#[case::resolve_pairs(&["resolve", "--format", "json", "--pairs"][..], "http://a/\tb\n")]
#[case::equiv_pairs(&["equiv", "--format", "json", "--pairs"][..], "http://a/\thttp://a\n")]
fn json_records_of_files_carry_the_file(#[case] args: &[&str], #[case] content: &str) {
    let path =
        std::env::temp_dir().join(format!("rfc3986-file-{}-{}", std::process::id(), args[0]));
    std::fs::write(&path, content).unwrap();
    let mut all = args.to_vec();
    all.push(path.to_str().unwrap());
    let output = run(&all, "");
    let value: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(value["file"], path.to_str().unwrap());
    assert_eq!(value["line"], 1);
    std::fs::remove_file(&path).unwrap();
}
