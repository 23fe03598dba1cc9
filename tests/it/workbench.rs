//! The grammar workbench (`rfc3986::runtime::workbench`): shipped grammars, the lint's table of PEG
//! traps (each trap, and the same grammar without it), export refusals, diff and trees.
#![cfg(feature = "runtime-grammar")]

use rfc3986::runtime::workbench::{
    self, export, lint, ChangeKind, DiffOptions, ExportError, Flavor, GrammarText, LintCode,
    ShippedKind, TreeLimits,
};
use rfc3986::runtime::Grammar;
use rstest::rstest;

#[rstest]
#[case::uri("uri", ShippedKind::Grammar, "RFC 3986", include_str!("../../uri.pest"))]
#[case::iri("iri", ShippedKind::Grammar, "RFC 3987", include_str!("../../grammars/iri.pest"))]
#[case::zone_id("zone-id", ShippedKind::Grammar, "RFC 6874", include_str!("../../grammars/ipv6-zone-id.pest"))]
#[case::uri_template("uri-template", ShippedKind::Grammar, "RFC 6570", include_str!("../../grammars/uri-template.pest"))]
#[case::data("data", ShippedKind::Scheme, "RFC 2397", include_str!("../../schemes/data.pest"))]
#[case::file("file", ShippedKind::Scheme, "RFC 8089", include_str!("../../schemes/file.pest"))]
#[case::http("http", ShippedKind::Scheme, "RFC 9110", include_str!("../../schemes/http.pest"))]
#[case::mailto("mailto", ShippedKind::Scheme, "RFC 6068", include_str!("../../schemes/mailto.pest"))]
#[case::urn("urn", ShippedKind::Scheme, "RFC 8141", include_str!("../../schemes/urn.pest"))]
fn shipped_grammars_are_listed_with_their_rfc_and_text(
    #[case] name: &str,
    #[case] kind: ShippedKind,
    #[case] rfc: &str,
    #[case] text: &str,
) {
    let s = workbench::shipped_grammar(name).expect("listed");
    assert_eq!(s.kind, kind);
    assert!(s.citation.contains(rfc), "{}", s.citation);
    assert_eq!(s.text, text);
    assert!(workbench::shipped().any(|x| x.name == name));
}

/// Each trap: the unexplained codes the lint finds, with the line and column of the first.
#[rstest]
// "a" | "ab": "ab" is never taken (RFC 3986's dec-octet in the ABNF's order is this trap).
#[case::never_taken("x = { \"1\" | \"12\" }\n", &[LintCode::ChoiceNeverTaken], (1, 13))]
#[case::dec_octet_abnf_order(
    "d = { '0'..'9' | '1'..'9' ~ '0'..'9' }\n",
    &[LintCode::ChoiceNeverTaken],
    (1, 18)
)]
// The earlier alternative matches the start of some inputs of the later one, not all.
#[case::cuts_off(
    "host = { ipv4 | name }\nipv4 = @{ '0'..'9'+ ~ \".\" ~ '0'..'9'+ }\nname = @{ ('0'..'9' | \".\" | 'a'..'z')+ }\n",
    &[LintCode::ChoiceCutsOff],
    (1, 10)
)]
#[case::empty_repetition("x = { (\"1\"?)* ~ \"2\" }\n", &[LintCode::EmptyRepetition], (1, 8))]
#[case::left_recursion("x = { x ~ \"1\" | \"2\" }\n", &[LintCode::LeftRecursion], (1, 1))]
#[case::left_recursion_through_a_rule(
    "x = { y ~ \"1\" | \"2\" }\ny = { \"3\"? ~ x }\n",
    &[LintCode::LeftRecursion, LintCode::LeftRecursion],
    (1, 1)
)]
#[case::unused("x = { \"1\" }\ny = { \"2\" }\n", &[LintCode::UnusedRule], (2, 1))]
#[case::undefined("x = { \"1\" ~ nope }\n", &[LintCode::UndefinedRule], (1, 13))]
#[case::case_sensitive("scheme = @{ \"http\" }\n", &[LintCode::CaseSensitiveString], (1, 13))]
#[case::implicit_whitespace(
    "WHITESPACE = _{ \" \" }\nx = { \"1\" ~ \"2\" }\n",
    &[LintCode::ImplicitWhitespace],
    (2, 1)
)]
fn lint_finds_each_trap(
    #[case] grammar: &str,
    #[case] codes: &[LintCode],
    #[case] first: (usize, usize),
) {
    let findings: Vec<_> = lint(grammar)
        .unwrap()
        .into_iter()
        .filter(|f| f.explained.is_none())
        .collect();
    let found: Vec<LintCode> = findings.iter().map(|f| f.code).collect();
    assert_eq!(found, codes, "{findings:#?}");
    assert_eq!((findings[0].line, findings[0].column), first);
    assert!(!findings[0].suggestion.is_empty());
}

/// The same grammars without the trap: no finding.
#[rstest]
#[case::longest_first("x = { \"12\" | \"1\" }\n")]
#[case::dec_octet_longest_first(
    "d = { \"25\" ~ '0'..'5' | \"2\" ~ '0'..'4' ~ '0'..'9' | \"1\" ~ '0'..'9'{2} | '1'..'9' ~ '0'..'9' | '0'..'9' }\n"
)]
#[case::guarded_by_lookahead_and_explained(
    "// PEG: ipv4 only wins when no name character follows.\nhost = { ipv4 ~ !('0'..'9' | \".\" | 'a'..'z') | name }\nipv4 = @{ '0'..'9'+ ~ \".\" ~ '0'..'9'+ }\nname = @{ ('0'..'9' | \".\" | 'a'..'z')+ }\n"
)]
#[case::repetition_of_non_empty("x = { (\"1\"? ~ \"2\")* ~ \"3\" }\n")]
#[case::right_recursion("x = { \"1\" ~ x | \"2\" }\n")]
#[case::documented_unused("x = { \"1\" }\n/// y = \"2\"\ny = { \"2\" }\n")]
#[case::insensitive("scheme = @{ ^\"http\" }\n")]
#[case::allowed_case(
    "// lint: allow(case-sensitive-string) the scheme is matched case-sensitively on purpose\nscheme = @{ \"http\" }\n"
)]
#[case::atomic_with_whitespace("WHITESPACE = _{ \" \" }\nx = @{ \"1\" ~ \"2\" }\n")]
#[case::overlay_on_uri_pest("/// reg-name = 1*( unreserved / pct-encoded / sub-delims )\nreg_name = @{ (unreserved | pct_encoded | sub_delims)+ }\n")]
fn lint_finds_nothing_without_the_trap(#[case] grammar: &str) {
    let unexplained: Vec<_> = lint(grammar)
        .unwrap()
        .into_iter()
        .filter(|f| f.explained.is_none())
        .collect();
    assert!(unexplained.is_empty(), "{unexplained:#?}");
}

/// No false alarms on the shipped grammars: every finding is explained in the file.
#[test]
fn shipped_grammars_lint_clean_or_explained() {
    for s in workbench::shipped() {
        for f in lint(s.text).unwrap() {
            assert!(f.explained.is_some(), "{}: {f:#?}", s.name);
        }
    }
}

#[test]
fn lint_refuses_a_grammar_over_the_limits() {
    let big = format!("x = {{ \"1\"{} }}\n", " ~ \"1\"".repeat(300_000));
    assert!(lint(&big).is_err());
    assert!(lint("x = { \"1\" ~ }").is_err());
}

fn text(grammar: &str) -> GrammarText {
    GrammarText::from_text("test.pest", grammar.to_string()).unwrap()
}

#[rstest]
// PEG: ("1" | "12") commits to "1" and then needs "3": "123" is rejected, a regular reading accepts it.
#[case::ordered_choice("x = { (\"1\" | \"12\") ~ \"3\" }\n", "x", "ordered choice", "123")]
// PEG: "1"* takes every "1", and the last "1" then fails: "11" is rejected.
#[case::greedy("x = { \"1\"* ~ \"1\" }\n", "x", "greedy", "11")]
#[case::optional("x = { \"1\"? ~ \"1\" }\n", "x", "greedy", "1")]
fn export_refuses_where_peg_differs(
    #[case] grammar: &str,
    #[case] rule: &str,
    #[case] why: &str,
    #[case] regular_only: &str,
) {
    // The input the regular reading accepts is indeed rejected by the PEG.
    let g = Grammar::load(grammar).unwrap();
    assert!(g.parse(rule, regular_only).is_err());
    match export(&text(grammar), rule, Flavor::Re2, 1 << 16) {
        Err(ExportError::Refused { why: w, .. }) => assert!(w.contains(why), "{w}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn export_refuses_recursion_with_the_rule() {
    let g = "x = { \"(\" ~ x? ~ \")\" }\n";
    match export(&text(g), "x", Flavor::Python, 1 << 16) {
        Err(ExportError::Refused {
            rule, line, why, ..
        }) => {
            assert_eq!((rule.as_str(), line), ("x", 1));
            assert!(why.contains("recursion: x -> x"), "{why}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn export_lookahead_only_where_the_flavor_has_it() {
    let g = "x = { \"1\" ~ !\"2\" ~ '0'..'9' }\n";
    let e = export(&text(g), "x", Flavor::Python, 1 << 16).unwrap();
    assert_eq!(e.pattern, "^1(?!2)[0-9]\\Z");
    for flavor in [Flavor::Re2, Flavor::PosixEre] {
        match export(&text(g), "x", flavor, 1 << 16) {
            Err(ExportError::Refused { why, .. }) => assert!(why.contains("lookahead"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn export_refuses_over_the_cap_with_the_size() {
    let uri = GrammarText::named_or_file("uri").unwrap();
    let full = export(&uri, "URI-reference", Flavor::Re2, usize::MAX).unwrap();
    match export(&uri, "URI-reference", Flavor::Re2, 1000) {
        Err(ExportError::TooLarge { bytes, max }) => {
            assert_eq!((bytes, max), (full.pattern.len(), 1000));
        }
        other => panic!("{other:?}"),
    }
}

#[rstest]
#[case::ipv4("IPv4address", &["0.0.0.0", "255.255.255.255", "192.168.0.1"], &["256.0.0.0", "1.2.3", "01.2.3.4", "1.2.3.4."])]
#[case::dec_octet("dec-octet", &["0", "9", "10", "199", "249", "255"], &["00", "256", "260", "1000", ""])]
#[case::scheme("scheme", &["a", "http", "coap+tcp", "A.b-c"], &["", "1a", "a_b", "é"])]
fn exported_rule_matches_rfc_examples(
    #[case] rule: &str,
    #[case] valid: &[&str],
    #[case] invalid: &[&str],
) {
    let uri = GrammarText::named_or_file("uri").unwrap();
    let e = export(&uri, rule, Flavor::Re2, 1 << 16).unwrap();
    let re = regex::Regex::new(&e.pattern).unwrap();
    for v in valid {
        assert!(re.is_match(v), "{v}");
    }
    for i in invalid {
        assert!(!re.is_match(i), "{i}");
    }
}

#[test]
fn diff_uri_iri_reports_non_ascii_as_now_valid() {
    let uri = Grammar::builtin("uri").unwrap().unwrap();
    let iri = Grammar::builtin("iri").unwrap().unwrap();
    let d = workbench::diff(
        uri.start_rule().unwrap(),
        iri.start_rule().unwrap(),
        DiffOptions::default(),
    );
    // RFC 3987 section 2.2: ucschar in ipath; RFC 3986 requires percent-encoding.
    let c = d.input("http://example.org/r\u{e9}sum\u{e9}").unwrap();
    assert_eq!(c.kind, ChangeKind::NowValid);
    assert_eq!(c.old.error.as_ref().map(|e| e.0), Some(20));
    assert!(d.input("http://example.org/").is_none());
    // Invalid under both: not a change.
    assert!(d.input("http://exa mple.org/").is_none());
}

#[test]
fn diff_components_reports_a_changed_split() {
    let uri = Grammar::builtin("uri").unwrap().unwrap();
    // An overlay where a "-" cannot be in a scheme: "a-b:c" is then a relative path? No: the
    // first segment of a relative-path reference has no ":", so it becomes invalid. Use the port
    // instead: an overlay without ports reads "a:1" in the authority as part of the host? Not
    // valid either; so compare path splits: a path-abempty that takes "?" makes the query part of
    // the path.
    let overlay = Grammar::overlay("path_abempty = @{ (\"/\" ~ (pchar | \"?\")*)* }\n").unwrap();
    let d = workbench::diff(
        uri.entry("URI").unwrap(),
        overlay.entry("URI").unwrap(),
        DiffOptions { components: true },
    );
    let c = d.input("http://h/p?q").unwrap();
    assert_eq!(c.kind, ChangeKind::Split(vec!["path", "query"]));
    assert!(d.input("http://h/p").is_none());
}

#[test]
fn tree_shows_every_rule_with_its_span() {
    let uri = Grammar::builtin("uri").unwrap().unwrap();
    let t = workbench::tree(&uri).unwrap();
    let out = t.tree("URI", "http://a/b", TreeLimits::default()).unwrap();
    assert!(out.error.is_none());
    let first = &out.nodes[0];
    assert_eq!(
        (first.rule.as_str(), first.start, first.end, first.depth),
        ("URI", 0, 10, 0)
    );
    let host = out.nodes.iter().find(|n| n.rule == "host").unwrap();
    assert_eq!((host.start, host.end), (7, 8));
    let path = out.nodes.iter().find(|n| n.rule == "path-abempty").unwrap();
    assert_eq!((path.start, path.end), (8, 10));
    // Rejected: the tree of what matched, and the error at the byte at fault.
    let bad = t
        .tree("URI-reference", "http://a/b c", TreeLimits::default())
        .unwrap();
    assert_eq!(bad.error.as_ref().map(|e| e.offset()), Some(10));
    assert_eq!(bad.nodes[0].end, 10);
    // Longer than pest_vm's limit: a compiled grammar's tree is streamed all the same.
    let long = format!("http://a/{}", "b".repeat(100));
    let streamed = t
        .tree(
            "URI-reference",
            &long,
            TreeLimits {
                max_input: 50,
                max_nodes: 10,
            },
        )
        .unwrap();
    assert!(streamed.error.is_none());
    assert!(!streamed.truncated);
    assert_eq!(streamed.nodes.len(), 15 + 3 * 100);
}

/// A grammar with implicit whitespace runs on pest_vm: its trees keep pest_vm's limits (a line over
/// `max_input` gets an error and no tree, a tree over `max_nodes` is cut).
#[test]
fn tree_on_pest_vm_keeps_its_limits() {
    let g: Grammar = "WHITESPACE = _{ \" \" }\nlist = { item* }\nitem = { \"a\" }\n"
        .parse()
        .unwrap();
    let t = workbench::tree(&g).unwrap();
    let limits = TreeLimits {
        max_input: 50,
        max_nodes: 10,
    };
    let capped = t.tree("list", &"a".repeat(100), limits).unwrap();
    assert!(capped.nodes.is_empty());
    assert_eq!(
        capped.error.map(|e| e.kind()),
        Some(rfc3986::ParseErrorKind::LimitReached)
    );
    let cut = t.tree("list", "a a a a a a a a a a a a", limits).unwrap();
    assert!(cut.truncated);
    assert_eq!(cut.nodes.len(), 10);
    assert!(!t.start("list", "a a", limits).unwrap().is_streamed());
}

/// pest's own tree of `input` under `rule` of the grammar `text`, every rule made normal: the nodes in
/// pre-order as `(rule, start, end, depth)`, pest names.
fn pest_tree(text: &str, rule: &str, input: &str) -> Vec<(String, usize, usize, usize)> {
    let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, text).unwrap();
    let mut ast = pest_meta::parser::consume_rules(pairs).unwrap();
    for r in &mut ast {
        r.ty = pest_meta::ast::RuleType::Normal;
    }
    let vm = pest_vm::Vm::new(pest_meta::optimizer::optimize(ast));
    let mut nodes = Vec::new();
    let Ok(pairs) = vm.parse(rule, input) else {
        return nodes;
    };
    let mut stack: Vec<_> = pairs.rev().map(|p| (p, 0)).collect();
    while let Some((pair, depth)) = stack.pop() {
        let span = pair.as_span();
        nodes.push((pair.as_rule().to_string(), span.start(), span.end(), depth));
        let children: Vec<_> = pair.into_inner().collect();
        stack.extend(children.into_iter().rev().map(|p| (p, depth + 1)));
    }
    nodes
}

/// The streamed tree is pest's pairs, node for node, on the real-URI sample and on rejected inputs
/// (the tree of the prefix the rule matched), for the grammars that stand alone.
#[rstest]
#[case::uri("uri", "uri_reference", include_str!("../../uri.pest"))]
#[case::iri("iri", "uri_reference", include_str!("../../grammars/iri.pest"))]
#[case::uri_template("uri-template", "uri_template", include_str!("../../grammars/uri-template.pest"))]
fn streamed_tree_is_pests_pairs(#[case] name: &str, #[case] rule: &str, #[case] text: &str) {
    let g = Grammar::builtin(name).unwrap().unwrap();
    let t = workbench::tree(&g).unwrap();
    let abnf: std::collections::HashMap<&str, &str> = g.rule_names().collect();
    let rejected = [
        "http://a/b c",
        "%zz",
        "[::1",
        "http://[v1.x]/",
        "a{b",
        "{+x,y*}",
        "",
    ];
    let sample = include_str!("../../data/real-uris-sample.txt");
    for input in sample.lines().take(400).chain(rejected) {
        let tree = t.start(rule, input, TreeLimits::default()).unwrap();
        assert!(tree.is_streamed());
        let mut ours = Vec::new();
        let complete = tree
            .for_each(|n| {
                ours.push((n.rule.to_string(), n.start, n.end, n.depth));
                Ok::<(), ()>(())
            })
            .unwrap();
        assert!(complete);
        let pests: Vec<_> = pest_tree(text, rule, input)
            .into_iter()
            .map(|(r, s, e, d)| {
                (
                    abnf.get(r.as_str()).map_or(r.clone(), |a| a.to_string()),
                    s,
                    e,
                    d,
                )
            })
            .collect();
        assert_eq!(ours, pests, "{name}: {input:?}");
    }
}

/// Issue 30: the tree of a 10 MiB line is streamed (nodes handed on one by one, none kept), every
/// node's span as RFC 3986's grammar derives `http://a/` and a path segment of `a`s: URI-reference >
/// URI > scheme (an ALPHA per letter), hier-part > authority > host > reg-name > unreserved > ALPHA,
/// path-abempty > segment > (pchar > unreserved > ALPHA) per `a`.
#[test]
fn regression_tree_of_a_10_mib_line_is_streamed() {
    let n = 10 << 20;
    let input = format!("http://a/{}", "a".repeat(n));
    let uri = Grammar::builtin("uri").unwrap().unwrap();
    let t = workbench::tree(&uri).unwrap();
    let tree = t
        .start("URI-reference", &input, TreeLimits::default())
        .unwrap();
    assert!(tree.error().is_none());
    let mut count = 0usize;
    let complete = tree
        .for_each(|node| {
            let expected = match count {
                0 => ("URI-reference", 0, input.len(), 0),
                1 => ("URI", 0, input.len(), 1),
                2 => ("scheme", 0, 4, 2),
                3..=6 => ("ALPHA", count - 3, count - 2, 3),
                7 => ("hier-part", 5, input.len(), 2),
                8 => ("authority", 7, 8, 3),
                9 => ("host", 7, 8, 4),
                10 => ("reg-name", 7, 8, 5),
                11 => ("unreserved", 7, 8, 6),
                12 => ("ALPHA", 7, 8, 7),
                13 => ("path-abempty", 8, input.len(), 3),
                14 => ("segment", 9, input.len(), 4),
                i => {
                    let at = 9 + (i - 15) / 3;
                    let (rule, depth) =
                        [("pchar", 5), ("unreserved", 6), ("ALPHA", 7)][(i - 15) % 3];
                    (rule, at, at + 1, depth)
                }
            };
            assert_eq!(
                (node.rule, node.start, node.end, node.depth),
                expected,
                "node {count}"
            );
            count += 1;
            Ok::<(), ()>(())
        })
        .unwrap();
    assert!(complete);
    assert_eq!(count, 15 + 3 * n);
}

/// A grammar within the load limits whose rules grow exponentially when inlined (each rule uses the one
/// before it three times): the lint's searches stay within their work budget and it answers.
#[test]
fn regression_lint_of_an_exponential_grammar_is_bounded() {
    let mut g = String::from("a0 = @{ \"1\" | \"12\" }\n");
    for i in 1..9 {
        let p = i - 1;
        g.push_str(&format!("a{i} = @{{ a{p} ~ a{p} | a{p} ~ \"3\" }}\n"));
    }
    let findings = lint(&g).unwrap();
    assert!(findings
        .iter()
        .any(|f| f.code == LintCode::ChoiceNeverTaken && f.rule == "a0"));
    let e = export(&text(&g), "a8", Flavor::Re2, 1 << 16);
    assert!(e.is_err(), "{e:?}");
}
