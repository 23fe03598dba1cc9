//! `rfc3986 resolve [--non-strict] [--format text|json] BASE [REF...]` and
//! `rfc3986 resolve [--non-strict] [--format text|json] --pairs FILE`: RFC 3986 section 5.2.
//!
//! References come from the REF arguments, or from the lines of standard input when there are none; with
//! `--pairs`, from `BASE<TAB>REF` lines of FILE (`-`: standard input). `text` writes one target URI per
//! line on standard output and each error on standard error (`SOURCE:LINE: error: ...` with a caret);
//! `json` writes one object per reference, errors included, so output lines match input lines. A `--pairs`
//! line without a tab, a blank one included, is an error (`missing-tab` in JSON).

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;

use rfc3986::resolve::Resolver;
use rfc3986::{ParseError, Rule, Uri, UriRef};
use serde::Serialize;

use super::input;
use super::print::Printer;
use super::report::Format;
use super::report::{self, Diagnostic, ErrorJson};
use super::Status;

/// Arguments of `rfc3986 resolve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Apply the backward-compatible rule of RFC 3986 5.2.2: a reference whose scheme equals the base's
    /// is resolved as if it had none (`http:g` against `http://a/b/c/d;p?q` gives `http://a/b/c/g`).
    #[arg(long)]
    non_strict: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Read `BASE<TAB>REF` lines from FILE (`-`: standard input) instead of BASE and REF arguments.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["base", "refs"])]
    pairs: Option<PathBuf>,

    #[command(flatten)]
    look: report::LookArgs,

    /// The base URI (rule `URI`; its fragment is ignored, RFC 3986 5.1, 5.2.2).
    #[arg(value_name = "BASE", required_unless_present = "pairs")]
    base: Option<OsString>,

    /// References to resolve (rule `URI-reference`); none: the lines of standard input.
    #[arg(value_name = "REF")]
    refs: Vec<OsString>,
}

/// `{"base": "...", "ref": "...", "target": "..." | null, "error": {...} | null}`.
#[derive(Debug, Serialize)]
struct ResultJson<'a> {
    /// The input the line comes from (`--pairs FILE`, `<stdin>`); absent for arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    /// 1-based line of the input (standard input or `--pairs`), or position among the arguments.
    line: u64,
    base: &'a str,
    #[serde(rename = "ref")]
    reference: &'a str,
    target: Option<&'a str>,
    error: Option<ResolveErrorJson>,
}

/// The record of a `--pairs` line without a tab, in the shape of [`ResultJson`].
#[derive(Debug, Serialize)]
struct MissingTab<'a> {
    file: &'a str,
    line: u64,
    base: Option<&'static str>,
    #[serde(rename = "ref")]
    reference: Option<&'static str>,
    target: Option<&'static str>,
    error: MissingTabError,
}

/// Why a `--pairs` line has no pair.
#[derive(Debug, Serialize)]
struct MissingTabError {
    input: &'static str,
    kind: &'static str,
    message: &'static str,
}

/// The error of one pair: which input it is about (`base` or `ref`) and the error as in `check`.
#[derive(Debug, Serialize)]
struct ResolveErrorJson {
    /// `"base"` or `"ref"`: the input the offset points into.
    input: &'static str,
    #[serde(flatten)]
    error: ErrorJson,
}

/// Runs `resolve`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let resolver = Resolver::new().strict(!args.non_strict);
    let mut printer = Printer::new(args.format, &args.look);
    let mut any_invalid = false;
    let all_read = if let Some(pairs) = &args.pairs {
        input::for_each_line(&[pairs], |line| {
            // A blank line has no tab either: it gets the error record of a line without a tab, so that
            // every input line has its record (issue 13).
            let valid = match line.pair() {
                Some((base, reference)) => {
                    let pair = Pair {
                        base,
                        reference,
                        line: Some(line.bytes),
                    };
                    resolve_one(&mut printer, &resolver, (line.file, line.number), pair)?
                }
                None => {
                    missing_tab(&mut printer, &line)?;
                    false
                }
            };
            any_invalid |= !valid;
            printer.end_input()
        })?
    } else {
        let base = args
            .base
            .as_ref()
            .map(|b| b.as_encoded_bytes())
            .unwrap_or_default();
        // An empty line is the empty reference (RFC 3986 4.2, 5.4.1: it resolves to the base without
        // its fragment), not a line to skip.
        input::for_each_input(&args.refs, |line| {
            let pair = Pair::of(base, line.bytes);
            any_invalid |= !resolve_one(&mut printer, &resolver, (line.file, line.number), pair)?;
            printer.end_input()
        })?
    };
    printer.finish()?;
    Ok(Status::of(all_read, any_invalid))
}

/// The record or diagnostic of a `--pairs` line without a tab.
fn missing_tab(printer: &mut Printer, line: &input::Line<'_>) -> io::Result<()> {
    const MESSAGE: &str = "expected BASE<TAB>REF, found no tab";
    if printer.format == Format::Text {
        let text = String::from_utf8_lossy(line.bytes);
        return printer.diagnostic(&Diagnostic::whole(
            line.file,
            line.number,
            &text,
            MESSAGE.to_string(),
        ));
    }
    // One record per input line, errors included.
    printer.record(&MissingTab {
        file: line.file,
        line: line.number,
        base: None,
        reference: None,
        target: None,
        error: MissingTabError {
            input: "line",
            kind: "missing-tab",
            message: MESSAGE,
        },
    })
}

/// A base and a reference to resolve, and the whole `BASE<TAB>REF` line they come from (`--pairs`), so
/// that a diagnostic can point into the line as read.
#[derive(Clone, Copy, Debug)]
struct Pair<'a> {
    base: &'a [u8],
    reference: &'a [u8],
    line: Option<&'a [u8]>,
}

impl<'a> Pair<'a> {
    fn of(base: &'a [u8], reference: &'a [u8]) -> Pair<'a> {
        Pair {
            base,
            reference,
            line: None,
        }
    }
}

/// Resolves one pair and prints the target or the error; returns whether it resolved.
fn resolve_one(
    printer: &mut Printer,
    resolver: &Resolver,
    (source, line): (&str, u64),
    pair: Pair<'_>,
) -> io::Result<bool> {
    let (base_bytes, reference_bytes) = (pair.base, pair.reference);
    let base_input = input::decode(Rule::URI, base_bytes);
    let reference_input = input::decode(Rule::URI_REFERENCE, reference_bytes);
    let (base_text, base) = match &base_input {
        Ok(text) => (*text, Uri::parse(text)),
        Err((lossy, error)) => (lossy.as_str(), Err(error.clone())),
    };
    let (reference_text, reference) = match &reference_input {
        Ok(text) => (*text, UriRef::parse(text)),
        Err((lossy, error)) => (lossy.as_str(), Err(error.clone())),
    };
    let outcome: Result<String, (&'static str, &str, ParseError)> = match (base, reference) {
        (Err(e), _) => Err(("base", base_text, e)),
        (_, Err(e)) => Err(("ref", reference_text, e)),
        (Ok(base), Ok(reference)) => match resolver.resolve(&base, &reference) {
            Ok(target) => Ok(target.into_string()),
            // Only a resolver configured to refuse the "//" case returns other errors; the default
            // writes "/." before such a path (see `Resolver::dot_prefix`).
            Err(e) => {
                let message = e.to_string();
                printer.diagnostic(&Diagnostic::whole(source, line, reference_text, message))?;
                return Ok(false);
            }
        },
    };
    match printer.format {
        Format::Text => match &outcome {
            Ok(target) => printer.text(target)?,
            Err((which, text, e)) => {
                let note = if *which == "base" {
                    "in the base URI, which must be a URI with a scheme (RFC 3986 5.1)"
                } else {
                    "in the reference"
                };
                let whole;
                let (input, shift) = match pair.line {
                    // --pairs: point into the line as read.
                    Some(bytes) => {
                        whole = String::from_utf8_lossy(bytes);
                        let shift = if *which == "base" {
                            0
                        } else {
                            base_bytes.len() + 1
                        };
                        (&*whole, shift)
                    }
                    None => (*text, 0),
                };
                let mut diagnostic = Diagnostic::error(source, line, text, e);
                diagnostic.input = input;
                diagnostic.span = diagnostic.span.start + shift..diagnostic.span.end + shift;
                if *which == "base" && pair.line.is_none() {
                    diagnostic.source = "<base>";
                    diagnostic.line = 1;
                }
                printer.diagnostic(&diagnostic.with_note(Some(note)))?;
            }
        },
        _ => {
            let redact = printer.redact();
            let (target, error) = match &outcome {
                Ok(target) => (Some(target.as_str()), None),
                Err((which, text, e)) => (
                    None,
                    Some(ResolveErrorJson {
                        input: which,
                        error: ErrorJson::redacted_if(redact, e, text),
                    }),
                ),
            };
            printer.record(&ResultJson {
                file: (source != input::ARGUMENT).then_some(source),
                line,
                base: base_text,
                reference: reference_text,
                target,
                error,
            })?;
        }
    }
    Ok(outcome.is_ok())
}
