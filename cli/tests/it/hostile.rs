//! Hostile input through the command line: `check` never loses a line, whatever the bytes (proptest over
//! byte vectors), and a 100 MiB file goes through `check --quiet` when `RFC3986_BIG=1` is set.

use crate::common;

use std::io::Write;
use std::process::Command;
use std::time::Instant;

use proptest::prelude::*;
use rfc3986::{validate_bytes, Rule};

const MIB: usize = 1 << 20;

fn report(name: &str, len: usize, took: std::time::Duration) {
    let ns_per_byte = took.as_nanos() as f64 / len.max(1) as f64;
    eprintln!("{name}: {len} bytes in {took:?} ({ns_per_byte:.1} ns/byte)");
}

/// Runs `rfc3986 ARGS` with `stdin`; (exit code, stdout, stderr).
fn run_cli(args: &[&str], stdin: Vec<u8>) -> (i32, Vec<u8>, String) {
    let output = common::spawn(args, &stdin);
    (
        output.status.code().expect("exit code, not a signal"),
        output.stdout,
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

/// The lines `check` sees: split at `\n`, one `\r` before it dropped, a last line without `\n` kept.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

/// Bytes that stress line handling: terminators, NUL, invalid UTF-8, a BOM, and URI text.
fn hostile_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            &b"\n"[..], b"\r", b"\r\n", b"\0", b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\xe2\x80\xa8",
            b"http://a/", b"a:b", b"%41", b"%4", b"[::1]", b"#", b" ", b"{x}", b"\"", b"\\", b"\t",
        ]).prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(any::<u8>(), 0..8),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Lines in = results out: one JSON object per non-blank line, in order, with the right line number
    /// and verdict; exit status 0 or 1 only.
    #[test]
    fn check_never_loses_a_line(input in hostile_bytes()) {
        let (code, stdout, stderr) = run_cli(&["check", "--format", "jsonl"], input.clone());
        let expected: Vec<(usize, &[u8])> = lines(&input)
            .into_iter()
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let stdout = String::from_utf8(stdout).expect("stdout is UTF-8");
        let records: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        prop_assert_eq!(records.len(), expected.len(), "stdout {}", stdout);
        let mut any_invalid = false;
        for (record, (index, line)) in records.iter().zip(&expected) {
            prop_assert_eq!(record["line"].as_u64(), Some(*index as u64 + 1));
            let valid = validate_bytes(Rule::URI_REFERENCE, line).is_ok();
            any_invalid |= !valid;
            prop_assert_eq!(record["valid"].as_bool(), Some(valid), "{:?}", line);
            if let Some(offset) = record["error"]["offset"].as_u64() {
                prop_assert!(offset as usize <= line.len());
            }
        }
        prop_assert!(code == 0 || code == 1, "exit {}", code);
        prop_assert_eq!(code == 1, any_invalid);
        let summary = format!("{} checked", expected.len());
        prop_assert!(stderr.contains(&summary), "{}", stderr);
    }
}

/// 100 MiB of URIs through `check --quiet`; only with `RFC3986_BIG=1` (it takes a while).
#[test]
fn check_quiet_100_mib() {
    if std::env::var("RFC3986_BIG").as_deref() != Ok("1") {
        eprintln!("skipped: set RFC3986_BIG=1 to run");
        return;
    }
    let path = std::env::temp_dir().join(format!("rfc3986-big-{}.txt", std::process::id()));
    let sample = include_str!("../../../data/real-uris-sample.txt");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let (mut written, mut lines) = (0, 0u64);
    while written < 100 * MIB {
        for line in sample.lines() {
            writeln!(file, "{line}").unwrap();
            written += line.len() + 1;
            lines += 1;
        }
    }
    // One very long line and some binary at the end.
    writeln!(file, "http://a/{}", "a".repeat(MIB)).unwrap();
    file.write_all(b"\xff\xfe\0\r\n").unwrap();
    lines += 2;
    drop(file);
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_rfc3986"))
        .args(["check", "--quiet"])
        .arg(&path)
        .output()
        .unwrap();
    let took = start.elapsed();
    std::fs::remove_file(&path).unwrap();
    report("check --quiet, 100 MiB", written, took);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty());
    let blank = sample.lines().filter(|l| l.is_empty()).count() as u64
        * (lines / sample.lines().count() as u64);
    assert!(
        stderr.contains(&format!("{} checked", lines - blank)),
        "{stderr} ({lines} lines)"
    );
}
