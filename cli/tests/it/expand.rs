//! `rfc3986 expand`: URI Templates (RFC 6570) expanded from the command line, over the RFC's examples
//! (the uritemplate-test vectors in tests/data), and the results checked by `rfc3986 check`.

use crate::common;

use common::{repository_root, spawn};
use rstest::rstest;
use serde_json::Value;

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Every example of RFC 6570 (by level and by section): `expand --vars FILE -` over the templates of a
/// group gives one of the expected expansions per line, exit 0, and `check` accepts every line.
#[rstest]
#[case::rfc6570_examples_by_level("spec-examples.json")]
#[case::rfc6570_examples_by_section("spec-examples-by-section.json")]
fn expand_rfc6570_examples_then_check(#[case] file: &str) {
    let path = repository_root()
        .join("tests/data/uritemplate-test")
        .join(file);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dir = std::env::temp_dir().join(format!("rfc3986-expand-{}-{file}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut all = String::new();
    for (i, (group, body)) in json.as_object().unwrap().iter().enumerate() {
        let vars = dir.join(format!("{file}-{i}.json"));
        std::fs::write(&vars, body["variables"].to_string()).unwrap();
        let cases = body["testcases"].as_array().unwrap();
        let templates: String = cases
            .iter()
            .map(|c| format!("{}\n", c[0].as_str().unwrap()))
            .collect();
        let output = spawn(
            &["expand", "--vars", vars.to_str().unwrap(), "-"],
            templates.as_bytes(),
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{group}: {}",
            stderr(&output)
        );
        let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), cases.len(), "{group}");
        for (case, line) in cases.iter().zip(&lines) {
            let ok = match &case[1] {
                Value::String(s) => s == line,
                Value::Array(options) => options.iter().any(|o| o == line),
                other => panic!("{other}"),
            };
            assert!(ok, "{group} {}: got {line}, expected {}", case[0], case[1]);
        }
        all.push_str(&stdout(&output));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let checked = spawn(&["check"], all.as_bytes());
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
}

#[rstest]
#[case::rfc6570_3_2_8_form_query(
    &["http://example.com/search{?q,lang}", "q=caf\u{e9} au lait", "lang=fr"],
    "http://example.com/search?q=caf%C3%A9%20au%20lait&lang=fr\n"
)]
#[case::rfc6570_3_2_2_simple(&["{var}", "var=value"], "value\n")]
#[case::undefined_variable(&["/a{?x}"], "/a\n")]
#[case::later_assignment_wins(&["{x}", "x=1", "x=2"], "2\n")]
#[case::empty_value(&["{?x}", "x="], "?x=\n")]
fn expand_arguments(#[case] args: &[&str], #[case] expected: &str) {
    let mut all = vec!["expand"];
    all.extend_from_slice(args);
    let output = spawn(&all, b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), expected);
}

#[test]
fn expand_vars_keep_file_order_and_types() {
    let dir = std::env::temp_dir().join(format!("rfc3986-expand-vars-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vars = dir.join("v.json");
    std::fs::write(
        &vars,
        r#"{"keys": {"semi": ";", "dot": "."}, "list": ["a", "b"], "n": 6, "t": true, "u": null}"#,
    )
    .unwrap();
    let output = spawn(
        &[
            "expand",
            "--vars",
            vars.to_str().unwrap(),
            "/x{/list*}{?keys*,n,t,u}",
        ],
        b"",
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "/x/a/b?semi=%3B&dot=.&n=6&t=true\n");
}

#[rstest]
#[case::unclosed_expression("/x{var", 7)]
#[case::reserved_operator("{=var}", 2)]
#[case::lone_brace("a}", 2)]
fn expand_invalid_template(#[case] template: &str, #[case] column: usize) {
    let output = spawn(&["expand", template], b"");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    let err = stderr(&output);
    assert!(
        err.starts_with(&format!("<argument>:1:{column}: error: ")),
        "{err}"
    );
    assert!(err.contains("RFC 6570"), "{err}");
}

/// A syntax error says, besides the expected items, what to do in words (the grammar's hint), checked
/// against RFC 6570: a varname character after `,` (2.3), and `}` outside an expression is not a literal
/// (2.1).
#[rstest]
#[case::empty_varspec("{a,,b}", "<argument>:1:4: ", "a varname is expected here")]
#[case::lone_closing_brace("foo}bar", "<argument>:1:4: ", "percent-encoded as %7D")]
fn expand_syntax_error_has_the_hint(#[case] template: &str, #[case] at: &str, #[case] hint: &str) {
    let output = spawn(&["expand", template], b"");
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.starts_with(at), "{err}");
    assert!(err.contains(hint), "{err}");
}

/// Reserved expansion keeps `[` and `]`: the result is not a URI reference, and `expand` says so.
#[test]
fn expand_result_not_a_uri_reference() {
    let output = spawn(&["expand", "/p/{+x}", "x=[a]"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("the expansion of the template is not a URI-reference"),
        "{}",
        stderr(&output)
    );
    // --rule URI asks for a scheme.
    let output = spawn(&["expand", "--rule", "URI", "/a"], b"");
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn expand_json_one_record_per_template() {
    let output = spawn(
        &["expand", "--format", "json", "-", "x=1"],
        b"/a{?x}\n\n{=y}\n/p/{+z}\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let records: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["line"], 1);
    assert_eq!(records[0]["expanded"], "/a?x=1");
    assert_eq!(records[0]["valid"], true);
    // The blank line is the empty template.
    assert_eq!(records[1]["line"], 2);
    assert_eq!(records[1]["expanded"], "");
    assert_eq!(records[2]["line"], 3);
    assert_eq!(records[2]["expanded"], Value::Null);
    assert_eq!(records[2]["template_error"]["offset"], 1);
    assert_eq!(records[3]["line"], 4);
    assert_eq!(records[3]["expanded"], "/p/");
    assert_eq!(records[3]["valid"], true);
}

/// A blank line of standard input is the empty template, valid (RFC 6570 2: `*( literals / expression )`)
/// and expanded to the empty string: not skipped, but an empty line of output in text and a record with
/// its line number in JSON (issue 13), the lines around it unchanged. Under `--rule URI` the empty
/// expansion is not a URI, and the blank line is reported at its line.
#[rstest]
#[case::text(&["expand", "-", "x=1"][..], b"/a{x}\n\n/b{x}\n" as &[u8], "/a1\n\n/b1\n", 0)]
#[case::json(
    &["expand", "--format", "json", "-", "x=1"][..],
    b"/a{x}\n\n/b{x}\n",
    concat!(
        r#"{"line":1,"template":"/a{x}","expanded":"/a1","valid":true,"template_error":null,"error":null}"#,
        "\n",
        r#"{"line":2,"template":"","expanded":"","valid":true,"template_error":null,"error":null}"#,
        "\n",
        r#"{"line":3,"template":"/b{x}","expanded":"/b1","valid":true,"template_error":null,"error":null}"#,
        "\n",
    ),
    0
)]
#[case::rule_uri(&["expand", "--rule", "URI", "-"][..], b"x:a\n\n", "x:a\n", 1)]
fn expand_gives_a_blank_line_its_record(
    #[case] args: &[&str],
    #[case] stdin: &[u8],
    #[case] expected: &str,
    #[case] code: i32,
) {
    let output = spawn(args, stdin);
    assert_eq!(stdout(&output), expected);
    assert_eq!(output.status.code(), Some(code), "{}", stderr(&output));
    if code == 1 {
        let err = stderr(&output);
        assert!(err.starts_with("<stdin>:2:1: error: "), "{err}");
    }
}

#[rstest]
#[case::assignment_without_equals(&["expand", "{x}", "x"])]
#[case::missing_vars_file(&["expand", "--vars", "/nonexistent/v.json", "{x}"])]
fn expand_usage_errors(#[case] args: &[&str]) {
    let output = spawn(args, b"");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

/// The template grammar is built in: `check --grammar uri-template` (start rule `URI-Template`).
#[test]
fn check_grammar_uri_template_builtin() {
    let output = spawn(
        &["check", "--grammar", "uri-template"],
        b"https://example.com/{query}\n/users/{id}{?fields*}\n/a{b\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    assert!(out.starts_with("<stdin>:3:5: error: "), "{out}");
    assert_eq!(out.matches("error:").count(), 1, "{out}");
}
