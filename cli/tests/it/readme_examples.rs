//! The `$ command` examples of README.md, run as a new user would type them: each command's standard
//! output must be the lines shown under it (the summary on standard error is not shown there).

use std::process::Command;

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let readme = include_str!("../../../README.md");
    let examples = crate::common::dollar_examples(readme);
    assert!(examples.len() >= 3, "the README's examples were not found");
    let binary = env!("CARGO_BIN_EXE_rfc3986");
    for (command, expected) in examples {
        let script = command.replace("rfc3986 ", &format!("{binary} "));
        let output = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .expect("bash runs");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            expected,
            "README example `{command}`"
        );
    }
}

/// The README's lint-code table is the one `rfc3986 check --list-codes` prints from the library's
/// `lint::Code` (code and section), in its order.
#[test]
fn readme_lint_table_is_list_codes() {
    let readme = include_str!("../../../README.md");
    let table: Vec<(String, String)> = readme
        .lines()
        .skip_while(|l| l.trim() != "| code | RFC 3986 section |")
        .skip(2)
        .take_while(|l| l.trim().starts_with('|'))
        .filter_map(|l| l.trim().strip_prefix("| `"))
        .filter_map(|rest| {
            let (code, rest) = rest.split_once("` | ")?;
            let section = rest.strip_suffix(" |")?;
            Some((code.to_string(), section.to_string()))
        })
        .collect();
    let output = crate::common::spawn(&["check", "--list-codes"], b"");
    assert_eq!(output.status.code(), Some(0));
    let listed: Vec<(String, String)> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields[2], "warning", "{l}");
            (fields[0].to_string(), fields[1].to_string())
        })
        .collect();
    assert_eq!(listed.len(), rfc3986::lint::Code::ALL.len());
    assert_eq!(table, listed);
}
