//! Exported regular expressions run in each flavor's own engine, against the recognizer: on the lines
//! of `data/real-uris-sample.txt` and on near-misses generated from them (one character removed,
//! inserted or replaced at every position). Engines: the `regex` crate (RE2 syntax), PCRE2 (the
//! `pcre2` crate), Python's `re` (python3), Node's `RegExp` with the `u` flag (ECMAScript; it must also
//! compile with the `v` flag of HTML `pattern`, where Node has it) and
//! `grep -E` (POSIX ERE). An engine that is not installed is skipped with a printed reason.
#![cfg(feature = "runtime-grammar")]

use std::io::Write as _;
use std::process::{Command, Stdio};

use rfc3986::runtime::workbench::{export, Flavor, GrammarText};
use rstest::rstest;

/// Lines of the shipped sample, and near-misses of the first `near` of them.
fn inputs(near: usize) -> Vec<String> {
    let sample = include_str!("../../data/real-uris-sample.txt");
    let lines: Vec<&str> = sample.lines().collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    // Characters that change the split or the validity: delimiters, "%", a space, a non-ASCII letter.
    let edits = [
        '%', ':', '/', '@', '[', ']', '#', '?', '|', ' ', 'é', '0', 'a',
    ];
    for line in lines.iter().take(near) {
        let chars: Vec<char> = line.chars().collect();
        for i in 0..=chars.len() {
            if i < chars.len() {
                let mut v = chars.clone();
                v.remove(i);
                out.push(v.into_iter().collect());
            }
            for &e in &edits {
                let mut v = chars.clone();
                v.insert(i, e);
                out.push(v.iter().collect());
                if i < chars.len() && chars[i] != e {
                    let mut v = chars.clone();
                    v[i] = e;
                    out.push(v.into_iter().collect());
                }
            }
        }
    }
    out.retain(|s| !s.contains(['\n', '\r', '\0']));
    out.sort();
    out.dedup();
    out
}

/// Each input's verdict in an external engine run by `program` with `args`, reading the pattern and
/// then the inputs (one JSON string per line) on standard input and writing `1`/`0` per input; `Err`
/// with the reason when the program cannot be run.
fn external(
    program: &str,
    args: &[&str],
    pattern: &str,
    inputs: &[String],
) -> Result<Vec<bool>, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program} not available: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let payload = {
        let mut s = serde_json::to_string(pattern).unwrap();
        s.push('\n');
        for i in inputs {
            s.push_str(&serde_json::to_string(i).unwrap());
            s.push('\n');
        }
        s
    };
    let writer = std::thread::spawn(move || stdin.write_all(payload.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    writer.join().unwrap().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "{program} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let verdicts: Vec<bool> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l == "1")
        .collect();
    assert_eq!(
        verdicts.len(),
        inputs.len(),
        "{program} answered every input"
    );
    Ok(verdicts)
}

const PYTHON: &str = "import json, re, sys\n\
lines = sys.stdin.read().split('\\n')\n\
p = re.compile(json.loads(lines[0]))\n\
out = ['1' if p.match(json.loads(l)) else '0' for l in lines[1:] if l]\n\
sys.stdout.write('\\n'.join(out) + ('\\n' if out else ''))\n";

const NODE: &str = "const lines = require('fs').readFileSync(0, 'utf8').split('\\n');\n\
const re = new RegExp(JSON.parse(lines[0]), 'u');\n\
try { new RegExp(JSON.parse(lines[0]), 'v'); } catch (e) { if (!(e instanceof SyntaxError) || !/flag/i.test(e.message)) throw e; }\n\
const out = lines.slice(1).filter(l => l).map(l => re.test(JSON.parse(l)) ? '1' : '0');\n\
process.stdout.write(out.join('\\n') + (out.length ? '\\n' : ''));\n";

/// `grep -E` on a file of the inputs: the numbers of the lines it selects.
fn grep(pattern: &str, inputs: &[String]) -> Result<Vec<bool>, String> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("workbench-grep-{}.txt", std::process::id()));
    std::fs::write(&path, inputs.join("\n") + "\n").map_err(|e| e.to_string())?;
    let output = Command::new("grep")
        .env("LC_ALL", "C.UTF-8")
        .args(["-E", "-n", "-e", pattern])
        .arg(&path)
        .output()
        .map_err(|e| format!("grep not available: {e}"))?;
    let _ = std::fs::remove_file(&path);
    assert_ne!(
        output.status.code(),
        Some(2),
        "grep -E refused the expression: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut verdicts = vec![false; inputs.len()];
    for l in String::from_utf8_lossy(&output.stdout).lines() {
        let n: usize = l.split(':').next().unwrap().parse().unwrap();
        verdicts[n - 1] = true;
    }
    Ok(verdicts)
}

fn engine(flavor: Flavor, pattern: &str, inputs: &[String]) -> Result<Vec<bool>, String> {
    match flavor {
        Flavor::Re2 => {
            let re = regex::Regex::new(pattern).map_err(|e| e.to_string())?;
            Ok(inputs.iter().map(|i| re.is_match(i)).collect())
        }
        Flavor::Pcre2 => {
            let re = pcre2::bytes::RegexBuilder::new()
                .utf(true)
                .jit_if_available(true)
                // The default JIT stack (32 KiB) is too small for the alternation inside a repetition
                // on a long input ("JIT stack limit reached"); users of long inputs need the same.
                .max_jit_stack_size(Some(8 << 20))
                .build(pattern)
                .map_err(|e| e.to_string())?;
            Ok(inputs
                .iter()
                .map(|i| re.is_match(i.as_bytes()).unwrap())
                .collect())
        }
        Flavor::Python => external("python3", &["-c", PYTHON], pattern, inputs),
        Flavor::EcmaScript => external("node", &["-e", NODE], pattern, inputs),
        Flavor::PosixEre => grep(pattern, inputs),
    }
}

/// The exported `URI-reference` (uri.pest), `IRI-reference` (iri.pest), zone-id's `URI-reference` and
/// the http, file and data scheme grammars' `scheme_uri` agree with the recognizer (the loaded grammar)
/// on every input, in the flavor's engine.
#[rstest]
#[case::uri_ecmascript("uri", "URI-reference", Flavor::EcmaScript)]
#[case::uri_pcre2("uri", "URI-reference", Flavor::Pcre2)]
#[case::uri_python("uri", "URI-reference", Flavor::Python)]
#[case::uri_re2("uri", "URI-reference", Flavor::Re2)]
#[case::uri_posix_ere("uri", "URI-reference", Flavor::PosixEre)]
#[case::iri_ecmascript("iri", "IRI-reference", Flavor::EcmaScript)]
#[case::iri_python("iri", "IRI-reference", Flavor::Python)]
#[case::iri_re2("iri", "IRI-reference", Flavor::Re2)]
#[case::iri_pcre2("iri", "IRI-reference", Flavor::Pcre2)]
#[case::zone_id_re2("zone-id", "URI-reference", Flavor::Re2)]
#[case::http_re2("http", "scheme_uri", Flavor::Re2)]
#[case::http_python("http", "scheme_uri", Flavor::Python)]
#[case::file_re2("file", "scheme_uri", Flavor::Re2)]
#[case::data_re2("data", "scheme_uri", Flavor::Re2)]
fn exported_expression_agrees_with_the_recognizer(
    #[case] grammar: &str,
    #[case] rule: &str,
    #[case] flavor: Flavor,
) {
    let inputs = inputs(60);
    let text = GrammarText::named_or_file(grammar).unwrap();
    let exported = export(&text, rule, flavor, 1 << 20).unwrap();
    let loaded = text.load().unwrap();
    let entry = loaded.entry(rule).unwrap();
    let expected: Vec<bool> = inputs
        .iter()
        .map(|i| {
            if grammar == "uri" {
                rfc3986::is_valid(rfc3986::Rule::URI_REFERENCE, i)
            } else {
                entry.parse(i).is_ok()
            }
        })
        .collect();
    let got = match engine(flavor, &exported.pattern, &inputs) {
        Ok(v) => v,
        Err(reason) => {
            println!("SKIPPED {grammar} {rule} {}: {reason}", flavor.name());
            return;
        }
    };
    let disagree: Vec<(&String, bool)> = inputs
        .iter()
        .zip(expected.iter().zip(&got))
        .filter(|(_, (e, g))| e != g)
        .map(|(i, (e, _))| (i, *e))
        .take(10)
        .collect();
    let valid = expected.iter().filter(|v| **v).count();
    println!(
        "{grammar} {rule} {}: {} bytes; {} inputs ({valid} valid, {} invalid): {} agree",
        flavor.name(),
        exported.pattern.len(),
        inputs.len(),
        inputs.len() - valid,
        inputs.len() - disagree.len()
    );
    assert!(
        disagree.is_empty(),
        "disagreements (input, recognizer): {disagree:?}"
    );
}

/// POSIX ERE has no portable range of non-ASCII characters: the IRI grammar is refused, with why.
#[test]
fn posix_ere_refuses_non_ascii_ranges() {
    let iri = GrammarText::named_or_file("iri").unwrap();
    match export(&iri, "IRI-reference", Flavor::PosixEre, 1 << 20) {
        Err(rfc3986::runtime::workbench::ExportError::Refused { why, .. }) => {
            assert!(why.contains("collation"), "{why}");
        }
        other => panic!("{other:?}"),
    }
}
