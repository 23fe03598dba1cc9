//! The `$ command` examples of docs/EDITING-THE-GRAMMAR.md, run from the repository's root: each command's
//! standard output must be the lines shown under it (summaries on standard error are not shown there).

use std::process::Command;

/// Each `$ ` line of a code block and the output lines under it, up to the end of the block.
fn examples(guide: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in guide.lines() {
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
fn every_example_of_the_guide_prints_what_the_guide_shows() {
    let guide = include_str!("../../docs/EDITING-THE-GRAMMAR.md");
    let examples = examples(guide);
    assert!(examples.len() >= 10, "the guide's examples were not found");
    let binary = env!("CARGO_BIN_EXE_rfc3986");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (command, expected) in examples {
        let script = command.replace("rfc3986 ", &format!("{binary} "));
        let output = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&root)
            .output()
            .expect("bash runs");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            expected,
            "guide example `{command}`"
        );
    }
}
