//! What the subcommands say about an input, in the two shapes of CONTRACT.md: JSON values (serde) and text
//! with a caret under the offending byte. Validity itself is decided by the library, never here.

use std::io::{self, Write};

use rfc3986::ParseError;
use serde::Serialize;

/// `"error": {"offset": 7, "column": 8, "kind": "space", "expected": ["pchar", "\"/\""], "hint": "...",
/// "message": "..."}` (CONTRACT.md): the fields of the library's `ParseError`, none cut out of text.
#[derive(Debug, Serialize)]
pub(crate) struct ErrorJson {
    /// 0-based byte offset into the input.
    offset: usize,
    /// 1-based column of the offending character, in characters.
    column: usize,
    /// `ParseErrorKind::name`: `space`, `invalid-port`, ...
    kind: &'static str,
    /// ABNF spelling: rule names, quoted literals, `end of input`; folded.
    expected: Vec<String>,
    /// What to do about it, with the RFC section; `null` when there is nothing more to say.
    hint: Option<String>,
    /// The message, the hint and the expected items on one line, as text output prints them.
    message: String,
}

impl ErrorJson {
    /// Appends `; NOTE` to the message (a scheme grammar's citation, say).
    pub(crate) fn with_note(mut self, note: Option<&str>) -> ErrorJson {
        if let Some(note) = note {
            self.message = format!("{}; {note}", self.message);
        }
        self
    }
}

impl ErrorJson {
    /// The JSON of `error`, found in `input`.
    pub(crate) fn new(error: &ParseError, input: &str) -> ErrorJson {
        ErrorJson {
            offset: error.offset(),
            column: column(input, error.offset()),
            kind: error.kind().name(),
            expected: error.expected().iter().map(ToString::to_string).collect(),
            hint: error.hint(),
            message: error.detail(),
        }
    }
}

/// The 1-based column, in characters, of byte `offset` of `input`.
pub(crate) fn column(input: &str, offset: usize) -> usize {
    let mut end = offset.min(input.len());
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    input[..end].chars().count() + 1
}

/// A SHOULD-level finding (`rfc3986::lint`): `{"code": "...", "section": "3.2.1", "message": "...",
/// "span": [start, end]}` (CONTRACT.md, `check`; `span` is the finding's byte range in `input`).
#[derive(Debug, Serialize)]
pub(crate) struct Warning {
    pub(crate) code: &'static str,
    pub(crate) section: &'static str,
    pub(crate) message: String,
    pub(crate) span: (usize, usize),
}

impl From<&rfc3986::lint::Finding> for Warning {
    fn from(finding: &rfc3986::lint::Finding) -> Warning {
        Warning {
            code: finding.code().as_str(),
            section: finding.section(),
            message: finding.message().to_string(),
            span: finding.span(),
        }
    }
}

/// Writes `input` and, under it, a caret under the byte at the error's offset, each line preceded by
/// `indent`, as drawn by [`ParseError::annotate`] (long inputs are cut around the offset, control and
/// bidirectional characters escaped).
pub(crate) fn write_caret(
    out: &mut impl Write,
    indent: &str,
    input: &str,
    error: &ParseError,
) -> io::Result<()> {
    let snippet = error.annotate(input).without_message().to_string();
    let (line, caret) = snippet.split_once('\n').unwrap_or((&snippet, ""));
    writeln!(out, "{indent}{line}\n{indent}{caret}")
}

/// How text diagnostics are drawn (`check --diagnostics`, `--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    /// rustc-like blocks (`error: ...`, ` --> FILE:LINE:COL`, the line, a caret and a label) rather than the
    /// three plain lines `FILE:LINE:COL: error: MESSAGE`, the line, the caret.
    pub(crate) rich: bool,
    /// ANSI colours.
    pub(crate) color: bool,
}

/// `error:` and the caret: bold red, as rustc and cargo draw them.
const ERROR: anstyle::Style = anstyle::Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::BrightRed)));
/// `FILE:LINE:COL:`: bold.
const LOCATION: anstyle::Style = anstyle::Style::new().bold();

/// Writes the diagnostic of `error` in `input` (line `number` of `file`) as `look` says.
///
/// Plain (CONTRACT.md): `FILE:LINE:COL: error: MESSAGE`, the line, a caret under the byte; COL is the
/// 1-based byte column. Rich:
///
/// ```text
/// error: space not allowed here
///  --> uris.txt:2:11
///   |
/// 2 | http://a/b c
///   |           ^ expected pchar, "?", "#", "/" or end of input
///   |
///   = help: percent-encode a space as %20 (RFC 3986 2.1)
/// ```
pub(crate) fn write_diagnostic(
    out: &mut impl Write,
    look: Look,
    file: &str,
    number: u64,
    input: &str,
    error: &ParseError,
    note: Option<&str>,
) -> io::Result<()> {
    if look.rich {
        return write_rich(out, look.color, file, number, input, error, note);
    }
    let column = error.offset() + 1;
    let mut message = error.detail();
    if let Some(note) = note {
        message = format!("{message}; {note}");
    }
    if !look.color {
        writeln!(out, "{file}:{number}:{column}: error: {message}")?;
        return write_caret(out, "", input, error);
    }
    writeln!(
        out,
        "{LOCATION}{file}:{number}:{column}:{LOCATION:#} {ERROR}error:{ERROR:#} {message}"
    )?;
    let snippet = error.annotate(input).without_message().to_string();
    let (line, caret) = snippet.split_once('\n').unwrap_or((&snippet, ""));
    let (spaces, caret) = caret.split_at(caret.len() - caret.trim_start().len());
    writeln!(out, "{line}\n{spaces}{ERROR}{caret}{ERROR:#}")
}

/// The rustc-like block of [`write_diagnostic`], drawn by annotate-snippets.
fn write_rich(
    out: &mut impl Write,
    color: bool,
    file: &str,
    number: u64,
    input: &str,
    error: &ParseError,
    note: Option<&str>,
) -> io::Result<()> {
    use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

    let (title, help, label) = split_message(error);
    let offset = error.offset().min(input.len());
    let end = offset + input[offset..].chars().next().map_or(0, char::len_utf8);
    let snippet = Snippet::source(input)
        .line_start(usize::try_from(number).unwrap_or(usize::MAX))
        .path(file)
        .annotation(AnnotationKind::Primary.span(offset..end).label(label));
    let mut group = Level::ERROR.primary_title(title).element(snippet);
    if let Some(help) = help {
        group = group.element(Level::HELP.message(help));
    }
    if let Some(note) = note {
        group = group.element(Level::NOTE.message(note));
    }
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    writeln!(out, "{}", renderer.render(&[group]))?;
    // A blank line between diagnostics, as rustc leaves.
    writeln!(out)
}

/// The message of `error` in three parts for a rich diagnostic: what was found (`space not allowed
/// here`), the hint if any (`percent-encode a space as %20 (RFC 3986 2.1)`), and what was expected
/// (`expected pchar, "/" or end of input`), the label under the caret; each a field of the error.
fn split_message(error: &ParseError) -> (String, Option<String>, Option<String>) {
    let expected = error.expected_list();
    let label = (!expected.is_empty()).then_some(expected);
    (error.message(), error.hint(), label)
}

/// Writes a SHOULD-level finding of line `number` of `file`: `FILE:LINE:COL: warning: MESSAGE (RFC 3986
/// SECTION) [CODE]` (COL: 1-based byte column where the finding's span starts), `warning:` in bold
/// yellow with colour. The line itself is not repeated: a finding about a password must not echo it.
pub(crate) fn write_warning(
    out: &mut impl Write,
    look: Look,
    file: &str,
    number: u64,
    warning: &Warning,
) -> io::Result<()> {
    const WARNING: anstyle::Style = anstyle::Style::new()
        .bold()
        .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::BrightYellow)));
    let Warning {
        code,
        section,
        message,
        span,
    } = warning;
    let column = span.0 + 1;
    if look.color {
        writeln!(
            out,
            "{LOCATION}{file}:{number}:{column}:{LOCATION:#} {WARNING}warning:{WARNING:#} {message} (RFC 3986 {section}) [{code}]"
        )
    } else {
        writeln!(
            out,
            "{file}:{number}:{column}: warning: {message} (RFC 3986 {section}) [{code}]"
        )
    }
}
