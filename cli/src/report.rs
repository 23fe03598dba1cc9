//! What the subcommands say about an input, in the two shapes the README documents: JSON values (serde) and text
//! with a caret under the offending byte. Validity itself is decided by the library, never here.

use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::ops::Range;

use rfc3986::ParseError;
use serde::Serialize;

/// `"error": {"offset": 7, "column": 8, "kind": "space", "expected": ["pchar", "\"/\""], "hint": "...",
/// "message": "..."}`: the fields of the library's `ParseError`, none cut out of text.
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

    /// [`ErrorJson::new`], and when `redact` (`--redact`) and the error is at a character of the userinfo
    /// password of `input`, said as text diagnostics say it: the message is [`IN_PASSWORD`] and the
    /// expected items, with no hint (a hint spells the character's encoding). Before
    /// [`with_note`](Self::with_note).
    pub(crate) fn redacted_if(redact: bool, error: &ParseError, input: &str) -> ErrorJson {
        let mut json = ErrorJson::new(error, input);
        if redact && in_password(input, error.offset()) {
            // The kind would tell the character (`space`, `non-ascii`).
            json.kind = rfc3986::ParseErrorKind::InvalidCharacter.name();
            json.hint = None;
            json.message = IN_PASSWORD.to_string();
            if !error.expected().is_empty() {
                json.message.push_str("; ");
                json.message.push_str(&error.expected_list());
            }
        }
        json
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
/// "span": [start, end], "level": "warning" | "error"}` (README, `check`; `span` is the finding's
/// byte range in `input`; `level` is `error` when `--strict` or `--deny CODE` makes it fail the line).
#[derive(Debug, Serialize)]
pub(crate) struct Warning<'a> {
    pub(crate) code: &'static str,
    pub(crate) section: &'static str,
    pub(crate) message: &'a str,
    pub(crate) span: (usize, usize),
    pub(crate) level: &'static str,
}

impl<'a> Warning<'a> {
    /// The JSON of `finding` in `input`, at `severity`; with `redact` (`--redact`), a finding about
    /// characters of the userinfo password says neither them nor where they are: its message is
    /// [`FINDING_IN_PASSWORD`] and its span the password's.
    pub(crate) fn new(
        finding: &'a rfc3986::lint::Finding,
        severity: Severity,
        input: &str,
        redact: bool,
    ) -> Warning<'a> {
        let mut warning = Warning {
            code: finding.code().as_str(),
            section: finding.section(),
            message: finding.message(),
            span: finding.span(),
            level: severity.as_str(),
        };
        if redact && finding.code() != rfc3986::lint::Code::UserinfoPassword {
            let (start, end) = finding.span();
            if let Some(password) = password_spans(input)
                .into_iter()
                .find(|p| p.contains(&start) || (start < p.start && end > p.start))
            {
                warning.message = FINDING_IN_PASSWORD;
                warning.span = (password.start, password.end);
            }
        }
        warning
    }
}

/// `--format` of every subcommand: text for people, or one JSON object per input line for scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Human-readable: results on standard output, a diagnostic with a caret per problem.
    Text,
    /// One JSON object per input line, errors included, with its line number (`jsonl` is the same).
    #[value(alias = "jsonl")]
    Json,
}

/// `--format` of `check` and `fix`: [`Format`]'s two and the formats of CI services.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CiFormat {
    /// Human-readable: results on standard output, a diagnostic with a caret per problem.
    Text,
    /// One JSON object per input line, errors included, with its line number (`jsonl` is the same).
    #[value(alias = "jsonl")]
    Json,
    /// GitHub Actions workflow commands (`::error file=F,line=L,col=C::MESSAGE`), one per finding.
    Github,
    /// One SARIF 2.1.0 log (code scanning), one result per finding.
    Sarif,
}

/// How bad a diagnostic is: `error` fails the input, `warning` does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Severity {
    Error,
    Warning,
}

impl Severity {
    /// `error` or `warning`, as diagnostics and JSON spell it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// `--diagnostics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Diagnostics {
    /// Rich where the diagnostics go to a terminal, plain otherwise.
    Auto,
    /// `error: MESSAGE`, ` --> SOURCE:LINE:COL`, the line with a caret and what was expected.
    Rich,
    /// `SOURCE:LINE:COL: error: MESSAGE`, the line, the caret.
    Plain,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Where the diagnostics go to a terminal and NO_COLOR is not set.
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

/// The options every subcommand shares for what it prints about its inputs: `--diagnostics`,
/// `--color` and `--redact`.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct LookArgs {
    /// How text diagnostics look: rich (rustc-like) or plain (`SOURCE:LINE:COL: error: MESSAGE`, the
    /// line, a caret); auto: rich when they go to a terminal, plain otherwise.
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = Diagnostics::Auto)]
    diagnostics: Diagnostics,

    /// Colour text diagnostics; auto: when they go to a terminal and NO_COLOR is not set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,

    /// Also mask the password of a userinfo (`user:****@host`) in JSON output (`input`, the components,
    /// `fix`'s results; an error at a character of it does not name the character); text diagnostics
    /// always mask it. Offsets still count the bytes of the line as read.
    #[arg(long)]
    redact: bool,
}

impl LookArgs {
    /// The look of diagnostics written to a stream that is a terminal or not.
    pub(crate) fn look(&self, terminal: bool) -> Look {
        let rich = match self.diagnostics {
            Diagnostics::Auto => terminal,
            Diagnostics::Rich => true,
            Diagnostics::Plain => false,
        };
        let color = match self.color {
            ColorChoice::Auto => {
                terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
            ColorChoice::Always => true,
            ColorChoice::Never => false,
        };
        Look {
            rich,
            color,
            redact_json: self.redact,
        }
    }

    /// The look of diagnostics written to standard error.
    pub(crate) fn stderr_look(&self) -> Look {
        self.look(io::stderr().is_terminal())
    }
}

/// How text diagnostics are drawn (`--diagnostics`, `--color`) and whether JSON is redacted (`--redact`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    /// rustc-like blocks (`error: ...`, ` --> SOURCE:LINE:COL`, the line, a caret and a label) rather than
    /// the plain `SOURCE:LINE:COL: error: MESSAGE`, the line, the caret.
    pub(crate) rich: bool,
    /// ANSI colours.
    pub(crate) color: bool,
    /// `--redact`: mask passwords in JSON too.
    pub(crate) redact_json: bool,
}

/// `error:` and the caret: bold red, as rustc and cargo draw them.
const ERROR: anstyle::Style = anstyle::Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::BrightRed)));
/// `warning:`: bold yellow.
const WARNING: anstyle::Style = anstyle::Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::BrightYellow)));
/// `SOURCE:LINE:COL:`: bold.
const LOCATION: anstyle::Style = anstyle::Style::new().bold();

/// What replaces a userinfo password in echoed text.
pub(crate) const MASK: &str = "****";

/// The message of a parse error at a character of the userinfo password, which it does not name.
pub(crate) const IN_PASSWORD: &str =
    "character not allowed in the password of the userinfo (not shown)";

/// The rule id of a grammar error in the CI formats (lint findings have their code).
pub(crate) const SYNTAX_RULE: &str = "syntax";

/// A diagnostic for the CI formats ([`Diagnostic::record`]).
#[derive(Debug)]
pub(crate) struct CiRecord {
    /// `error`, `warning`, or `note` (a repair).
    pub(crate) level: &'static str,
    /// The lint code, or [`SYNTAX_RULE`].
    pub(crate) rule: &'static str,
    /// The input's name, as given (the formats escape it their way).
    pub(crate) source: String,
    pub(crate) line: u64,
    /// 1-based column in characters (SARIF's `unicodeCodePoints`), and the column after the span.
    pub(crate) column: usize,
    pub(crate) end_column: usize,
    /// Message, help, expected items and note on one line, escaped, naming no character of a password.
    pub(crate) message: String,
}

/// The message of a lint finding about characters of the userinfo password, which it does not name.
pub(crate) const FINDING_IN_PASSWORD: &str = "finding in the password of the userinfo (not shown)";

/// One thing to say about one input line, in the one shape every subcommand uses:
/// `SOURCE:LINE:COL: error|warning: MESSAGE` (plain) or a rustc-like block (rich).
#[derive(Debug)]
pub(crate) struct Diagnostic<'a> {
    pub(crate) severity: Severity,
    /// The input's name: a file as given, `<stdin>`, `<argument>`; escaped when written.
    pub(crate) source: &'a str,
    /// 1-based line of the input (position among the arguments for `<argument>`).
    pub(crate) line: u64,
    /// The whole input line, as text.
    pub(crate) input: &'a str,
    /// The byte range the diagnostic is about; an empty range at the end for "input ends too early".
    pub(crate) span: Range<usize>,
    /// The message, the label and the help.
    pub(crate) words: Words<'a>,
    /// Context: `not a valid urn URI (RFC 8141 2)`.
    pub(crate) note: Option<String>,
    /// The lint code of a finding (`[port-default]` after the message).
    pub(crate) code: Option<&'static str>,
    /// Whether plain mode repeats the input line with a caret (errors do; warnings keep to one line).
    pub(crate) plain_snippet: bool,
}

/// What a [`Diagnostic`] says: a short message (`space not allowed here`), a label under the caret in
/// rich mode (`expected pchar or "/"`) and a help (what to do about it, with its RFC section). A parse
/// error's and a finding's are written from them when the diagnostic is (plain diagnostics make no
/// `String` of them).
#[derive(Debug)]
pub(crate) enum Words<'a> {
    /// The error's message, expected items (the label) and hint (the help): its
    /// [`detail`](ParseError::detail) in plain mode.
    Error(&'a ParseError),
    /// `MESSAGE (RFC 3986 SECTION)`, no label or help.
    Finding(&'a rfc3986::lint::Finding),
    /// Words of its own.
    Own {
        message: String,
        label: Option<String>,
        help: Option<String>,
    },
}

impl Words<'_> {
    /// A message alone.
    pub(crate) fn own(message: String) -> Words<'static> {
        Words::Own {
            message,
            label: None,
            help: None,
        }
    }

    /// The message, the label and the help, unescaped.
    fn texts(&self) -> (Cow<'_, str>, Option<Cow<'_, str>>, Option<Cow<'_, str>>) {
        match self {
            Words::Error(error) => (
                error.message().into(),
                (!error.expected().is_empty()).then(|| error.expected_list().into()),
                error.hint().map(Cow::Owned),
            ),
            Words::Finding(finding) => (
                format!("{} (RFC 3986 {})", finding.message(), finding.section()).into(),
                None,
                None,
            ),
            Words::Own {
                message,
                label,
                help,
            } => (
                message.as_str().into(),
                label.as_deref().map(Cow::Borrowed),
                help.as_deref().map(Cow::Borrowed),
            ),
        }
    }
}

impl<'a> Diagnostic<'a> {
    /// The diagnostic of a parse error in `input`.
    pub(crate) fn error(
        source: &'a str,
        line: u64,
        input: &'a str,
        error: &'a ParseError,
    ) -> Diagnostic<'a> {
        let offset = error.offset().min(input.len());
        let end = if matches!(error.kind(), rfc3986::ParseErrorKind::InvalidUtf8) {
            offset
        } else {
            offset
                + input[floor(input, offset)..]
                    .chars()
                    .next()
                    .map_or(0, char::len_utf8)
        };
        Diagnostic {
            severity: Severity::Error,
            source,
            line,
            input,
            span: offset..end.max(offset),
            words: Words::Error(error),
            note: None,
            code: None,
            plain_snippet: true,
        }
    }

    /// The diagnostic of a lint finding in `input`, at `severity`.
    pub(crate) fn finding(
        source: &'a str,
        line: u64,
        input: &'a str,
        finding: &'a rfc3986::lint::Finding,
        severity: Severity,
    ) -> Diagnostic<'a> {
        Diagnostic {
            severity,
            source,
            line,
            input,
            span: finding.start()..finding.end(),
            words: Words::Finding(finding),
            note: None,
            code: Some(finding.code().as_str()),
            plain_snippet: false,
        }
    }

    /// A diagnostic about `input` as a whole, with no position in it (`expected BASE<TAB>REF`).
    pub(crate) fn whole(
        source: &'a str,
        line: u64,
        input: &'a str,
        message: String,
    ) -> Diagnostic<'a> {
        Diagnostic {
            severity: Severity::Error,
            source,
            line,
            input,
            span: 0..0,
            words: Words::own(message),
            note: None,
            code: None,
            plain_snippet: false,
        }
    }

    /// An error at byte range `span` of `input`, said by `message` alone (`decode`'s errors, a
    /// template's).
    pub(crate) fn at(
        source: &'a str,
        line: u64,
        input: &'a str,
        span: Range<usize>,
        message: String,
    ) -> Diagnostic<'a> {
        Diagnostic {
            severity: Severity::Error,
            source,
            line,
            input,
            span,
            words: Words::own(message),
            note: None,
            code: None,
            plain_snippet: true,
        }
    }

    /// Adds a note (`not a valid urn URI (...)`).
    pub(crate) fn with_note(mut self, note: Option<&str>) -> Diagnostic<'a> {
        self.note = note.map(str::to_string);
        self
    }

    /// Writes the diagnostic as `look` says, at the end of `out`. The input is echoed with its userinfo
    /// password masked and control characters, bidirectional controls and line separators escaped; a
    /// message about a character inside the password does not name the character.
    pub(crate) fn write(&self, out: &mut Vec<u8>, look: Look) -> io::Result<()> {
        // Only a diagnostic that echoes the line needs it masked (a copy of the line when it has a
        // password); a plain warning is one line without it.
        let echoes = look.rich || self.plain_snippet;
        let (input, span, in_password) = if echoes {
            redact(self.input, self.span.clone())
        } else {
            (self.input.into(), self.span.clone(), false)
        };
        if look.rich {
            let source = escape_text(self.source);
            let (message, help) = self.said(in_password);
            let visible = Visible::new(&input, span);
            return self.write_rich(out, look, &source, &message, help.as_deref(), &visible);
        }
        // Plain: COL is the 1-based byte column in the line as read. Written piece by piece into `out`
        // (no `String` per diagnostic), each piece that may quote input escaped where it lies.
        let mut numbers = itoa::Buffer::new();
        let severity = self.severity.as_str();
        let style = match self.severity {
            Severity::Error => ERROR,
            Severity::Warning => WARNING,
        };
        if look.color {
            write!(out, "{LOCATION}")?;
        }
        push_escaped_bytes(out, self.source);
        out.push(b':');
        out.extend_from_slice(numbers.format(self.line).as_bytes());
        out.push(b':');
        out.extend_from_slice(numbers.format(self.span.start + 1).as_bytes());
        if look.color {
            write!(out, ":{LOCATION:#} {style}{severity}:{style:#} ")?;
        } else {
            out.extend_from_slice(b": ");
            out.extend_from_slice(severity.as_bytes());
            out.extend_from_slice(b": ");
        }
        self.write_plain_words(out, in_password);
        if let Some(note) = &self.note {
            out.extend_from_slice(b"; ");
            push_escaped_bytes(out, note);
        }
        if let Some(code) = self.code {
            out.extend_from_slice(b" [");
            out.extend_from_slice(code.as_bytes());
            out.push(b']');
        }
        out.push(b'\n');
        if !self.plain_snippet {
            return Ok(());
        }
        let caret_column = if is_printable_ascii(&input) {
            // As `Visible::ascii` cuts it, written where it goes.
            let offset = span.start.min(input.len());
            let end = (offset + 60).min(input.len());
            let start = offset.saturating_sub(60);
            if start > 0 {
                out.extend_from_slice(b"...");
            }
            out.extend_from_slice(&input.as_bytes()[start..end]);
            if end < input.len() {
                out.extend_from_slice(b"...");
            }
            offset - start + if start > 0 { 3 } else { 0 }
        } else {
            let visible = Visible::new(&input, span);
            out.extend_from_slice(visible.line.as_bytes());
            visible.caret_column
        };
        out.push(b'\n');
        out.resize(out.len() + caret_column, b' ');
        if look.color {
            writeln!(out, "{style}^{style:#}")
        } else {
            out.extend_from_slice(b"^\n");
            Ok(())
        }
    }

    /// The message, the help and the label of a plain diagnostic, each after `; `, escaped, naming no
    /// character of a password (`in_password`: the error is at one): what [`said`](Self::said) and the
    /// label say.
    fn write_plain_words(&self, out: &mut Vec<u8>, in_password: bool) {
        match &self.words {
            Words::Error(error) if !in_password => {
                // The detail is the message, the hint and the expected items, each after `; `.
                write_escaped(out, |w| error.write_detail(w));
            }
            Words::Error(error) => {
                out.extend_from_slice(IN_PASSWORD.as_bytes());
                if !error.expected().is_empty() {
                    out.extend_from_slice(b"; ");
                    write_escaped(out, |w| error.write_expected_list(w));
                }
            }
            Words::Finding(finding) if !self.finding_in_password() => {
                write_escaped(out, |w| {
                    use std::fmt::Write as _;
                    w.write_str(finding.message())?;
                    w.write_str(" (RFC 3986 ")?;
                    w.write_str(finding.section())?;
                    w.write_str(")")
                });
            }
            _ => {
                let (message, help) = self.said(in_password);
                out.extend_from_slice(message.as_bytes());
                let (_, label, _) = self.words.texts();
                for part in [help, label.as_deref().map(escape_text)]
                    .into_iter()
                    .flatten()
                {
                    out.extend_from_slice(b"; ");
                    out.extend_from_slice(part.as_bytes());
                }
            }
        }
    }

    /// Whether this is a finding about characters of the userinfo password (other than the finding
    /// that there is a password).
    fn finding_in_password(&self) -> bool {
        self.code.is_some_and(|code| code != "userinfo-password")
            && touches_password(self.input, self.span.clone())
    }

    /// The message and the help as they may be shown: escaped, and naming no character of a password
    /// (`in_password`: the error is at one). A parse error's message names the character it found; a
    /// finding's names the octet (`%00`).
    fn said(&self, in_password: bool) -> (Cow<'_, str>, Option<Cow<'_, str>>) {
        if in_password && self.code.is_none() {
            (Cow::Borrowed(IN_PASSWORD), None)
        } else if self.finding_in_password() {
            (Cow::Borrowed(FINDING_IN_PASSWORD), None)
        } else {
            let (message, _, help) = self.words.texts();
            (escaped_owned(message), help.map(escaped_owned))
        }
    }

    /// The diagnostic as one record for the CI formats (`--format github|sarif`): escaped, naming no
    /// character of a password, with its position.
    pub(crate) fn record(&self) -> CiRecord {
        let (message, help) = self.said(in_password(self.input, self.span.start));
        let mut text = message.into_owned();
        let (_, label, _) = self.words.texts();
        let label = label.as_deref().map(escape_text);
        let note = self.note.as_deref().map(escape_text);
        for part in [help.as_deref(), label.as_deref(), note.as_deref()]
            .into_iter()
            .flatten()
        {
            text.push_str("; ");
            text.push_str(part);
        }
        CiRecord {
            level: self.severity.as_str(),
            rule: self.code.unwrap_or(SYNTAX_RULE),
            source: self.source.to_owned(),
            line: self.line,
            column: column(self.input, self.span.start),
            end_column: column(self.input, self.span.end.max(self.span.start)),
            message: text,
        }
    }

    /// The rustc-like block, drawn by annotate-snippets:
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
    fn write_rich(
        &self,
        out: &mut Vec<u8>,
        look: Look,
        source: &str,
        message: &str,
        help: Option<&str>,
        visible: &Visible,
    ) -> io::Result<()> {
        use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

        let title = match self.code {
            Some(code) => format!("{message} [{code}]"),
            None => message.to_string(),
        };
        let (_, label, _) = self.words.texts();
        let label = label.as_deref().map(escape_text);
        let mut annotation = AnnotationKind::Primary.span(visible.span.clone());
        if let Some(label) = &label {
            annotation = annotation.label(label.as_ref());
        }
        let snippet = Snippet::source(visible.line.as_str())
            .line_start(usize::try_from(self.line).unwrap_or(usize::MAX))
            .path(source)
            .annotation(annotation);
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut group = level.primary_title(title.as_str()).element(snippet);
        if let Some(help) = help {
            group = group.element(Level::HELP.message(help));
        }
        let note = self.note.as_deref().map(escape_text);
        if let Some(note) = &note {
            group = group.element(Level::NOTE.message(note.as_ref()));
        }
        let renderer = if look.color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let rendered = renderer.render(&[group]);
        // annotate-snippets counts the column in the line it was given, which is cut, escaped or masked;
        // the location says the 1-based byte column in the line as read, as plain diagnostics do.
        let shown = format!("{source}:{}:{}", self.line, visible.caret_column + 1);
        let real = format!("{source}:{}:{}", self.line, self.span.start + 1);
        let rendered = rendered.replacen(&shown, &real, 1);
        writeln!(out, "{rendered}")?;
        // A blank line between diagnostics, as rustc leaves.
        writeln!(out)
    }
}

/// The part of an input line a diagnostic shows: at most 60 bytes on either side of the span's start,
/// cut marked with `...`, escaped; with the caret's column (in characters) and the span in its bytes.
struct Visible {
    line: String,
    caret_column: usize,
    span: Range<usize>,
}

impl Visible {
    fn new(input: &str, span: Range<usize>) -> Visible {
        if is_printable_ascii(input) {
            return Visible::ascii(input, span);
        }
        let offset = span.start.min(input.len());
        let mut end = (offset + 60).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        let start = floor(input, offset.saturating_sub(60));
        let offset = floor(input, offset);
        let mut line = String::new();
        if start > 0 {
            line.push_str("...");
        }
        push_escaped(&mut line, &input[start..offset]);
        let caret_column = line.chars().count();
        let span_start = line.len();
        let span_end_in_input = span.end.clamp(offset, end);
        let span_end_in_input = ceil(input, span_end_in_input);
        push_escaped(&mut line, &input[offset..span_end_in_input]);
        let span_end = line.len();
        push_escaped(&mut line, &input[span_end_in_input..end]);
        if end < input.len() {
            line.push_str("...");
        }
        Visible {
            line,
            caret_column,
            span: span_start..span_end,
        }
    }
}

impl Visible {
    /// [`Visible::new`] for a line of printable ASCII only: every byte is a character and nothing is
    /// escaped, so columns are byte offsets.
    fn ascii(input: &str, span: Range<usize>) -> Visible {
        let offset = span.start.min(input.len());
        let end = (offset + 60).min(input.len());
        let start = offset.saturating_sub(60);
        let cut = if start > 0 { "..." } else { "" };
        let mut line = String::with_capacity(end - start + 6);
        line.push_str(cut);
        line.push_str(&input[start..end]);
        if end < input.len() {
            line.push_str("...");
        }
        let caret_column = cut.len() + offset - start;
        let span_end = span.end.clamp(offset, end);
        Visible {
            line,
            caret_column,
            span: caret_column..caret_column + (span_end - offset),
        }
    }
}

/// The largest char boundary at or before `i`.
fn floor(input: &str, mut i: usize) -> usize {
    i = i.min(input.len());
    while !input.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary at or after `i`.
fn ceil(input: &str, mut i: usize) -> usize {
    i = i.min(input.len());
    while !input.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Control characters (C0, DEL, C1), bidirectional controls and line or paragraph separators: what an
/// echoed text must not carry to a terminal raw.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Appends `text` with [`needs_escape`] characters written as `\u{..}`.
fn push_escaped(out: &mut String, text: &str) {
    if is_printable_ascii(text) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
}

/// `text` for human-readable output: control characters, bidirectional controls and line separators as
/// `\u{..}` escapes (a file name, a message that quotes input).
pub(crate) fn escape_text(text: &str) -> Cow<'_, str> {
    if is_printable_ascii(text) || !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    Cow::Owned(out)
}

/// Whether `text` is only printable ASCII (space to `~`): nothing in it needs escaping.
fn is_printable_ascii(text: &str) -> bool {
    printable_ascii(text.as_bytes())
}

/// [`is_printable_ascii`] of bytes, eight at a time: one pass, a few instructions per eight bytes.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut eight = [0; 8];
        eight.copy_from_slice(word);
        let x = u64::from_le_bytes(eight);
        // Some byte below 0x20 (the borrow of the subtraction reaches its high bit, which was clear),
        // or some byte of 0x7F and above (its high bit is set, or adding 1 sets it; a carry into the
        // next byte comes only from 0xFF, itself not printable).
        let below = x.wrapping_sub(ONES * 0x20) & !x;
        let above = x.wrapping_add(ONES) | x;
        if (below | above) & HIGH != 0 {
            return false;
        }
    }
    words
        .remainder()
        .iter()
        .all(|&b| b.wrapping_sub(b' ') < 0x5f)
}

/// [`escape_text`] of `text`, owned only when it was.
fn escaped_owned(text: Cow<'_, str>) -> Cow<'_, str> {
    match text {
        Cow::Borrowed(text) => escape_text(text),
        Cow::Owned(text) => Cow::Owned(escape_text(&text).into_owned()),
    }
}

/// Appends [`escape_text`] of `text` to `out`.
fn push_escaped_bytes(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(escape_text(text).as_bytes());
}

/// `fmt::Write` into the end of a byte buffer.
struct Bytes<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Bytes<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Appends what `write` writes to `out`, escaped as [`escape_text`] escapes: written in place, looked at
/// once, and written again escaped only when it has something to escape.
fn write_escaped(out: &mut Vec<u8>, write: impl FnOnce(&mut Bytes<'_>) -> std::fmt::Result) {
    let start = out.len();
    // Writing into a `Vec` does not fail.
    let _ = write(&mut Bytes(out));
    let written = &out[start..];
    if printable_ascii(written) {
        return;
    }
    // Written from `str`s: UTF-8.
    let text = String::from_utf8_lossy(written);
    if !text.chars().any(needs_escape) {
        return;
    }
    let text = text.into_owned();
    out.truncate(start);
    push_escaped_bytes(out, &text);
}

/// The byte range of the password of `input`'s userinfo, as the library finds it in any string
/// ([`rfc3986::password_span`], the split of RFC 3986 Appendix B).
pub(crate) fn password_span(input: &str) -> Option<Range<usize>> {
    rfc3986::password_span(input.as_bytes())
}

/// The byte ranges of the userinfo passwords of `input`: [`password_span`] of each of its tab-separated
/// fields (a `BASE<TAB>REF` or `A<TAB>B` line has two URIs), in order.
pub(crate) fn password_spans(input: &str) -> Vec<Range<usize>> {
    if !input.contains('@') {
        return Vec::new();
    }
    let mut spans = Vec::new();
    let mut start = 0;
    for field in input.split('\t') {
        if let Some(span) = password_span(field) {
            spans.push(start + span.start..start + span.end);
        }
        start += field.len() + 1;
    }
    spans
}

/// Whether byte `offset` of `input` is inside a password of its userinfo ([`password_spans`]).
pub(crate) fn in_password(input: &str, offset: usize) -> bool {
    password_spans(input)
        .iter()
        .any(|password| password.contains(&offset))
}

/// Whether the byte range `span` of `input` overlaps a password of its userinfo ([`password_spans`]).
pub(crate) fn touches_password(input: &str, span: Range<usize>) -> bool {
    password_spans(input)
        .iter()
        .any(|p| p.contains(&span.start) || (span.start < p.start && span.end > p.start))
}

/// `input` with every userinfo password ([`password_spans`]) replaced by [`MASK`], `span` moved to
/// match, and whether the span started inside a password.
pub(crate) fn redact(input: &str, span: Range<usize>) -> (Cow<'_, str>, Range<usize>, bool) {
    let passwords = password_spans(input);
    if passwords.is_empty() {
        return (input.into(), span, false);
    }
    let mut masked = String::with_capacity(input.len());
    let mut at = 0;
    for password in &passwords {
        masked.push_str(&input[at..password.start]);
        masked.push_str(MASK);
        at = password.end;
    }
    masked.push_str(&input[at..]);
    let map = |o: usize| {
        let mut shift: isize = 0;
        for password in &passwords {
            if o < password.start {
                break;
            } else if o < password.end {
                return (password.start as isize + shift) as usize;
            }
            shift += MASK.len() as isize - password.len() as isize;
        }
        (o as isize + shift) as usize
    };
    let inside = passwords.iter().any(|p| p.contains(&span.start));
    let start = map(span.start);
    let end = if inside {
        start + MASK.len()
    } else {
        map(span.end).max(start)
    };
    (masked.into(), start..end, inside)
}

/// `text` with every userinfo password masked ([`redact`]).
pub(crate) fn redact_all(text: &str) -> Cow<'_, str> {
    redact(text, 0..0).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_span_follows_appendix_b() {
        let cases: &[(&str, Option<&str>)] = &[
            ("http://user:secret@host/a b", Some("secret")),
            ("//u:p@h", Some("p")),
            ("http://u:@h/", None),
            ("http://u@h/", None),
            ("http://h/a:b@c", None),
            ("http://a:b@c@d/", Some("b@c")),
            ("mailto:a:b@c", None),
            ("x://u:p w@h", Some("p w")),
        ];
        for &(input, password) in cases {
            assert_eq!(password_span(input).map(|r| &input[r]), password, "{input}");
        }
    }

    #[test]
    fn printable_ascii_finds_every_other_byte_at_every_position() {
        for b in 0..=255u8 {
            for at in 0..19 {
                let mut bytes = [b'a'; 19];
                bytes[at] = b;
                assert_eq!(
                    printable_ascii(&bytes),
                    (b' '..=b'~').contains(&b),
                    "byte {b:#x} at {at}"
                );
                // Beside a 0xFF, whose carry or borrow reaches the next byte.
                if at > 0 {
                    bytes[at - 1] = 0xff;
                    assert!(!printable_ascii(&bytes), "byte {b:#x} at {at} after 0xFF");
                }
            }
        }
        assert!(printable_ascii(b""));
    }

    #[test]
    fn redact_moves_spans_past_the_password() {
        let input = "http://u:secret@h/a b";
        let (masked, span, inside) = redact(input, 19..20);
        assert_eq!(masked, "http://u:****@h/a b");
        assert_eq!(&masked[span], " ");
        assert!(!inside);
        let (_, span, inside) = redact(input, 10..11);
        assert_eq!(span, 9..13);
        assert!(inside);
    }
}
