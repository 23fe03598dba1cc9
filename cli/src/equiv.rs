//! `rfc3986 equiv [--level syntax|scheme] [--format text|json] [A B]`: whether two URI references are
//! equivalent at a level of the comparison ladder of RFC 3986 section 6.2. Prints `equivalent` or `not
//! equivalent` and exits 0 or 1; an input that is not a `URI-reference` is reported and exits 2, as `cmp`
//! and `diff` do for trouble, so that 1 always means "valid and different". Without A and B, reads
//! `A<TAB>B` lines from standard input and answers each (exit 0 when all pairs are equivalent); a line
//! without a tab, a blank one included, is an error (exit 2).

use std::ffi::OsString;
use std::io;

use rfc3986::normalize::{equivalent_with, Level, Options};
use rfc3986::{ParseError, Rule, UriRef};
use serde::Serialize;

use super::input;
use super::normalize::LevelArg;
use super::print::Printer;
use super::report::Format;
use super::report::{self, Diagnostic, ErrorJson};
use super::Status;

/// Arguments of `rfc3986 equiv`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The level of the comparison ladder (RFC 3986 6.2) at which to compare.
    #[arg(long, value_enum, default_value_t = LevelArg::Scheme)]
    level: LevelArg,

    /// Also compare IPv6 hosts by their RFC 5952 canonical text (`[2001:db8:0::1]` = `[2001:db8::1]`).
    #[arg(long)]
    ipv6_rfc5952: bool,

    /// A scheme's default port for `--level scheme` (RFC 3986 6.2.3), added to (or replacing) the built-in
    /// ones; repeatable: `--default-port gopher=70`.
    #[arg(long, value_name = "SCHEME=PORT", value_parser = super::normalize::parse_default_port)]
    default_port: Vec<(String, u16)>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    #[command(flatten)]
    look: report::LookArgs,

    /// Read `A<TAB>B` lines from FILE (`-`: standard input) instead of A and B arguments.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a", "b"])]
    pairs: Option<std::path::PathBuf>,

    /// The first URI reference (none: `A<TAB>B` lines from standard input; `-` as A: the same).
    #[arg(value_name = "A")]
    a: Option<OsString>,

    /// The second URI reference.
    #[arg(value_name = "B")]
    b: Option<OsString>,
}

/// One pair as JSON: both normal forms, or the error of the input that is not a URI reference.
#[derive(Debug, Serialize)]
struct PairJson<'a> {
    /// The input the line comes from (`--pairs FILE`, `<stdin>`); absent for arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: u64,
    a: &'a str,
    b: &'a str,
    equivalent: Option<bool>,
    normal_a: Option<String>,
    normal_b: Option<String>,
    error: Option<PairError>,
}

/// Which input of a pair is not a URI reference (`a`, `b`, or `line` for a line without a tab).
#[derive(Debug, Serialize)]
struct PairError {
    input: &'static str,
    #[serde(flatten)]
    error: Option<ErrorJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
}

/// What one pair came to.
enum Outcome {
    Equivalent,
    Different,
    Invalid,
}

/// Runs `equiv`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let options = Options::from(Level::from(args.level))
        .ipv6_rfc5952(args.ipv6_rfc5952)
        .default_ports(super::normalize::default_ports(&args.default_port));
    let (mut different, mut invalid) = (false, false);
    let mut tally = |outcome: Outcome| match outcome {
        Outcome::Equivalent => {}
        Outcome::Different => different = true,
        Outcome::Invalid => invalid = true,
    };
    let stdin_pairs = matches!((&args.a, &args.b), (Some(a), None) if a == "-");
    if args.a.is_some() && args.b.is_none() && !stdin_pairs {
        super::error(format_args!(
            "equiv takes two URI references A B, or none (or `-`, or --pairs FILE) to read A<TAB>B lines"
        ));
        return Ok(Status::IoError);
    }
    let mut printer = Printer::new(args.format, &args.look);
    let all_read = match (&args.a, &args.b) {
        (Some(a), Some(b)) => {
            let outcome = compare(
                &mut printer,
                &options,
                (input::ARGUMENT, 1),
                (a.as_encoded_bytes(), b.as_encoded_bytes(), None),
            )?;
            tally(outcome);
            true
        }
        _ => {
            let files: Vec<std::path::PathBuf> = args.pairs.iter().cloned().collect();
            input::for_each_line(&files, |line| {
                // A blank line has no tab either: an error like any line without a tab (exit 2), so that
                // every input line has its answer (issue 13).
                let outcome = match line.pair() {
                    Some((a, b)) => compare(
                        &mut printer,
                        &options,
                        (line.file, line.number),
                        (a, b, Some(line.bytes)),
                    )?,
                    None => {
                        missing_tab(&mut printer, &line)?;
                        Outcome::Invalid
                    }
                };
                tally(outcome);
                printer.end_input()
            })?
        }
    };
    printer.finish()?;
    Ok(if !all_read || invalid {
        Status::IoError
    } else if different {
        Status::Invalid
    } else {
        Status::Success
    })
}

/// The record or diagnostic of an `A<TAB>B` line without a tab.
fn missing_tab(printer: &mut Printer, line: &input::Line<'_>) -> io::Result<()> {
    const MESSAGE: &str = "expected A<TAB>B, found no tab";
    if printer.format == Format::Text {
        let text = String::from_utf8_lossy(line.bytes);
        return printer.diagnostic(&Diagnostic::whole(
            line.file,
            line.number,
            &text,
            MESSAGE.to_string(),
        ));
    }
    printer.record(&PairJson {
        file: Some(line.file),
        line: line.number,
        a: "",
        b: "",
        equivalent: None,
        normal_a: None,
        normal_b: None,
        error: Some(PairError {
            input: "line",
            error: None,
            kind: Some("missing-tab"),
            message: Some(MESSAGE),
        }),
    })
}

/// Compares one pair and prints the answer (or the error of the input that is not a URI reference).
fn compare(
    printer: &mut Printer,
    options: &Options,
    (source, line): (&str, u64),
    (a_bytes, b_bytes, whole_line): (&[u8], &[u8], Option<&[u8]>),
) -> io::Result<Outcome> {
    let a = input::decode(Rule::URI_REFERENCE, a_bytes);
    let b = input::decode(Rule::URI_REFERENCE, b_bytes);
    let text = |d: &Result<&str, (String, ParseError)>| -> String {
        match d {
            Ok(t) => (*t).to_owned(),
            Err((lossy, _)) => lossy.clone(),
        }
    };
    let (a_text, b_text) = (text(&a), text(&b));
    let parse =
        |d: &Result<&str, (String, ParseError)>, t: &str| -> Result<UriRef<'static>, ParseError> {
            match d {
                Ok(_) => UriRef::parse(t).map(UriRef::into_owned),
                Err((_, e)) => Err(e.clone()),
            }
        };
    let parsed = [parse(&a, &a_text), parse(&b, &b_text)];
    let mut failed = None;
    for (name, text, result) in [("A", &a_text, &parsed[0]), ("B", &b_text, &parsed[1])] {
        if let Err(e) = result {
            if failed.is_none() {
                failed = Some((name, text.as_str(), e.clone()));
            }
            if printer.format == Format::Text {
                let whole;
                let mut diagnostic = Diagnostic::error(source, line, text, e);
                match whole_line {
                    // A<TAB>B lines: point into the line as read.
                    Some(bytes) => {
                        whole = String::from_utf8_lossy(bytes);
                        let shift = if name == "A" { 0 } else { a_bytes.len() + 1 };
                        diagnostic.input = &whole;
                        diagnostic.span =
                            diagnostic.span.start + shift..diagnostic.span.end + shift;
                    }
                    // Arguments: A is argument 1, B argument 2.
                    None => diagnostic.line = if name == "A" { 1 } else { 2 },
                }
                let note = format!("in {name}");
                printer.diagnostic(&diagnostic.with_note(Some(&note)))?;
            }
        }
    }
    let file = (source != input::ARGUMENT).then_some(source);
    if let Some((name, text, e)) = failed {
        if printer.format != Format::Text {
            let error = ErrorJson::redacted_if(printer.redact(), &e, text);
            printer.record(&PairJson {
                file,
                line,
                a: &a_text,
                b: &b_text,
                equivalent: None,
                normal_a: None,
                normal_b: None,
                error: Some(PairError {
                    input: if name == "A" { "a" } else { "b" },
                    error: Some(error),
                    kind: None,
                    message: None,
                }),
            })?;
        }
        return Ok(Outcome::Invalid);
    }
    let [Ok(ra), Ok(rb)] = &parsed else {
        return Ok(Outcome::Invalid);
    };
    let equivalent = equivalent_with(ra, rb, options.clone());
    match printer.format {
        Format::Text => printer.text(if equivalent {
            "equivalent"
        } else {
            "not equivalent"
        })?,
        _ => printer.record(&PairJson {
            file,
            line,
            a: &a_text,
            b: &b_text,
            equivalent: Some(equivalent),
            normal_a: Some(ra.normalize_with_options(options.clone()).into_string()),
            normal_b: Some(rb.normalize_with_options(options.clone()).into_string()),
            error: None,
        })?,
    }
    Ok(if equivalent {
        Outcome::Equivalent
    } else {
        Outcome::Different
    })
}
