//! `--format github` and `--format sarif` of `check` and `fix`: workflow commands one per finding, and a
//! SARIF 2.1.0 log valid against the official schema (`tests/data/sarif-schema-2.1.0.json`).

use rstest::rstest;
use serde_json::Value;

use crate::common;

const INPUT: &str =
    "http://a/ok\nhttp://a/b c\nHTTP://a:80/\n\nhttp://h/\u{e9}/x y{z}\nhttp://u:p%00w@h/ x\n";

/// The SARIF schema, compiled once per test.
fn validate_sarif(log: &Value) {
    let schema: Value =
        serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    let url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
    compiler.add_resource(url, schema).unwrap();
    let index = compiler.compile(url, &mut schemas).unwrap();
    if let Err(e) = schemas.validate(log, index) {
        panic!("not valid SARIF 2.1.0: {e:#}\n{log:#}");
    }
}

#[rstest]
#[case::check(&["check"], 3)]
#[case::check_parallel(&["check", "-j", "2"], 3)]
#[case::fix(&["fix"], 5)]
fn sarif_is_valid_and_has_every_finding(#[case] args: &[&str], #[case] results: usize) {
    let mut args = args.to_vec();
    args.extend(["--format", "sarif"]);
    let output = common::spawn(&args, INPUT.as_bytes());
    let log: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    validate_sarif(&log);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "rfc3986");
    let found = run["results"].as_array().unwrap();
    assert!(found.len() >= results, "{found:#?}");
    let first = &found[0]["locations"][0]["physicalLocation"];
    assert_eq!(first["artifactLocation"]["uri"], "%3Cstdin%3E");
    // No password character said, in any result.
    assert!(!String::from_utf8_lossy(&output.stdout).contains("%00"));
    // Every rule a result names is declared.
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for result in found {
        assert!(
            rules.contains(&result["ruleId"].as_str().unwrap()),
            "{result}"
        );
    }
}

#[test]
fn sarif_of_no_finding_is_an_empty_log() {
    let output = common::spawn(&["check", "--format", "sarif"], b"http://a/\n");
    assert_eq!(output.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&output.stdout).unwrap();
    validate_sarif(&log);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn github_annotations_one_per_finding() {
    let output = common::spawn(&["check", "--format", "github"], INPUT.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("::error file=<stdin>,line=2,col=11,endColumn=12,title=rfc3986 syntax::space not allowed here"),
        "{stdout}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("::warning file=<stdin>,line=3,")
                && l.contains("title=rfc3986 scheme-not-lowercase")),
        "{stdout}"
    );
    // Every line is one command; `%` in a message is encoded.
    assert!(lines.iter().all(|l| l.starts_with("::")), "{stdout}");
    let output = common::spawn(&["fix", "--format", "github"], INPUT.as_bytes());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("::notice file=<stdin>,line=2,col=11"),
        "{stdout}"
    );
    assert!(stdout.contains("-> %2520"), "{stdout}");
}
