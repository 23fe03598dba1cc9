//! The `$ command` examples of README.md, run as a new user would type them: each command's standard
//! output must be the lines shown under it (the summary on standard error is not shown there).

mod common;

use std::process::Command;

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let readme = include_str!("../../README.md");
    let examples = common::dollar_examples(readme);
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
