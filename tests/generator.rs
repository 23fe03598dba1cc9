//! The generator (`build.rs` and its modules in `build/`) as code like any other: unit tests of each
//! stage (read, analyse, components, layout, emit, diagnose), included here with `#[path]`, and a golden
//! test of the code emitted for a small grammar (`tests/data/generator/small.pest`): the emitted
//! recognizer and diagnostic twin are compared with the checked-in `small.fastpath.rs` and
//! `small.diagnose.rs`; `RFC3986_BLESS=1 cargo test --test generator` writes them anew after a deliberate
//! change.

#[allow(dead_code)]
#[path = "../build/analyse.rs"]
mod analyse;
#[allow(dead_code)]
#[path = "../build/components.rs"]
mod components;
#[allow(dead_code)]
#[path = "../build/diagnose.rs"]
mod diagnose;
#[allow(dead_code)]
#[path = "../build/emit.rs"]
mod emit;
#[allow(dead_code)]
#[path = "../build/layout.rs"]
mod layout;
#[path = "../build/program.rs"]
mod program;
#[allow(dead_code)]
#[path = "../build/read.rs"]
mod read;

use std::path::PathBuf;

use pest_meta::ast::Expr;
use rstest::rstest;

const SMALL: &str = include_str!("data/generator/small.pest");
const URI_PEST: &str = include_str!("../uri.pest");

fn small() -> read::Read {
    read::read(SMALL).expect("small.pest reads")
}

fn rule<'r>(read: &'r read::Read, name: &str) -> &'r Expr {
    &read.ast.iter().find(|r| r.name == name).expect("rule").expr
}

fn members(set: &analyse::Set) -> String {
    (0..=255u8)
        .filter(|&b| set[b as usize])
        .map(|b| b as char)
        .collect()
}

// ---------------------------------------------------------------------------------------------------------
// read
// ---------------------------------------------------------------------------------------------------------

#[test]
fn read_takes_abnf_names_and_definitions_from_doc_lines() {
    let read = small();
    let names: Vec<_> = read.rules.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["digit", "scheme", "number", "pair", "word"]);
    assert_eq!(read.rules[0].abnf, "DIGIT");
    assert_eq!(read.rules[0].definition, "%x30-39");
    assert_eq!(read.rules[2].definition, "1*3DIGIT");
}

#[test]
fn read_makes_every_rule_normal_and_every_string_a_rule_in_the_detail_grammar() {
    let read = small();
    let detail = read::optimized(&read.detail).expect("detail grammar reads");
    for rule in &detail {
        let silent = rule.name.starts_with(read::ENTRY_PREFIX);
        assert_eq!(
            rule.ty == pest_meta::ast::RuleType::Silent,
            silent,
            "{}",
            rule.name
        );
        assert!(
            silent || rule.ty == pest_meta::ast::RuleType::Normal,
            "{}",
            rule.name
        );
    }
    let literals: Vec<_> = read.literals.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(literals, ["+", ":", "x", "v", "::", "-"]);
    assert!(read.detail.contains("lit_0 = { \"+\" }"));
    assert!(read.detail.contains("lit_3 = { ^\"v\" }"));
    assert!(read.entries.contains("entry_pair = _{ SOI ~ pair ~ EOI }"));
}

#[rstest]
#[case::reserved_entry_name("entry_x = { \"a\" }", "reserved")]
#[case::reserved_literal_name("lit_1 = { \"a\" }", "reserved")]
#[case::syntax_error("a = { \"a\" ", "not a valid pest grammar")]
fn read_refuses(#[case] text: &str, #[case] message: &str) {
    let Err(error) = read::read(text) else {
        panic!("{text:?} was read")
    };
    assert!(error.contains(message), "{error}");
}

// ---------------------------------------------------------------------------------------------------------
// analyse
// ---------------------------------------------------------------------------------------------------------

#[rstest]
#[case::digit("digit", Some("0123456789"))]
#[case::pchar("pchar", None)]
#[case::unreserved(
    "unreserved",
    Some("-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
)]
#[case::sub_delims("sub_delims", Some("!$&'()*+,;="))]
#[case::segment("segment", None)]
fn analyse_class_of_uri_pest_rules(#[case] name: &str, #[case] expected: Option<&str>) {
    let read = read::read(URI_PEST).expect("uri.pest reads");
    let g = analyse::Grammar::new(&read.ast, |_| false);
    let class = g.class(rule(&read, name), true);
    assert_eq!(class.as_ref().map(members).as_deref(), expected);
}

#[rstest]
#[case::path_abempty("path_abempty", "/", true)]
#[case::path_absolute("path_absolute", "/", false)]
#[case::ip_literal("ip_literal", "[", false)]
#[case::port("port", "0123456789", true)]
fn analyse_first_sets_of_uri_pest_rules(
    #[case] name: &str,
    #[case] first: &str,
    #[case] nullable: bool,
) {
    let read = read::read(URI_PEST).expect("uri.pest reads");
    let g = analyse::Grammar::new(&read.ast, |_| false);
    let (set, can_be_empty) = g.first(rule(&read, name));
    assert_eq!((members(&set).as_str(), can_be_empty), (first, nullable));
}

#[test]
fn analyse_pchar_folds_into_one_class_and_pct_encoded() {
    let read = read::read(URI_PEST).expect("uri.pest reads");
    let g = analyse::Grammar::new(&read.ast, |_| false);
    let mut items = Vec::new();
    g.alternatives(rule(&read, "pchar"), true, 0, &mut items);
    let (class, rest) = g.fold(&items).expect("pchar folds");
    assert!(class[b':' as usize] && class[b'@' as usize] && !class[b'/' as usize]);
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].0.to_string(), "pct_encoded");
}

#[test]
fn analyse_records_events_through_calls_but_not_inside_atomic_rules() {
    let read = read::read(URI_PEST).expect("uri.pest reads");
    let g = analyse::Grammar::new(&read.ast, |r| ["host", "port"].contains(&r.name.as_str()));
    assert!(g.records_events["authority"]);
    assert!(g.records_events["uri_reference"]);
    assert!(!g.records_events["scheme"]);
    assert!(!g.records_events["pchar"]);
}

/// A rule is recursive when it reaches itself through rule references in any position; only those are
/// kept from being inlined. uri.pest has none.
#[rstest]
#[case::none_in_uri_pest(URI_PEST, "")]
#[case::calls_itself_later("a = { \"(\" ~ a? ~ \")\" }", "a")]
#[case::silent_in_a_repetition("p = { a }\na = _{ \"x\" | \"(\" ~ a* ~ \")\" }", "a")]
#[case::two_rules_in_a_cycle("a = { \"x\" ~ b? }\nb = { \"y\" ~ a }\nc = { a }", "a b")]
#[case::through_a_lookahead("a = { \"x\" ~ &b }\nb = { \"y\" ~ a? }", "a b")]
#[case::a_chain_is_not_recursive("a = { b ~ b }\nb = { c | \"x\" }\nc = { \"y\" }", "")]
#[case::a_cycle_beside_a_chain(
    "a = { b }\nb = { \"(\" ~ c ~ \")\" }\nc = { \"x\" | b }\nd = { a ~ c }",
    "b c"
)]
fn analyse_finds_the_recursive_rules(#[case] text: &str, #[case] expected: &str) {
    let read = read::read(text).expect("reads");
    let mut found: Vec<&str> = analyse::recursive_rules(&read.ast).into_iter().collect();
    found.sort();
    assert_eq!(found.join(" "), expected);
}

// ---------------------------------------------------------------------------------------------------------
// components
// ---------------------------------------------------------------------------------------------------------

#[test]
fn components_are_named_by_their_slot() {
    let read = small();
    let code = components::constants(&["scheme", "number"], &read.ast).expect("constants");
    assert!(code.contains("pub(crate) const SCHEME: usize = 0;"));
    assert!(code.contains("pub(crate) const NUMBER: usize = 1;"));
}

#[rstest]
#[case::missing("port", "not a rule")]
#[case::silent("digit", "silent")]
fn components_refuses(#[case] name: &str, #[case] message: &str) {
    let read = small();
    let error = components::constants(&[name], &read.ast).unwrap_err();
    assert!(error.contains(message), "{error}");
}

// ---------------------------------------------------------------------------------------------------------
// layout
// ---------------------------------------------------------------------------------------------------------

#[rstest]
#[case::statements(
    "fn f() { let a = 1; g(a, b); }",
    "fn f() {\n    let a = 1;\n    g(a, b);\n}\n"
)]
#[case::else_and_match_arms(
    "{ let Some(x) = y else { break 'a None }; match x { Some(q) => q, None => 0 } }",
    "{\n    let Some(x) = y else {\n        break 'a None\n    };\n    match x {\n        Some(q) => q,\n        None => 0\n    }\n}\n"
)]
#[case::literals_kept("{ f(b\"{;}\", '{', '}') }", "{\n    f(b\"{;}\", '{', '}')\n}\n")]
#[case::arrays(
    "{ let t: [bool; 2] = [a, b]; }",
    "{\n    let t: [bool; 2] = [a, b];\n}\n"
)]
fn layout_one_statement_per_line(#[case] code: &str, #[case] expected: &str) {
    assert_eq!(layout::format(code, 0), expected);
}

// ---------------------------------------------------------------------------------------------------------
// emit and diagnose: the golden test
// ---------------------------------------------------------------------------------------------------------

fn emitted() -> (String, String) {
    let read = small();
    let fastpath = emit::generate(&read.ast, &["scheme", "number"]).expect("emit");
    let detail = read::optimized(&read.detail).expect("detail grammar");
    let names: Vec<String> = read.rules.iter().map(|r| r.name.clone()).collect();
    let items = diagnose::items(
        &detail,
        &names,
        |name| {
            (read.literals.iter())
                .find(|(rule, _)| rule == name)
                .map(|(_, text)| text.clone())
        },
        read::ENTRY_PREFIX,
    );
    let twin = diagnose::generate(&detail, &items, &names, read::ENTRY_PREFIX).expect("twin");
    (fastpath, twin)
}

#[track_caller]
fn golden(file: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/generator")
        .join(file);
    if std::env::var_os("RFC3986_BLESS").is_some() {
        std::fs::write(&path, actual).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs from what the generator emits now; if the change is deliberate, run \
         RFC3986_BLESS=1 cargo test --test generator\n--- emitted ---\n{actual}",
        path.display()
    );
}

#[test]
fn emit_golden_small_grammar() {
    golden("small.fastpath.rs", &emitted().0);
}

#[test]
fn diagnose_golden_small_grammar() {
    golden("small.diagnose.rs", &emitted().1);
}

#[test]
fn emit_quotes_each_rule_above_its_function() {
    let (fastpath, twin) = emitted();
    assert!(
        fastpath.contains("/// `number = @{ digit{1, 3} }`\n#[inline]\npub(super) fn q_number(")
    );
    assert!(twin.contains("fn d_pair(d: &mut Diag<'_>, p: usize) -> Option<usize> {"));
    // One statement per line: no line holds two `let`s.
    for line in fastpath.lines().chain(twin.lines()) {
        assert!(line.matches("let ").count() <= 1, "{line}");
    }
}

#[test]
fn diagnose_items_follow_pests_rule_enum_order() {
    let read = small();
    let detail = read::optimized(&read.detail).expect("detail grammar");
    let names: Vec<String> = read.rules.iter().map(|r| r.name.clone()).collect();
    let items = diagnose::items(
        &detail,
        &names,
        |name| name.strip_prefix(read::LITERAL_PREFIX).map(str::to_string),
        read::ENTRY_PREFIX,
    );
    assert_eq!(items[0], diagnose::Item::EndOfInput);
    assert_eq!(items[1], diagnose::Item::Rule(0));
    assert_eq!(items[5], diagnose::Item::Rule(4));
    // The first quoted string of small.pest (`lit_0`), as pest reads it.
    assert_eq!(items[6], diagnose::Item::Literal("+".to_string()));
    assert_eq!(items.last(), Some(&diagnose::Item::Entry));
}

#[rstest]
#[case::push("a = { PUSH(\"x\") }")]
#[case::whitespace("WHITESPACE = _{ \" \" }\na = { \"x\" }")]
#[case::non_atomic("a = !{ \"x\" }")]
#[case::undefined_rule("a = { b }")]
fn emit_refuses_what_it_cannot_compile_exactly(#[case] text: &str) {
    let read = read::read(text).expect("reads");
    assert!(emit::generate(&read.ast, &[]).is_err());
}

// ---------------------------------------------------------------------------------------------------------
// diagnose: the bytes a repetition steps over
// ---------------------------------------------------------------------------------------------------------

/// The skip table of the first repetition in rule `name` of `text`'s detail grammar, as its bytes.
fn skip_of(text: &str, name: &str) -> Option<String> {
    use pest_meta::optimizer::OptimizedExpr as E;
    fn first_rep(e: &E) -> Option<&E> {
        match e {
            E::Rep(inner) => Some(inner),
            E::Seq(a, b) | E::Choice(a, b) => first_rep(a).or_else(|| first_rep(b)),
            E::Opt(a) | E::RestoreOnErr(a) | E::PosPred(a) | E::NegPred(a) => first_rep(a),
            _ => None,
        }
    }
    let read = read::read(text).expect("reads");
    let detail = read::optimized(&read.detail).expect("detail grammar");
    let rules = detail.iter().map(|r| (r.name.as_str(), r)).collect();
    let rule = detail.iter().find(|r| r.name == name).expect("rule");
    let body = first_rep(&rule.expr).expect("a repetition");
    let table = diagnose::skip_table(body, &rules)?;
    Some(
        (0..=255u8)
            .filter(|&b| table[usize::from(b)])
            .map(char::from)
            .collect(),
    )
}

const PCHAR_BUT_PERCENT: &str =
    "!$&'()*+,-.0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~";

#[rstest]
// segment = *pchar; pchar = unreserved / pct-encoded / sub-delims / ":" / "@": every pchar byte but
// "%", which starts a three-byte pct-encoded.
#[case::segment_steps_over_pchar_bytes_but_not_percent(
    URI_PEST,
    "segment",
    Some(PCHAR_BUT_PERCENT)
)]
// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
#[case::scheme_steps_over_its_characters(
    URI_PEST,
    "scheme",
    Some("+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
)]
// port = *DIGIT
#[case::port_steps_over_digits(URI_PEST, "port", Some("0123456789"))]
// path-abempty = *( "/" segment ): "/" then more, so no byte decides an iteration alone.
#[case::a_sequence_is_not_stepped_over(URI_PEST, "path_abempty", None)]
// An inline range records nothing when it fails, so the end of the repetition might not either.
#[case::inline_ranges_are_not_stepped_over(SMALL, "scheme", None)]
#[case::rule_calls_are_stepped_over(SMALL, "word", Some("-0123456789"))]
fn diagnose_skip_tables(#[case] text: &str, #[case] rule: &str, #[case] bytes: Option<&str>) {
    assert_eq!(skip_of(text, rule).as_deref(), bytes);
}
