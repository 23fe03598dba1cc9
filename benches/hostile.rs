//! Time against input size on hostile inputs: 1, 2, 4 and 8 MiB URIs, valid and invalid at the last byte,
//! for the shapes of `tests/it/hostile/mod.rs` (a long path, `../` repeated, `%41` repeated, an IPv6 look-alike).
//! Linear time shows as a constant throughput across sizes; criterion prints it (`thrpt`), and ns/byte is
//! its inverse (`cargo bench --bench hostile`; 1 GiB/s = 0.93 ns/byte).
//!
//! The group `hostile-runtime-grammar` runs the same shapes through `uri.pest` loaded at run time
//! (the compiled engine), at 256 KiB to 1 MiB.
//!
//! The group `hostile-grammar-steps` runs grammars on which PEG backtracking is exponential or quadratic
//! (the cases of `tests/it/hostile/grammar.rs`), on the compiled engine and on pest_vm, at 1 to 8 KiB: each
//! match stops at its budget of steps (16,384 plus 256 per byte), so time doubles with the input, where
//! it would double with each byte.
//!
//! The group `hostile-dot-segments` resolves `../` x N against `http://a/b/c` and normalizes `http://a`
//! + `/.` x N (RFC 3986 5.2.4 and 6.2.2.3), 1 to 8 MiB: linear, so the throughput stays flat.
//!
//! An invalid input is explained by the explainer (generated from `uri.pest`, `peg/src/explainer.rs`)
//! at every size, with no limit: its cost per byte stays constant across sizes too.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const MIB: usize = 1 << 20;

/// `n` bytes of `unit` repeated, after `prefix`, then `suffix`.
fn build(prefix: &str, unit: &str, n: usize, suffix: &str) -> String {
    let mut s = String::with_capacity(n + prefix.len() + suffix.len());
    s.push_str(prefix);
    while s.len() + unit.len() <= n + prefix.len() {
        s.push_str(unit);
    }
    s.push_str(suffix);
    s
}

fn shapes(n: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "path/valid",
            build("http://example.com", "/seg%41-._~!$&'()*+,;=:@", n, ""),
        ),
        (
            "path/invalid",
            build("http://example.com", "/seg%41-._~!$&'()*+,;=:@", n, " "),
        ),
        ("dotdot/valid", build("", "../", n, "g")),
        ("dotdot/invalid", build("", "../", n, "%")),
        ("pct/valid", build("?", "%41", n, "")),
        ("pct/invalid", build("?", "%41", n, "%4")),
        ("ipv6-look-alike/invalid", build("http://[", "1:", n, "]/")),
    ]
}

fn hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    for mib in [1, 2, 4, 8] {
        for (name, input) in shapes(mib * MIB) {
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(name, format!("{mib}MiB")),
                &input,
                |b, input| b.iter(|| black_box(rfc3986::UriRef::parse(black_box(input)).is_ok())),
            );
        }
    }
    group.finish();
}

/// The same shapes through `uri.pest` loaded at run time (the compiled engine, a few times slower per byte
/// than the built-in parsers), at 256 KiB, 512 KiB and 1 MiB.
fn hostile_runtime_grammar(c: &mut Criterion) {
    let grammar =
        rfc3986::runtime::Grammar::load(include_str!("../uri.pest")).expect("uri.pest loads");
    let entry = grammar.entry("URI-reference").expect("the rule exists");
    let mut group = c.benchmark_group("hostile-runtime-grammar");
    group.sample_size(10);
    for kib in [256, 512, 1024] {
        for (name, input) in shapes(kib << 10) {
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(name, format!("{kib}KiB")),
                &input,
                |b, input| b.iter(|| black_box(entry.parse(black_box(input)).is_ok())),
            );
        }
    }
    group.finish();
}

fn hostile_dot_segments(c: &mut Criterion) {
    let base = rfc3986::Uri::parse("http://a/b/c").unwrap();
    let mut group = c.benchmark_group("hostile-dot-segments");
    group.sample_size(10);
    for mib in [1, 2, 4, 8] {
        let reference = build("", "../", mib * MIB, "g");
        let reference = rfc3986::UriRef::parse(&reference).unwrap().into_owned();
        group.throughput(Throughput::Bytes(reference.as_str().len() as u64));
        group.bench_with_input(
            BenchmarkId::new("resolve", format!("{mib}MiB")),
            &reference,
            |b, r| b.iter(|| black_box(r.resolve_against(&base).unwrap())),
        );
        let uri = build("http://a", "/.", mib * MIB, "");
        let uri = rfc3986::Uri::parse(&uri).unwrap().into_owned();
        group.throughput(Throughput::Bytes(uri.as_str().len() as u64));
        group.bench_with_input(
            BenchmarkId::new("normalize", format!("{mib}MiB")),
            &uri,
            |b, u| b.iter(|| black_box(u.normalize())),
        );
    }
    group.finish();
}

/// Pathological grammars: a choice that tries 2^n paths on n `x` (alone, on the compiled engine, and
/// with implicit whitespace, which runs on pest_vm with pest's call limit as its budget), and a scan to
/// the end of the input from every byte of it (n^2 / 2 bytes).
fn hostile_grammar_steps(c: &mut Criterion) {
    rfc3986::runtime::bound_pest_vm_matches();
    let exponential = r#"r = { "x" ~ r ~ "a" | "x" ~ r ~ "b" | "x" }
all = { r ~ "c" }"#;
    let grammars = [
        ("exponential", exponential.to_string()),
        (
            "exponential-pest-vm",
            format!("WHITESPACE = _{{ \" \" }}\n{exponential}"),
        ),
        (
            "scan-from-every-byte",
            r#"all = { (&("x"* ~ "y") ~ "x" | "x")* ~ "z" }"#.to_string(),
        ),
    ];
    let mut group = c.benchmark_group("hostile-grammar-steps");
    group.sample_size(10);
    for (name, text) in &grammars {
        let grammar = rfc3986::runtime::Grammar::load(text).expect("the grammar loads");
        let entry = grammar.entry("all").expect("the rule exists");
        for kib in [1, 2, 4, 8] {
            let input = format!("{}c", "x".repeat(kib << 10));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(*name, format!("{kib}KiB")),
                &input,
                |b, input| b.iter(|| black_box(entry.parse(black_box(input)).is_err())),
            );
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    hostile,
    hostile_runtime_grammar,
    hostile_dot_segments,
    hostile_grammar_steps
);
criterion_main!(benches);
