//! The generator as code like any other: tests of each stage (read, analyse, program, components,
//! layout, emit, explainer, tables), and a golden test of the code emitted for a small grammar
//! (`tests/data/generator/small.pest`): the emitted recognizer and explainer are compared with the
//! checked-in `small.recognizer.rs` and `small.explainer.rs`; `RFC3986_BLESS=1 cargo test -p rfc3986-peg`
//! writes them anew after a deliberate change.

use rfc3986_peg::explainer;
use rfc3986_peg::{analyse, components, emit, layout, program, read, tables};
use std::path::PathBuf;

use pest_meta::ast::Expr;
use rstest::rstest;

const SMALL: &str = include_str!("data/generator/small.pest");
const URI_PEST: &str = include_str!("../../uri.pest");

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
// program
// ---------------------------------------------------------------------------------------------------------

fn lowered(text: &str, components: &[&str]) -> program::Program {
    let read = read::read(text).expect("reads");
    program::lower(&read.ast, components, 1 << 16).expect("lowers")
}

fn lowered_rule<'p>(program: &'p program::Program, name: &str) -> &'p program::ProgramRule {
    (program.rules.iter())
        .find(|r| r.name == name)
        .expect("a rule of the program")
}

/// A node written out: `'x'` one byte, `'a'-'c'` a range of bytes, `[ace]` a table by its bytes, `"ab"`
/// and `^"ab"` strings, `call(r)` and `record(r)` rule calls (quiet or recording), `seq(..)`,
/// `first(A / B)` an ordered choice (an alternative `if` its guard, `+rec` when it records),
/// `fold(CLASS else ..)`, `opt(..)`, `minN(X, then ..)`, `rep(..)` or `rep<=N(..)`, and
/// `scan(TABLE then TAIL if GUARD)`.
fn shape(program: &program::Program, node: &program::Node) -> String {
    use program::{Guard, Node};
    let at = |id: program::NodeId| shape(program, &program.nodes[id]);
    let table = |t: usize| format!("[{}]", members(&program.tables[t]));
    let rec = |records: bool| if records { " +rec" } else { "" };
    match node {
        Node::Empty => "empty".to_string(),
        Node::Fail => "fail".to_string(),
        Node::Byte(b) => format!("'{}'", char::from(*b)),
        Node::ByteRange(lo, hi) => format!("'{}'-'{}'", char::from(*lo), char::from(*hi)),
        Node::Table(t) => table(*t),
        Node::Literal(text) => format!("{:?}", String::from_utf8_lossy(text)),
        Node::LiteralCi(text) => format!("^{:?}", String::from_utf8_lossy(text)),
        Node::CharRange(a, b) => format!("{a:?}..{b:?}"),
        Node::Soi => "SOI".to_string(),
        Node::Eoi => "EOI".to_string(),
        Node::Any => "ANY".to_string(),
        Node::Call { rule, record } => {
            let call = if *record { "record" } else { "call" };
            format!("{call}({})", program.rules[*rule].name)
        }
        Node::Predicate { positive, inner } => {
            format!("{}{}", if *positive { "&" } else { "!" }, at(*inner))
        }
        Node::Seq(items) => {
            let items: Vec<String> = items.iter().map(|&id| at(id)).collect();
            format!("seq({})", items.join(", "))
        }
        Node::Ordered(alternatives) => {
            let alternatives: Vec<String> = (alternatives.iter())
                .map(|a| {
                    let guard = match a.guard {
                        None => String::new(),
                        Some(Guard::Never) => " if never".to_string(),
                        Some(Guard::Byte(b)) => format!(" if '{}'", char::from(b)),
                        Some(Guard::Table(t)) => format!(" if {}", table(t)),
                    };
                    format!("{}{guard}{}", at(a.node), rec(a.records))
                })
                .collect();
            format!("first({})", alternatives.join(" / "))
        }
        Node::Folded { head, rest } => {
            format!("fold({} else {})", shape(program, head), at(*rest))
        }
        Node::Optional { inner, records } => format!("opt({}{})", at(*inner), rec(*records)),
        Node::AtLeast { inner, min, rest } => {
            format!("min{min}({}, then {})", at(*inner), at(*rest))
        }
        Node::Repeat {
            inner,
            max,
            records,
        } => {
            let max = max.map(|m| format!("<={m}")).unwrap_or_default();
            format!("rep{max}({}{})", at(*inner), rec(*records))
        }
        Node::Scan {
            table: t,
            tail,
            guard,
        } => {
            let mut scan = format!("scan({}", table(*t));
            if let Some((body, records)) = tail {
                scan += &format!(" then {}{}", at(*body), rec(*records));
            }
            if let Some(g) = guard {
                scan += &format!(" if {}", table(*g));
            }
            scan + ")"
        }
    }
}

/// The quiet body of rule `a` of each grammar, as [`shape`] writes it, worked out from the rules of
/// `build/program.rs` and `build/analyse.rs`.
#[rstest]
// Byte classes: one byte test, one range test, or a table of exactly the bytes of the class.
#[case::one_byte("a = { \"x\" }", "'x'")]
#[case::contiguous_class_is_a_range("a = { \"x\" | \"y\" | \"z\" }", "'x'-'z'")]
#[case::scattered_class_is_a_table_of_its_bytes("a = { \"a\" | \"c\" | 'e'..'g' }", "[acefg]")]
#[case::builtin_class("a = { ASCII_HEX_DIGIT }", "[0123456789ABCDEFabcdef]")]
#[case::case_insensitive_byte("a = { ^\"v\" }", "[Vv]")]
#[case::class_through_a_rule_call("a = { b | \"4\" }\nb = { \"0\" | \"2\" }", "[024]")]
// Strings, ranges beyond ASCII, builtins and predicates.
#[case::string("a = { \"ab\" }", "\"ab\"")]
#[case::empty_string("a = { \"\" }", "empty")]
#[case::case_insensitive_string("a = { ^\"ab\" }", "^\"ab\"")]
#[case::non_ascii_range("a = { 'α'..'ω' }", "'α'..'ω'")]
#[case::predicates_and_builtins(
    "a = { SOI ~ !\"x\" ~ &\"y\" ~ ANY ~ EOI }",
    "seq(SOI, !'x', &'y', ANY, EOI)"
)]
// Choices: the class alternatives folded into one test tried first, when no other alternative before
// one of them can start with its bytes; the others guarded by their FIRST set when they are more than a
// string or an ASCII range.
#[case::class_folded_before_a_string("a = { \"ab\" | \"x\" | \"y\" }", "fold('x'-'y' else \"ab\")")]
#[case::folded_table_before_a_sequence(
    "a = { \"a\" | \"c\" | \"%\" ~ \"x\" }",
    "fold([ac] else seq('%', 'x'))"
)]
#[case::the_rest_stays_in_order(
    "a = { \"ab\" | \"cd\" | \"x\" }",
    "fold('x' else first(\"ab\" / \"cd\"))"
)]
#[case::no_fold_when_an_earlier_alternative_starts_with_the_class(
    "a = { \"xa\" | \"x\" }",
    "first(\"xa\" / 'x')"
)]
#[case::sequences_guarded_by_their_first_bytes(
    "a = { (\"p\" | \"r\") ~ \"q\" | \"s\" ~ \"t\" }",
    "first(seq([pr], 'q') if [pr] / seq('s', 't') if 's')"
)]
#[case::a_range_beyond_ascii_guarded_by_its_first_bytes(
    "a = { '\\u{E9}'..'\\u{10FF}' | \"%\" ~ \"x\" }",
    // U+00E9 is C3 A9 in UTF-8, U+10FF is E1 83 BF: the guard is the bytes C3 to E1 (shown as Latin-1).
    "first('é'..'ჿ' if [ÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàá] / seq('%', 'x') if '%')"
)]
// Repetitions: of a folded choice, a scan over a table; `*( C ~ *Z )`, one scan over `C / Z`, guarded by
// `C`; bounded ones, a count then at most the rest.
#[case::repeated_class_is_a_scan("a = { (\"x\" | \"z\")* }", "scan([xz])")]
#[case::scan_with_a_tail("a = { (\"x\" | \"%\" ~ \"y\")* }", "scan([x] then seq('%', 'y'))")]
#[case::separated_repetition_is_one_scan(
    "a = { (\"/\" ~ b)* }\nb = { \"x\"* }",
    "scan([/x] if [/])"
)]
#[case::repeated_string("a = { \"ab\"* }", "rep(\"ab\")")]
#[case::at_least_once("a = { \"ab\"+ }", "min1(\"ab\", then rep(\"ab\"))")]
#[case::exactly("a = { \"ab\"{3} }", "min3(\"ab\", then rep<=0(\"ab\"))")]
#[case::between("a = { \"ab\"{2, 3} }", "min2(\"ab\", then rep<=1(\"ab\"))")]
#[case::at_most("a = { \"ab\"{, 2} }", "rep<=2(\"ab\")")]
#[case::optional("a = { \"ab\"? }", "opt(\"ab\")")]
// A recursive rule stays a call of itself.
#[case::recursion(
    "a = { \"(\" ~ a? ~ \")\" | \"x\" }",
    "fold('x' else seq('(', opt(call(a)), ')'))"
)]
fn program_lowers(#[case] text: &str, #[case] expected: &str) {
    let program = lowered(text, &[]);
    let rule = lowered_rule(&program, "a");
    assert_eq!(shape(&program, &program.nodes[rule.quiet]), expected);
    assert_eq!(rule.recording, None);
}

/// With component rules: the quiet and the recording body of `rule`, and its component slot.
#[rstest]
// A component rule records its span: its recording body is its quiet body, in a slot of its own.
#[case::component("c", "'x'", Some("'x'"), Some(0))]
// Quiet, a call of a component is inlined like any class; recording, it is a call of the recording form.
#[case::caller("a", "seq('x', 'y')", Some("seq(record(c), 'y')"), None)]
// An atomic rule records nothing, whatever it calls.
#[case::atomic_caller("d", "seq('x', 'y')", None, None)]
#[case::recording_choice("e", "[xz]", Some("fold('z' else record(c))"), None)]
#[case::recording_option("f", "seq(opt('x'), 'y')", Some("seq(opt(record(c) +rec), 'y')"), None)]
#[case::recording_alternatives(
    "g",
    "first(seq('x', '1') if 'x' / seq('x', '2') if 'x')",
    Some("first(seq(record(c), '1') if 'x' +rec / seq(record(c), '2') if 'x' +rec)"),
    None
)]
fn program_records_only_through_component_rules(
    #[case] rule: &str,
    #[case] quiet: &str,
    #[case] recording: Option<&str>,
    #[case] component: Option<usize>,
) {
    let program = lowered(
        "c = { \"x\" }\na = { c ~ \"y\" }\nd = @{ c ~ \"y\" }\ne = { c | \"z\" }\n\
         f = { c? ~ \"y\" }\ng = { c ~ \"1\" | c ~ \"2\" }",
        &["c"],
    );
    let rule = lowered_rule(&program, rule);
    assert_eq!(shape(&program, &program.nodes[rule.quiet]), quiet);
    let recorded = rule.recording.map(|id| shape(&program, &program.nodes[id]));
    assert_eq!(recorded.as_deref(), recording);
    assert_eq!(rule.component, component);
}

#[test]
fn program_keeps_one_table_per_byte_set() {
    // The class of `a`'s first alternative and its guard are one table; `b` and `c` use it too.
    let program = lowered(
        "a = { (\"p\" | \"r\") ~ \"q\" | \"s\" ~ \"t\" }\nb = { \"r\" | \"p\" }\nc = { (\"p\" | \"r\")* }",
        &[],
    );
    assert_eq!(program.tables.len(), 1);
    assert_eq!(members(&program.tables[0]), "pr");
    let b = lowered_rule(&program, "b");
    assert_eq!(program.nodes[b.quiet], program::Node::Table(0));
}

#[test]
fn program_lowers_an_expression_once_per_context() {
    // `"ab"{2, 3}`: the repeated string is one node, shared by the count and the rest.
    let program = lowered("a = { \"ab\"{2, 3} }", &[]);
    let a = lowered_rule(&program, "a");
    let program::Node::AtLeast { inner, rest, .. } = &program.nodes[a.quiet] else {
        panic!("{:?}", program.nodes[a.quiet]);
    };
    let program::Node::Repeat { inner: again, .. } = &program.nodes[*rest] else {
        panic!("{:?}", program.nodes[*rest]);
    };
    assert_eq!(inner, again);
    // The literal, the repetition and the count.
    assert_eq!(program.nodes.len(), 3);
}

#[rstest]
#[case::normal("a = { \"x\" }", "a = { \"x\" }")]
#[case::silent("a = _{ \"x\" }", "a = _{ \"x\" }")]
#[case::atomic("a = @{ \"x\" }", "a = @{ \"x\" }")]
#[case::compound_atomic("a = ${ \"x\" }", "a = ${ \"x\" }")]
fn program_quotes_each_rule_as_pest_writes_it(#[case] text: &str, #[case] expected: &str) {
    let program = lowered(text, &[]);
    assert_eq!(program.rules[0].text, expected);
}

#[test]
fn program_keeps_the_rules_in_file_order_with_their_slots() {
    let program = lowered(SMALL, &["number", "scheme", "digit"]);
    let rules: Vec<(&str, Option<usize>)> = (program.rules.iter())
        .map(|r| (r.name.as_str(), r.component))
        .collect();
    // `digit` is silent: pest gives it no pair, so it records nothing.
    assert_eq!(
        rules,
        [
            ("digit", None),
            ("scheme", Some(1)),
            ("number", Some(0)),
            ("pair", None),
            ("word", None)
        ]
    );
}

/// The byte an optional part must consume after its first item, and the bytes that item and the items
/// before the byte can hold (but that byte): as in `[ userinfo "@" ]`; none when the part starts with a
/// byte test or has no one-byte item after its first.
#[rstest]
#[case::userinfo_then_at("a = { (u ~ \"@\")? ~ \"x\" }\nu = @{ (\"u\" | \":\")* }", Some((b'@', ":u")))]
#[case::a_delimiter_the_part_holds_is_in("a = { (u ~ \"@\")? ~ \"x\" }\nu = @{ (\"u\" | \"/\")* }", Some((b'@', "/u")))]
#[case::the_byte_itself_is_out("a = { (u ~ \"@\")? ~ \"x\" }\nu = @{ (\"u\" | \"@\")* }", Some((b'@', "u")))]
#[case::items_between_count("a = { (u ~ \"v\"? ~ \"@\")? ~ \"x\" }\nu = @{ \"u\"* }", Some((b'@', "uv")))]
#[case::the_first_one_byte_item_is_the_byte("a = { (u ~ \"?\" ~ \"@\")? ~ \"x\" }\nu = @{ \"u\"* }", Some((b'?', "u")))]
#[case::starts_with_a_byte("a = { (\":\" ~ u)? ~ \"x\" }\nu = @{ \"u\"* }", None)]
#[case::no_byte_after_the_first_item("a = { (u ~ \"ab\")? ~ \"x\" }\nu = @{ \"u\"* }", None)]
fn program_finds_the_byte_an_optional_part_needs(
    #[case] text: &str,
    #[case] expected: Option<(u8, &str)>,
) {
    let program = lowered(text, &["u"]);
    let recording = lowered_rule(&program, "a").recording.expect("a records u");
    let program::Node::Seq(items) = &program.nodes[recording] else {
        panic!("a is a sequence");
    };
    let program::Node::Optional { inner, .. } = program.nodes[items[0]] else {
        panic!("a starts with an optional part");
    };
    let found = program.byte_required_later(inner).map(|(c, within)| {
        let bytes: Vec<u8> = (0..=255u8).filter(|&b| within[usize::from(b)]).collect();
        (c, String::from_utf8(bytes).expect("ASCII"))
    });
    assert_eq!(found, expected.map(|(c, within)| (c, within.to_string())));
}

/// Which recording bodies call the recording body of another rule: `pair`'s calls `scheme` and
/// `number`'s; those two record only their own span (their callees are quiet, inside `@`), as does a
/// rule whose recording body calls a component through an optional part.
#[rstest]
#[case::atomic_component(SMALL, "scheme", false)]
#[case::atomic_component_with_a_repetition(SMALL, "number", false)]
#[case::calls_components_in_a_choice(SMALL, "pair", true)]
#[case::calls_a_component_in_an_optional_part("a = { \"x\" ~ b? }\nb = @{ \"y\" }", "a", true)]
fn program_says_which_recording_bodies_call_recording_forms(
    #[case] text: &str,
    #[case] rule: &str,
    #[case] calls: bool,
) {
    let program = lowered(text, &["number", "scheme", "b"]);
    let recording = lowered_rule(&program, rule)
        .recording
        .expect("a rule that records");
    assert_eq!(program.calls_recording(recording), calls);
}

#[rstest]
#[case::non_atomic("a = !{ \"x\" }", "non-atomic")]
#[case::implicit_whitespace("WHITESPACE = _{ \" \" }\na = { \"x\" }", "implicit whitespace")]
#[case::undefined_rule("a = { b }", "`b` is not supported")]
#[case::stack("a = { PUSH(\"x\") }", "PUSH, PEEK, POP")]
fn program_refuses(#[case] text: &str, #[case] message: &str) {
    let read = read::read(text).expect("reads");
    let error = program::lower(&read.ast, &[], 1 << 16).unwrap_err();
    assert!(error.contains(message), "{error}");
}

#[test]
fn program_refuses_a_grammar_over_its_node_budget() {
    let read = read::read("a = { \"x\" ~ \"y\" }").expect("reads");
    // Three nodes: the two bytes and the sequence.
    assert!(program::lower(&read.ast, &[], 3).is_ok());
    let error = program::lower(&read.ast, &[], 2).unwrap_err();
    assert!(error.contains("more than 2 matcher nodes"), "{error}");
}

// ---------------------------------------------------------------------------------------------------------
// tables
// ---------------------------------------------------------------------------------------------------------

/// The rule table and the reference parsers, as one text to search.
fn grammar_rs(
    rules: &[read::GrammarRule],
    literals: &[(String, String)],
    grammar: &str,
    entries: &str,
    detail: &str,
) -> String {
    tables::rules_rs(rules) + &tables::reference_rs(rules, literals, grammar, entries, detail)
}

fn small_grammar_rs() -> String {
    let read = small();
    grammar_rs(
        &read.rules,
        &read.literals,
        "/g/uri.pest",
        "/out/entries.pest",
        "/out/detail.pest",
    )
}

#[test]
fn tables_list_every_rule_with_its_abnf_in_file_order() {
    let rs = small_grammar_rs();
    let start = rs
        .find("pub(crate) static RULES: &[RuleInfo] = &[\n")
        .expect("RULES");
    let table: Vec<&str> = rs[start..]
        .lines()
        .skip(1)
        .take_while(|l| *l != "];")
        .collect();
    // small.pest's rules and their `///` lines (it gives no RFC section).
    assert_eq!(
        table,
        [
            r#"    RuleInfo { name: "digit", abnf: "DIGIT", definition: "%x30-39", source: "" },"#,
            r#"    RuleInfo { name: "scheme", abnf: "scheme", definition: "ALPHA *( ALPHA / DIGIT / \"+\" )", source: "" },"#,
            r#"    RuleInfo { name: "number", abnf: "number", definition: "1*3DIGIT", source: "" },"#,
            r#"    RuleInfo { name: "pair", abnf: "pair", definition: "scheme \":\" number / \"v\" ( number / \"::\" )", source: "" },"#,
            r#"    RuleInfo { name: "word", abnf: "word", definition: "*( DIGIT / \"-\" )", source: "" },"#,
        ]
    );
}

#[rstest]
#[case::first_rule("    #[doc = \"`DIGIT = %x30-39`.\"]\n    pub const DIGIT: Rule = Rule(0);\n")]
#[case::atomic_rule(
    "    #[doc = \"`number = 1*3DIGIT`.\"]\n    pub const NUMBER: Rule = Rule(2);\n"
)]
#[case::last_rule(
    "    #[doc = \"`word = *( DIGIT / \\\"-\\\" )`.\"]\n    pub const WORD: Rule = Rule(4);\n"
)]
// The whole-input entry of each rule, by the rule's position, in both parsers.
#[case::fast_entry("        2 => fast::Rule::entry_number,\n")]
#[case::detail_entry("        4 => detail::Rule::entry_word,\n")]
// The fast parser's rules by name, the builder's way to tell components apart.
#[case::fast_rule_name("        fast::Rule::scheme => \"scheme\",\n")]
#[case::fast_entry_name("        fast::Rule::entry_scheme => \"entry_scheme\",\n")]
// What each rule of the detail parser stands for in an error message: the quoted strings of small.pest
// are `lit_0` to `lit_5` in order of first use: "+", ":", "x", ^"v", "::", "-".
#[case::rule_is_itself("        detail::Rule::pair => Expected::rule(Rule::PAIR),\n")]
#[case::literal_is_its_text(
    "        detail::Rule::lit_4 => Expected::Literal(Cow::Borrowed(\"::\")),\n"
)]
#[case::insensitive_literal_is_its_text(
    "        detail::Rule::lit_3 => Expected::Literal(Cow::Borrowed(\"v\")),\n"
)]
#[case::entry_is_the_end_of_input("        detail::Rule::entry_pair => Expected::EndOfInput,\n")]
#[case::grammar_paths("#[grammar = \"/g/uri.pest\"]\n#[grammar = \"/out/entries.pest\"]\n")]
fn tables_write(#[case] code: &str) {
    let rs = small_grammar_rs();
    assert!(rs.contains(code), "{code}\n--- grammar.rs ---\n{rs}");
}

#[test]
fn tables_map_every_rule_of_each_parser() {
    let rs = small_grammar_rs();
    // One arm per rule in each `match`, plus the entries (and `EOI`) where the parser has them.
    for (function, arms) in [
        ("fn fast_entry(", 5),
        ("fn detail_entry(", 5),
        ("fn fast_rule_name(", 5 + 5 + 1),
        // Rules, entries, the six quoted strings, `EOI`.
        ("fn detail_expected(", 5 + 5 + 6 + 1),
    ] {
        let body = &rs[rs.find(function).expect(function)..];
        let body = &body[..body.find("\n}\n").expect("the end of the function")];
        let count = body.matches(" => ").count();
        // `fast_entry` and `detail_entry` also have a catch-all arm.
        let catch_all = usize::from(body.contains("_ => unreachable!"));
        assert_eq!(count - catch_all, arms, "{function}");
    }
}

#[test]
fn tables_quote_grammar_text_and_paths_as_rust_strings() {
    let read = read::read(
        "/// a = \"q\" / %x5C\n/// RFC 3986 section 9.\na = { \"q\" | \"\\\\\" }\nb = { a }\n",
    )
    .expect("reads");
    let rs = grammar_rs(
        &read.rules,
        &read.literals,
        r#"C:\g\"uri".pest"#,
        "/out/entries.pest",
        "/out/detail.pest",
    );
    assert!(rs.contains(r#"#[grammar = "C:\\g\\\"uri\".pest"]"#), "{rs}");
    assert!(rs.contains(
        r#"RuleInfo { name: "a", abnf: "a", definition: "\"q\" / %x5C", source: "RFC 3986 section 9." },"#
    ));
    assert!(rs.contains(r#"#[doc = "`a = \"q\" / %x5C` (RFC 3986 section 9)."]"#));
    // A rule without a doc line is named by its pest name.
    assert!(rs.contains(r#"RuleInfo { name: "b", abnf: "b", definition: "", source: "" },"#));
    assert!(rs.contains(r#"#[doc = "The rule `b` of `uri.pest`."]"#));
    // The quoted backslash, as written between the quotes (`\\`).
    assert!(rs.contains(r#"detail::Rule::lit_1 => Expected::Literal(Cow::Borrowed("\\\\")),"#));
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
    let fastpath = emit::generate(&read.ast, &read.rules, &["scheme", "number"]).expect("emit");
    let twin = explainer_of(&read);
    (fastpath, twin)
}

/// The explainer of a grammar.
fn explainer_of(read: &read::Read) -> String {
    let detail = read::optimized(&read.detail).expect("detail grammar");
    let names: Vec<String> = read.rules.iter().map(|r| r.name.clone()).collect();
    let items = explainer::items(
        &detail,
        &names,
        |name| {
            (read.literals.iter())
                .find(|(rule, _)| rule == name)
                .map(|(_, text)| text.clone())
        },
        read::ENTRY_PREFIX,
    );
    explainer::generate(&detail, &items, &read.rules, read::ENTRY_PREFIX).expect("twin")
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
    golden("small.recognizer.rs", &emitted().0);
}

#[test]
fn diagnose_golden_small_grammar() {
    golden("small.explainer.rs", &emitted().1);
}

/// Each function `fn NAME(` of `code` whose name starts with `prefix`, with the `//` comment lines right
/// above it (over its attributes), top first.
fn comments_above<'c>(code: &'c str, prefix: &str) -> Vec<(&'c str, Vec<&'c str>)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut functions = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim_start();
        let Some(rest) = line
            .strip_prefix("pub(super) fn ")
            .or(line.strip_prefix("fn "))
        else {
            continue;
        };
        let name = &rest[..rest.find('(').expect("a parameter list")];
        if !name.starts_with(prefix) {
            continue;
        }
        let mut comments = Vec::new();
        for above in lines[..i].iter().rev().map(|l| l.trim_start()) {
            if above.starts_with("//") {
                comments.push(above);
            } else if !above.starts_with("#[") {
                break;
            }
        }
        comments.reverse();
        functions.push((name, comments));
    }
    functions
}

#[rstest]
// The ABNF lines of small.pest, as its `///` lines write them.
#[case::digit("digit", "DIGIT = %x30-39")]
#[case::scheme("scheme", "scheme = ALPHA *( ALPHA / DIGIT / \"+\" )")]
#[case::number("number", "number = 1*3DIGIT")]
#[case::pair("pair", "pair = scheme \":\" number / \"v\" ( number / \"::\" )")]
#[case::word("word", "word = *( DIGIT / \"-\" )")]
fn emit_and_diagnose_put_the_abnf_line_then_the_pest_text_above_each_rule_function(
    #[case] rule: &str,
    #[case] abnf: &str,
) {
    let (fastpath, twin) = emitted();
    let heading = format!("// {abnf}");
    let pest = format!("// pest: {rule} = ");
    let forms = |code: &str, forms: &[String]| -> usize {
        let mut found = 0;
        for (name, comments) in comments_above(code, "") {
            if forms.iter().any(|f| f == name) {
                assert_eq!(comments.first(), Some(&heading.as_str()), "above {name}");
                assert!(comments[1].starts_with(&pest), "above {name}: {comments:?}");
                found += 1;
            }
        }
        found
    };
    // The quiet form always, the recording form when the rule can record (scheme and number are the
    // components, pair calls both).
    let recognizer = [format!("q_{rule}"), format!("r_{rule}")];
    let recording = ["scheme", "number", "pair"].contains(&rule);
    assert_eq!(forms(&fastpath, &recognizer), 1 + usize::from(recording));
    // In the twin, the rule's function and, for a rule replayed from a table, its step-by-step form.
    let diagnostic = [format!("d_{rule}"), format!("d_{rule}_in_full")];
    assert!(forms(&twin, &diagnostic) >= 1);
}

#[test]
fn emit_heads_a_function_with_its_abnf_line_its_pest_text_and_its_attribute() {
    let (fastpath, _) = emitted();
    assert!(fastpath.contains(
        "\n// number = 1*3DIGIT\n// pest: number = @{ digit{1, 3} }\n#[inline]\npub(super) fn q_number("
    ));
    // A component that records only its own span is inlined into its callers, always; a rule that
    // calls recording forms is left to the compiler.
    assert!(fastpath.contains(
        "\n// number = 1*3DIGIT\n// pest: number = @{ digit{1, 3} }\n\
         // The form that records component events.\n#[inline(always)]\npub(super) fn r_number("
    ));
    assert!(fastpath
        .contains("// The form that records component events.\n#[inline]\npub(super) fn r_pair("));
}

#[test]
fn emit_and_diagnose_write_one_statement_per_line() {
    let (fastpath, twin) = emitted();
    assert!(twin.contains("fn d_pair(d: &mut Diag<'_>, p: usize) -> Option<usize> {"));
    // One statement per line: no line holds two `let`s.
    for line in fastpath.lines().chain(twin.lines()) {
        assert!(line.matches("let ").count() <= 1, "{line}");
    }
}

#[test]
fn diagnose_says_which_rules_of_the_detail_grammar_have_no_abnf_line() {
    let (_, twin) = emitted();
    for (name, comments) in comments_above(&twin, "d_") {
        let Some(heading) = comments.first() else {
            continue;
        };
        if name.starts_with("d_lit_") {
            assert_eq!(
                *heading,
                "// (no ABNF line: the detail grammar's rule for a quoted string)"
            );
        } else if name.starts_with("d_entry_") {
            assert_eq!(
                *heading,
                "// (no ABNF line: a whole-input entry rule the build adds)"
            );
        }
    }
    assert!(twin.contains("// (no ABNF line: the detail grammar's rule for a quoted string)\n// pest: lit_4 = \"::\"\n"));
}

#[rstest]
#[case::uri_reference("uri_reference", "URI-reference = URI / relative-ref")]
#[case::ip_literal("ip_literal", "IP-literal = \"[\" ( IPv6address / IPvFuture ) \"]\"")]
#[case::path_empty("path_empty", "path-empty = 0<pchar>")]
fn emit_heads_uri_pest_functions_with_their_abnf_line(#[case] rule: &str, #[case] abnf: &str) {
    let read = read::read(URI_PEST).expect("uri.pest reads");
    let fastpath = emit::generate(&read.ast, &read.rules, &[]).expect("emit");
    let twin = explainer_of(&read);
    let expected = format!("// {abnf}\n// pest: {rule} = ");
    assert!(
        fastpath.contains(&format!("\n{expected}")),
        "{expected} in the recognizer"
    );
    assert!(
        twin.contains(&format!("\n{expected}")),
        "{expected} in the twin"
    );
}

/// Doc lines that would break generated code if copied into it as they are: a lone carriage return
/// (pest ends a doc line only at `\n` or `\r\n`), a Unicode line separator, and the delimiters of a
/// block comment; and a rule without a doc line.
const HOSTILE_DOCS: &str = "/// a = \"*/\" b /* c\na = { \"x\" }\n\
     /// c = x\ry\u{2028}z\nc = { a ~ \"y\" }\n\
     helper = { c }\n";

#[test]
fn emit_and_diagnose_keep_doc_text_inside_one_line_comment() {
    let read = read::read(HOSTILE_DOCS).expect("reads");
    assert_eq!(read.rules[1].definition, "x\ry\u{2028}z");
    let fastpath = emit::generate(&read.ast, &read.rules, &[]).expect("emit");
    let twin = explainer_of(&read);
    for code in [&fastpath, &twin] {
        assert!(!code.contains(['\r', '\u{2028}']));
        // Each piece of doc text is on a comment line, and only there.
        for line in code.lines() {
            if line.contains("*/") || line.contains("x\\ry") {
                assert!(line.trim_start().starts_with("// "), "{line}");
            }
        }
    }
    assert!(fastpath
        .contains("\n// a = \"*/\" b /* c\n// pest: a = { \"x\" }\n#[inline]\npub(super) fn q_a("));
    assert!(fastpath.contains("\n// c = x\\ry\\u{2028}z\n// pest: c = "));
    assert!(fastpath.contains(
        "\n// (no ABNF line in the grammar: a helper rule)\n// pest: helper = { c }\n#[inline]\npub(super) fn q_helper("
    ));
    assert!(twin.contains("\n// a = \"*/\" b /* c\n// pest: a = "));
    assert!(twin.contains("\n// c = x\\ry\\u{2028}z\n// pest: c = "));
    assert!(twin.contains("\n// (no ABNF line in the grammar: a helper rule)\n// pest: helper = "));
}

#[rstest]
#[case::plain("a = b", "// a = b")]
#[case::empty("", "//")]
#[case::line_feed("a\nb", "// a\\nb")]
#[case::carriage_return("a\rb", "// a\\rb")]
#[case::line_separators("a\u{2028}b\u{2029}", "// a\\u{2028}b\\u{2029}")]
#[case::block_comment_delimiters("*/ /*", "// */ /*")]
#[case::non_ascii_kept("é ≠ \\", "// é ≠ \\")]
fn read_comment_is_one_line(#[case] text: &str, #[case] expected: &str) {
    assert_eq!(read::comment(text), expected);
}

#[test]
fn diagnose_items_follow_pests_rule_enum_order() {
    let read = small();
    let detail = read::optimized(&read.detail).expect("detail grammar");
    let names: Vec<String> = read.rules.iter().map(|r| r.name.clone()).collect();
    let items = explainer::items(
        &detail,
        &names,
        |name| name.strip_prefix(read::LITERAL_PREFIX).map(str::to_string),
        read::ENTRY_PREFIX,
    );
    assert_eq!(items[0], explainer::Item::EndOfInput);
    assert_eq!(items[1], explainer::Item::Rule(0));
    assert_eq!(items[5], explainer::Item::Rule(4));
    // The first quoted string of small.pest (`lit_0`), as pest reads it.
    assert_eq!(items[6], explainer::Item::Literal("+".to_string()));
    assert_eq!(items.last(), Some(&explainer::Item::Entry));
}

#[rstest]
#[case::push("a = { PUSH(\"x\") }")]
#[case::whitespace("WHITESPACE = _{ \" \" }\na = { \"x\" }")]
#[case::non_atomic("a = !{ \"x\" }")]
#[case::undefined_rule("a = { b }")]
fn emit_refuses_what_it_cannot_compile_exactly(#[case] text: &str) {
    let read = read::read(text).expect("reads");
    assert!(emit::generate(&read.ast, &read.rules, &[]).is_err());
}

// ---------------------------------------------------------------------------------------------------------
// diagnose: the bytes a repetition steps over
// ---------------------------------------------------------------------------------------------------------

/// The tables of the first repetition in rule `name` of `text`'s detail grammar, as the explainer's
/// program has them.
fn of_first_rep<T>(text: &str, name: &str, tables: impl Fn(&explainer::Repeat) -> T) -> T {
    use explainer::Node;
    fn first_rep(program: &explainer::Program, id: usize) -> Option<usize> {
        match &program.nodes[id] {
            Node::Repeat { tables, .. } => Some(*tables),
            Node::Seq(items) | Node::Choice(items) => {
                items.iter().find_map(|&item| first_rep(program, item))
            }
            Node::Optional(inner) | Node::Predicate { inner, .. } => first_rep(program, *inner),
            _ => None,
        }
    }
    let read = read::read(text).expect("reads");
    let detail = read::optimized(&read.detail).expect("detail grammar");
    let names: Vec<String> = read.rules.iter().map(|r| r.name.clone()).collect();
    let program = explainer::Program::lower(&detail, &names, read::ENTRY_PREFIX).expect("lowers");
    let rule = program.rules.iter().find(|r| r.name == name).expect("rule");
    let k = first_rep(&program, rule.body).expect("a repetition");
    tables(&program.repeats[k])
}

/// The bytes of a table.
fn table_bytes(table: &[bool; 256]) -> String {
    (0..=255u8)
        .filter(|&b| table[usize::from(b)])
        .map(char::from)
        .collect()
}

/// The skip table of the first repetition in rule `name` of `text`'s detail grammar, as its bytes.
fn skip_of(text: &str, name: &str) -> Option<String> {
    of_first_rep(text, name, |repeat| {
        (repeat.skip.as_ref()).map(|skip| table_bytes(&skip.over))
    })
}

/// The triple tables of the first repetition in rule `name`, as their bytes joined by `|`.
fn triples_of(text: &str, name: &str) -> Option<String> {
    of_first_rep(text, name, |repeat| {
        (repeat.skip.as_ref())
            .and_then(|skip| skip.triple.as_ref())
            .map(|t| t.iter().map(table_bytes).collect::<Vec<_>>().join("|"))
    })
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

const HEXDIG: &str = "0123456789ABCDEFabcdef";

/// A grammar whose repetitions have three-byte iterations of several shapes (`*body` for each rule
/// `NAME` whose body is `x`, a one-byte rule, or something of three bytes).
const TRIPLETS: &str = r#"
/// x = "x"
x = { "x" }
/// pct = "%" 2HEXDIG
pct = { "%" ~ ('0'..'9' | 'A'..'F' | 'a'..'f') ~ ('0'..'9' | 'A'..'F' | 'a'..'f') }
/// pairs = "%12" / "%34"
pairs = { "%12" | "%34" }
/// longer = "%" 2DIGIT [ "!" ]
longer = { "%" ~ '0'..'9' ~ '0'..'9' ~ "!"? }
/// two = "%" DIGIT
two = { "%" ~ '0'..'9' }
/// cased = "%" "u" "1" (any case)
cased = { ^"%u1" }
/// a = *( x / pct )
a = { (x | pct)* }
/// b = *( x / pairs )
b = { (x | pairs)* }
/// c = *( x / longer )
c = { (x | longer)* }
/// d = *( x / two )
d = { (x | two)* }
/// e = *( x / cased )
e = { (x | cased)* }
/// f = *( %x78-79 / pct )
f = { ('x'..'y' | pct)* }
"#;

#[rstest]
// segment = *pchar: pct-encoded = "%" HEXDIG HEXDIG.
#[case::segment_steps_over_pct_encoded(URI_PEST, "segment", Some(format!("%|{HEXDIG}|{HEXDIG}")))]
#[case::query_steps_over_pct_encoded(URI_PEST, "query", Some(format!("%|{HEXDIG}|{HEXDIG}")))]
// port = *DIGIT: every iteration is one byte.
#[case::port_has_no_triplets(URI_PEST, "port", None)]
#[case::a_triplet_rule_is_stepped_over(TRIPLETS, "a", Some(format!("%|{HEXDIG}|{HEXDIG}")))]
// "%12" and "%34" but not "%14": the second and third bytes do not go together freely.
#[case::triplets_that_are_not_a_product_are_not(TRIPLETS, "b", None)]
// "%12" may go on with "!": the body looks at a fourth byte.
#[case::a_body_that_looks_further_is_not(TRIPLETS, "c", None)]
#[case::two_byte_iterations_are_not(TRIPLETS, "d", None)]
#[case::case_insensitive_strings_are_matched_as_the_twin_does(TRIPLETS, "e", Some("%|Uu|1".to_string()))]
// An inline range records nothing when it fails: no skip table, so no triplets either.
#[case::no_triplets_without_a_skip_table(TRIPLETS, "f", None)]
fn diagnose_triple_tables(#[case] text: &str, #[case] rule: &str, #[case] bytes: Option<String>) {
    assert_eq!(triples_of(text, rule), bytes);
}

/// The start bytes of the [`explainer::Runs`] of the first repetition of rule `name`.
fn run_starts_of(text: &str, name: &str) -> Option<String> {
    of_first_rep(text, name, |repeat| {
        (repeat.runs.as_ref()).map(|run| table_bytes(&run.start))
    })
}

#[rstest]
// path-abempty = *( "/" segment ), segment = *pchar: "/" matches alone and pchar fails on it alone.
#[case::path_abempty_is_runs_of_segments(URI_PEST, "path_abempty", Some("/"))]
#[case::path_noscheme_is_runs_of_segments(URI_PEST, "path_noscheme", Some("/"))]
// query = *( pchar / "/" / "?" ): a choice, not "A then a repetition".
#[case::a_choice_is_not_runs(URI_PEST, "query", None)]
// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ): a choice of one-byte rules.
#[case::a_repetition_of_classes_is_not_runs(URI_PEST, "scheme", None)]
// word = *( DIGIT / "-" ) in the small grammar.
#[case::the_small_grammar_has_no_runs(SMALL, "word", None)]
fn diagnose_run_tables(#[case] text: &str, #[case] rule: &str, #[case] starts: Option<&str>) {
    assert_eq!(run_starts_of(text, rule), starts.map(str::to_string));
}
