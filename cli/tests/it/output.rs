//! Every subcommand by every output format, fed inputs with a userinfo password and with ESC and U+202E
//! in every field (valid and invalid lines, both fields of a pair, the template, the variables): no
//! terminal control reaches either stream raw, in any format, and the password appears nowhere under
//! `--redact` and never on standard error. This holds by construction (the printer escapes and masks
//! every field); the test walks the fields so that a new one cannot slip past it.

use rstest::rstest;

use crate::common;

const SECRET: &str = "hunter2";

/// A raw ESC, BEL, C1 control, bidirectional control or line separator.
fn raw_control(s: &str) -> Option<char> {
    s.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
    })
}

/// Lines with the secret and the controls in every place a field can come from.
fn lines(pairs: bool) -> String {
    let uris = [
        format!("http://u:{SECRET}@h/ok"),
        format!("http://u:{SECRET}@h/a\u{1b}[2Jb"),
        format!("http://u:{SECRET}@h/a\u{202e}b"),
        format!("http://u:{SECRET}\u{1b}x@h/"),
        format!("HTTP://u:{SECRET}@H/%7e/../x"),
        "plain\u{1b}]0;t\u{7}".to_string(),
    ];
    let mut text = String::new();
    for (i, uri) in uris.iter().enumerate() {
        if pairs {
            text.push_str(&uris[(i + 1) % uris.len()]);
            text.push('\t');
        }
        text.push_str(uri);
        text.push('\n');
    }
    text
}

#[rstest]
fn every_subcommand_every_format(
    #[values(
        "check",
        "check --schemes",
        "check --grammar iri",
        "parse",
        "parse --grammar iri",
        "resolve http://u:hunter2@b/c",
        "resolve --pairs -",
        "normalize",
        "normalize --level scheme",
        "equiv",
        "expand",
        "fix"
    )]
    command: &str,
    #[values("text", "json", "github", "sarif")] format: &str,
    #[values(false, true)] redact: bool,
) {
    let ci = matches!(format, "github" | "sarif");
    if ci && !(command.starts_with("check") || command == "fix") {
        return;
    }
    let mut args: Vec<&str> = command.split(' ').collect();
    args.extend(["--format", format]);
    if redact {
        args.push("--redact");
    }
    if command == "expand" {
        args.extend(["-", "x=\u{1b}[2J\u{202e}", "y=y"]);
    }
    let pairs = command == "equiv" || command.contains("--pairs");
    let stdin = if command == "expand" {
        format!("http://u:{SECRET}@h/{{x}}{{y}}\nhttp://u:{SECRET}@h/\u{1b}{{x}}\n{{x\u{202e}\n")
    } else {
        lines(pairs)
    };
    let output = common::spawn(&args, stdin.as_bytes());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(raw_control(&stdout), None, "{args:?} stdout: {stdout:?}");
    assert_eq!(raw_control(&stderr), None, "{args:?} stderr: {stderr:?}");
    assert!(!stderr.contains(SECRET), "{args:?} stderr: {stderr}");
    // `fix`'s text output is the repaired file itself: written as it is, escaped, never masked.
    let product = command == "fix" && format == "text";
    if (redact || ci) && !product {
        assert!(!stdout.contains(SECRET), "{args:?} stdout: {stdout}");
    }
    if format == "json" {
        // One record per input line, whatever the line.
        let records = stdout.lines().count();
        let inputs = stdin.lines().count();
        assert_eq!(records, inputs, "{args:?}: {stdout}");
    }
}

/// `encode` and `decode` (no `--redact`: they work on one component, not on URIs): no raw control in
/// diagnostics or JSON.
#[rstest]
fn encode_and_decode(
    #[values("encode", "decode")] command: &str,
    #[values("text", "json")] format: &str,
) {
    let stdin = "a\u{1b}[2J\u{202e}b\nx%zz\u{1b}\u{202e}\n";
    let output = common::spawn(&[command, "--format", format], stdin.as_bytes());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(raw_control(&stderr), None, "{stderr:?}");
    if format == "json" || command == "encode" {
        assert_eq!(raw_control(&stdout), None, "{stdout:?}");
    }
}
