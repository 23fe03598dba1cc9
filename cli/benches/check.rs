//! `rfc3986 check` next to the smallest program a user would write instead with the fastest peer: read the
//! file, call `fluent_uri::UriRef::parse` on each line, print `FILE:LINE:COL` for each failure. Both run
//! as processes on the same file, with standard output to /dev/null, in the same criterion run.
//!
//! ```sh
//! cargo bench -p rfc3986-cli --bench check
//! # on the real corpus, repeated 10 times (1,042,090 lines):
//! RFC3986_CORPUS=../shared/corpus/real-uris.txt cargo bench -p rfc3986-cli --bench check
//! ```
//!
//! The input is `data/real-uris-sample.txt` repeated to 100,000 lines, or the file named by
//! `RFC3986_CORPUS` repeated 10 times; it is written once under `target/`.

use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::{criterion_group, Criterion, Throughput};

/// Set in the environment of the bench binary when it runs as the baseline checker.
const BASELINE_VAR: &str = "RFC3986_BENCH_BASELINE_CHECK";

/// The baseline: the 30-line program of the issue, with fluent-uri 0.4.
fn baseline_check(path: &Path) -> i32 {
    let file = std::fs::File::open(path).expect("input file");
    let reader = std::io::BufReader::with_capacity(64 * 1024, file);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let name = path.display().to_string();
    let mut invalid = false;
    for (n, line) in reader.split(b'\n').enumerate() {
        let line = line.expect("read");
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        match std::str::from_utf8(line) {
            Ok(text) => {
                if let Err(e) = fluent_uri::UriRef::parse(text) {
                    invalid = true;
                    writeln!(
                        out,
                        "{name}:{}:{}: invalid URI reference",
                        n + 1,
                        e.index() + 1
                    )
                    .unwrap();
                }
            }
            Err(e) => {
                invalid = true;
                writeln!(out, "{name}:{}:{}: not UTF-8", n + 1, e.valid_up_to() + 1).unwrap();
            }
        }
    }
    out.flush().unwrap();
    i32::from(invalid)
}

/// The benchmark input: written once, reused.
fn input() -> (PathBuf, u64) {
    let (text, times, name) = match std::env::var("RFC3986_CORPUS") {
        Ok(path) => (
            std::fs::read_to_string(&path).expect("RFC3986_CORPUS"),
            10,
            "check-bench-corpus-x10.txt",
        ),
        Err(_) => (
            include_str!("../../data/real-uris-sample.txt").to_owned(),
            25,
            "check-bench-sample-x25.txt",
        ),
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(name);
    let lines = text.lines().count() as u64 * times;
    if !path.exists() {
        let mut out = BufWriter::new(std::fs::File::create(&path).unwrap());
        for _ in 0..times {
            out.write_all(text.as_bytes()).unwrap();
            if !text.ends_with('\n') {
                out.write_all(b"\n").unwrap();
            }
        }
        out.flush().unwrap();
    }
    (path, lines)
}

/// Runs a command to completion with standard output to /dev/null; exit 0 or 1 expected.
fn run(command: &mut Command) {
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("spawn");
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "{command:?}: {status}"
    );
}

fn bench_check(c: &mut Criterion) {
    let (path, lines) = input();
    let ours = env!("CARGO_BIN_EXE_rfc3986");
    let me = std::env::current_exe().unwrap();
    let mut group = c.benchmark_group("check");
    group.throughput(Throughput::Elements(lines));
    group.sample_size(10);
    group.bench_function("fluent-uri baseline", |b| {
        b.iter(|| run(Command::new(&me).env(BASELINE_VAR, &path)))
    });
    // uri.pest loaded at run time: compiled into the same program as the built-in grammar and
    // interpreted (issue 12: at most 5 times the built-in grammar's time, the same output).
    let uri_pest = concat!(env!("CARGO_MANIFEST_DIR"), "/../uri.pest");
    for (name, args) in [
        ("rfc3986 check -j 1", &["check", "-j", "1"][..]),
        (
            "rfc3986 check -j 1 --quiet",
            &["check", "-j", "1", "--quiet"][..],
        ),
        ("rfc3986 check", &["check"][..]),
        (
            "rfc3986 check -j 1 --grammar uri.pest",
            &["check", "-j", "1", "--grammar", uri_pest][..],
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| run(Command::new(ours).args(args).arg(&path)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_check);

fn main() {
    if let Some(path) = std::env::var_os(BASELINE_VAR) {
        std::process::exit(baseline_check(Path::new(&path)));
    }
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
