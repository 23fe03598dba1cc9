//! `--redact` in JSON output through the built binary: the password of a userinfo (RFC 3986 3.2.1) is
//! masked in every field that echoes the line (`fix`: `input`, `fixed`, `partial`, a repair in it), and
//! an error at a character of it names neither the character nor its encoding (`message`, `hint`), as
//! text diagnostics say it. Without `--redact`, JSON keeps the text as read.

use std::process::Output;

use rstest::rstest;
use serde_json::Value;

use crate::common;

fn json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn all_output(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn fix_json_redact_masks_the_password_in_input_and_fixed() {
    let output = common::spawn(
        &["fix", "--format", "json", "--redact"],
        b"http://u:pw@a/ x\n",
    );
    assert_eq!(output.status.code(), Some(0));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["input"], "http://u:****@a/ x");
    assert_eq!(lines[0]["fixed"], "http://u:****@a/%20x");
    // Offsets count the bytes of the line as read; a repair outside the password is shown.
    assert_eq!(lines[0]["repairs"][0]["offset"], 14);
    assert_eq!(lines[0]["repairs"][0]["found"], " ");
    assert_eq!(lines[0]["repairs"][0]["replacement"], "%20");
    assert!(
        !all_output(&output).contains("pw"),
        "{}",
        all_output(&output)
    );
}

#[test]
fn fix_json_keeps_the_password_without_redact() {
    let output = common::spawn(&["fix", "--format", "json"], b"http://u:pw@a/ x\n");
    let lines = json_lines(&output);
    assert_eq!(lines[0]["input"], "http://u:pw@a/ x");
    assert_eq!(lines[0]["fixed"], "http://u:pw@a/%20x");
}

#[rstest]
// A repair inside the password: neither the character nor its encoding.
#[case::repair_in_password("http://u:p w@h/a|b\n", "p w", "%20", Some("http://u:****@h/a%7Cb"))]
// Unrepairable (a port with letters) after a repair inside the password: `partial` masked.
#[case::partial_after_repair_in_password("http://u:s\u{E9}cret@h:x/\n", "cret", "%C3%A9", None)]
// The error itself at a character of the password: message and hint say it as text does.
#[case::error_in_password("//u:{x}@h/\n", "{x}", "%7B", None)]
fn fix_json_redact_never_shows_a_password_character(
    #[case] input: &str,
    #[case] secret: &str,
    #[case] encoding: &str,
    #[case] fixed: Option<&str>,
) {
    let output = common::spawn(&["fix", "--format", "json", "--redact"], input.as_bytes());
    let all = all_output(&output);
    assert!(!all.contains(secret), "{all}");
    assert!(!all.contains(encoding), "{all}");
    let line = &json_lines(&output)[0];
    assert_eq!(line["fixed"].as_str(), fixed, "{line}");
    if let Some(partial) = line["error"]["partial"].as_str() {
        assert!(partial.contains(":****@"), "{line}");
    }
}

#[test]
fn fix_json_redact_error_in_password_says_what_text_diagnostics_say() {
    let output = common::spawn(&["fix", "--format", "json", "--redact"], b"//u:{x}@h/\n");
    let error = &json_lines(&output)[0]["error"];
    assert_eq!(
        error["message"],
        "character not allowed in the password of the userinfo (not shown)"
    );
    assert_eq!(error["hint"], Value::Null);
    assert_eq!(error["partial"], "//u:****@h/");
    assert_eq!(error["offset"], 4);
    let text = common::spawn(&["fix"], b"//u:{x}@h/\n");
    let err = String::from_utf8(text.stderr).unwrap();
    assert!(
        err.contains("error: character not allowed in the password of the userinfo (not shown)"),
        "{err}"
    );
}

#[test]
fn check_json_redact_does_not_name_a_password_character_in_message_or_hint() {
    let output = common::spawn(
        &["check", "--format", "json", "--redact"],
        b"http://u:se{cret@h/\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let all = all_output(&output);
    assert!(!all.contains("'{'"), "{all}");
    assert!(!all.contains("%7B"), "{all}");
    assert!(!all.contains("se{cret"), "{all}");
    let line = &json_lines(&output)[0];
    assert_eq!(line["input"], "http://u:****@h/");
    let error = &line["error"];
    assert_eq!(
        error["message"],
        "character not allowed in the password of the userinfo (not shown); \
         expected unreserved, sub-delims, \":\", \"@\" or \"%\""
    );
    assert_eq!(error["hint"], Value::Null);
    // Where it is and what was expected are still said.
    assert_eq!(error["offset"], 11);
    // The kind would name the character (`brace`): it is the generic one (issue 28, defect 3).
    assert_eq!(error["kind"], "invalid-character");
    assert_eq!(error["expected"][0], "unreserved");
}

#[test]
fn check_json_without_redact_names_the_character() {
    let output = common::spawn(&["check", "--format", "json"], b"http://u:se{cret@h/\n");
    let error = &json_lines(&output)[0]["error"];
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("'{' not allowed here"),
        "{error}"
    );
    assert!(error["hint"].as_str().unwrap().contains("%7B"), "{error}");
}

#[test]
fn check_json_redact_names_a_character_outside_the_password() {
    let output = common::spawn(
        &["check", "--format", "json", "--redact"],
        b"http://u:secret@h/{x}\n",
    );
    let error = &json_lines(&output)[0]["error"];
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("'{' not allowed here"),
        "{error}"
    );
    assert!(error["hint"].as_str().unwrap().contains("%7B"), "{error}");
}

/// A repair note on standard error never spells a character of the password, neither as itself nor by
/// its encoding (`%20` would say it was a space), with or without `--redact`; a repair elsewhere is
/// shown in full.
#[rstest]
#[case::redact(&["fix", "--redact"])]
#[case::plain(&["fix"])]
fn fix_notes_hide_the_encoding_of_a_password_character(#[case] args: &[&str]) {
    let output = common::spawn(args, b"http://u:p w@h/a|b\n");
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains("<stdin>:1:11: fixed: '*' -> * (RFC 3986 2.1)\n"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:1:17: fixed: '|' -> %7C (RFC 3986 2.1)\n"),
        "{err}"
    );
    // The repaired URI on standard output is the product, written as it is.
    assert_eq!(output.stdout, b"http://u:p%20w@h/a%7Cb\n");
}

/// The JSON of a line with 262,144 repairs (each a `|` of the password, hidden under `--redact`):
/// every repair listed, with its column, in time and memory linear in the line (the columns are counted
/// on from one repair to the next, and the repairs are written as they are serialized).
#[test]
fn fix_json_lists_all_of_many_repairs_of_one_line() {
    let n = 1 << 18;
    let line = format!("http://u:{}@a/\n", "p|".repeat(n));
    let output = common::spawn(&["fix", "--format", "json", "--redact"], line.as_bytes());
    assert_eq!(output.status.code(), Some(0));
    let records = json_lines(&output);
    let repairs = records[0]["repairs"].as_array().unwrap();
    assert_eq!(repairs.len(), n);
    let last = &repairs[n - 1];
    assert_eq!(last["offset"], 9 + 2 * (n - 1) + 1);
    assert_eq!(last["column"], 9 + 2 * (n - 1) + 2);
    assert_eq!(last["found"], "*");
}

/// Every subcommand's JSON error object under `--redact`: an error at a character of the password names
/// neither the character nor its encoding, and the echoed input is masked.
#[rstest]
#[case::check(&["check", "--format", "json", "--redact"])]
#[case::parse(&["parse", "--format", "json", "--redact"])]
#[case::normalize(&["normalize", "--format", "json", "--redact"])]
#[case::resolve(&["resolve", "http://a/b", "--format", "json", "--redact"])]
#[case::fix(&["fix", "--format", "json", "--redact"])]
fn json_redact_never_names_a_password_character(#[case] args: &[&str]) {
    let output = common::spawn(args, b"http://u:se{cret@h/\n");
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1, "{stdout}");
    for leak in ["se{cret", "'{'", "%7B", "cret"] {
        assert!(!stdout.contains(leak), "{leak:?} in {stdout}");
    }
    assert!(stdout.contains("(not shown)"), "{stdout}");
}
