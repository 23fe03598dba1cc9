//! URI Templates (RFC 6570): the shared interoperability vectors (tests/data/uritemplate-test: the RFC's
//! examples by level and by section, and the negative tests), grammar cases, and properties.

use std::collections::BTreeMap;

use proptest::prelude::*;
use rfc3986::template::{TemplateError, UriTemplate, Value};
use rfc3986::{Rule, UriRef};
use rstest::rstest;
use serde_json::Value as Json;

/// A JSON value of the vectors as a template value; `null` is undefined.
fn value(json: &Json) -> Option<Value> {
    let scalar = |j: &Json| match j {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    match json {
        Json::Null => None,
        Json::Array(items) => Some(Value::List(items.iter().map(scalar).collect())),
        Json::Object(map) => Some(Value::Map(
            map.iter().map(|(k, v)| (k.clone(), scalar(v))).collect(),
        )),
        other => Some(Value::String(scalar(other))),
    }
}

struct Case {
    group: String,
    template: String,
    /// `None`: the template must fail.
    expected: Option<Vec<String>>,
    variables: BTreeMap<String, Value>,
}

fn cases(file: &str) -> Vec<Case> {
    let path = format!(
        "{}/tests/data/uritemplate-test/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let json: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = Vec::new();
    for (group, body) in json.as_object().unwrap() {
        let variables: BTreeMap<String, Value> = body["variables"]
            .as_object()
            .unwrap()
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), value(v)?)))
            .collect();
        for case in body["testcases"].as_array().unwrap() {
            let expected = match &case[1] {
                Json::Bool(false) => None,
                Json::String(s) => Some(vec![s.clone()]),
                Json::Array(list) => Some(
                    list.iter()
                        .map(|s| s.as_str().unwrap().to_owned())
                        .collect(),
                ),
                other => panic!("unexpected expectation {other}"),
            };
            out.push(Case {
                group: group.clone(),
                template: case[0].as_str().unwrap().to_owned(),
                expected,
                variables: variables.clone(),
            });
        }
    }
    out
}

/// Runs every case of a file; returns (passed, total) and the failures.
fn run(file: &str) -> (usize, usize, Vec<String>) {
    let all = cases(file);
    let mut failures = Vec::new();
    for case in &all {
        let got = UriTemplate::parse(&case.template).and_then(|t| t.expand(&case.variables));
        let ok = match (&case.expected, &got) {
            (None, Err(_)) => true,
            (Some(options), Ok(text)) => options.contains(text),
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{} {:?}: expected {:?}, got {:?}",
                case.group, case.template, case.expected, got
            ));
        }
    }
    (all.len() - failures.len(), all.len(), failures)
}

#[rstest]
#[case::rfc6570_examples_by_level("spec-examples.json", 64)]
#[case::rfc6570_examples_by_section("spec-examples-by-section.json", 117)]
#[case::negative_tests("negative-tests.json", 36)]
fn uritemplate_test_vectors(#[case] file: &str, #[case] count: usize) {
    let (passed, total, failures) = run(file);
    assert_eq!(total, count, "{file}: number of cases");
    assert!(
        failures.is_empty(),
        "{file}: {passed}/{total} passed\n{}",
        failures.join("\n")
    );
}

/// Every template of the negative tests is rejected by the grammar alone, or by the reserved-operator
/// and composite-prefix rules, each with an error that says which.
#[test]
fn negative_tests_fail_with_named_reasons() {
    for case in cases("negative-tests.json") {
        let err = UriTemplate::parse(&case.template)
            .and_then(|t| t.expand(&case.variables))
            .unwrap_err();
        assert!(err.offset() <= case.template.len(), "{err}");
        match &err {
            TemplateError::Syntax { expected, .. } => assert!(!expected.is_empty(), "{err}"),
            TemplateError::ReservedOperator { .. } | TemplateError::PrefixOnComposite { .. } => {}
            other => panic!("{other:?}"),
        }
    }
}

/// Every expansion of the RFC's examples (181 results, both files) is a URI reference by RFC 3986's
/// grammar. Not every expansion can be: reserved expansion keeps reserved characters of a value as they
/// are, so `{+x}` with `x = "[a]"` writes brackets outside a host (see
/// `reserved_expansion_can_leave_rfc3986`); none of the RFC's examples does that.
#[test]
fn expansions_are_uri_references() {
    let mut not_references = Vec::new();
    let mut checked = 0;
    for file in ["spec-examples.json", "spec-examples-by-section.json"] {
        for case in cases(file) {
            let Some(expected) = &case.expected else {
                continue;
            };
            let got = UriTemplate::parse(&case.template)
                .unwrap()
                .expand(&case.variables)
                .unwrap();
            assert!(expected.contains(&got));
            checked += 1;
            if let Err(e) = rfc3986::validate(Rule::URI_REFERENCE, &got) {
                not_references.push(format!("{} -> {got} ({e})", case.template));
            }
        }
    }
    assert_eq!(checked, 181);
    let expected_non_references: Vec<String> = vec![];
    assert_eq!(
        not_references, expected_non_references,
        "{not_references:#?}"
    );
}

#[test]
fn reserved_expansion_can_leave_rfc3986() {
    let vars = [("x", Value::from("[a]#b"))];
    let out = UriTemplate::parse("/p/{+x}")
        .unwrap()
        .expand(&vars)
        .unwrap();
    assert_eq!(out, "/p/[a]#b");
    assert!(UriRef::parse(&out).is_err());
    // Simple expansion encodes them.
    let out = UriTemplate::parse("/p/{x}").unwrap().expand(&vars).unwrap();
    assert_eq!(out, "/p/%5Ba%5D%23b");
    assert!(UriRef::parse(&out).is_ok());
}

/// RFC 6570 section 2 as the grammar: templates accepted and rejected (offset of the first byte outside
/// the grammar).
#[rstest]
#[case::rfc6570_2_1_literals_only("http://example.com/~a!$&'()*+,;=:@/?#[]", None)]
#[case::rfc6570_2_1_ucschar("/caf\u{e9}", None)]
#[case::rfc6570_2_1_iprivate("/\u{E000}", None)]
#[case::rfc6570_2_1_pct_encoded("/%7B", None)]
// pct-encoded = "%" HEXDIG HEXDIG: the input ends where the second HEXDIG must come.
#[case::rfc6570_2_1_bad_pct("/%7", Some(3))]
#[case::rfc6570_2_1_space("/a b", Some(2))]
#[case::rfc6570_2_1_double_quote("/a\"", Some(2))]
#[case::rfc6570_2_1_erratum_6937_single_quote("/a'{x}'", None)]
#[case::rfc6570_2_1_lone_close("a}", Some(1))]
#[case::rfc6570_2_1_pipe("a|b", Some(1))]
#[case::rfc6570_2_2_empty_expression("{}", Some(1))]
#[case::rfc6570_2_2_unclosed("{var", Some(4))]
#[case::rfc6570_2_2_nested("{a{b}}", Some(2))]
#[case::rfc6570_2_3_dotted_name("{a.b.c}", None)]
#[case::rfc6570_2_3_pct_name("{a%20b}", None)]
#[case::rfc6570_2_3_leading_dot("{.a}", None)]
// varname = varchar *( ["."] varchar ): after "a." a varchar must come; the second "." is the first
// byte outside the grammar.
#[case::rfc6570_2_3_double_dot("{a..b}", Some(3))]
#[case::rfc6570_2_3_trailing_comma("{a,}", Some(3))]
#[case::rfc6570_2_4_1_max_9999("{a:9999}", None)]
#[case::rfc6570_2_4_1_too_long("{a:10000}", Some(7))]
#[case::rfc6570_2_4_1_zero("{a:0}", Some(3))]
#[case::rfc6570_2_4_both_modifiers("{a:3*}", Some(4))]
#[case::rfc6570_2_4_2_explode("{a*,b:2}", None)]
fn template_grammar(#[case] template: &str, #[case] error_at: Option<usize>) {
    match (UriTemplate::parse(template), error_at) {
        (Ok(_), None) => {}
        (Err(TemplateError::Syntax { offset, .. }), Some(at)) => {
            assert_eq!(offset, at, "{template}")
        }
        (other, _) => panic!("{template}: {other:?}"),
    }
}

#[rstest]
#[case::equals('=')]
#[case::comma(',')]
#[case::bang('!')]
#[case::at('@')]
#[case::pipe('|')]
fn rfc6570_2_2_reserved_operators(#[case] op: char) {
    let template = format!("x{{{op}var}}");
    assert_eq!(
        UriTemplate::parse(&template).unwrap_err(),
        TemplateError::ReservedOperator {
            offset: 2,
            operator: op
        }
    );
}

/// RFC 6570 3.1: literals outside the URI character set are percent-encoded as UTF-8; pct-encoded
/// triplets and reserved characters are kept.
#[rstest]
#[case::ucschar("/caf\u{e9}", "/caf%C3%A9")]
#[case::pct_kept("/%7b", "/%7b")]
#[case::reserved_kept("/a?b=c#d", "/a?b=c#d")]
#[case::brackets_kept("/[x]", "/[x]")]
fn rfc6570_3_1_literal_expansion(#[case] template: &str, #[case] expected: &str) {
    let vars: [(&str, Value); 0] = [];
    assert_eq!(
        UriTemplate::parse(template).unwrap().expand(&vars).unwrap(),
        expected
    );
}

/// 2.4.1: the prefix counts characters, not octets, and does not split a pct-encoded triplet in
/// reserved expansion.
#[rstest]
#[case::non_ascii("{v:2}", "\u{e9}t\u{e9}", "%C3%A9t")]
#[case::reserved_triplet("{+v:2}", "%20ab", "%20a")]
#[case::simple_counts_percent_as_a_character("{v:2}", "%20ab", "%252")]
#[case::longer_than_value("{v:99}", "ab", "ab")]
fn rfc6570_2_4_1_prefix_characters(
    #[case] template: &str,
    #[case] value: &str,
    #[case] expected: &str,
) {
    let vars = [("v", Value::from(value))];
    assert_eq!(
        UriTemplate::parse(template).unwrap().expand(&vars).unwrap(),
        expected
    );
}

#[test]
fn prefix_on_list_or_map_is_an_error() {
    let vars = [
        ("l", Value::from(vec!["a"])),
        ("m", Value::from([("k", "v")])),
    ];
    for t in ["{l:1}", "{+m:1}", "{x,m:1}"] {
        assert!(matches!(
            UriTemplate::parse(t).unwrap().expand(&vars),
            Err(TemplateError::PrefixOnComposite { .. })
        ));
    }
    // An undefined composite is skipped before the modifier matters.
    let none: [(&str, Value); 1] = [("l", Value::List(vec![]))];
    assert_eq!(
        UriTemplate::parse("{l:1}").unwrap().expand(&none).unwrap(),
        ""
    );
}

/// Long inputs: expansion is linear and does not recurse.
#[test]
fn long_template_and_values() {
    let template = "{+a}/x".repeat(20_000);
    let long = "é".repeat(100_000);
    let vars = [
        ("a", Value::from("b")),
        ("l", Value::from(vec!["x"; 100_000])),
        ("s", Value::from(long.as_str())),
    ];
    let out = UriTemplate::parse(&template)
        .unwrap()
        .expand(&vars)
        .unwrap();
    assert_eq!(out.len(), 20_000 * 3);
    let out = UriTemplate::parse("{/l*}{?s}")
        .unwrap()
        .expand(&vars)
        .unwrap();
    assert_eq!(out.len(), 200_000 + 3 + 600_000);
    assert!(UriTemplate::parse(&"{".repeat(100_000)).is_err());
}

fn var_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        "\\PC{0,6}".prop_map(Value::String),
        prop::collection::vec("\\PC{0,4}", 0..3).prop_map(Value::List),
        prop::collection::vec(("[a-z]{1,3}", "\\PC{0,4}"), 0..3).prop_map(Value::Map),
    ]
}

proptest! {
    /// A template made of URI-safe literals and expressions of every operator expands to a URI reference
    /// whenever its values are not expanded with U+R (which keeps reserved characters as given): values
    /// are percent-encoded, so the grammar of RFC 3986 accepts the result.
    #[test]
    fn simple_expansions_are_uri_references(
        ops in prop::collection::vec(prop::sample::select(vec!["", ".", "/", ";", "?", "&"]), 1..4),
        explode in any::<bool>(),
        a in var_value(),
        b in var_value(),
    ) {
        let mut template = String::from("http://example.com/p");
        for op in &ops {
            template.push_str(&format!("{{{op}a{},b}}", if explode { "*" } else { "" }));
        }
        let vars = [("a", a), ("b", b)];
        let out = UriTemplate::parse(&template).unwrap().expand(&vars).unwrap();
        // "?" and "&" may follow each other, and "/" after "?" stays in the query: all valid.
        prop_assert!(UriRef::parse(&out).is_ok(), "{} -> {}", template, out);
    }

    /// Any text either parses as a template or gives an error inside it; never a panic.
    #[test]
    fn any_text_parses_or_errs(text in "[{}a-z:*,.+#/;?&=!@|%0-9 ]{0,24}") {
        match UriTemplate::parse(&text) {
            Ok(t) => { let _ = t.expand(&[("a", Value::from("x"))]); }
            Err(e) => prop_assert!(e.offset() <= text.len()),
        }
    }
}

/// The grammar file loaded at run time gives the same verdicts as the built-in parser (reserved
/// operators are in the grammar; expansion rejects them).
#[cfg(feature = "runtime-grammar")]
mod runtime_grammar {
    use super::*;
    use rfc3986::runtime::Grammar;

    fn grammar_verdict(template: &str) -> bool {
        !matches!(
            UriTemplate::parse(template),
            Err(TemplateError::Syntax { .. })
        )
    }

    #[test]
    fn loaded_grammar_agrees_on_the_vectors() {
        let grammar = Grammar::builtin("uri-template").unwrap().unwrap();
        let mut n = 0;
        for file in [
            "spec-examples.json",
            "spec-examples-by-section.json",
            "negative-tests.json",
        ] {
            for case in cases(file) {
                let loaded = grammar.parse("URI-Template", &case.template).is_ok();
                assert_eq!(loaded, grammar_verdict(&case.template), "{}", case.template);
                n += 1;
            }
        }
        assert_eq!(n, 217);
    }

    #[test]
    fn builtin_names_all_load() {
        for name in Grammar::builtin_names() {
            assert!(Grammar::builtin(name).unwrap().is_ok(), "{name}");
        }
    }

    proptest! {
        #[test]
        fn loaded_grammar_agrees(text in "[{}a-z:*,.+#/;?&=!@|%0-9 '\u{e9}]{0,20}") {
            static LOADED: std::sync::OnceLock<Grammar> = std::sync::OnceLock::new();
            let grammar = LOADED.get_or_init(|| Grammar::builtin("uri-template").unwrap().unwrap());
            prop_assert_eq!(grammar.parse("URI-Template", &text).is_ok(), grammar_verdict(&text));
        }
    }
}

/// 256 KiB of literals and of expressions parse and expand without deep recursion (the
/// grammar repeats, it does not nest), on a small thread stack.
#[test]
fn hostile_sizes_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let literals = "a".repeat(1 << 18);
            let vars = [("x", Value::from("1"))];
            let t = UriTemplate::parse(&literals).unwrap();
            assert_eq!(t.expand(&vars).unwrap().len(), 1 << 18);
            let expressions = "{x}".repeat(1 << 16);
            let t = UriTemplate::parse(&expressions).unwrap();
            assert_eq!(t.expand(&vars).unwrap().len(), 1 << 16);
            let names = format!("{{{}}}", vec!["x"; 1 << 16].join(","));
            let t = UriTemplate::parse(&names).unwrap();
            assert_eq!(t.expand(&vars).unwrap().len(), 2 * (1 << 16) - 1);
            let bad = format!("{}{{", "{x}".repeat(1 << 14));
            assert_eq!(
                UriTemplate::parse(&bad).unwrap_err().offset(),
                (3 << 14) + 1
            );
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A rejected template is explained through its grammar (the detail parser of
/// `grammars/uri-template.pest`): the offset, what RFC 6570 section 2 allows there (checked by hand
/// against its ABNF) and a hint.
#[rstest::rstest]
// variable-list = varspec *( "," varspec ): after "{a," a varspec, whose varname starts with a varchar.
#[case::empty_varspec("{a,,b}", 3, &["varchar"], "varname is expected")]
// URI-Template = *( literals / expression ): "}" is neither a literal nor the start of an expression.
#[case::stray_close("foo}bar", 3, &["literals", "\"{\"", "end of input"], "%7D")]
// varname = varchar *( ["."] varchar ), then modifier-level4, "," or the closing "}".
#[case::unclosed("{var", 4, &["varchar", "modifier-level4", "\"}\"", "\".\"", "\",\""], "not closed")]
#[case::space("{a b}", 2, &["varchar", "modifier-level4", "\"}\"", "\".\"", "\",\""], "%20")]
// max-length = %x31-39 0*3DIGIT: no leading zero.
#[case::zero_prefix("{var:0}", 5, &["max-length"], "1 to 9999")]
// expression = "{" [ operator ] variable-list "}": a varname after the operator.
#[case::operator_alone("{+}", 2, &["varchar"], "varname is expected")]
#[case::empty_expression("{}", 1, &["operator", "varchar"], "varname is expected")]
// pct-encoded = "%" HEXDIG HEXDIG.
#[case::bad_percent("%zz", 1, &["HEXDIG"], "two hex digits")]
fn template_errors_say_where_and_what(
    #[case] template: &str,
    #[case] offset: usize,
    #[case] expected: &[&str],
    #[case] hint: &str,
) {
    let error = rfc3986::template::UriTemplate::parse(template).unwrap_err();
    match &error {
        rfc3986::template::TemplateError::Syntax {
            offset: at,
            expected: listed,
            hint: words,
        } => {
            assert_eq!((*at, listed.as_slice()), (offset, expected), "{error}");
            assert!(words.is_some_and(|w| w.contains(hint)), "{error}");
        }
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().contains(hint), "{error}");
}

/// A rejected template longer than the detail parser explains (64 KiB) gets the offset where the grammar
/// stops matching, without the expected items.
#[test]
fn regression_long_rejected_template_gets_its_offset() {
    let long = format!("{}}}", "a".repeat(1 << 20));
    match rfc3986::template::UriTemplate::parse(&long).unwrap_err() {
        rfc3986::template::TemplateError::Syntax {
            offset, expected, ..
        } => {
            assert_eq!(offset, 1 << 20);
            assert!(expected.is_empty());
        }
        other => panic!("{other:?}"),
    }
}
