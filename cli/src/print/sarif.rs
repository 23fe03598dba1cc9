//! `--format sarif`: one SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format) on standard
//! output, for code scanning: one run of the tool `rfc3986`, its rules (`syntax` for a grammar error,
//! each lint code of [`rfc3986::lint::Code`], `repair` for `fix`'s repairs), and one result per finding.
//!
//! The log is written as the results come, not held: [`header`], then each result ([`result`], after a
//! `,` but the first), then [`footer`]. Columns count Unicode code points (`columnKind`
//! `unicodeCodePoints`); a file is named by a relative URI reference, its path percent-encoded
//! (RFC 3986 3.3). Strings go through the JSON printer ([`crate::print::json`]).

use std::io::{self, Write};

use serde::Serialize;

use crate::report::{CiRecord, SYNTAX_RULE};

/// The rule id of `fix`'s repairs.
pub(crate) const REPAIR_RULE: &str = "repair";

/// Writes the log up to the opening of the results array.
pub(crate) fn header(out: &mut impl Write) -> io::Result<()> {
    let mut rules = vec![Rule {
        id: SYNTAX_RULE,
        short_description: Text {
            text: "not in the language of the grammar rule (RFC 3986 Appendix A)".into(),
        },
    }];
    for code in rfc3986::lint::Code::ALL {
        rules.push(Rule {
            id: code.as_str(),
            short_description: Text {
                text: format!("{} (RFC 3986 {})", code.as_str(), code.section()),
            },
        });
    }
    rules.push(Rule {
        id: REPAIR_RULE,
        short_description: Text {
            text: "an unambiguous repair by percent-encoding (RFC 3986 2.1)".into(),
        },
    });
    let driver = Driver {
        name: "rfc3986",
        version: env!("CARGO_PKG_VERSION"),
        information_uri: "https://www.rfc-editor.org/rfc/rfc3986",
        rules,
    };
    let mut text = Vec::new();
    serde_json::to_writer(&mut text, &driver)?;
    write!(
        out,
        "{{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\
         \"runs\":[{{\"tool\":{{\"driver\":"
    )?;
    out.write_all(&text)?;
    out.write_all(b"},\"columnKind\":\"unicodeCodePoints\",\"results\":[\n")
}

/// Writes one result, after a `,` unless it is the first; a line of its own.
pub(crate) fn result(out: &mut impl Write, record: &CiRecord, first: bool) -> io::Result<()> {
    if !first {
        out.write_all(b",")?;
    }
    let uri = rfc3986::percent::encode(&record.source, rfc3986::percent::Component::Path);
    let result = ResultJson {
        rule_id: record.rule,
        level: record.level,
        message: Text {
            text: record.message.clone(),
        },
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri: &uri },
                region: Region {
                    start_line: record.line.max(1),
                    start_column: record.column.max(1),
                    end_column: record.end_column.max(record.column).max(1),
                },
            },
        }],
    };
    crate::print::json(out, false, &result)
}

/// Closes the results, the run and the log.
pub(crate) fn footer(out: &mut impl Write) -> io::Result<()> {
    out.write_all(b"]}]}\n")
}

#[derive(Serialize)]
struct Driver {
    name: &'static str,
    version: &'static str,
    #[serde(rename = "informationUri")]
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
struct Rule {
    id: &'static str,
    #[serde(rename = "shortDescription")]
    short_description: Text,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct ResultJson<'a> {
    #[serde(rename = "ruleId")]
    rule_id: &'a str,
    level: &'a str,
    message: Text,
    locations: [Location<'a>; 1],
}

#[derive(Serialize)]
struct Location<'a> {
    #[serde(rename = "physicalLocation")]
    physical_location: PhysicalLocation<'a>,
}

#[derive(Serialize)]
struct PhysicalLocation<'a> {
    #[serde(rename = "artifactLocation")]
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
struct Region {
    #[serde(rename = "startLine")]
    start_line: u64,
    #[serde(rename = "startColumn")]
    start_column: usize,
    #[serde(rename = "endColumn")]
    end_column: usize,
}
