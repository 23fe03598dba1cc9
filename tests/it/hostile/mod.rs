//! Hostile input: huge, deeply repetitive, binary and malformed text, each on a thread with a normal 2 MiB
//! stack. Every input either parses or fails with an error whose offset is inside the input; nothing
//! panics, nothing overflows the stack. Times go to standard error (`cargo test --test hostile --
//! --nocapture`); `benches/hostile.rs` measures how they grow with size. The command line's hostile
//! inputs are in `cli/tests/hostile.rs`.

/// Hostile grammars loaded at run time (was `tests/hostile_grammar.rs`).
mod grammar;

use std::time::{Duration, Instant};

use rfc3986::percent;
use rfc3986::{validate, validate_bytes, ParseError, ParseErrorKind, Rule, UriRef};

const MIB: usize = 1 << 20;

/// For inputs that fail: the detail parser that explains an error is slower still in a debug build
/// (~15 µs/byte), so a debug build uses 1/128 of the size.
fn size_invalid(n: usize) -> usize {
    if cfg!(debug_assertions) && std::env::var("RFC3986_BIG").as_deref() != Ok("1") {
        n / 128
    } else {
        n
    }
}

/// `n` at full size in an optimized build (`cargo test --release --test hostile`) or with `RFC3986_BIG=1`;
/// a sixteenth of it in a debug build, where the pest parsers are ~20x slower, so that `cargo test` stays
/// fast. The shapes are the same either way.
fn size(n: usize) -> usize {
    if cfg!(debug_assertions) && std::env::var("RFC3986_BIG").as_deref() != Ok("1") {
        n / 16
    } else {
        n
    }
}

/// Runs `f` on a thread with a 2 MiB stack (Rust's default for spawned threads, smaller than the main
/// thread's 8 MiB), so that no test depends on a large stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * MIB)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic, no stack overflow")
}

/// Parses `input` as a URI-reference, checks the result (the round trip or the error offset and render),
/// prints the time, and returns the result.
#[track_caller]
fn parse_checked(name: &str, input: &str) -> Result<(), ParseError> {
    let start = Instant::now();
    let result = UriRef::parse(input).map(|r| {
        assert_eq!(r.as_str().len(), input.len());
        assert_eq!(r.to_string().len(), input.len());
    });
    let took = start.elapsed();
    if let Err(e) = &result {
        assert!(
            e.offset() <= input.len(),
            "{name}: offset {} past {}",
            e.offset(),
            input.len()
        );
        let rendered = e.annotate(input).to_string();
        assert!(rendered.len() < 1000, "{name}: render cuts long input");
    }
    report(name, input.len(), took);
    result
}

fn report(name: &str, len: usize, took: Duration) {
    eprintln!(
        "{name}: {len} bytes in {took:?} ({:.1} ns/byte)",
        took.as_nanos() as f64 / len.max(1) as f64
    );
}

/// `n` bytes of valid path text mixing the characters of `pchar` (unreserved, pct-encoded, sub-delims,
/// ":" and "@") and "/".
fn path_text(n: usize) -> String {
    const CHUNK: &str = "/seg-._~%41!$&'()*+,;=:@abcXYZ019";
    let mut s = CHUNK.repeat(n / CHUNK.len() + 1);
    s.truncate(n);
    // Do not cut a pct-encoded triplet.
    while s.ends_with('%') || s[..s.len() - 1].ends_with('%') {
        s.pop();
    }
    s
}

#[test]
fn ten_mib_uri_valid() {
    on_small_stack(|| {
        let input = format!(
            "http://user@example.com:8080{}?q=1#f",
            path_text(size(10 * MIB))
        );
        parse_checked("10 MiB valid", &input).expect("valid");
        let r = UriRef::parse(&input).unwrap();
        assert_eq!(r.host_str(), Some("example.com"));
        assert_eq!(r.query(), Some("q=1"));
        assert_eq!(r.fragment(), Some("f"));
        assert!(validate_bytes(Rule::URI, input.as_bytes()).is_ok());
    });
}

#[test]
fn ten_mib_uri_invalid_at_end() {
    on_small_stack(|| {
        for bad in [" ", "%4", "#a#", "{x}", "\u{e9}", "\0"] {
            let input = format!(
                "http://example.com{}{bad}",
                path_text(size_invalid(10 * MIB))
            );
            let e = parse_checked(&format!("10 MiB + {bad:?}"), &input).expect_err("invalid");
            // The error points into the bad suffix at every length (no detail limit since the
            // diagnosis is generated code).
            assert!(
                e.offset() >= input.len() - bad.len() && e.offset() <= input.len(),
                "{bad:?}: offset {} of {}",
                e.offset(),
                input.len()
            );
        }
        let mut bytes = format!("http://example.com{}", path_text(size(10 * MIB))).into_bytes();
        let bad = bytes.len();
        bytes.push(0xff);
        let e = validate_bytes(Rule::URI_REFERENCE, &bytes).unwrap_err();
        assert_eq!((e.offset(), e.kind()), (bad, ParseErrorKind::InvalidUtf8));
    });
}

#[test]
fn million_segments() {
    on_small_stack(|| {
        let input = "/a".repeat(size(MIB));
        parse_checked("1M segments", &input).expect("valid");
        assert_eq!(
            UriRef::parse(&input).unwrap().path_segments().count(),
            size(MIB)
        );
        let input = format!("http://h{}", "/".repeat(size(MIB)));
        parse_checked("1M empty segments", &input).expect("valid");
        let input = format!("http://h{}/a b", "/a".repeat(size(MIB)));
        parse_checked("1M segments + space", &input).expect_err("invalid");
    });
}

#[test]
fn million_dot_dot() {
    on_small_stack(|| {
        let input = "../".repeat(size(MIB));
        parse_checked("1M ../", &input).expect("valid");
        let input = format!("{}g?y#s", "../".repeat(size(MIB)));
        parse_checked("1M ../ + g?y#s", &input).expect("valid");
        // A first segment with ":" makes it a URI... of scheme ".."? No: a scheme starts with ALPHA.
        let input = format!("..:{}", "../".repeat(size(MIB)));
        parse_checked("..: + 1M ../", &input).expect_err("a colon in the first segment");
    });
}

#[test]
fn million_pct_encoded() {
    on_small_stack(|| {
        let input = "%41".repeat(size(MIB));
        parse_checked("1M %41", &input).expect("valid");
        assert_eq!(percent::decode(&input).unwrap().len(), size(MIB));
        assert_eq!(percent::decode_utf8(&input).unwrap(), "A".repeat(size(MIB)));
        for bad in ["%4", "%", "%G1", "%4G"] {
            let input = format!("{}{bad}", "%41".repeat(size_invalid(MIB)));
            parse_checked(&format!("1M %41 + {bad:?}"), &input).expect_err("invalid");
            let e = percent::decode(&input).unwrap_err();
            assert_eq!(e.offset(), 3 * size_invalid(MIB));
        }
    });
}

#[test]
fn long_ipv6_look_alikes() {
    on_small_stack(|| {
        let colons = "1:".repeat(size(500_000));
        for input in [
            format!("//[{colons}]"),
            format!("http://[{colons}]/"),
            format!("http://[{colons}1]/"),
            format!("http://[::{colons}1]/"),
            format!("http://[v1.{colons}]/"), // a valid IPvFuture: ":" is allowed
            format!("http://[{}]", "1".repeat(size(MIB))),
            format!("http://[{}", "1:".repeat(size(MIB))),
            format!("http://{}", "[".repeat(size(MIB))),
            format!("http://{}", "]".repeat(size(MIB))),
        ] {
            let name = format!("IPv6 look-alike {:?}...", &input[..input.len().min(16)]);
            let _ = parse_checked(&name, &input);
            if let Some(start) = input.find('[') {
                let literal = &input[start..];
                let literal = literal.strip_suffix('/').unwrap_or(literal);
                assert_eq!(
                    validate(Rule::IP_LITERAL, literal).is_ok(),
                    literal.starts_with("[v1.")
                );
            }
        }
        let valid = format!("http://[v1.{colons}]/");
        assert!(UriRef::parse(&valid).is_ok());
    });
}

#[test]
fn control_and_invisible_characters() {
    on_small_stack(|| {
        for (input, offset) in [
            ("http://a/\0b", 9),
            ("\0", 0),
            ("http://a/b\rc", 10),
            ("\r", 0),
            ("http://a/b\r", 10),
            ("\u{feff}http://a/", 0),
            ("http://a/\u{feff}", 9),
            ("http://a\u{0}.com/", 8),
            ("http://[::1\0]/", 11),
            ("ht\ttp://a/", 2),
        ] {
            let e = UriRef::parse(input).unwrap_err();
            assert_eq!(e.offset(), offset, "{input:?}");
            let _ = e.annotate(input).to_string();
            assert_eq!(
                validate_bytes(Rule::URI_REFERENCE, input.as_bytes()).unwrap_err(),
                e
            );
        }
        let nuls = "\0".repeat(size(MIB));
        assert_eq!(parse_checked("1M NUL", &nuls).unwrap_err().offset(), 0);
        let crs = format!("http://a/{}", "\r".repeat(size(MIB)));
        assert_eq!(parse_checked("1M CR", &crs).unwrap_err().offset(), 9);
    });
}

#[test]
fn invalid_utf8_through_validate_bytes() {
    on_small_stack(|| {
        for (bytes, offset) in [
            (&b"\xff"[..], 0),
            (b"http://a/\xff", 9),
            (b"http://a/\xc3", 9),             // truncated sequence
            (b"http://a/\xc0\x80", 9),         // overlong NUL
            (b"http://a/\xed\xa0\x80", 9),     // a UTF-16 surrogate
            (b"http://a/\xf4\x90\x80\x80", 9), // above U+10FFFF
            (b"\xef\xbb\xbfhttp://a/", 0),     // a BOM is valid UTF-8, invalid URI
            (b"http://a b/\xff", 8),           // the grammar error comes first
        ] {
            for rule in Rule::all() {
                let e = validate_bytes(rule, bytes).unwrap_err();
                assert!(e.offset() <= bytes.len(), "{rule} on {bytes:?}");
                let _ = e.annotate(&String::from_utf8_lossy(bytes)).to_string();
            }
            let e = validate_bytes(Rule::URI_REFERENCE, bytes).unwrap_err();
            assert_eq!(e.offset(), offset, "{bytes:?}");
        }
        let mut bytes = vec![0xff; size(MIB)];
        bytes.extend_from_slice(b"http://a/");
        assert_eq!(
            validate_bytes(Rule::URI_REFERENCE, &bytes)
                .unwrap_err()
                .offset(),
            0
        );
    });
}

/// Sizes for the pest_vm engine, which is ~20x slower than the pest_derive parser: as [`size`] in an
/// optimized build or with `RFC3986_BIG=1`, 1/128 in a debug build.
#[cfg(feature = "runtime-grammar")]
fn size_vm(n: usize) -> usize {
    if cfg!(debug_assertions) && std::env::var("RFC3986_BIG").as_deref() != Ok("1") {
        n / 128
    } else {
        n
    }
}

/// The same hostile shapes through `uri.pest` loaded at run time (the compiled engine): the same
/// verdicts, components and errors as the built-in parser, no stack overflow on a 2 MiB stack.
#[cfg(feature = "runtime-grammar")]
#[test]
fn runtime_grammar_hostile_inputs() {
    on_small_stack(|| {
        let grammar = rfc3986::runtime::Grammar::load(include_str!("../../../uri.pest"))
            .expect("uri.pest loads");
        let entry = grammar.entry("URI-reference").expect("the rule exists");
        let inputs = [
            (
                "10 MiB valid",
                format!(
                    "http://user@example.com:8080{}?q=1#f",
                    path_text(size_vm(10 * MIB))
                ),
            ),
            (
                "10 MiB + space",
                format!("http://example.com{} ", path_text(size_vm(10 * MIB))),
            ),
            ("1M segments", "/a".repeat(size_vm(MIB))),
            ("1M ../", format!("{}g", "../".repeat(size_vm(MIB)))),
            ("1M %41", format!("?{}", "%41".repeat(size_vm(MIB)))),
            (
                "IPv6 look-alike",
                format!("http://[{}]/", "1:".repeat(size_vm(MIB))),
            ),
        ];
        for (name, input) in &inputs {
            let start = Instant::now();
            let loaded = entry.parse(input);
            report(
                &format!("runtime grammar, {name}"),
                input.len(),
                start.elapsed(),
            );
            match (loaded, UriRef::parse(input)) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        (a.authority(), a.path(), a.query(), a.fragment()),
                        (
                            b.authority().map(|a| a.as_str()),
                            Some(b.path()),
                            b.query(),
                            b.fragment()
                        ),
                        "{name}"
                    );
                }
                (Err(e), Err(b)) => {
                    assert_eq!(
                        (e.offset(), e.kind(), e.expected()),
                        (b.offset(), b.kind(), b.expected()),
                        "{name}"
                    );
                    assert!(e.offset() <= input.len(), "{name}: offset {}", e.offset());
                    assert!(
                        e.annotate(input).to_string().len() < 1000,
                        "{name}: render cuts long input"
                    );
                }
                (a, b) => panic!(
                    "{name}: loaded grammar {:?}, built-in {:?}",
                    a.map(|_| ()),
                    b.map(|_| ())
                ),
            }
        }
    });
}
