//! The CI integrations at the repository root run as their hosts would run them: the pre-commit hook's
//! `entry` with the staged file names after it (`.pre-commit-hooks.yaml`), and the composite GitHub
//! Action's script with its inputs in the environment (`action.yml`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::repository_root;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_rfc3986")
}

/// A fresh folder under the target directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `good.uris` (two URIs) and `bad.uris` (line 2 has a space) in `dir`.
fn uri_lists(dir: &Path) -> (PathBuf, PathBuf) {
    let good = dir.join("good.uris");
    let bad = dir.join("bad.uris");
    std::fs::write(&good, "http://example.com/\nurn:isbn:0451450523\n").unwrap();
    std::fs::write(&bad, "http://example.com/\nhttp://exa mple.com/\n").unwrap();
    (good, bad)
}

/// The value of `key:` in the hook definition of `.pre-commit-hooks.yaml` (one hook, flat keys).
fn hook_value(key: &str) -> String {
    let text = std::fs::read_to_string(repository_root().join(".pre-commit-hooks.yaml")).unwrap();
    text.lines()
        .filter_map(|l| {
            l.trim_start_matches("- ")
                .trim()
                .strip_prefix(&format!("{key}:"))
        })
        .map(|v| v.trim().trim_matches('\'').to_string())
        .next()
        .unwrap_or_else(|| panic!("no {key} in .pre-commit-hooks.yaml"))
}

/// pre-commit runs `entry`, split on white space, with the matching file names appended; `language:
/// system` finds the program on PATH, which is the built binary here.
fn run_hook(files: &[&Path]) -> std::process::Output {
    let entry = hook_value("entry");
    let mut words = entry.split_whitespace();
    assert_eq!(
        words.next(),
        Some("rfc3986"),
        "the hook runs the rfc3986 command"
    );
    assert_eq!(hook_value("language"), "system");
    Command::new(bin())
        .args(words)
        .args(files)
        .output()
        .unwrap()
}

#[test]
fn pre_commit_hook_passes_valid_lists() {
    let dir = scratch("hook_pass");
    let (good, _) = uri_lists(&dir);
    let out = run_hook(&[&good]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn pre_commit_hook_fails_on_an_invalid_line_and_points_at_it() {
    let dir = scratch("hook_fail");
    let (good, bad) = uri_lists(&dir);
    let out = run_hook(&[&good, &bad]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        all.contains(&format!("{}:2:11: error:", bad.display())),
        "{all}"
    );
}

/// The `run: |` script of the step named `name` in `action.yml`, unindented.
fn action_script(name: &str) -> String {
    let text = std::fs::read_to_string(repository_root().join("action.yml")).unwrap();
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim() != format!("- name: {name}"));
    let mut script = String::new();
    let mut inside = false;
    for line in lines.by_ref().skip(1) {
        if line.trim_start().starts_with("- name:") {
            break;
        }
        if line.trim() == "run: |" {
            inside = true;
            continue;
        }
        if inside {
            script.push_str(line.strip_prefix("        ").unwrap_or(line.trim_start()));
            script.push('\n');
        }
    }
    assert!(!script.is_empty(), "no script in step {name}");
    script
}

/// Runs the action's check step as the runner would: bash, the inputs in the environment, the command
/// installed under `$RUNNER_TEMP/rfc3986/bin`.
fn run_action(dir: &Path, files: &str, args: &str) -> std::process::Output {
    let runner_temp = dir.join("runner");
    std::fs::create_dir_all(runner_temp.join("rfc3986/bin")).unwrap();
    let installed = runner_temp.join("rfc3986/bin/rfc3986");
    let _ = std::fs::remove_file(&installed);
    std::os::unix::fs::symlink(bin(), &installed).unwrap();
    Command::new("bash")
        .arg("-c")
        .arg(action_script("rfc3986 check"))
        .current_dir(dir)
        .env("RUNNER_TEMP", &runner_temp)
        .env("RFC3986_FILES", files)
        .env("RFC3986_RULE", "URI-reference")
        .env("RFC3986_ARGS", args)
        .output()
        .unwrap()
}

#[test]
fn github_action_annotates_the_invalid_line() {
    let dir = scratch("action");
    uri_lists(&dir);
    let out = run_action(&dir, "good.uris\nbad.uris", "");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error file=bad.uris,line=2,col=11"),
        "{stdout}"
    );
    let out = run_action(&dir, "good.uris", "--strict");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// A file name is an argument, never shell code: `$(...)` in the input is not run.
#[test]
fn github_action_inputs_are_not_shell_code() {
    let dir = scratch("action_injection");
    uri_lists(&dir);
    let out = run_action(&dir, "good.uris $(touch${IFS}pwned)", "");
    assert!(!dir.join("pwned").exists(), "{out:?}");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a missing file is an I/O error: {out:?}"
    );
}
