//! The engine of grammars loaded at run time (the program of `build/program.rs` run by an interpreter,
//! rejections explained from the detail grammar) against its two references:
//!
//! - pest_vm running the same grammar ([`Entry::parse_with_reference`]): same verdict, same components,
//!   same error (offset, kind, expected items, hint) for every rule of every shipped grammar, on tricky
//!   inputs, the shipped sample of real URIs and generated near-misses. pest_vm names rules by `&str`,
//!   so its expected items come in alphabetical order; pest_derive's (and the engine's) come in the
//!   grammar's order, so against pest_vm the items are compared as sets;
//! - the built-in grammar: `uri.pest` loaded at run time says exactly what the compiled recognizer and
//!   its diagnostic twin say, so that `rfc3986 check --grammar uri.pest` prints what `rfc3986 check`
//!   prints.
#![cfg(feature = "runtime-grammar")]

use proptest::prelude::*;
use rfc3986::runtime::{Entry, Grammar};
use rfc3986::{ParseError, Rule};
use rstest::rstest;

const SAMPLE: &str = include_str!("../../../data/real-uris-sample.txt");

const TRICKY: &[&str] = &[
    "",
    ":",
    "/",
    "//",
    "?#",
    "a:",
    "./a:b",
    "a/b:c",
    "//u@h:1/p?q#f",
    "http://a/b c",
    "%",
    "%4",
    "%GG",
    "http://%s/",
    "//1.2.3.256",
    "//01.2.3.4",
    "//[::1]",
    "//[1:2:3:4:5:6:7:8:9]",
    "//[1::2::3]",
    "//[v1.x]",
    "//[vg.x]",
    "//[fe80::1%25eth0]",
    "//[fe80::1%eth0]",
    "http://h:99999",
    "http://h:x",
    "a#b#c",
    "#también",
    "http://résumé.example.org/",
    "http://a/\u{202e}",
    "{+path}/x{?q,r}",
    "{",
    "x{a",
    "mailto:John.Doe@example.com",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "foo://example.com:8042/over/there?name=ferret#nose",
];

/// What an error says, as the command line prints it.
fn said(e: &ParseError) -> (usize, String, Vec<String>, Option<String>, String) {
    (
        e.offset(),
        format!("{:?}", e.kind()),
        e.expected().iter().map(|x| x.to_string()).collect(),
        e.hint(),
        e.to_string(),
    )
}

/// What an error says, its expected items in any order (see the module docs).
fn said_in_any_order(e: &ParseError) -> (usize, String, Vec<String>, Option<String>) {
    let (offset, kind, mut expected, hint, _) = said(e);
    expected.sort();
    (offset, kind, expected, hint)
}

#[track_caller]
fn assert_engines_agree(entry: &Entry<'_>, input: &str) {
    let compiled = entry.parse(input);
    let reference = entry.parse_with_reference(input);
    match (&compiled, &reference) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{} on {input:?}", entry.abnf_name()),
        (Err(a), Err(b)) => assert_eq!(
            said_in_any_order(a),
            said_in_any_order(b),
            "{} on {input:?}",
            entry.abnf_name()
        ),
        _ => panic!(
            "{} on {input:?}: the engine says {:?}, pest_vm {:?}",
            entry.abnf_name(),
            compiled.is_ok(),
            reference.is_ok()
        ),
    }
}

fn shipped(name: &str) -> Grammar {
    Grammar::builtin(name).expect("shipped").expect("loads")
}

#[rstest]
#[case::uri("uri")]
#[case::iri("iri")]
#[case::zone_id("zone-id")]
#[case::uri_template("uri-template")]
fn the_engine_agrees_with_pest_vm_on_every_rule_of_the_shipped_grammars(#[case] name: &str) {
    let grammar = shipped(name);
    let rules: Vec<String> = grammar
        .rule_names()
        .map(|(pest, _)| pest.to_string())
        .collect();
    for rule in &rules {
        let entry = grammar.entry(rule).expect("rule");
        assert!(entry.is_compiled(), "{name}: {rule} runs on pest_vm");
        for input in TRICKY {
            assert_engines_agree(&entry, input);
        }
    }
    let start = grammar.start_rule().expect("start rule");
    for line in SAMPLE.lines() {
        assert_engines_agree(&start, line);
    }
}

#[test]
fn the_engine_agrees_with_pest_vm_on_the_scheme_grammars() {
    let schemes = rfc3986::runtime::SchemeGrammars::builtin();
    for scheme in schemes.schemes() {
        let grammar = schemes.grammar(scheme).expect("grammar");
        let entry = grammar.entry("scheme_uri").expect("scheme_uri");
        for line in SAMPLE.lines().chain(TRICKY.iter().copied()) {
            assert_engines_agree(&entry, line);
        }
    }
}

/// The IRI grammar's choices of character ranges beyond ASCII (`ucschar`, `iprivate`), each guarded by
/// the first bytes of its range: characters at and around the ends of each range, and ASCII bytes and
/// triplets between them, get the same answer from both engines.
#[rstest]
#[case::ucschar_ends("http://a/\u{A0}\u{D7FF}\u{F900}\u{FDCF}\u{FDF0}\u{FFEF}\u{10000}\u{1FFFD}")]
#[case::just_outside_ucschar("http://a/\u{9F}")]
#[case::noncharacter("http://a/\u{FFFE}")]
#[case::surrogate_neighbours("http://a/\u{D7FF}\u{E000}")]
#[case::iprivate_in_the_query("http://a/?\u{E000}\u{F8FF}\u{F0000}")]
#[case::iprivate_in_the_path("http://a/\u{E000}")]
#[case::triplets_between_characters("http://\u{E9}x%41.example/\u{FC}%c3%bc%4")]
#[case::host_of_characters_and_a_port("http://\u{4E2D}\u{6587}.example:80/")]
fn the_iri_grammar_guards_its_character_ranges_as_pest_vm_decides(#[case] input: &str) {
    let grammar = shipped("iri");
    let start = grammar.start_rule().expect("start rule");
    assert_engines_agree(&start, input);
    for rule in ["ipchar", "iunreserved", "ucschar", "iquery", "ihost"] {
        let entry = grammar.entry(rule).expect("rule");
        for (i, _) in input.char_indices() {
            assert_engines_agree(&entry, &input[i..]);
        }
    }
}

/// `uri.pest` loaded at run time against the built-in grammar, for every rule.
#[track_caller]
fn assert_same_as_builtin(grammar: &Grammar, rule: Rule, input: &str) {
    let entry = grammar.entry(rule.abnf_name()).expect("rule");
    let loaded = entry.parse(input);
    let builtin = rfc3986::parse_as(rule, input);
    match (&loaded, &builtin) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{rule} on {input:?}"),
        (Err(a), Err(b)) => assert_eq!(said(a), said(b), "{rule} on {input:?}"),
        _ => panic!("{rule} on {input:?}: loaded {loaded:?}, built-in {builtin:?}"),
    }
}

#[test]
fn uri_pest_loaded_at_run_time_says_what_the_builtin_grammar_says() {
    let grammar = Grammar::load(include_str!("../../../uri.pest")).expect("loads");
    for rule in Rule::all() {
        for input in TRICKY {
            assert_same_as_builtin(&grammar, rule, input);
        }
    }
    for line in SAMPLE.lines() {
        for rule in [
            Rule::URI_REFERENCE,
            Rule::URI,
            Rule::ABSOLUTE_URI,
            Rule::RELATIVE_REF,
        ] {
            assert_same_as_builtin(&grammar, rule, line);
        }
    }
}

/// Every line of the file named by `RFC3986_CORPUS`, when it is set (the full corpus:
/// `RFC3986_CORPUS=FILE cargo test --all-features --test runtime_engine`).
#[test]
fn uri_pest_loaded_at_run_time_agrees_on_the_corpus_when_given() {
    let Ok(path) = std::env::var("RFC3986_CORPUS") else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("RFC3986_CORPUS is readable");
    let grammar = Grammar::load(include_str!("../../../uri.pest")).expect("loads");
    let entry = grammar.entry("URI-reference").expect("rule");
    for line in text.lines() {
        assert_same_as_builtin(&grammar, Rule::URI_REFERENCE, line);
        assert_engines_agree(&entry, line);
    }
}

/// Long runs of what a repetition matches byte by byte (skipped when explaining a rejection), of what it
/// matches in several bytes (`%2e`, non-ASCII characters of an IRI), and every kind of end: both engines
/// explain them alike.
#[rstest]
#[case::uri("uri")]
#[case::iri("iri")]
fn long_runs_get_the_same_explanation_from_both_engines(#[case] name: &str) {
    let grammar = shipped(name);
    let start = grammar.start_rule().expect("start rule");
    for head in [
        "http://a/",
        "http://\u{fc}.example/p",
        "urn:x:",
        "//h/?q=",
        "a/b#",
    ] {
        for run in ["a", "\u{e9}", "%2e", "/", "\u{1f600}", "a%2e/"] {
            for tail in [
                "", " ", "%", "%z", "%2", "%2g", "[", "\u{e9} ", "\u{202e}", "#x#",
            ] {
                let input = format!("{head}{}{tail}", run.repeat(200));
                assert_engines_agree(&start, &input);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn near_misses_get_the_same_answer_from_all_three_engines(
        input in "(http://)?((u[:p]*)@)?(\\[[0-9a-fA-F:.v%]{0,20}\\]|[0-9.]{0,12}|[a-z%0-9.]{0,8})(:[0-9a-z]{0,3})?(/[a-z.%:@ ]{0,4}){0,3}[?#]?[a-z%#]{0,3}"
    ) {
        let grammar = Grammar::load(include_str!("../../../uri.pest")).expect("loads");
        let entry = grammar.entry("URI-reference").expect("rule");
        for rule in [Rule::URI_REFERENCE, Rule::URI, Rule::AUTHORITY, Rule::HOST, Rule::IPV6ADDRESS] {
            assert_same_as_builtin(&grammar, rule, &input);
        }
        assert_engines_agree(&entry, &input);
    }
}

#[rstest]
#[case::whitespace(
    "WHITESPACE = _{ \" \" }\nlist = { \"a\" ~ (\",\" ~ \"a\")* }",
    "list",
    "a , a"
)]
#[case::non_atomic(
    "inner = @{ \"a\" ~ x }\nx = !{ \"b\" }\nouter = { inner }",
    "outer",
    "ab"
)]
#[case::unicode_builtin("word = { ALPHABETIC+ }", "word", "héllo")]
fn grammars_the_program_cannot_express_run_on_pest_vm(
    #[case] text: &str,
    #[case] rule: &str,
    #[case] input: &str,
) {
    let grammar = Grammar::load(text).expect("loads");
    let entry = grammar.entry(rule).expect("rule");
    assert!(!entry.is_compiled());
    assert!(entry.parse(input).is_ok());
    assert_engines_agree(&entry, input);
}

#[test]
fn rule_names_like_the_generated_ones_are_allowed() {
    let grammar = Grammar::load(
        "entry_a = { \"a\" ~ lit_0 }\nlit_0 = { \"b\" | \"c\" }\nentry1_x = { entry_a+ }",
    )
    .expect("loads");
    let entry = grammar.entry("entry1_x").expect("rule");
    assert!(entry.is_compiled());
    assert!(entry.parse("abac").is_ok());
    let e = entry.parse("abad").unwrap_err();
    assert_eq!(e.offset(), 3);
    assert_engines_agree(&entry, "abad");
}

#[test]
fn a_component_that_matches_twice_gets_pests_spans() {
    // `host` twice in one match: the recorder cannot keep both, pest_vm's pairs decide.
    let text = format!(
        "{}\ntwo = {{ host ~ \"/\" ~ host }}\n",
        include_str!("../../../uri.pest")
    );
    let grammar = Grammar::load(&text).expect("loads");
    let entry = grammar.entry("two").expect("rule");
    assert_engines_agree(&entry, "a/b");
}

#[rstest]
// pest decodes the escapes of a quoted string; the expected item is the string it matches.
#[case::unicode_escape("a = { \"x\\u{2F}\" }", "y", "\"x/\"")]
#[case::quote_escape("a = { \"\\\"\" }", "y", "\"\"\"")]
#[case::insensitive("a = { ^\"\\u{41}b\" }", "y", "\"Ab\"")]
fn a_quoted_string_with_escapes_is_expected_as_pest_reads_it(
    #[case] text: &str,
    #[case] input: &str,
    #[case] item: &str,
) {
    let grammar = Grammar::load(text).expect("loads");
    let entry = grammar.entry("a").expect("rule");
    assert!(entry.is_compiled());
    let e = entry.parse(input).unwrap_err();
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    assert_eq!(expected, [item]);
    assert_engines_agree(&entry, input);
}

#[test]
fn two_rules_with_the_same_characters_fold_alike_in_both_engines() {
    // Found by fuzzing grammar_text: two rules whose ABNF names (`ALPHA`, `alpha`) both take the
    // characters of RFC 5234's ALPHA for folding, in one list; which one folding keeps must not depend
    // on the order of the list (pest_vm lists alphabetically). The one whose name sorts first stays.
    let grammar = Grammar::overlay(
        "/// ALPHA = %x30-39\ndigit = _{ '0'..'9' }\n\
         /// alpha = %x41-5A / %x61-7A\nalpha = _{ 'a'..'z' | 'A'..'Z' }\n",
    )
    .expect("loads");
    let entry = grammar.entry("scheme").expect("rule");
    let e = entry.parse("f x").unwrap_err();
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    assert_eq!(
        expected,
        ["ALPHA", "\"+\"", "\"-\"", "\".\"", "end of input"]
    );
    assert_engines_agree(&entry, "f x");
}

#[test]
fn an_item_is_listed_once_when_two_rules_share_its_name() {
    // Found by fuzzing grammar_text (an overlay whose rule is documented as `sub-delims`, as uri.pest's
    // is): pest_vm listed `sub-delims` twice (its items in alphabetical order of the rule names, where
    // the two are not neighbours), the engine once.
    let text = r##"//! The IRI syntax o through `iunreserved`: in
//! `iuserinfo`, `ireg-name`, the path segments (`ipchar`), or IRI
//! References and IRIs", a
//! characters of `iprivate` are allowed i/// overlay/! The generic URI syntax of RFC 3986 " | "#" | "[" | "]" | "@" }

/// sub-delims = "!" / "$" /("!"'//x"* ~ a? }"##;
    let grammar = Grammar::overlay(text).expect("loads");
    let entry = grammar.start_rule().expect("a start rule");
    let input = r##"axrt 3 "//" authority path-ajempn `iquery`ty / path-absolute / path-rootle "##;
    let e = entry.parse_with_reference(input).unwrap_err();
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    let mut once = expected.clone();
    once.sort();
    once.dedup();
    assert_eq!(expected.len(), once.len(), "{expected:?}");
    assert_engines_agree(&entry, input);
}

/// Rules that reach themselves through a repetition or a later term, silent or not, alone or through
/// another rule. Found by fuzzing grammar_text (an overlay redefining `sub_delims` as
/// `_{ "!" | ... | "x" ~ (unreserved | sub_delims | ":")+ }`): the program's lowering inlined the
/// silent rule's alternatives into the choice inside its own body, then lowered that body again inside
/// itself, until the loader thread's stack overflowed (the command line aborted). Recursive rules are now
/// called, never inlined.
#[rstest]
#[case::silent_in_a_repetition("p = { a }\na = _{ \"x\" | \"(\" ~ (\"y\" | a)+ ~ \")\" }")]
#[case::silent_under_a_star("p = { a }\na = _{ \"x\" | \"(\" ~ a* ~ \")\" }")]
#[case::silent_first_in_the_choice("p = { a }\na = _{ \"x\" | \"(\" ~ (a | \"y\")* ~ \")\" }")]
#[case::through_another_silent_rule(
    "p = { a }\na = _{ \"x\" | \"(\" ~ b ~ \")\" }\nb = _{ \"y\" | (\"-\" | a)+ }"
)]
#[case::normal_rules("p = { a }\na = { \"x\" | \"(\" ~ (\"y\" | a)+ ~ \")\" }")]
#[case::in_a_lookahead("p = { &a ~ a ~ !a }\na = _{ \"x\" | \"(\" ~ (\"y\" | a)* ~ \")\" }")]
fn recursive_rules_load_and_agree_with_pest_vm(#[case] text: &str) {
    let grammar = Grammar::load(text).expect("loads");
    let entry = grammar.entry("p").expect("p");
    assert!(entry.is_compiled(), "{text}");
    assert!(entry.parse("x").is_ok() || entry.parse("xx").is_ok() || text.contains("!a"));
    for input in [
        "x", "(x)", "((x)y)", "((x)x)", "(-x)", "(y)", "(", "((x)", "(x))", "(()", "", "xy",
        "(-(x)-)",
    ] {
        assert_engines_agree(&entry, input);
    }
}

/// An attempt list longer than the explainer's record keeps in place (64 entries: it then moves to the
/// heap) is pest_vm's, with every item: 150 quoted strings tried at one position, and again after a
/// shorter list was recorded there first.
#[test]
fn a_long_attempt_list_is_pest_vms() {
    let strings: Vec<String> = (0..150).map(|i| format!("\"k{i}\"")).collect();
    let text = format!(
        "p = {{ \"a\" ~ (\"b\" ~ \"c\" | ({})) ~ EOI }}",
        strings.join(" | ")
    );
    let grammar = Grammar::load(&text).expect("loads");
    let entry = grammar.entry("p").expect("p");
    assert!(entry.is_compiled());
    let e = entry.parse("az").unwrap_err();
    assert_eq!((e.offset(), e.expected().len()), (1, 151));
    for input in ["az", "a", "ak7", "ak149", "ab", "abz", "k1"] {
        assert_engines_agree(&entry, input);
    }
}
