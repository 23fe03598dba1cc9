//! Parsing speed on real input: the shipped sample of real URIs (`data/real-uris-sample.txt`) and a few
//! named single URIs. `cargo bench --bench parse`; criterion reports time per URI with
//! `Throughput::Elements`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rfc3986::{validate, Rule, UriRef};

const SAMPLE: &str = include_str!("../data/real-uris-sample.txt");

const SINGLES: &[(&str, &str)] = &[
    ("short", "http://a/b"),
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
];

fn bench_sample(c: &mut Criterion) {
    let lines: Vec<&str> = SAMPLE.lines().collect();
    let valid: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| UriRef::parse(l).is_ok())
        .collect();

    let mut group = c.benchmark_group("real-uris-sample");
    group.throughput(Throughput::Elements(valid.len() as u64));
    group.bench_function("UriRef::parse (valid lines)", |b| {
        b.iter(|| {
            for line in &valid {
                std::hint::black_box(UriRef::parse(std::hint::black_box(line)).is_ok());
            }
        })
    });
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.bench_function(
        "validate URI-reference (all lines, errors explained)",
        |b| {
            b.iter(|| {
                for line in &lines {
                    std::hint::black_box(
                        validate(Rule::URI_REFERENCE, std::hint::black_box(line)).is_ok(),
                    );
                }
            })
        },
    );
    group.finish();
}

fn bench_singles(c: &mut Criterion) {
    let mut group = c.benchmark_group("single");
    group.throughput(Throughput::Elements(1));
    for (name, uri) in SINGLES {
        group.bench_with_input(BenchmarkId::new("UriRef::parse", name), uri, |b, uri| {
            b.iter(|| UriRef::parse(std::hint::black_box(uri)).is_ok())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_sample, bench_singles);
criterion_main!(benches);
