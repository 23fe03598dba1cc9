//! Running the built `rfc3986` binary from the integration tests: one home for spawning it, feeding its
//! standard input and collecting what it wrote.

// Each test file uses the helpers it needs.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository root (the parent of the `cli` package), where `data/`, `grammars/` and `schemes/` are.
pub fn repository_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The binary under test: the one cargo built, or `RFC3986_TEST_BIN` when set (to run a regression test
/// against an older build: `RFC3986_TEST_BIN=/path/to/old/rfc3986 cargo test -p rfc3986-cli --test it
/// regressions`).
pub fn binary() -> std::ffi::OsString {
    std::env::var_os("RFC3986_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_rfc3986").into())
}

fn start(args: &[&str], dir: Option<&Path>) -> Child {
    let mut command = Command::new(binary());
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command.spawn().expect("start rfc3986")
}

/// Writes `stdin` to the child from another thread (so that a large input cannot fill the pipes both
/// ways), ignoring a broken pipe: the binary may exit before reading everything (a usage error).
fn feed(child: &mut Child, stdin: &[u8]) -> std::thread::JoinHandle<()> {
    let mut input = child.stdin.take().expect("piped stdin");
    let stdin = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    })
}

/// Runs `rfc3986 ARGS` in the test's working directory with `stdin` as standard input.
#[track_caller]
pub fn spawn(args: &[&str], stdin: &[u8]) -> Output {
    spawn_in(None, args, stdin)
}

/// Runs `rfc3986 ARGS` from the repository root (for paths such as `grammars/iri.pest`).
#[track_caller]
pub fn spawn_at_root(args: &[&str], stdin: &[u8]) -> Output {
    spawn_in(Some(repository_root()), args, stdin)
}

#[track_caller]
fn spawn_in(dir: Option<&Path>, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = start(args, dir);
    let writer = feed(&mut child, stdin);
    let output = child.wait_with_output().expect("wait for rfc3986");
    writer.join().expect("stdin writer");
    output
}

/// As [`spawn`], killing the binary if it has not ended after `limit`: `None` then (a hang is a failure;
/// the limit is a safety net far above any normal run, not a speed assertion).
pub fn spawn_with_limit(args: &[&str], stdin: &[u8], limit: Duration) -> Option<Output> {
    let mut child = start(args, None);
    let writer = feed(&mut child, stdin);
    let started = Instant::now();
    loop {
        if child.try_wait().expect("poll rfc3986").is_some() {
            let output = child.wait_with_output().expect("wait for rfc3986");
            let _ = writer.join();
            return Some(output);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The `$ command` examples of a Markdown document (README.md, docs/EDITING-THE-GRAMMAR.md): each `$ `
/// line and the output lines under it, up to the next `$ ` line or the end of the code block.
pub fn dollar_examples(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
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
