//! `rfc3986 grammar ...` and `parse --tree`: exit statuses, one JSON record per line, hostile grammar files.

use crate::common::{spawn, spawn_at_root};
use rstest::rstest;

#[rstest]
#[case::lint_clean(&["grammar", "lint", "docs/examples/http-profile.pest"], 0)]
#[case::lint_explained_only(&["grammar", "lint", "uri", "iri", "zone-id", "uri-template", "http", "urn"], 0)]
#[case::lint_traps(&["grammar", "lint", "docs/examples/http-profile-draft.pest"], 1)]
#[case::lint_missing_file(&["grammar", "lint", "no/such.pest"], 2)]
#[case::show_unknown(&["grammar", "show", "nope"], 2)]
#[case::export_ok(&["grammar", "export", "--rule", "IPv4address", "--flavor", "re2"], 0)]
#[case::export_refused(&["grammar", "export", "--grammar", "urn", "--rule", "nid", "--flavor", "re2"], 1)]
#[case::export_unknown_rule(&["grammar", "export", "--rule", "nope", "--flavor", "re2"], 2)]
#[case::export_over_cap(&["grammar", "export", "--rule", "URI-reference", "--flavor", "re2", "--max-bytes", "100"], 1)]
#[case::diff_same(&["grammar", "diff", "uri", "uri", "data/real-uris-sample.txt"], 0)]
#[case::diff_changed(&["grammar", "diff", "uri", "iri", "data/real-uris-sample.txt"], 1)]
fn exit_status(#[case] args: &[&str], #[case] status: i32) {
    let out = spawn_at_root(args, b"");
    assert_eq!(
        out.status.code(),
        Some(status),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn export_refusal_names_the_rule_and_construct() {
    // urn's nid uses a lookahead (`&ldh`), which RE2 does not have.
    let out = spawn_at_root(
        &[
            "grammar",
            "export",
            "--grammar",
            "urn",
            "--rule",
            "nid",
            "--flavor",
            "re2",
        ],
        b"",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rule `nid`") && err.contains("lookahead"),
        "{err}"
    );
    let over = spawn_at_root(
        &[
            "grammar",
            "export",
            "--rule",
            "URI-reference",
            "--flavor",
            "re2",
            "--max-bytes",
            "100",
        ],
        b"",
    );
    assert!(String::from_utf8_lossy(&over.stderr).contains("over the cap of 100 bytes"));
}

#[test]
fn diff_json_is_one_record_per_changed_line() {
    let input = b"http://a/\nhttp://r\xc3\xa9sum\xc3\xa9/\n\nhttp://b c/\n#\xc3\xa9\n";
    let out = spawn(
        &["grammar", "diff", "uri", "iri", "--format", "json"],
        input,
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[0]["change"], "now-valid");
    assert_eq!(lines[0]["old"]["valid"], false);
    assert_eq!(lines[0]["old"]["error"]["offset"], 8);
    assert_eq!(lines[1]["line"], 5);
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 now valid"));
}

#[test]
fn parse_tree_json_is_one_record_per_line_errors_included() {
    let out = spawn(
        &["parse", "--tree", "--format", "json", "--rule", "URI"],
        b"http://a/b\nhttp://a/b c\n",
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[0]["tree"][0]["rule"], "URI");
    assert_eq!(lines[0]["tree"][0]["end"], 10);
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["error"]["offset"], 10);
    assert_eq!(out.status.code(), Some(1));
}

/// Issue 30: a line longer than pest_vm's 64 KiB gets its tree, streamed into its one record; a
/// rejected one the tree of the prefix that matched, then its error. RFC 3986 4.2 and 3.3: `a...a` is
/// URI-reference > relative-ref > relative-part > path-noscheme > segment-nz-nc, an unreserved > ALPHA
/// per `a`.
#[test]
fn parse_tree_of_a_long_line_is_streamed() {
    let n = 200_000;
    let mut input = "a".repeat(n).into_bytes();
    input.push(b'\n');
    input.extend_from_slice("a".repeat(n).as_bytes());
    input.extend_from_slice(b" b\nhttp://a/\n");
    let out = spawn(&["parse", "--tree", "--format", "json"], &input);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (record, line) in lines.iter().zip(1..) {
        assert_eq!(record["line"], line);
    }
    for record in &lines[..2] {
        let tree = record["tree"].as_array().unwrap();
        assert_eq!(tree.len(), 5 + 2 * n);
        assert_eq!(record["truncated"], false);
        let spine = [
            "URI-reference",
            "relative-ref",
            "relative-part",
            "path-noscheme",
            "segment-nz-nc",
        ];
        for (depth, (node, rule)) in tree.iter().zip(spine).enumerate() {
            assert_eq!(
                (&node["rule"], &node["start"], &node["end"]),
                (&rule.into(), &0.into(), &n.into())
            );
            assert_eq!(node["depth"], depth);
        }
        let last = &tree[tree.len() - 1];
        assert_eq!(
            (&last["rule"], &last["start"], &last["end"], &last["depth"]),
            (&"ALPHA".into(), &(n - 1).into(), &n.into(), &6.into())
        );
    }
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[0]["error"], serde_json::Value::Null);
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["error"]["offset"], n);
    assert_eq!(lines[2]["valid"], true);
    assert_eq!(out.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn a_fifo_as_grammar_is_refused() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let fifo = dir.join(format!("grammar-fifo-{}.pest", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped: mkfifo not available");
        return;
    }
    for args in [
        vec!["grammar", "lint"],
        vec![
            "grammar",
            "export",
            "--rule",
            "x",
            "--flavor",
            "re2",
            "--grammar",
        ],
        vec!["grammar", "diff", "uri"],
    ] {
        let mut args: Vec<&str> = args;
        let path = fifo.to_str().unwrap();
        args.push(path);
        let out = spawn(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    }
    let _ = std::fs::remove_file(&fifo);
}
