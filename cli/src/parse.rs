//! `rfc3986 parse [--rule RULE] [--format text|json] [URI...]`: print the components of each input.
//!
//! Inputs are the URI arguments, or the lines of standard input when there are none (a blank line
//! is the empty reference, RFC 3986 4.2: one record per line). Errors are part of the output: written to standard output in input order, in the chosen
//! format; the exit status is 1 if any input was invalid.

use std::ffi::OsString;
use std::io;

use rfc3986::RuleMatch;
use serde::Serialize;

use super::input;
use super::print::Printer;
use super::report::Format;
use super::report::{self, Diagnostic, ErrorJson};
use super::rule::Engine;
use super::Status;

/// Arguments of `rfc3986 parse`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The grammar rule each input must match, by its ABNF name (URI, URI-reference, absolute-URI,
    /// relative-ref, authority, host, IPv6address, path-abempty, dec-octet, HEXDIG, ...; any case)
    /// [default: URI-reference; with --grammar, the grammar's URI-reference-like rule].
    #[arg(long, value_name = "RULE")]
    rule: Option<String>,

    /// Parse with another grammar instead of the built-in uri.pest: a built-in one by name (iri: RFC
    /// 3987 IRIs; zone-id: RFC 6874 zone identifiers; uri-template: RFC 6570 URI Templates; uri) or a
    /// .pest file, loaded at run time (it must keep uri.pest's component rule names; a file that uses
    /// uri.pest rules without defining them is laid over uri.pest).
    #[arg(long, value_name = "NAME|FILE.pest")]
    grammar: Option<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Print the derivation instead of the components: every rule that matched, nested, with its byte
    /// span (a rejected input: the tree of what matched, then the error). Streamed: nodes are written as
    /// they are known, in memory that does not grow with the line (on a grammar that runs on pest_vm, a
    /// line over 64 KiB gets an error instead).
    #[arg(long)]
    tree: bool,

    #[command(flatten)]
    look: report::LookArgs,

    /// URIs to parse (each argument is one input, taken literally); none: the lines of standard input.
    #[arg(value_name = "URI")]
    uris: Vec<OsString>,
}

/// One valid input as JSON: `null` for an undefined component, `""` for an empty one.
#[derive(Debug, Serialize)]
struct Components<'a> {
    /// 1-based line of standard input, or position among the arguments.
    line: u64,
    input: &'a str,
    valid: bool,
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    host_kind: Option<&'static str>,
    port: Option<&'a str>,
    path: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl<'a> Components<'a> {
    fn new(line: u64, input: &'a str, uri: &'a RuleMatch<'a>) -> Components<'a> {
        Components {
            line,
            input,
            valid: true,
            scheme: uri.scheme(),
            authority: uri.authority(),
            userinfo: uri.userinfo(),
            host: uri.host_str(),
            host_kind: uri.host_kind().map(|kind| kind.abnf_name()),
            port: uri.port(),
            path: uri.path(),
            query: uri.query(),
            fragment: uri.fragment(),
        }
    }
}

/// One invalid input as JSON: `{"input": "...", "valid": false, "error": {...}}`; `valid` is `null`
/// when a parser limit stopped the parse (`error.kind` is then `limit-reached`), as in `check`.
#[derive(Debug, Serialize)]
struct Invalid<'a> {
    line: u64,
    input: &'a str,
    valid: Option<bool>,
    error: ErrorJson,
}

/// Runs `parse`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    if args.tree {
        let (rule, grammar) = (args.rule.as_deref(), args.grammar.as_deref());
        return super::grammar::parse_tree(rule, grammar, args.format, &args.uris);
    }
    let engine = match Engine::new(args.rule.as_deref(), args.grammar.as_deref()) {
        Ok(engine) => engine,
        Err(message) => {
            super::error(format_args!("{message}"));
            return Ok(Status::IoError);
        }
    };
    let mut printer = Printer::new(args.format, &args.look);
    let mut any_invalid = false;
    let mut any_limit = false;
    let mut first = true;
    let all_read = input::for_each_input(&args.uris, |line| {
        let valid = parse_input(engine, &mut printer, &line, &mut first)?;
        any_invalid |= valid == Some(false);
        any_limit |= valid.is_none();
        printer.end_input()
    })?;
    printer.finish()?;

    let status = Status::of(all_read, any_invalid);
    if any_limit && status != Status::IoError {
        return Ok(Status::Limit);
    }
    Ok(status)
}

/// Parses one input and prints its components or error; returns whether it was valid, or `None` when a
/// parser limit stopped it (neither valid nor invalid). `first`: no text block written yet.
fn parse_input(
    engine: Engine,
    printer: &mut Printer,
    line: &input::Line<'_>,
    first: &mut bool,
) -> io::Result<Option<bool>> {
    let lossy;
    let result = match engine.decode(line.bytes) {
        Ok(text) => engine.parse(text).map_err(|e| (text, e)),
        Err((text, error)) => {
            lossy = text;
            Err((lossy.as_str(), error))
        }
    };
    let valid = match &result {
        Ok(_) => Some(true),
        Err((_, e)) if e.kind() == rfc3986::ParseErrorKind::LimitReached => None,
        Err(_) => Some(false),
    };
    match (printer.format, result) {
        (Format::Text, Ok(uri)) => {
            if !*first {
                printer.text("")?;
            }
            *first = false;
            write_components(printer, &Components::new(line.number, uri.as_str(), &uri))?;
        }
        (Format::Text, Err((input, error))) => {
            printer.diagnostic(&Diagnostic::error(line.file, line.number, input, &error))?
        }
        (_, Ok(uri)) => printer.record(&Components::new(line.number, uri.as_str(), &uri))?,
        (_, Err((input, error))) => {
            let invalid = Invalid {
                line: line.number,
                input,
                valid: valid.and(Some(false)),
                error: ErrorJson::redacted_if(printer.redact(), &error, input),
            };
            printer.record(&invalid)?;
        }
    }
    Ok(valid)
}

/// Width of the labels of the text format (`authority: ` and `host_kind: ` are the longest).
const LABEL: usize = 11;

/// The text block of a valid input, each value escaped and masked by the printer.
fn write_components(printer: &mut Printer, c: &Components<'_>) -> io::Result<()> {
    let fields = [
        ("input", Some(c.input)),
        ("valid", Some("true")),
        ("scheme", c.scheme),
        ("authority", c.authority),
        ("userinfo", c.userinfo),
        ("host", c.host),
        ("host_kind", c.host_kind),
        ("port", c.port),
        ("path", c.path),
        ("query", c.query),
        ("fragment", c.fragment),
    ];
    for (label, value) in fields {
        let value = match value {
            None => "(undefined)",
            Some("") => "\"\"",
            Some(value) => value,
        };
        printer.field(&format!("{:LABEL$}", format!("{label}:")), value)?;
    }
    Ok(())
}
