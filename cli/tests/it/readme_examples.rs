//! The `$ command` examples of README.md, run as a new user would type them: each command's standard
//! output must be the lines shown under it (the summary on standard error is not shown there).

use std::process::Command;

/// The examples of the README: each `$ ` line and the output lines under it, up to the next `$ ` line
/// or the end of the code block.
fn examples(readme: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in readme.lines() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some((command.to_string(), String::new()));
        } else if line.starts_with("```") {
            out.extend(current.take());
        } else if let Some((_, expected)) = current.as_mut() {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    out.extend(current);
    out
}

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let readme = include_str!("../../../README.md");
    let examples = examples(readme);
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
