//! Hostile grammars loaded at run time (feature `runtime-grammar`, issue 13): every case that used to panic,
//! overflow the stack, take unbounded memory or minutes is now an error at its line and column, and matching
//! a loaded grammar against hostile input never overflows the stack. See `src/runtime_limits.rs` for the
//! limits.
#![cfg(feature = "runtime-grammar")]

use rfc3986::runtime::{Grammar, GrammarError, RuntimeParseError, SchemeGrammars};
use rfc3986::runtime_limits::{
    read_grammar_file, MAX_CHAIN, MAX_GRAMMAR_BYTES, MAX_NESTING, MAX_RULES,
};
use rfc3986::ParseErrorKind;
use rstest::rstest;

/// The stack of a thread spawned by the standard library (and rayon) by default: `-j` workers.
const WORKER_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a 2 MiB stack, as the command line's `-j` workers do.
fn on_worker<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic")
}

/// The first issue of a refused grammar: (line, column, message).
fn refused(text: &str) -> (usize, usize, String) {
    match Grammar::load(text) {
        Ok(_) => panic!("the grammar loaded"),
        Err(e) => {
            let first = e.issues().first().expect("an issue with a position");
            (first.line(), first.column(), first.message().to_string())
        }
    }
}

fn chain(n: usize, silent: bool) -> String {
    let marker = if silent { "_" } else { "" };
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("r{i} = {marker}{{ r{} ~ \"b\" }}\n", i + 1));
    }
    text.push_str(&format!("r{n} = {{ \"a\" }}\n"));
    text
}

fn nested(open: &str, n: usize, close: &str) -> String {
    format!(
        "// a comment line first\nr = {{ {}\"a\"{} }}\n",
        open.repeat(n),
        close.repeat(n)
    )
}

#[rstest]
#[case::repeat_min_max_u32_max("r = { \"a\"{0,4294967295} }", 1, 10, "count too large")]
#[case::repeat_exact_u32_max("r = { \"a\"{4294967295} }", 1, 10, "count too large")]
#[case::repeat_min_u32_max("r = { \"a\"{4294967294,} }", 1, 10, "count too large")]
#[case::repeat_max_u32_max_minus_1("r = { \"a\"{0,4294967294} }", 1, 10, "count too large")]
#[case::repeat_over_u64("r = { \"a\"{0,99999999999999999999999} }", 1, 10, "count too large")]
#[case::repeat_100000("r = { \"a\"{0,100000} }", 1, 10, "count too large")]
#[case::repeat_256("x = { \"b\" }\nr = { \"a\"{256} }", 2, 10, "count too large")]
#[case::repeat_exactly_zero("r = { \"a\"{0} }", 1, 10, "exactly 0 times")]
#[case::repeat_at_most_zero("r = { \"a\"{,0} }", 1, 10, "at most 0 times")]
#[case::repeat_max_below_min("r = { \"a\"{5,2} }", 1, 10, "maximum below minimum")]
#[case::escape_above_10ffff("r = { \"\\u{110000}\" }", 1, 8, "\\u{...}")]
#[case::escape_surrogate("r = { \"\\u{D800}\" }", 1, 8, "\\u{...}")]
#[case::escape_empty("r = { \"\\u{}\" }", 1, 8, "\\u{...}")]
#[case::escape_seven_digits("r = { \"\\u{0000041}\" }", 1, 8, "\\u{...}")]
#[case::escape_unclosed("r = { \"\\u{41\" }", 1, 8, "\\u{...}")]
#[case::escape_in_char("r = { '\\u{DFFF}' }", 1, 8, "\\u{...}")]
#[case::stack_push("r = { PUSH(\"a\") ~ POP }", 1, 7, "`PUSH`")]
#[case::stack_peek_all("r = { \"a\" ~ PEEK_ALL }", 1, 13, "`PEEK_ALL`")]
#[case::stack_peek_slice("r = { PEEK[0..1] }", 1, 7, "`PEEK`")]
#[case::stack_drop("r = { \"a\" ~ DROP }", 1, 13, "`DROP`")]
fn a_bad_repetition_escape_or_stack_operation_is_refused_at_its_position(
    #[case] text: &str,
    #[case] line: usize,
    #[case] column: usize,
    #[case] message: &str,
) {
    let (l, c, m) = refused(text);
    assert_eq!((l, c), (line, column), "{m}");
    assert!(m.contains(message), "{m}");
}

#[rstest]
#[case::parens_5000(nested("(", 5000, ")"), "nested more than")]
#[case::parens_10000(nested("(", 10_000, ")"), "nested more than")]
#[case::not_10000(nested("!", 10_000, ""), "nested operators")]
#[case::and_not_mixed(nested("&!", 5_000, ""), "nested operators")]
#[case::optional_100000(nested("", 1, &"?".repeat(100_000)), "nested operators")]
#[case::optional_10000(nested("", 1, &"?".repeat(10_000)), "nested operators")]
#[case::star_in_parens_10000(nested("(", 10_000, ")*"), "nested more than")]
#[case::comments_100(format!("{}x{}\nr = {{ \"a\" }}", "/*".repeat(100), "*/".repeat(100)), "comments nested")]
fn deep_nesting_is_refused_at_the_level_past_the_limit(
    #[case] text: String,
    #[case] message: &str,
) {
    let (line, column, m) = on_worker(move || refused(&text));
    assert!(m.contains(message), "{m}");
    assert!(m.contains(&MAX_NESTING.to_string()), "{m}");
    // The rule is on line 2 (after the comment), the comments on line 1.
    assert!(line <= 2 && column > 1, "{line}:{column}: {m}");
}

#[rstest]
#[case::chain_100000(chain(100_000, false), "bytes long")]
#[case::chain_10000(chain(10_000, false), "more than 2000 rules")]
#[case::chain_600(chain(600, false), "chain of more than")]
#[case::silent_chain_600(chain(600, true), "chain of more than")]
#[case::silent_chain_300(chain(300, true), "chain of more than")]
#[case::rules_2001(
    (0..=MAX_RULES).map(|i| format!("r{i} = {{ \"x\" }}\n")).collect::<String>(),
    "rules"
)]
#[case::alternatives_1000(
    format!("r = {{ {} }}", (0..1000).map(|i| format!("\"a{i}\"")).collect::<Vec<_>>().join(" | ")),
    "levels deep"
)]
#[case::sequence_1000(
    format!("r = {{ {} }}", (0..1000).map(|i| format!("\"a{i}\"")).collect::<Vec<_>>().join(" ~ ")),
    "levels deep"
)]
#[case::nested_repetitions_multiply("r = { ((\"a\"{255}){255}){255} }".to_string(), "expression nodes")]
#[case::diamond_20(
    (0..20).map(|i| format!("d{i} = {{ d{j} ~ \"x\" | d{j} ~ \"y\" }}\n", j = i + 1)).collect::<String>()
        + "d20 = { \"a\" }\n",
    "walks more than"
)]
#[case::many_long_choices(
    (0..20).map(|k| format!("r{k} = {{ {} }}\n", (0..200).map(|i| format!("\"a{i}\"")).collect::<Vec<_>>().join(" | "))).collect::<String>(),
    "optimizer"
)]
fn grammars_that_would_take_minutes_or_the_whole_stack_are_refused(
    #[case] text: String,
    #[case] message: &str,
) {
    let (_, _, m) = on_worker(move || refused(&text));
    assert!(m.contains(message), "{m}");
}

#[test]
fn a_chain_at_the_limit_loads_on_a_worker_thread() {
    let grammar = on_worker(|| Grammar::load(&chain(MAX_CHAIN - 2, true)).map(|_| ()));
    assert!(grammar.is_ok(), "{grammar:?}");
}

#[test]
fn a_grammar_over_the_size_limit_is_refused_before_parsing() {
    let text = format!("r = {{ \"a\" }}\n//{}\n", "x".repeat(MAX_GRAMMAR_BYTES));
    let (line, column, m) = refused(&text);
    assert_eq!((line, column), (1, 1));
    assert!(m.contains("bytes long"), "{m}");
}

#[test]
fn the_shipped_grammars_are_within_the_limits() {
    for file in [
        "uri.pest",
        "grammars/iri.pest",
        "grammars/ipv6-zone-id.pest",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            rfc3986::runtime_limits::check(&text).is_ok(),
            "{file} is refused"
        );
    }
    assert!(SchemeGrammars::from_dir("schemes").is_ok());
}

#[test]
fn a_scheme_grammar_issue_is_at_its_line_in_the_scheme_file() {
    let text = "//! Test scheme\nscheme_uri = { ^\"t:\" ~ \"a\"{0,4294967295} }\n";
    let error = SchemeGrammars::new().add("t", text).unwrap_err();
    let issue = &error.issues()[0];
    assert_eq!((issue.line(), issue.column()), (2, 27), "{error}");
}

#[cfg(unix)]
#[test]
fn read_grammar_file_refuses_a_fifo_without_blocking() {
    let dir = std::env::temp_dir().join(format!("rfc3986-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("x.pest");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        // No writer ever opens it: a blocking open or read would hang here.
        let error = read_grammar_file(&fifo).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
        assert!(matches!(
            Grammar::from_file(&fifo),
            Err(GrammarError::Io { .. })
        ));
        // from_dir skips it and loads nothing else.
        let schemes = SchemeGrammars::from_dir(&dir).unwrap();
        assert_eq!(schemes.schemes().count(), 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn read_grammar_file_refuses_a_directory_and_a_long_file() {
    let error = read_grammar_file(std::path::Path::new("schemes")).unwrap_err();
    assert!(error.to_string().contains("not a regular file"), "{error}");
    let path = std::env::temp_dir().join(format!("rfc3986-long-{}.pest", std::process::id()));
    std::fs::write(&path, vec![b' '; MAX_GRAMMAR_BYTES + 1]).unwrap();
    let error = read_grammar_file(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(error.to_string().contains("longer than"), "{error}");
}

/// A grammar that matches a fragment before the path: `SchemeGrammars::check` used to cut the text at
/// `len - fragment.len() - 1`, inside the two-byte `é` here, and panicked. Such a match is not a URI
/// reference (its components are not in the order of RFC 3986 4.1), so it never becomes a `UriRef`
/// that a scheme check, a resolution or a normalization could be given.
#[rstest]
#[case::empty_fragment_before_a_two_byte_char("http:\u{e9}")]
#[case::fragment_before_the_path("http:xx\u{e9}")]
#[case::fragment_at_the_end("http:\u{e9}x")]
fn regression_a_fragment_before_the_path_is_not_a_reference(#[case] input: &'static str) {
    let text = "uri_reference = { scheme ~ \":\" ~ fragment ~ path_rootless }\n\
                scheme = { \"http\" }\nfragment = { \"x\"* }\npath_rootless = { (\"\u{e9}\" | \"x\")* }\n";
    let outcome = on_worker(move || {
        let grammar = Grammar::load(text).unwrap();
        let matched = grammar.parse("uri_reference", input).unwrap();
        let refused = matched.into_uri_ref().is_err();
        let through_entry = grammar.entry("uri_reference").unwrap().parse_uri_ref(input);
        refused && matches!(through_entry, Err(RuntimeParseError::NotAReference(_)))
    });
    assert!(outcome);
}

/// The misuses of a loaded grammar that must not give a `UriRef`: a rule that is not a reference rule,
/// and a reference rule whose components come out of the order of RFC 3986 4.1 (a query before the
/// path, a scheme that does not start the input, text after the fragment). The same components in the
/// right order do give one.
#[rstest]
#[case::not_a_reference_rule("host = { \"h\" }", "host", "h", false)]
#[case::query_before_the_path(
    "uri_reference = { \"?\" ~ query ~ path_absolute }\nquery = { \"q\" }\npath_absolute = { \"/p\" }",
    "uri_reference",
    "?q/p",
    false
)]
#[case::scheme_after_a_prefix(
    "uri_reference = { \"x\" ~ scheme ~ \":\" }\nscheme = { \"a\" }",
    "uri_reference",
    "xa:",
    false
)]
#[case::text_after_the_fragment(
    "uri_reference = { \"#\" ~ fragment ~ \"z\" }\nfragment = { \"f\" }",
    "uri_reference",
    "#fz",
    false
)]
#[case::regression_an_authority_without_a_host(
    "uri_reference = { \"//\" ~ authority }\nauthority = { \"a\" }",
    "uri_reference",
    "//a",
    false
)]
#[case::regression_a_userinfo_apart_from_the_host(
    "uri_reference = { \"//\" ~ authority }\nauthority = { userinfo ~ \"@x\" ~ host }\nuserinfo = { \"u\" }\nhost = { \"h\" }",
    "uri_reference",
    "//u@xh",
    false
)]
#[case::in_order(
    "uri_reference = { path_absolute ~ \"?\" ~ query ~ \"#\" ~ fragment }\npath_absolute = { \"/p\" }\nquery = { \"q\" }\nfragment = { \"f\" }",
    "uri_reference",
    "/p?q#f",
    true
)]
fn a_loaded_match_is_a_reference_only_in_rfc_order(
    #[case] grammar: &'static str,
    #[case] rule: &'static str,
    #[case] input: &'static str,
    #[case] is_reference: bool,
) {
    let grammar = Grammar::load(grammar).unwrap();
    let converted = grammar.parse(rule, input).unwrap().into_uri_ref();
    assert_eq!(converted.is_ok(), is_reference, "{converted:?}");
    if let Ok(uri) = converted {
        assert_eq!(
            (uri.path(), uri.query(), uri.fragment()),
            ("/p", Some("q"), Some("f"))
        );
    }
}

/// A loaded reference rule without a path rule: its match is a reference whose path is the empty one
/// between the components around it (RFC 3986 3.3: a path is always defined).
#[rstest]
#[case::scheme_alone(
    "uri_reference = { scheme ~ \":\" }\nscheme = { \"a\" }",
    "a:",
    None,
    ""
)]
#[case::scheme_and_query(
    "uri_reference = { scheme ~ \":?\" ~ query }\nscheme = { \"a\" }\nquery = { \"q\" }",
    "a:?q",
    Some("q"),
    ""
)]
fn regression_a_loaded_match_without_a_path_has_an_empty_one(
    #[case] grammar: &'static str,
    #[case] input: &'static str,
    #[case] query: Option<&str>,
    #[case] path: &str,
) {
    let grammar = Grammar::load(grammar).unwrap();
    let uri = grammar
        .parse("uri_reference", input)
        .unwrap()
        .into_uri_ref()
        .unwrap();
    assert_eq!(
        (uri.scheme(), uri.path(), uri.query()),
        (Some("a"), path, query)
    );
}

/// Matching recurses once per nesting of the input through a recursive rule; pest's stack check stops it
/// with an error of kind `LimitReached` on a 2 MiB worker thread as on the main thread.
#[rstest]
#[case::parens_1_mib("nest = { \"(\" ~ nest? ~ \")\" }", "(".repeat(1 << 20))]
#[case::alternatives_in_recursion(
    "nest = { (\"(\" | \"[\" | \"{\" | \"<\" | \"a\" | \"b\" | \"c\" | \"d\") ~ nest? ~ \")\" }",
    "<".repeat(1 << 20)
)]
#[case::right_recursion_through_three_rules(
    "a = { \"x\" ~ b? }\nb = { \"y\" ~ c? }\nc = { \"z\" ~ a? }",
    "xyz".repeat(1 << 19)
)]
fn deep_input_through_a_recursive_rule_is_a_limit_not_a_stack_overflow(
    #[case] grammar: &'static str,
    #[case] input: String,
) {
    let kind = on_worker(move || {
        let grammar = Grammar::load(grammar).unwrap();
        let rule = grammar.rule_names().next().unwrap().0.to_string();
        grammar
            .parse(&rule, &input)
            .map(|_| ())
            .map_err(|e| match e {
                RuntimeParseError::Parse(p) => p.kind(),
                other => panic!("{other}"),
            })
    });
    assert_eq!(kind, Err(ParseErrorKind::LimitReached));
}

/// PEG backtracking without memoization takes time exponential in the input on a pathological grammar
/// (the first case tries 2^n paths on n `x`; the second scans to the end of the input from every byte of
/// it, n^2 / 2 bytes). Each match has a budget of steps linear in its input's length, so both stop with
/// a limit error, at once, instead of running for minutes.
#[rstest]
#[case::exponential_choices(
    "r = { \"x\" ~ r ~ \"a\" | \"x\" ~ r ~ \"b\" | \"x\" }\nall = { r ~ \"c\" }",
    "all",
    format!("{}c", "x".repeat(40))
)]
#[case::a_scan_to_the_end_from_every_byte(
    "all = { (&(\"x\"* ~ \"y\") ~ \"x\" | \"x\")* ~ \"z\" }",
    "all",
    "x".repeat(1 << 14)
)]
fn pathological_backtracking_is_a_step_limit_not_a_hang(
    #[case] grammar: &'static str,
    #[case] rule: &'static str,
    #[case] input: String,
) {
    let error = on_worker(move || {
        let grammar = Grammar::load(grammar).unwrap();
        assert!(grammar.entry(rule).unwrap().is_compiled());
        match grammar.parse(rule, &input) {
            Err(RuntimeParseError::Parse(p)) => p,
            other => panic!("{:?}", other.map(|_| ())),
        }
    });
    assert_eq!(error.kind(), ParseErrorKind::LimitReached);
    assert!(error.to_string().contains("step limit"), "{error}");
}

/// The same grammar on a short input, well within its budget, is matched and explained as before.
#[test]
fn a_pathological_grammar_on_a_short_input_is_matched_in_full() {
    let grammar =
        Grammar::load("r = { \"x\" ~ r ~ \"a\" | \"x\" ~ r ~ \"b\" | \"x\" }\nall = { r ~ \"c\" }")
            .unwrap();
    assert!(grammar.parse("all", "xxxbac").is_ok());
    let error = match grammar.parse("all", "xxxxxxxxc!") {
        Err(RuntimeParseError::Parse(p)) => p,
        other => panic!("{:?}", other.map(|_| ())),
    };
    assert_eq!(error.kind(), ParseErrorKind::Unexpected);
}

/// The deepest diamond (`d_i = d_{i+1} ~ "x" | d_{i+1} ~ "y"`) the limits let through: 2^n paths
/// through n rules. The program is lowered once per expression (not per path), so it loads, runs on the
/// compiled engine, and says what pest_vm says, but where it would try all 2^n paths: there it stops at
/// its step budget.
#[test]
fn the_deepest_diamond_within_the_limits_compiles_and_agrees_with_pest_vm() {
    let diamond = |n: usize| {
        (0..n)
            .map(|i| format!("d{i} = {{ d{j} ~ \"x\" | d{j} ~ \"y\" }}\n", j = i + 1))
            .collect::<String>()
            + &format!("d{n} = {{ \"a\" }}\n")
    };
    let (n, grammar) = (1..20)
        .rev()
        .find_map(|n| Grammar::load(&diamond(n)).ok().map(|g| (n, g)))
        .expect("a diamond within the limits");
    assert!(n >= 8, "{n}");
    let entry = grammar.entry("d0").expect("d0");
    assert!(entry.is_compiled());
    let good = format!("a{}", "xy".repeat(n).get(..n).unwrap_or(""));
    assert!(entry.parse(&good).is_ok(), "{good}");
    // A rejection that fails at the bottom of the diamond tries all 2^n paths: the engine stops at its
    // step budget there (pest_vm, which has none, runs them all); elsewhere both say the same.
    let mut compared = 0;
    for input in [
        good.clone(),
        format!("{good}x"),
        "a".to_string(),
        format!("b{good}"),
    ] {
        let engine = entry.parse(&input).map_err(|e| (e.offset(), e.kind()));
        if matches!(engine, Err((_, ParseErrorKind::LimitReached))) {
            assert!(
                n >= 12,
                "{n} levels (2^{n} paths) within the step budget: {input}"
            );
            continue;
        }
        compared += 1;
        assert_eq!(
            engine,
            entry
                .parse_with_reference(&input)
                .map_err(|e| (e.offset(), e.kind())),
            "{input}"
        );
    }
    assert!(compared >= 2, "{compared}");
}

/// Choices that call choices: the flattening of alternatives through rule calls stops at 256 of them
/// (a choice of 8 rules of 8 rules of 8 rules would be 512), and the match is still exact.
#[test]
fn choices_of_choices_flatten_to_a_bounded_list_and_stay_exact() {
    let mut text = String::new();
    for a in 0..8 {
        for b in 0..8 {
            let leaves: Vec<String> = (0..8).map(|c| format!("\"{a}{b}{c}\"")).collect();
            text.push_str(&format!("l{a}{b} = {{ {} }}\n", leaves.join(" | ")));
        }
        let mids: Vec<String> = (0..8).map(|b| format!("l{a}{b}")).collect();
        text.push_str(&format!("m{a} = _{{ {} }}\n", mids.join(" | ")));
    }
    let tops: Vec<String> = (0..8).map(|a| format!("m{a}")).collect();
    text.push_str(&format!("top = {{ ({})+ }}\n", tops.join(" | ")));
    let grammar = Grammar::load(&text).expect("loads");
    let entry = grammar.entry("top").expect("top");
    assert!(entry.is_compiled());
    for input in ["000", "777", "000777123", "0007771239", "8", ""] {
        assert_eq!(
            entry
                .parse(input)
                .map(|_| ())
                .map_err(|e| (e.offset(), e.expected().len())),
            entry
                .parse_with_reference(input)
                .map(|_| ())
                .map_err(|e| (e.offset(), e.expected().len())),
            "{input}"
        );
    }
}

/// Found by fuzzing `grammar_text`: pest_meta backtracks through every nested `/*` of a comment that is
/// never closed, in time exponential in the nesting (30 s for 10 KB). The limits refuse it first, at
/// the comment's line and column.
#[rstest]
#[case::one("a = { \"x\" }\n/* never closed\nb = { \"y\" }\n", 2, 1)]
#[case::nested_doc_comments(
    format!("a = {{ \"x\" }}\n{}", "/*! The \"http\" scheme, as a restriction of\n".repeat(40)),
    2,
    1
)]
#[case::closed_once_of_many(format!("a = {{ \"x\" }} {}*/\n", "/* /*".repeat(20)), 1, 13)]
fn an_unclosed_comment_is_refused_at_its_start(
    #[case] text: String,
    #[case] line: usize,
    #[case] column: usize,
) {
    let (l, col, m) = on_worker(move || refused(&text));
    assert!(m.contains("not closed"), "{m}");
    assert_eq!((l, col), (line, column), "{m}");
}

#[rstest]
// pest_meta panics on these ("Expected prefix or primary expression, found |"); found by fuzzing.
#[case::in_parentheses("a = { (| \"x\") }\n", 1, 8)]
#[case::under_a_predicate("a = { \"y\" ~ !(| \"x\" | \"z\") }\n", 1, 15)]
#[case::after_a_comment("a = { ( /* c */\n  | \"x\") }\n", 2, 3)]
fn a_leading_bar_inside_parentheses_is_refused_where_it_is(
    #[case] text: &str,
    #[case] line: usize,
    #[case] column: usize,
) {
    let text = text.to_string();
    let (l, col, m) = on_worker(move || refused(&text));
    assert!(m.contains("opens a parenthesized choice"), "{m}");
    assert_eq!((l, col), (line, column), "{m}");
}

#[test]
fn a_leading_bar_at_the_top_of_a_rule_still_loads() {
    let grammar = rfc3986::runtime::Grammar::load("a = { | \"x\" | \"y\" }").expect("loads");
    assert!(grammar.entry("a").expect("rule").parse("y").is_ok());
}

/// A rule that refers to itself inside nested `+` (found by the `grammar_text` fuzzer: 116 bytes that
/// took 31 s to load): pest_meta's `restore_on_err` walks the whole rule again from every repetition in
/// it, which costs the square of its unrolled size. Refused at the rule when the count of
/// `MAX_REACH_WORK` is over its limit; the same rule with fewer `+` loads.
#[rstest]
#[case::recursive_rule_with_9_nested_plus("/// a\na = { \"x\" ~ !a+++++++++? }", 2, 1)]
#[case::two_recursive_copies_in_a_non_atomic_rule(
    "/// a\na = !{ \"x\" ~ !a++++++++? ~ !a++++++++? }",
    2,
    1
)]
#[case::found_by_the_fuzzer(
    "a=!{ \"+++++++++++++++++++++++//++// overlarlay++++++++++++++++++i\u{3}\u{1e}d\u{3}igt\" ~!a++++++++++//a\r\n?  ~!a++++++++++//a\r\n? }",
    1,
    1
)]
fn a_recursive_rule_in_nested_repetitions_is_refused(
    #[case] text: &str,
    #[case] line: usize,
    #[case] column: usize,
) {
    let (l, c, message) = on_worker({
        let text = text.to_string();
        move || refused(&text)
    });
    assert_eq!((l, c), (line, column), "{message}");
    assert!(
        message.contains("refers to itself inside nested repetitions"),
        "{message}"
    );
}

#[test]
fn a_recursive_rule_with_fewer_nested_plus_loads() {
    let grammar = on_worker(|| Grammar::load("/// a\na = { \"x\" ~ !a++++++++? }").is_ok());
    assert!(grammar);
}
