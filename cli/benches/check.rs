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
//!
//! On a host whose speed drifts, `RFC3986_BENCH_ALTERNATE=11` runs the commands in turn, 11 rounds, and
//! prints each one's minimum and median and the ratios of issue 12 (see [`alternate`]):
//!
//! ```sh
//! RFC3986_BENCH_ALTERNATE=11 RFC3986_CORPUS=../shared/corpus/real-uris.txt cargo bench -p rfc3986-cli --bench check
//! ```

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

/// The commands measured, by name: the baseline (this binary as the baseline checker) and `rfc3986 check`
/// with the options of issue 12's targets.
fn commands(path: &Path) -> Vec<(&'static str, Command)> {
    let ours = env!("CARGO_BIN_EXE_rfc3986");
    let me = std::env::current_exe().unwrap();
    let mut baseline = Command::new(me);
    baseline.env(BASELINE_VAR, path);
    let mut all = vec![("fluent-uri baseline", baseline)];
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
        let mut command = Command::new(ours);
        command.args(args).arg(path);
        all.push((name, command));
    }
    all
}

fn bench_check(c: &mut Criterion) {
    let (path, lines) = input();
    let mut group = c.benchmark_group("check");
    group.throughput(Throughput::Elements(lines));
    group.sample_size(10);
    for (name, mut command) in commands(&path) {
        group.bench_function(name, |b| b.iter(|| run(&mut command)));
    }
    group.finish();
}

/// `RFC3986_BENCH_ALTERNATE=N`: instead of criterion's groups (each command's samples in a row, so a
/// host whose speed drifts favours whichever ran in its fast spell), N rounds that run every command once
/// each, in turn; then each command's minimum and median wall time, and its ratio to the baseline's
/// (`-j 1` for `rfc3986 check`, whose ratio is the speed-up of all cores).
fn alternate(rounds: usize) {
    let (path, lines) = input();
    let mut commands = commands(&path);
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); commands.len()];
    for round in 0..rounds {
        for (i, (_, command)) in commands.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            run(command);
            times[i].push(start.elapsed().as_secs_f64());
        }
        eprint!("\rround {}/{rounds}", round + 1);
    }
    eprintln!();
    let stats: Vec<(f64, f64)> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            (t[0], t[t.len() / 2])
        })
        .collect();
    println!("{lines} lines of {}, {rounds} rounds", path.display());
    println!("| command | min | median | ratio min / median |");
    println!("| --- | ---: | ---: | --- |");
    for (i, (name, _)) in commands.iter().enumerate() {
        let (min, median) = stats[i];
        // The ratio to the baseline; for all cores, the speed-up over `-j 1` (index 1).
        let ratio = match *name {
            "fluent-uri baseline" => String::new(),
            "rfc3986 check" => format!(
                "{:.2}x / {:.2}x faster than -j 1",
                stats[1].0 / min,
                stats[1].1 / median
            ),
            "rfc3986 check -j 1 --grammar uri.pest" => format!(
                "{:.2}x / {:.2}x the built-in grammar",
                min / stats[1].0,
                median / stats[1].1
            ),
            _ => format!(
                "{:.2}x / {:.2}x the baseline",
                min / stats[0].0,
                median / stats[0].1
            ),
        };
        println!(
            "| `{name}` | {:.1} ms | {:.1} ms | {ratio} |",
            min * 1e3,
            median * 1e3
        );
    }
}

criterion_group!(benches, bench_check);

fn main() {
    if let Some(path) = std::env::var_os(BASELINE_VAR) {
        std::process::exit(baseline_check(Path::new(&path)));
    }
    if let Some(rounds) = std::env::var("RFC3986_BENCH_ALTERNATE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        alternate(rounds);
        return;
    }
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
