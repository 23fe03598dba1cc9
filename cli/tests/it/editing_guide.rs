//! The `$ command` examples of docs/EDITING-THE-GRAMMAR.md, run from the repository's root: each command's
//! standard output must be the lines shown under it (summaries on standard error are not shown there).

use std::process::Command;

#[test]
fn every_example_of_the_guide_prints_what_the_guide_shows() {
    let guide = include_str!("../../../docs/EDITING-THE-GRAMMAR.md");
    let examples = crate::common::dollar_examples(guide);
    assert!(examples.len() >= 10, "the guide's examples were not found");
    let binary = env!("CARGO_BIN_EXE_rfc3986");
    let root = crate::common::repository_root();
    for (command, expected) in examples {
        let script = command.replace("rfc3986 ", &format!("{binary} "));
        let output = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(root)
            .output()
            .expect("bash runs");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            expected,
            "guide example `{command}`"
        );
    }
}
