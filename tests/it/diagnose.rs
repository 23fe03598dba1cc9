//! The explanation of a rejection by the diagnostic twin (the code `build.rs` generates from `uri.pest`
//! with pest's record of failed attempts) against the reference engine, the pest_derive parser of the
//! same grammar ([`Rule::validate_with_reference`]): the same verdict and, for a rejection, the same
//! `ParseError` (offset, kind, character found, expected items, hint), on every rule of the grammar.
//!
//! Inputs: a table of tricky inputs, every line of `data/real-uris-sample.txt` (and of the file named by
//! `RFC3986_CORPUS`, e.g. `RFC3986_CORPUS=FILE`), near-misses of those lines
//! (one character inserted, deleted or replaced by one of [`INTERESTING`], the line cut short), and
//! proptest-generated strings over the characters of the grammar.

use proptest::prelude::*;
use rfc3986::{validate, Rule};
use rstest::rstest;

/// Characters that change what the grammar expects: delimiters, `%`, hex digits, brackets, a space, a
/// character outside ASCII, characters no rule allows.
const INTERESTING: &[char] = &[
    ':', '/', '?', '#', '[', ']', '@', '%', '.', '-', 'v', 'V', 'F', '0', '1', '2', '5', '9', ' ',
    '{', '|', '"', '\\', 'é', '!', '=', '~', '\u{7f}',
];

#[track_caller]
fn assert_same(rule: Rule, input: &str) {
    let compiled = validate(rule, input);
    let reference = rule.validate_with_reference(input);
    assert_eq!(compiled, reference, "rule {rule} on {input:?}");
}

/// Each rule on each input: the number of rejections compared.
fn compare(rules: &[Rule], inputs: impl IntoIterator<Item = String>) -> usize {
    let mut rejected = 0;
    for input in inputs {
        for &rule in rules {
            assert_same(rule, &input);
            rejected += usize::from(validate(rule, &input).is_err());
        }
    }
    rejected
}

const REFERENCE_RULES: [Rule; 4] = [
    Rule::URI_REFERENCE,
    Rule::URI,
    Rule::ABSOLUTE_URI,
    Rule::RELATIVE_REF,
];

fn corpus() -> Vec<String> {
    let mut text = include_str!("../../data/real-uris-sample.txt").to_string();
    if let Ok(path) = std::env::var("RFC3986_CORPUS") {
        text.push_str(&std::fs::read_to_string(&path).expect("RFC3986_CORPUS is readable"));
    }
    text.lines().map(str::to_string).collect()
}

/// Near-misses of `line`: at a few positions (picked by a fixed generator, so runs repeat), one of
/// [`INTERESTING`] inserted or put in place of the character there, the character deleted, the line cut.
fn near_misses(line: &str, seed: &mut u64) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut next = |n: usize| {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 33) as usize) % n.max(1)
    };
    let mut out = Vec::new();
    for _ in 0..3 {
        let at = next(chars.len() + 1);
        let c = INTERESTING[next(INTERESTING.len())];
        let mut inserted = chars.clone();
        inserted.insert(at, c);
        out.push(inserted.into_iter().collect());
        if at < chars.len() {
            let mut replaced = chars.clone();
            replaced[at] = c;
            out.push(replaced.into_iter().collect());
            let mut deleted = chars.clone();
            deleted.remove(at);
            out.push(deleted.into_iter().collect());
        }
        out.push(chars[..at.min(chars.len())].iter().collect());
    }
    out
}

#[rstest]
#[case::empty("")]
#[case::space_in_path("http://a/b c")]
#[case::bad_percent("/a%2")]
#[case::bad_percent_at_end("/a%")]
#[case::percent_in_host("http://%s/")]
// Runs of pct-encoded triplets, which the twin steps over three bytes at a time, then a broken one.
#[case::triplets_then_short_percent("/%41%42%4")]
#[case::triplets_then_bad_hex("?%41%4g%41")]
#[case::triplets_then_percent_at_end("#a%41%41%")]
#[case::triplets_in_reg_name_then_space("http://%41%42%43 /")]
#[case::triplets_in_userinfo_then_bad("//%41%42:%4@a")]
#[case::triplets_in_first_segment_then_colon("%41%42:")]
// Runs of segments ("/" segment), which the twin steps over to the last one, then a mistake.
#[case::segments_then_space("http://h/a/b/c d")]
#[case::segments_then_short_percent("//h/a/b/%4")]
#[case::dot_segments_then_percent("../../..%")]
#[case::empty_segments_then_bracket("/a//b///[")]
#[case::segments_in_rootless_path_then_space("x:a/b/c /")]
#[case::segment_with_triplets_then_bad("/a/%41/b%4g")]
#[case::port_letters("http://host:port/")]
#[case::second_hash("a#b#c")]
#[case::colon_first_segment(":a")]
#[case::two_at("//a@b@c")]
#[case::ipv6_unclosed("http://[::1")]
#[case::ipv6_too_many("//[1:2:3:4:5:6:7:8:9]")]
#[case::ipv6_two_double_colons("//[1::2::3]")]
#[case::ipv6_long_group("//[12345::]")]
#[case::zone_id("//[fe80::1%25eth0]")]
#[case::ipvfuture_no_hex("//[v.x]")]
#[case::ipvfuture_bad_hex("//[vg.x]")]
#[case::ipv4_above_255("//1.2.3.256")]
#[case::ipv4_then_name("//1.2.3.4x")]
#[case::template("https://{bucket}.example/")]
#[case::bracket_in_path("/a[1]")]
#[case::non_ascii("#también")]
#[case::control("a\u{1}b")]
#[case::no_scheme("example.com/a")]
fn diagnose_matches_reference_on_every_rule(#[case] input: &str) {
    compare(&Rule::all().collect::<Vec<_>>(), [input.to_string()]);
}

/// Every line of the corpus for the four rules that make a `UriRef`, then near-misses of every line for
/// those rules and of every 10th line for every rule.
#[test]
fn diagnose_matches_reference_on_corpus_and_near_misses() {
    let lines = corpus();
    let all: Vec<Rule> = Rule::all().collect();
    let rejected = compare(&REFERENCE_RULES, lines.iter().cloned());
    let mut seed = 12;
    let mut misses = 0;
    let mut missed = 0;
    for (i, line) in lines.iter().enumerate() {
        let variants = near_misses(line, &mut seed);
        misses += variants.len();
        let rules: &[Rule] = if i % 10 == 0 { &all } else { &REFERENCE_RULES };
        missed += compare(rules, variants);
    }
    eprintln!(
        "{} lines ({rejected} rejections over 4 rules), {misses} near-misses ({missed} rejections)",
        lines.len()
    );
    assert!(rejected > 0 && missed > 0);
}

/// Inputs over the old 2 MiB limit of detailed errors: the same error as for the short input, moved.
#[test]
fn diagnose_is_the_same_at_every_length() {
    let short = "http://a/b c";
    let short_error = validate(Rule::URI_REFERENCE, short).unwrap_err();
    let long = format!("http://a/{}b c", "x/".repeat(1_600_000));
    let long_error = validate(Rule::URI_REFERENCE, &long).unwrap_err();
    assert_eq!(long_error.offset(), short_error.offset() + 3_200_000);
    assert_eq!(long_error.kind(), short_error.kind());
    assert_eq!(long_error.expected(), short_error.expected());
    assert_eq!(long_error.hint(), short_error.hint());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn diagnose_matches_reference_on_generated_inputs(input in "[a-fvV0-9:/?#@\\[\\].%!$&'()*+,;=~_ {é-]{0,24}") {
        for rule in Rule::all() {
            assert_same(rule, &input);
        }
    }

    #[test]
    fn diagnose_matches_reference_on_generated_authorities(
        input in "(http://)?((u[:p%]*)@)?(\\[[0-9a-fA-F:.v%]{0,20}\\]?|[0-9.]{0,12}|[a-z%0-9.]{0,8})(:[0-9a-z]{0,3})?(/[a-z.%:@ ]{0,4}){0,3}[?#]?"
    ) {
        for rule in Rule::all() {
            assert_same(rule, &input);
        }
    }
}
