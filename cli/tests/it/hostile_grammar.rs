//! Hostile grammars through the command line (issue 13): every problem in a `--grammar` or `--scheme-dir`
//! file exits 2 with `FILE:LINE:COL: error: ...` on standard error, never a panic (exit 101) or an abort
//! (a signal), at `-j 1` and `-j 2`; a FIFO named `x.pest` in `--scheme-dir` is skipped, not waited on.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use rstest::rstest;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rfc3986-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `rfc3986 ARGS` with `stdin`, killing it if it has not ended after `limit` (a hang is a failure,
/// reported as `None`; the limit is a safety net far above any normal run, not a speed assertion).
fn run_with_limit(args: &[&str], stdin: &str, limit: Duration) -> Option<Output> {
    common::spawn_with_limit(args, stdin.as_bytes(), limit)
}

fn run(args: &[&str], stdin: &str) -> Output {
    run_with_limit(args, stdin, Duration::from_secs(300)).expect("rfc3986 ended")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Exit 2 (not 101, not a signal), a `FILE:LINE:COL: error:` line for `file`, no panic message.
fn assert_grammar_error(output: &Output, file: &Path, line: usize, message: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let prefix = format!("{}:{line}:", file.display());
    let found = err.lines().any(|l| {
        l.contains(&prefix)
            && l.contains(": error: ")
            && l.contains(message)
            && l[l.find(&prefix).unwrap() + prefix.len()..]
                .split(':')
                .next()
                .is_some_and(|col| col.parse::<usize>().is_ok())
    });
    assert!(
        found,
        "no `{prefix}COL: error: ...{message}` line in:\n{err}"
    );
}

fn nested(open: &str, n: usize, close: &str) -> String {
    format!("r = {{ {}\"a\"{} }}\n", open.repeat(n), close.repeat(n))
}

fn chain(n: usize) -> String {
    (0..n)
        .map(|i| format!("r{i} = {{ r{} }}\n", i + 1))
        .collect::<String>()
        + &format!("r{n} = {{ \"a\" }}\n")
}

#[rstest]
#[case::repeat_min_max_u32_max("r = { \"a\"{0,4294967295} }\n".to_string(), 1, "count too large")]
#[case::repeat_exact_u32_max("r = { \"a\"{4294967295} }\n".to_string(), 1, "count too large")]
#[case::repeat_min_u32_max("r = { \"a\"{4294967294,} }\n".to_string(), 1, "count too large")]
#[case::repeat_max_u32_max_minus_1("r = { \"a\"{0,4294967294} }\n".to_string(), 1, "count too large")]
#[case::repeat_100000("r = { \"a\"{0,100000} }\n".to_string(), 1, "count too large")]
#[case::parens_10000(nested("(", 10_000, ")"), 1, "nested more than")]
#[case::not_10000(nested("!", 10_000, ""), 1, "nested operators")]
#[case::optional_100000(nested("", 1, &"?".repeat(100_000)), 1, "nested operators")]
#[case::chain_10000(chain(10_000), 2001, "rules")]
#[case::chain_600(chain(600), 1, "chain of more than")]
#[case::syntax_error("r = { \"a\" ~ }\n".to_string(), 1, "expected")]
#[case::stack_operation("r = { PUSH(\"a\") }\n".to_string(), 1, "PUSH")]
fn check_with_a_hostile_grammar_exits_2_with_file_line_col(
    #[case] text: String,
    #[case] line: usize,
    #[case] message: &str,
    #[values("1", "2")] jobs: &str,
) {
    let dir = scratch(&format!("g-{line}-{}-{jobs}", text.len()));
    let file = dir.join("g.pest");
    std::fs::write(&file, &text).unwrap();
    let output = run(
        &[
            "check",
            "-j",
            jobs,
            "--rule",
            "r",
            "--grammar",
            file.to_str().unwrap(),
        ],
        "a\n",
    );
    assert_grammar_error(&output, &file, line, message);
    // The same file as a scheme grammar.
    let schemes = dir.join("schemes");
    std::fs::create_dir_all(&schemes).unwrap();
    let scheme_file = schemes.join("x.pest");
    std::fs::write(&scheme_file, &text).unwrap();
    let output = run(
        &[
            "check",
            "-j",
            jobs,
            "--scheme-dir",
            schemes.to_str().unwrap(),
        ],
        "x:a\n",
    );
    assert_grammar_error(&output, &scheme_file, line, message);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A grammar that matches an empty fragment before a two-byte path: `--schemes` used to cut the URI inside
/// the `é` and panic (exit 101; an abort at `-j 2`); such a match is no longer taken for a reference.
#[rstest]
fn a_fragment_in_an_odd_place_with_schemes_is_a_scheme_error_not_a_panic(
    #[values("1", "2")] jobs: &str,
) {
    let dir = scratch(&format!("frag-{jobs}"));
    let file = dir.join("odd.pest");
    std::fs::write(
        &file,
        "uri_reference = { scheme ~ \":\" ~ fragment ~ path_rootless }\n\
         scheme = { \"http\" }\nfragment = { \"x\"* }\npath_rootless = { (\"\u{e9}\" | \"x\")* }\n",
    )
    .unwrap();
    let output = run(
        &[
            "check",
            "-j",
            jobs,
            "--schemes",
            "--rule",
            "uri_reference",
            "--grammar",
            file.to_str().unwrap(),
        ],
        "http:\u{e9}\nhttp:\u{e9}\nhttp:x\u{e9}\n",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let err = stderr(&output);
    assert!(!err.contains("panicked"), "{err}");
    // Each line matches the loaded rule, but with the fragment before the path the match is not a URI
    // reference (RFC 3986 4.1 order; `RuleMatch::into_uri_ref` refuses it), so the scheme grammars have
    // nothing to check: valid by the loaded grammar, exit 0.
    assert_eq!(output.status.code(), Some(0), "{err}");
}

#[cfg(unix)]
#[test]
fn a_fifo_in_the_scheme_dir_is_skipped_not_waited_on() {
    let dir = scratch("fifo");
    let fifo = dir.join("x.pest");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    std::fs::write(
        dir.join("t.pest"),
        "//! Test scheme\nscheme_uri = { ^\"t:\" ~ \"a\" }\n",
    )
    .unwrap();
    // No writer ever opens the FIFO: a tool that opens it blocks until it is killed.
    let output = run_with_limit(
        &["check", "--scheme-dir", dir.to_str().unwrap()],
        "t:a\nt:b\n",
        Duration::from_secs(60),
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let output = output.expect("rfc3986 did not wait on the FIFO");
    // t.pest was loaded: `t:b` breaks it.
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
}

#[test]
fn a_grammar_that_is_a_directory_exits_2() {
    let dir = scratch("dir");
    let output = run(&["check", "--grammar", dir.to_str().unwrap()], "a\n");
    std::fs::remove_dir_all(&dir).unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
}
