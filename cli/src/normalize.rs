//! `rfc3986 normalize [--level syntax|scheme] [--format text|json] [URI...]`: RFC 3986 section 6.2.2
//! (syntax-based) and, with `--level scheme`, 6.2.3 (scheme-based) normalization.
//!
//! Inputs are the URI arguments, or the lines of standard input when there are none (a blank line
//! is the empty reference, RFC 3986 4.2, whose normal form is empty); each is a `URI-reference`. `text` writes one normal form per line on standard output and each
//! error on standard error; `json` writes one object per input, errors included.

use std::ffi::OsString;
use std::io;

use clap::ValueEnum;
use rfc3986::{Rule, UriRef};
use serde::Serialize;

use super::input;
use super::print::Printer;
use super::report::Format;
use super::report::{self, Diagnostic, ErrorJson};
use super::Status;

/// Arguments of `rfc3986 normalize`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// How far up the comparison ladder of RFC 3986 6.2 to normalize.
    #[arg(long, value_enum, default_value_t = LevelArg::Scheme)]
    level: LevelArg,

    /// Also write IPv6 hosts in the canonical text of RFC 5952 section 4 (`[2001:db8::1]`); not part of
    /// RFC 3986, so off by default.
    #[arg(long)]
    ipv6_rfc5952: bool,

    /// A scheme's default port for `--level scheme` (RFC 3986 6.2.3), added to (or replacing) the built-in
    /// ones (http 80, https 443, ws 80, wss 443, ftp 21); repeatable: `--default-port gopher=70`.
    #[arg(long, value_name = "SCHEME=PORT", value_parser = parse_default_port)]
    default_port: Vec<(String, u16)>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    #[command(flatten)]
    look: report::LookArgs,

    /// URIs to normalize (rule `URI-reference`); none: the lines of standard input.
    #[arg(value_name = "URI")]
    uris: Vec<OsString>,
}

/// A level of the comparison ladder (RFC 3986 6.2), as `--level` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum LevelArg {
    /// Simple string comparison (6.2.1): the text as written.
    Simple,
    /// Syntax-based normalization (6.2.2): case, percent-encoding, dot-segments, empty port.
    Syntax,
    /// Syntax-based plus scheme-based normalization (6.2.3): default ports, `/` for an empty http path.
    Scheme,
}

impl From<LevelArg> for rfc3986::normalize::Level {
    fn from(level: LevelArg) -> rfc3986::normalize::Level {
        match level {
            LevelArg::Simple => rfc3986::normalize::Level::Simple,
            LevelArg::Syntax => rfc3986::normalize::Level::Syntax,
            LevelArg::Scheme => rfc3986::normalize::Level::Scheme,
        }
    }
}

/// `{"input": "...", "normalized": "..." | null, "error": {...} | null}`.
#[derive(Debug, Serialize)]
struct ResultJson<'a> {
    /// 1-based line of standard input, or position among the arguments.
    line: u64,
    input: &'a str,
    normalized: Option<&'a str>,
    error: Option<ErrorJson>,
}

/// Runs `normalize`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let mut printer = Printer::new(args.format, &args.look);
    let options = rfc3986::normalize::Options::from(rfc3986::normalize::Level::from(args.level))
        .ipv6_rfc5952(args.ipv6_rfc5952)
        .default_ports(default_ports(&args.default_port));
    let mut any_invalid = false;
    let all_read = input::for_each_input(&args.uris, |line| {
        any_invalid |= !normalize_one(&mut printer, &options, &line)?;
        printer.end_input()
    })?;
    printer.finish()?;
    Ok(Status::of(all_read, any_invalid))
}

/// Normalizes one input and prints the result or the error; returns whether it was valid.
fn normalize_one(
    printer: &mut Printer,
    options: &rfc3986::normalize::Options,
    line: &input::Line<'_>,
) -> io::Result<bool> {
    let decoded = input::decode(Rule::URI_REFERENCE, line.bytes);
    let (text, parsed) = match &decoded {
        Ok(text) => (*text, UriRef::parse(text)),
        Err((lossy, error)) => (lossy.as_str(), Err(error.clone())),
    };
    let normalized = parsed.map(|uri| uri.normalize_with_options(options.clone()));
    match (printer.format, &normalized) {
        (Format::Text, Ok(n)) => printer.text(n.as_str())?,
        (Format::Text, Err(e)) => {
            printer.diagnostic(&Diagnostic::error(line.file, line.number, text, e))?
        }
        _ => {
            let redact = printer.redact();
            printer.record(&ResultJson {
                line: line.number,
                input: text,
                normalized: normalized.as_ref().ok().map(|n| n.as_str()),
                error: normalized
                    .as_ref()
                    .err()
                    .map(|e| ErrorJson::redacted_if(redact, e, text)),
            })?;
        }
    }
    Ok(normalized.is_ok())
}

/// clap value parser for `--default-port SCHEME=PORT`: the scheme must match the rule `scheme` (RFC 3986
/// 3.1), the port be a number up to 65535.
pub(crate) fn parse_default_port(text: &str) -> Result<(String, u16), String> {
    let Some((scheme, port)) = text.split_once('=') else {
        return Err(format!("expected SCHEME=PORT, found {text:?}"));
    };
    rfc3986::validate(Rule::SCHEME, scheme)
        .map_err(|e| format!("{scheme:?} is not a scheme (RFC 3986 3.1): {}", e.detail()))?;
    let port = port
        .parse::<u16>()
        .map_err(|_| format!("{port:?} is not a port number from 0 to 65535"))?;
    Ok((scheme.to_owned(), port))
}

/// The default-port table: the built-in one with the `--default-port` entries.
pub(crate) fn default_ports(entries: &[(String, u16)]) -> rfc3986::normalize::DefaultPorts {
    entries.iter().fold(
        rfc3986::normalize::DefaultPorts::new(),
        |ports, (scheme, port)| ports.with(scheme, *port),
    )
}
