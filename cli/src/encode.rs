//! `rfc3986 encode [--component C] [--format text|json] [TEXT...]` and `rfc3986 decode [--bytes]
//! [--format text|json] [TEXT...]`: percent-encoding of one component (RFC 3986 2.1, 2.4, 2.5) and
//! percent-decoding, by `rfc3986::percent`.
//!
//! Inputs are the TEXT arguments, or the lines of standard input when there are none (`-` also reads
//! it). Every line gives one line of output, blank lines included (the empty text encodes and decodes to
//! itself), except a line that cannot be decoded: its error goes to standard error (`SOURCE:LINE:COL:
//! error: MESSAGE`, the line and a caret) and nothing to standard output, as for `normalize`.
//!
//! `decode` writes the decoded text as it is: a decoded `%0A` is a line break. `--format json` escapes it.

use std::ffi::OsString;
use std::io;

use clap::ValueEnum;
use rfc3986::percent::{self, Component, DecodeError, DecodeErrorKind};
use serde::Serialize;

use super::input;
use super::print::Printer;
use super::report::{self, Diagnostic, Format};
use super::Status;

/// Arguments of `rfc3986 encode`.
#[derive(Debug, clap::Args)]
pub(crate) struct EncodeArgs {
    /// The component the text is for: its rule decides what stays unencoded (`segment` encodes `/`,
    /// `path` keeps it; `query` and `fragment` keep `/` and `?`).
    #[arg(long, value_enum, default_value_t = ComponentArg::Segment)]
    component: ComponentArg,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Texts to encode (any bytes; UTF-8 is encoded as its octets); none: the lines of standard input.
    #[arg(value_name = "TEXT")]
    texts: Vec<OsString>,
}

/// Arguments of `rfc3986 decode`.
#[derive(Debug, clap::Args)]
pub(crate) struct DecodeArgs {
    /// Write the decoded octets as they are, without checking that they are UTF-8 (text output only).
    #[arg(long)]
    bytes: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Percent-encoded texts to decode; none: the lines of standard input.
    #[arg(value_name = "TEXT")]
    texts: Vec<OsString>,
}

/// `--component`, spelled as the RFC names the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ComponentArg {
    /// `userinfo` (RFC 3986 3.2.1): keeps `:`.
    Userinfo,
    /// `reg-name` (3.2.2): unreserved and sub-delims only.
    Host,
    /// A whole path (3.3): keeps `/`.
    Path,
    /// One path `segment` (3.3): encodes `/`.
    Segment,
    /// `query` (3.4).
    Query,
    /// `fragment` (3.5).
    Fragment,
}

impl From<ComponentArg> for Component {
    fn from(c: ComponentArg) -> Component {
        match c {
            ComponentArg::Userinfo => Component::Userinfo,
            ComponentArg::Host => Component::Host,
            ComponentArg::Path => Component::Path,
            ComponentArg::Segment => Component::PathSegment,
            ComponentArg::Query => Component::Query,
            ComponentArg::Fragment => Component::Fragment,
        }
    }
}

/// `{"line", "input", "component", "encoded"}`.
#[derive(Debug, Serialize)]
struct EncodedJson<'a> {
    line: u64,
    input: &'a str,
    component: &'static str,
    encoded: &'a str,
}

/// `{"line", "input", "decoded": "..." | null, "error": {...} | null}`.
#[derive(Debug, Serialize)]
struct DecodedJson<'a> {
    line: u64,
    input: &'a str,
    decoded: Option<&'a str>,
    error: Option<DecodeErrorJson>,
}

/// `{"offset", "column", "kind", "expected", "hint", "message"}` of a decoding error (the error object the
/// README documents for every subcommand).
#[derive(Debug, Serialize)]
struct DecodeErrorJson {
    /// 0-based byte offset into the input.
    offset: usize,
    /// 1-based column, in characters.
    column: usize,
    /// `invalid-percent-encoding` or `invalid-utf8`.
    kind: &'static str,
    /// `["HEXDIG"]` after a `%`; empty for octets that are not UTF-8.
    expected: &'static [&'static str],
    /// What to do about it.
    hint: &'static str,
    message: String,
}

/// A decoding error, or input that is not UTF-8 at all (byte offset).
enum Failure {
    Decode(DecodeError),
    InputNotUtf8(usize),
}

impl Failure {
    fn offset(&self) -> usize {
        match self {
            Failure::Decode(e) => e.offset(),
            Failure::InputNotUtf8(offset) => *offset,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Failure::Decode(e) => match e.kind() {
                DecodeErrorKind::InvalidPercentEncoding => "invalid-percent-encoding",
                _ => "invalid-utf8",
            },
            Failure::InputNotUtf8(_) => "invalid-utf8",
        }
    }

    /// What the grammar expects there: two `HEXDIG` after a `%` (RFC 3986 2.1).
    fn expected(&self) -> &'static [&'static str] {
        match self.kind() {
            "invalid-percent-encoding" => &["HEXDIG"],
            _ => &[],
        }
    }

    fn hint(&self) -> &'static str {
        match self.kind() {
            "invalid-percent-encoding" => {
                "a \"%\" that stands for itself is written %25 (RFC 3986 2.4)"
            }
            _ => "use --bytes to write the octets as they are",
        }
    }

    fn message(&self) -> String {
        match self {
            Failure::Decode(e) => e.to_string(),
            Failure::InputNotUtf8(offset) => format!("the input is not UTF-8 at byte {offset}"),
        }
    }
}

/// Runs `encode`; `Err` only when standard output cannot be written.
pub(crate) fn run_encode(args: &EncodeArgs) -> io::Result<Status> {
    let mut printer = Printer::plain(args.format);
    let component = Component::from(args.component);
    let all_read = input::for_each_input(&args.texts, |line| {
        let encoded = percent::encode_bytes(line.bytes, component);
        match args.format {
            Format::Text => printer.text(&encoded)?,
            _ => {
                let input = String::from_utf8_lossy(line.bytes);
                printer.record(&EncodedJson {
                    line: line.number,
                    input: &input,
                    component: component.name(),
                    encoded: &encoded,
                })?;
            }
        }
        printer.end_input()
    })?;
    printer.finish()?;
    Ok(Status::of(all_read, false))
}

/// Runs `decode`; `Err` only when standard output cannot be written.
pub(crate) fn run_decode(args: &DecodeArgs) -> io::Result<Status> {
    let mut printer = Printer::plain(args.format);
    let mut any_invalid = false;
    let all_read = input::for_each_input(&args.texts, |line| {
        let lossy = String::from_utf8_lossy(line.bytes);
        let result = match std::str::from_utf8(line.bytes) {
            Err(e) => Err(Failure::InputNotUtf8(e.valid_up_to())),
            Ok(text) if args.bytes && args.format == Format::Text => match percent::decode(text) {
                Ok(octets) => {
                    printer.raw(&octets)?;
                    Ok(None)
                }
                Err(e) => Err(Failure::Decode(e)),
            },
            Ok(text) => percent::decode_utf8(text)
                .map(|d| Some(d.into_owned()))
                .map_err(Failure::Decode),
        };
        any_invalid |= result.is_err();
        match args.format {
            Format::Text => match &result {
                // The decoded text as it is: a decoded %0A is a line break (documented); what a
                // terminal would obey is escaped by the printer only in diagnostics.
                Ok(Some(decoded)) => printer.raw(decoded.as_bytes())?,
                Ok(None) => {}
                // Nothing on standard output for a line that cannot be decoded, as `normalize` does;
                // the diagnostic, on standard error, masks a password and escapes the line.
                Err(e) => {
                    let offset = e.offset().min(lossy.len());
                    let end = offset + lossy[offset..].chars().next().map_or(0, char::len_utf8);
                    printer.diagnostic(&Diagnostic::at(
                        line.file,
                        line.number,
                        &lossy,
                        offset..end,
                        e.message(),
                    ))?;
                }
            },
            _ => printer.record(&DecodedJson {
                line: line.number,
                input: &lossy,
                decoded: result.as_ref().ok().and_then(|d| d.as_deref()),
                error: result.as_ref().err().map(|e| DecodeErrorJson {
                    offset: e.offset(),
                    column: report::column(&lossy, e.offset()),
                    kind: e.kind(),
                    expected: e.expected(),
                    hint: e.hint(),
                    message: e.message(),
                }),
            })?,
        }
        printer.end_input()
    })?;
    printer.finish()?;
    Ok(Status::of(all_read, any_invalid))
}
