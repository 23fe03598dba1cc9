//! Side-by-side benchmarks: this crate against other Rust URI parsers, on the same inputs in the same run.
//!
//! ```sh
//! cargo bench --bench compare -- --warm-up-time 1 --measurement-time 3
//! python3 benches/ratios.py            # rfc3986 time / peer time, from target/criterion
//! ```
//!
//! Groups (criterion group ids; `benches/README.md` explains each subset):
//!
//! - `parse-sample/<peer>`: `rfc3986` and `<peer>` on the lines of `data/real-uris-sample.txt` that both accept.
//! - `parse-sample-all`: every parser on all lines, each with its own verdict (accept and reject paths mixed).
//! - `parse-sample-rejected`: `rfc3986` (parse, and validate) and fluent-uri on the lines fluent-uri rejects:
//!   for a checker, rejections are the product.
//! - `parse-corpus/<peer>`: as `parse-sample/<peer>`, on the file named by `RFC3986_CORPUS` (skipped if unset).
//! - `parse-corpus-all`, `parse-corpus-rejected`: as the `parse-sample-*` groups, on that file.
//! - `parse-single/<name>`: one named URI, every parser that accepts it.
//! - `resolve-sample/<peer>`: parse the reference and resolve it against a pre-parsed base, over the pairs of
//!   `data/real-refs-sample.tsv` that the peer and `rfc3986::UriRef::parse` accept.
//! - `resolve-corpus/<peer>`: the same over the (base, reference) file named by `RFC3986_REFS_CORPUS`
//!   (a file of `BASE<TAB>REF` lines; skipped if unset).
//! - `resolve-alone-sample/<peer>`, `resolve-alone-corpus/<peer>`: resolution alone, over the sample's pairs and
//!   those of `RFC3986_REFS_CORPUS`: both sides get the base and the reference parsed beforehand (oxiri
//!   `Iri`/`IriRef`, fluent-uri `Uri`/`UriRef`, this crate `Uri`/`UriRef`); only the resolution is timed,
//!   the owned target included.
//! - `normalize-sample/<peer>`: parse a URI and write its syntax-based normal form, over the sample.
//! - `normalize-corpus/<peer>`: the same over the file named by `RFC3986_CORPUS`.
//!
//! `RFC3986_BENCH_REPORT=1` prints the peer versions (from `Cargo.lock`), the subset sizes and where each peer
//! disagrees with this crate, with examples; `-- --list` then skips the measurements.
//!

use std::hint::black_box;
use std::str::FromStr;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rfc3986::{is_valid, validate, Rule, UriRef};

const SAMPLE: &str = include_str!("../data/real-uris-sample.txt");
const PAIRS: &str = include_str!("../data/real-refs-sample.tsv");
const CARGO_LOCK: &str = include_str!("../Cargo.lock");

/// The same named URIs as `benches/parse.rs`, plus one per shape the peers treat differently.
const SINGLES: &[(&str, &str)] = &[
    ("short", "http://a/b"),
    // 52 bytes; the median line of the sample is 43 bytes
    ("typical", "https://docs.python.org/3.11/library/os.html#os.path"),
    ("ipv6", "http://[2001:db8:85a3::8a2e:370:7334]:8080/index.html?x=1"),
    (
        "percent_heavy",
        "https://play.rust-lang.org/?code=%23!%5Ballow(unused)%5D%0Afn+main()+%7B%0A%7D&edition=2021",
    ),
    (
        "long",
        "https://www.example.com/a/very/long/path/with/many/segments/and/more/segments/index.html?query=string&with=many&parameters=true#and-a-fragment",
    ),
    ("relative", "../../scope/lifetime/lifetime_coercion.html"),
];

// ---------------------------------------------------------------------------------------------------------
// The parsers. Each function parses and validates one URI reference and says whether it was accepted; the
// parsed value goes through `black_box` so that no part of the work can be optimized away.

/// A parser under comparison.
struct Peer {
    /// Criterion function id and the name in the ratio table.
    name: &'static str,
    /// The package in `Cargo.lock`, for the version.
    package: &'static str,
    /// What is measured, as written in `benches/README.md`.
    call: &'static str,
    parse: fn(&str) -> bool,
}

fn rfc3986_parse(s: &str) -> bool {
    black_box(UriRef::parse(s)).is_ok()
}

fn rfc3986_validate(s: &str) -> bool {
    black_box(validate(Rule::URI_REFERENCE, s)).is_ok()
}

fn rfc3986_is_valid(s: &str) -> bool {
    is_valid(Rule::URI_REFERENCE, black_box(s))
}

fn fluent_uri_parse(s: &str) -> bool {
    black_box(fluent_uri::UriRef::parse(s)).is_ok()
}

fn iri_string_parse(s: &str) -> bool {
    black_box(iri_string::types::UriReferenceStr::new(s)).is_ok()
}

fn oxiri_parse(s: &str) -> bool {
    black_box(oxiri::IriRef::parse(s)).is_ok()
}

fn uriparse_parse(s: &str) -> bool {
    black_box(uriparse::URIReference::try_from(s)).is_ok()
}

fn http_parse(s: &str) -> bool {
    black_box(http::Uri::from_str(s)).is_ok()
}

fn url_parse(s: &str) -> bool {
    black_box(url::Url::parse(s)).is_ok()
}

const OURS: Peer = Peer {
    name: "rfc3986",
    package: "rfc3986",
    call: "rfc3986::UriRef::parse",
    parse: rfc3986_parse,
};

const PEERS: &[Peer] = &[
    Peer {
        name: "fluent-uri",
        package: "fluent-uri",
        call: "fluent_uri::UriRef::parse",
        parse: fluent_uri_parse,
    },
    Peer {
        name: "iri-string",
        package: "iri-string",
        call: "iri_string::types::UriReferenceStr::new",
        parse: iri_string_parse,
    },
    Peer {
        name: "oxiri",
        package: "oxiri",
        call: "oxiri::IriRef::parse",
        parse: oxiri_parse,
    },
    Peer {
        name: "uriparse",
        package: "uriparse",
        call: "uriparse::URIReference::try_from",
        parse: uriparse_parse,
    },
    Peer {
        name: "http",
        package: "http",
        call: "http::Uri::from_str",
        parse: http_parse,
    },
    Peer {
        name: "url",
        package: "url",
        call: "url::Url::parse",
        parse: url_parse,
    },
];

// ---------------------------------------------------------------------------------------------------------
// Inputs

fn sample_lines() -> Vec<&'static str> {
    SAMPLE.lines().collect()
}

fn pairs() -> Vec<(&'static str, &'static str)> {
    pairs_of(PAIRS)
}

/// The (base, reference) pairs of a tab-separated text.
fn pairs_of(text: &'static str) -> Vec<(&'static str, &'static str)> {
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .collect()
}

/// The text of the file named by the environment variable `var`, kept for the whole run (the corpus
/// groups hold `&'static str` slices of it, as of the sample); `None` when unset or unreadable.
fn leaked_file(var: &str) -> Option<&'static str> {
    let path = std::env::var(var).ok()?;
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(Box::leak(text.into_boxed_str())),
        Err(e) => {
            eprintln!("{var}={path}: {e}; skipping its groups");
            None
        }
    }
}

/// The lines that both this crate and `peer` accept.
fn common<'a>(lines: &[&'a str], peer: &Peer) -> Vec<&'a str> {
    lines
        .iter()
        .copied()
        .filter(|s| (OURS.parse)(s) && (peer.parse)(s))
        .collect()
}

fn version(package: &str) -> &'static str {
    let needle = format!("name = \"{package}\"\nversion = \"");
    CARGO_LOCK
        .find(&needle)
        .and_then(|at| {
            let rest = &CARGO_LOCK[at + needle.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .unwrap_or("?")
}

fn report_wanted() -> bool {
    std::env::var_os("RFC3986_BENCH_REPORT").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Counts and examples of the lines where `peer` and this crate disagree.
fn report_disagreements(label: &str, lines: &[&str]) {
    let ours: Vec<bool> = lines.iter().map(|s| (OURS.parse)(s)).collect();
    let accepted = ours.iter().filter(|&&ok| ok).count();
    eprintln!(
        "\n== {label}: {} lines, rfc3986 accepts {accepted}",
        lines.len()
    );
    eprintln!(
        "{:<11} {:>8} {:>9} {:>9} {:>9}",
        "peer", "version", "common", "only-us", "only-peer"
    );
    for peer in PEERS {
        let mut only_us = Vec::new();
        let mut only_peer = Vec::new();
        let mut both = 0usize;
        for (s, &we) in lines.iter().zip(&ours) {
            match (we, (peer.parse)(s)) {
                (true, true) => both += 1,
                (true, false) => only_us.push(*s),
                (false, true) => only_peer.push(*s),
                (false, false) => {}
            }
        }
        eprintln!(
            "{:<11} {:>8} {:>9} {:>9} {:>9}",
            peer.name,
            version(peer.package),
            both,
            only_us.len(),
            only_peer.len()
        );
        // Relative references first-class in RFC 3986 but out of scope for `http` and `url`: count them
        // apart and show the absolute URIs the peer rejects.
        let (relative, absolute): (Vec<&str>, Vec<&str>) = only_us
            .iter()
            .partition(|s| UriRef::parse(s).is_ok_and(|r| !r.is_uri()));
        if !relative.is_empty() {
            eprintln!(
                "    only rfc3986 accepts: {} relative references, e.g. {}",
                relative.len(),
                relative[0]
            );
        }
        if !absolute.is_empty() {
            eprintln!(
                "    only rfc3986 accepts: {} URIs with a scheme, e.g.",
                absolute.len()
            );
        }
        for s in absolute.iter().take(4) {
            eprintln!("        {s}");
        }
        if !only_peer.is_empty() {
            eprintln!("    only {} accepts, e.g.", peer.name);
        }
        for s in only_peer.iter().take(4) {
            eprintln!("        {s}");
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// parse + validate

/// `rfc3986` and `peer`, each over the lines both accept, in one group.
fn bench_common(c: &mut Criterion, group_name: &str, lines: &[&str], peer: &Peer, long: bool) {
    let subset = common(lines, peer);
    let mut group = c.benchmark_group(format!("{group_name}/{}", peer.name));
    if long {
        group.sample_size(10);
    }
    group.throughput(Throughput::Elements(subset.len() as u64));
    for p in [&OURS, peer] {
        group.bench_function(p.name, |b| {
            b.iter(|| {
                for s in &subset {
                    black_box((p.parse)(black_box(s)));
                }
            })
        });
    }
    group.finish();
}

fn bench_sample(c: &mut Criterion) {
    let lines = sample_lines();
    if report_wanted() {
        eprintln!("parsers (versions from Cargo.lock):");
        for p in std::iter::once(&OURS).chain(PEERS) {
            eprintln!("  {:<11} {:<8} {}", p.name, version(p.package), p.call);
        }
        report_disagreements("data/real-uris-sample.txt", &lines);
    }
    for peer in PEERS {
        bench_common(c, "parse-sample", &lines, peer, false);
    }

    bench_all_and_rejected(c, "parse-sample", &lines);
}

/// `<prefix>-all`: every parser on every line, each with its own verdict (rejecting is part of the work,
/// and this crate explains every rejection). `<prefix>-rejected`: this crate and fluent-uri, the fastest
/// peer, on the lines fluent-uri rejects.
fn bench_all_and_rejected(c: &mut Criterion, prefix: &str, lines: &[&str]) {
    let validate_ours = Peer {
        name: "rfc3986 validate",
        package: "rfc3986",
        call: "rfc3986::validate(Rule::URI_REFERENCE, _)",
        parse: rfc3986_validate,
    };
    let mut group = c.benchmark_group(format!("{prefix}-all"));
    group.throughput(Throughput::Elements(lines.len() as u64));
    if lines.len() > 10_000 {
        group.sample_size(10);
    }
    for p in [&OURS, &validate_ours].into_iter().chain(PEERS) {
        group.bench_function(p.name, |b| {
            b.iter(|| {
                for s in lines {
                    black_box((p.parse)(black_box(s)));
                }
            })
        });
    }
    group.finish();

    let fluent = PEERS
        .iter()
        .find(|p| p.name == "fluent-uri")
        .expect("fluent-uri is a peer");
    let rejected: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|s| !(fluent.parse)(s))
        .collect();
    if rejected.is_empty() {
        return;
    }
    // The verdict alone (no explanation), as a checker that only counts would ask for it.
    let is_valid_ours = Peer {
        name: "rfc3986 is_valid",
        package: "rfc3986",
        call: "rfc3986::is_valid(Rule::URI_REFERENCE, _)",
        parse: rfc3986_is_valid,
    };
    let mut group = c.benchmark_group(format!("{prefix}-rejected"));
    group.throughput(Throughput::Elements(rejected.len() as u64));
    for p in [&OURS, &validate_ours, &is_valid_ours, fluent] {
        group.bench_function(p.name, |b| {
            b.iter(|| {
                for s in &rejected {
                    black_box((p.parse)(black_box(s)));
                }
            })
        });
    }
    group.finish();
}

fn bench_corpus(c: &mut Criterion) {
    let Some(text) = leaked_file("RFC3986_CORPUS") else {
        return;
    };
    let path = std::env::var("RFC3986_CORPUS").unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    if report_wanted() {
        report_disagreements(&path, &lines);
    }
    for peer in PEERS {
        bench_common(c, "parse-corpus", &lines, peer, true);
    }
    bench_all_and_rejected(c, "parse-corpus", &lines);
}

fn bench_singles(c: &mut Criterion) {
    for (name, uri) in SINGLES {
        let mut group = c.benchmark_group(format!("parse-single/{name}"));
        group.throughput(Throughput::Elements(1));
        for p in std::iter::once(&OURS).chain(PEERS) {
            if !(p.parse)(uri) {
                if report_wanted() {
                    eprintln!("parse-single/{name}: {} rejects {uri}", p.name);
                }
                continue;
            }
            group.bench_with_input(BenchmarkId::from_parameter(p.name), uri, |b, uri| {
                b.iter(|| (p.parse)(black_box(uri)))
            });
        }
        group.finish();
    }
}

// ---------------------------------------------------------------------------------------------------------
// resolve (RFC 3986 section 5)
//
// Each measurement parses the reference and resolves it against a base parsed beforehand (a document's base
// is parsed once, its links many times), producing an owned result. The subset of pairs is per peer: those
// whose base the peer parses as an absolute URI and whose reference it parses and resolves, and which this
// crate accepts (base as `Uri`, reference as `UriRef`); the `rfc3986` function of each group resolves the
// same pairs. `bench_resolve_alone` times resolution without the parse of the reference.

/// The pairs this crate accepts: base a URI, reference a URI reference.
fn pairs_we_accept(pairs: Vec<(&'static str, &'static str)>) -> Vec<(&'static str, &'static str)> {
    pairs
        .into_iter()
        .filter(|(base, reference)| {
            rfc3986::Uri::parse(base).is_ok() && UriRef::parse(reference).is_ok()
        })
        .collect()
}

fn bench_resolve_peer<B, R>(
    c: &mut Criterion,
    prefix: &str,
    name: &str,
    pairs: &[(&'static str, &'static str)],
    parse_base: impl Fn(&'static str) -> Option<B>,
    resolve: impl Fn(&B, &str) -> Option<R>,
) {
    let subset: Vec<(B, &str)> = pairs
        .iter()
        .filter_map(|&(base, reference)| {
            let parsed = parse_base(base)?;
            resolve(&parsed, reference)?;
            Some((parsed, reference))
        })
        .collect();
    // The same pairs for this crate, bases parsed beforehand as for the peer.
    let ours: Vec<(rfc3986::Uri<'static>, &str)> = pairs
        .iter()
        .filter(|&&(base, reference)| {
            parse_base(base).is_some_and(|parsed| resolve(&parsed, reference).is_some())
        })
        .map(|&(base, reference)| (rfc3986::Uri::parse(base).expect("accepted"), reference))
        .collect();
    if report_wanted() {
        eprintln!("{prefix}/{name}: {} of {} pairs", subset.len(), pairs.len());
    }
    let mut group = c.benchmark_group(format!("{prefix}/{name}"));
    group.throughput(Throughput::Elements(subset.len() as u64));
    if prefix.ends_with("corpus") {
        group.sample_size(10);
    }
    group.bench_function(name, |b| {
        b.iter(|| {
            for (base, reference) in &subset {
                black_box(resolve(base, black_box(reference)));
            }
        })
    });
    group.bench_function("rfc3986", |b| {
        b.iter(|| {
            for (base, reference) in &ours {
                black_box(
                    UriRef::parse(black_box(reference))
                        .ok()
                        .and_then(|r| r.resolve_against(base).ok()),
                );
            }
        })
    });
    group.finish();
}

fn bench_resolve(c: &mut Criterion) {
    bench_resolve_all(c, "resolve-sample-all", &pairs());
    bench_resolve_on(c, "resolve-sample", "data/real-refs-sample.tsv", pairs());
    bench_resolve_alone(c, "resolve-alone-sample", &pairs());
}

fn bench_resolve_corpus(c: &mut Criterion) {
    if let Some(text) = leaked_file("RFC3986_REFS_CORPUS") {
        bench_resolve_all(c, "resolve-corpus-all", &pairs_of(text));
        bench_resolve_on(c, "resolve-corpus", "RFC3986_REFS_CORPUS", pairs_of(text));
        bench_resolve_alone(c, "resolve-alone-corpus", &pairs_of(text));
    }
}

/// `<prefix>/<peer>`: resolution alone, as a crawler does it (one parsed base, many parsed references):
/// both sides get the base and the reference parsed beforehand, and only the resolution is timed, the owned
/// target included. Pairs: those both sides parse (base as an absolute URI, reference as a reference) and
/// the peer resolves. This crate against oxiri and fluent-uri, the fastest resolvers.
fn bench_resolve_alone(c: &mut Criterion, prefix: &str, pairs: &[(&'static str, &'static str)]) {
    fn peer<B, R, T>(
        c: &mut Criterion,
        prefix: &str,
        name: &str,
        pairs: &[(&'static str, &'static str)],
        parse: impl Fn(&'static str, &'static str) -> Option<(B, R)>,
        resolve: impl Fn(&B, &R) -> Option<T>,
    ) {
        let mut theirs = Vec::new();
        let mut ours = Vec::new();
        for &(base, reference) in pairs {
            let Some((b, r)) = parse(base, reference) else {
                continue;
            };
            let (Ok(our_base), Ok(our_reference)) =
                (rfc3986::Uri::parse(base), UriRef::parse(reference))
            else {
                continue;
            };
            if resolve(&b, &r).is_some() {
                theirs.push((b, r));
                ours.push((our_base, our_reference));
            }
        }
        if report_wanted() {
            eprintln!("{prefix}/{name}: {} of {} pairs", ours.len(), pairs.len());
        }
        let mut group = c.benchmark_group(format!("{prefix}/{name}"));
        group.throughput(Throughput::Elements(ours.len() as u64));
        if ours.len() > 10_000 {
            group.sample_size(10);
        }
        group.bench_function(name, |b| {
            b.iter(|| {
                for (base, reference) in &theirs {
                    black_box(resolve(base, black_box(reference)));
                }
            })
        });
        group.bench_function("rfc3986", |b| {
            b.iter(|| {
                for (base, reference) in &ours {
                    black_box(black_box(reference).resolve_against(base).ok());
                }
            })
        });
        group.finish();
    }
    peer(
        c,
        prefix,
        "oxiri",
        pairs,
        |base, reference| {
            Some((
                oxiri::Iri::parse(base).ok()?,
                oxiri::IriRef::parse(reference).ok()?,
            ))
        },
        |base, reference| base.resolve(reference).ok(),
    );
    peer(
        c,
        prefix,
        "fluent-uri",
        pairs,
        |base, reference| {
            Some((
                fluent_uri::Uri::parse(base).ok()?,
                fluent_uri::UriRef::parse(reference).ok()?,
            ))
        },
        |base, reference| reference.resolve_against(base).ok(),
    );
}

/// `<prefix>`: resolution of every pair as a user's program meets them, invalid ones included: each
/// side parses the bases beforehand (`None` for a base it rejects), then for each pair parses the
/// reference and resolves it against the base, or rejects the pair (a rejected base or reference costs
/// what it costs that side; this crate explains each rejected reference). This crate against fluent-uri
/// and oxiri, the fastest resolvers.
fn bench_resolve_all(c: &mut Criterion, prefix: &str, pairs: &[(&'static str, &'static str)]) {
    fn run<B, R>(
        group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        name: &str,
        pairs: &[(&'static str, &'static str)],
        parse_base: impl Fn(&'static str) -> Option<B>,
        resolve: impl Fn(&B, &str) -> Option<R>,
    ) {
        let bases: Vec<(Option<B>, &str)> = pairs
            .iter()
            .map(|&(base, reference)| (parse_base(base), reference))
            .collect();
        group.bench_function(name, |b| {
            b.iter(|| {
                for (base, reference) in &bases {
                    black_box(
                        base.as_ref()
                            .and_then(|base| resolve(base, black_box(reference))),
                    );
                }
            })
        });
    }
    let mut group = c.benchmark_group(prefix);
    group.throughput(Throughput::Elements(pairs.len() as u64));
    if pairs.len() > 10_000 {
        group.sample_size(10);
    }
    run(
        &mut group,
        "rfc3986",
        pairs,
        |base| rfc3986::Uri::parse(base).ok(),
        |base, reference| UriRef::parse(reference).ok()?.resolve_against(base).ok(),
    );
    run(
        &mut group,
        "fluent-uri",
        pairs,
        |base| fluent_uri::Uri::parse(base).ok(),
        |base, reference| {
            fluent_uri::UriRef::parse(reference)
                .ok()?
                .resolve_against(base)
                .ok()
        },
    );
    run(
        &mut group,
        "oxiri",
        pairs,
        |base| oxiri::Iri::parse(base).ok(),
        |base, reference| base.resolve(&oxiri::IriRef::parse(reference).ok()?).ok(),
    );
    group.finish();
}

fn bench_resolve_on(
    c: &mut Criterion,
    prefix: &str,
    source: &str,
    pairs: Vec<(&'static str, &'static str)>,
) {
    let pairs = pairs_we_accept(pairs);
    if report_wanted() {
        eprintln!("\n== {source}: rfc3986 accepts {} pairs", pairs.len());
    }
    bench_resolve_peer(
        c,
        prefix,
        "fluent-uri",
        &pairs,
        |base| fluent_uri::Uri::parse(base).ok(),
        |base, reference| {
            fluent_uri::UriRef::parse(reference)
                .ok()?
                .resolve_against(base)
                .ok()
        },
    );
    bench_resolve_peer(
        c,
        prefix,
        "iri-string",
        &pairs,
        |base| iri_string::types::UriAbsoluteStr::new(base).ok(),
        |base, reference| {
            use iri_string::format::ToDedicatedString;
            let resolved = iri_string::types::UriReferenceStr::new(reference)
                .ok()?
                .resolve_against(base);
            // Resolution that RFC 3986 cannot serialize (a path starting with "//" and no authority) is an error.
            resolved.ensure_rfc3986_normalizable().ok()?;
            Some(resolved.to_dedicated_string())
        },
    );
    bench_resolve_peer(
        c,
        prefix,
        "oxiri",
        &pairs,
        |base| oxiri::Iri::parse(base).ok(),
        |base, reference| base.resolve(&oxiri::IriRef::parse(reference).ok()?).ok(),
    );
    bench_resolve_peer(
        c,
        prefix,
        "url",
        &pairs,
        |base| url::Url::parse(base).ok(),
        |base, reference| base.join(reference).ok(),
    );
}

// ---------------------------------------------------------------------------------------------------------
// normalize (RFC 3986 section 6.2.2)
//
// Each measurement parses a URI of the sample and writes its syntax-based normal form as an owned string.
// The subset per peer: the sample's lines with a scheme that this crate and the peer both accept (and, for
// iri-string, can serialize after normalization).

fn bench_normalize_peer(
    c: &mut Criterion,
    prefix: &str,
    lines: &str,
    name: &str,
    normalize: impl Fn(&str) -> Option<String>,
) {
    let subset: Vec<&str> = lines
        .lines()
        .filter(|line| rfc3986::Uri::parse(line).is_ok() && normalize(line).is_some())
        .collect();
    if report_wanted() {
        eprintln!("{prefix}/{name}: {} lines", subset.len());
    }
    let mut group = c.benchmark_group(format!("{prefix}/{name}"));
    group.throughput(Throughput::Elements(subset.len() as u64));
    if prefix.ends_with("corpus") {
        group.sample_size(10);
    }
    group.bench_function(name, |b| {
        b.iter(|| {
            for line in &subset {
                black_box(normalize(black_box(line)));
            }
        })
    });
    group.bench_function("rfc3986", |b| {
        b.iter(|| {
            for line in &subset {
                black_box(
                    rfc3986::Uri::parse(black_box(line))
                        .map(|u| u.normalize().into_string())
                        .ok(),
                );
            }
        })
    });
    group.finish();
}

fn bench_normalize(c: &mut Criterion) {
    bench_normalize_on(c, "normalize-sample", SAMPLE);
}

fn bench_normalize_corpus(c: &mut Criterion) {
    if let Some(text) = leaked_file("RFC3986_CORPUS") {
        bench_normalize_on(c, "normalize-corpus", text);
    }
}

fn bench_normalize_on(c: &mut Criterion, prefix: &str, lines: &str) {
    // `<prefix>-all`: every line, invalid ones and relative references included, parsed as a URI and
    // normalized or rejected by each side (this crate explains each rejection).
    let all: Vec<&str> = lines.lines().collect();
    let mut group = c.benchmark_group(format!("{prefix}-all"));
    group.throughput(Throughput::Elements(all.len() as u64));
    if all.len() > 10_000 {
        group.sample_size(10);
    }
    group.bench_function("rfc3986", |b| {
        b.iter(|| {
            for line in &all {
                black_box(
                    rfc3986::Uri::parse(black_box(line))
                        .map(|u| u.normalize().into_string())
                        .ok(),
                );
            }
        })
    });
    group.bench_function("fluent-uri", |b| {
        b.iter(|| {
            for line in &all {
                black_box(
                    fluent_uri::Uri::parse(black_box(*line))
                        .map(|u| u.normalize().as_str().to_owned())
                        .ok(),
                );
            }
        })
    });
    group.finish();
    bench_normalize_peer(c, prefix, lines, "fluent-uri", |line| {
        Some(
            fluent_uri::Uri::parse(line)
                .ok()?
                .normalize()
                .as_str()
                .to_owned(),
        )
    });
    bench_normalize_peer(c, prefix, lines, "iri-string", |line| {
        use iri_string::format::ToDedicatedString;
        let uri = iri_string::types::UriStr::new(line).ok()?;
        let normalized = uri.normalize();
        normalized.ensure_rfc3986_normalizable().ok()?;
        Some(normalized.to_dedicated_string().to_string())
    });
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_sample, bench_singles, bench_resolve, bench_normalize, bench_corpus,
        bench_resolve_corpus, bench_normalize_corpus
}
criterion_main!(benches);
