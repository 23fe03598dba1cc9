//! `rfc3986 fix [--format text|json] [--quiet] [FILE...]`: unambiguous repairs of near-URIs
//! (`rfc3986::repair::fix`), each reported; the result always passes `check`.
//!
//! Every line of every FILE (standard input if none, `-` too) is one input:
//!
//! - `text`: standard output gets exactly one line per input line, in order: the repaired URI reference,
//!   the line unchanged when it was already valid, and the line unchanged too when it cannot be repaired
//!   (so that `fix < in > out` keeps line numbers; `check out` then shows what is left). Standard error
//!   gets one note per repair, `SOURCE:LINE:COL: fixed: ' ' -> %20 (RFC 3986 2.1)` (not with `--quiet`),
//!   one diagnostic per unrepairable line, `SOURCE:LINE:COL: error: MESSAGE` with the partly repaired line
//!   and a caret, and a summary `N lines, N already valid, N fixed, N unrepairable`. COL is the 1-based
//!   byte column in the original line.
//! - `json`: one object per line: `{"file", "line", "input", "fixed": "..." | null, "repairs":
//!   [{"offset", "column", "found", "replacement", "reason", "section"}], "error": {"offset", "column",
//!   "kind", "cause", "expected", "hint", "message", "partial"} | null}`; offsets are 0-based bytes of
//!   `input`, columns 1-based bytes (as the text notes count).
//!
//! A blank line is a line like any other: the empty URI reference (RFC 3986 4.1, 4.2: `relative-ref` with
//! `path-empty`), already valid, written back in text and given its object in JSON.
//!
//! Echoed text on standard error has control and bidirectional characters escaped, and the password of a
//! `user:password@` userinfo replaced by `*`s (the repaired URI on standard output is the product and is
//! written as it is). With `--redact`, JSON masks it too (`input`, `fixed`, `partial`; a repair or an
//! error at a character of it names neither the character nor its encoding). The repair notes on
//! standard error never spell a character of it, by itself or by its encoding, with or without `--redact`.
//!
//! Exit status: 0 when every line ends valid, 1 when some line stays invalid, 2 when an input cannot be
//! read.

use std::borrow::Cow;
use std::io;
use std::path::PathBuf;

use rfc3986::repair::{self, Repair, Unrepairable};
use rfc3986::{ParseError, Rule};
use serde::Serialize;

use super::input;
use super::print::{Ci, Printer};
use super::report;
use super::report::{CiFormat, CiRecord, Format};
use super::Status;

/// Arguments of `rfc3986 fix`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Repairs percent-encode only: a space inside, \" < > \\ ^ ` { | } and controls, \
    non-ASCII characters (UTF-8 octets, RFC 3987 3.1), a % without two hex digits, a second #, [ ] past \
    the authority. Refused: URI templates and placeholders ({var}, {}, [NAME]), printf formats (%s), \
    regular expressions, Markdown, whitespace at either end or a tab (RFC 3986 Appendix C), <...> \
    delimiters, and what no encoding repairs (host:port).\n\
    Standard output: one line per input line, an unrepairable line unchanged. \
    Exit status: 0 every line ends valid, 1 some line stays invalid, 2 an input cannot be read."
)]
pub(crate) struct Args {
    /// Output format: text (the repaired lines; notes on standard error), json, github (workflow
    /// annotations) or sarif (SARIF 2.1.0); with github and sarif, standard output has the findings
    /// only: a note per repair and an error per unrepairable line.
    #[arg(long, value_enum, default_value_t = CiFormat::Text)]
    format: CiFormat,

    /// Do not write a note per repair on standard error (errors and the summary are still written).
    #[arg(short, long)]
    quiet: bool,

    #[command(flatten)]
    look: report::LookArgs,

    /// Files to repair, one URI reference per line; none or `-`: standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// One line's result as JSON.
#[derive(Debug, Serialize)]
struct LineJson<'a> {
    file: &'a str,
    line: u64,
    input: Cow<'a, str>,
    fixed: Option<Cow<'a, str>>,
    repairs: RepairsJson<'a>,
    error: Option<ErrorJson<'a>>,
}

/// The repairs of one line, written to JSON one by one as they are serialized (a line can have millions
/// of them: no list of their JSON is held).
#[derive(Debug)]
struct RepairsJson<'a> {
    repairs: &'a [Repair],
    /// The userinfo password's span under `--redact`.
    secret: Option<std::ops::Range<usize>>,
}

impl Serialize for RepairsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer
            .collect_seq((self.repairs.iter()).map(|r| RepairJson::new(r, self.secret.as_ref())))
    }
}

/// `{"offset", "column", "found", "replacement", "reason", "section"}`.
#[derive(Debug, Serialize)]
struct RepairJson {
    offset: usize,
    column: usize,
    found: String,
    replacement: String,
    reason: &'static str,
    section: &'static str,
}

impl RepairJson {
    /// The JSON of `repair`; `found` and `replacement` are [`HIDDEN`] when the repair is in `hide`, the
    /// span of the userinfo password under `--redact` (worked out once per line: a line can have
    /// millions of repairs). The column is the 1-based byte column, as in the text notes.
    fn new(repair: &Repair, hide: Option<&std::ops::Range<usize>>) -> RepairJson {
        let hidden = hide.is_some_and(|secret| secret.contains(&repair.offset()));
        RepairJson {
            offset: repair.offset(),
            column: repair.offset() + 1,
            found: if hidden {
                HIDDEN.to_string()
            } else {
                repair.found().to_string()
            },
            replacement: if hidden {
                HIDDEN.to_string()
            } else {
                repair.replacement()
            },
            reason: repair.reason().name(),
            section: repair.reason().section(),
        }
    }
}

/// What a repair note (and, with `--redact`, JSON) shows for a character of the userinfo password.
const HIDDEN: &str = "*";

/// The error of an unrepairable line; `offset` and `column` point into the original input, `partial` is
/// the text with the repairs made before the stop.
#[derive(Debug, Serialize)]
struct ErrorJson<'a> {
    offset: usize,
    column: usize,
    /// `ParseErrorKind::name` of the grammar's error.
    kind: &'static str,
    /// `Cause::name`: `syntax`, `template`, `whitespace`, ...
    cause: &'static str,
    expected: Vec<String>,
    hint: Option<String>,
    message: String,
    partial: Cow<'a, str>,
}

impl<'a> ErrorJson<'a> {
    /// The error at byte `offset` of the original `input` (`error` is the grammar's error on `partial`),
    /// with its cause's name and hint, and `message`; when `redact` and the error is at a character of
    /// the userinfo password, masked as text diagnostics are ([`report::IN_PASSWORD`], no hint) and
    /// `partial` masked.
    fn new(
        input: &str,
        offset: usize,
        (cause, hint): (&'static str, Option<String>),
        error: &ParseError,
        message: String,
        partial: &'a str,
        redact: bool,
    ) -> ErrorJson<'a> {
        let hidden = redact && report::in_password(partial, error.offset());
        ErrorJson {
            offset,
            // The 1-based byte column, as text diagnostics count.
            column: offset.min(input.len()) + 1,
            kind: if hidden {
                rfc3986::ParseErrorKind::InvalidCharacter.name()
            } else {
                error.kind().name()
            },
            cause,
            expected: error.expected().iter().map(ToString::to_string).collect(),
            hint: if hidden { None } else { hint },
            message: if hidden {
                report::IN_PASSWORD.to_string()
            } else {
                message
            },
            partial: Cow::Borrowed(partial),
        }
    }
}

/// The tally of the summary line.
#[derive(Debug, Default)]
struct Counts {
    lines: u64,
    valid: u64,
    fixed: u64,
    unrepairable: u64,
}

/// What became of one line.
enum Outcome {
    Fixed(repair::Fixed),
    Unrepairable(Unrepairable),
    /// Not UTF-8: no character can be told, so nothing is repaired.
    NotUtf8(String, ParseError),
}

/// Runs `fix`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let base = match args.format {
        CiFormat::Json => Format::Json,
        _ => Format::Text,
    };
    let mut printer = Printer::new(base, &args.look);
    let mut counts = Counts::default();
    let mut ci = match args.format {
        CiFormat::Github | CiFormat::Sarif => Some(Ci::new(args.format)?),
        CiFormat::Text | CiFormat::Json => None,
    };
    let all_read = input::for_each_line(&args.files, |line| {
        counts.lines += 1;
        let outcome = match input::decode(Rule::URI_REFERENCE, line.bytes) {
            Ok(text) => match repair::fix(text) {
                Ok(fixed) => Outcome::Fixed(fixed),
                Err(e) => Outcome::Unrepairable(e),
            },
            Err((lossy, error)) => Outcome::NotUtf8(lossy, error),
        };
        match &outcome {
            Outcome::Fixed(f) if f.repairs().is_empty() => counts.valid += 1,
            Outcome::Fixed(_) => counts.fixed += 1,
            _ => counts.unrepairable += 1,
        }
        let text = match &outcome {
            Outcome::NotUtf8(lossy, _) => lossy.as_str(),
            _ => std::str::from_utf8(line.bytes).unwrap_or_default(),
        };
        match args.format {
            CiFormat::Json => write_json(&mut printer, line.file, line.number, text, &outcome)?,
            CiFormat::Text => {
                // One line per input line; an unrepairable one as it came, escaped.
                match &outcome {
                    Outcome::Fixed(f) => printer.product(f.as_str().as_bytes())?,
                    _ => printer.product(line.bytes)?,
                }
                write_notes(args, &mut printer, line.file, line.number, text, &outcome)?;
            }
            CiFormat::Github | CiFormat::Sarif => {
                if let Some(ci) = &mut ci {
                    ci_records(ci, line.file, line.number, text, &outcome)?;
                }
            }
        }
        printer.end_input()
    })?;
    if let Some(ci) = ci {
        ci.finish()?;
    }
    printer.finish()?;
    let Counts {
        lines,
        valid,
        fixed,
        unrepairable,
    } = counts;
    let noun = if lines == 1 { "line" } else { "lines" };
    super::error_plain(format_args!(
        "{lines} {noun}, {valid} already valid, {fixed} fixed, {unrepairable} unrepairable"
    ));
    Ok(Status::of(all_read, unrepairable > 0))
}

/// One line's JSON object; with `redact` (`--redact`), the userinfo password masked in every field that
/// echoes the line.
fn write_json(
    printer: &mut Printer,
    file: &str,
    line: u64,
    input: &str,
    outcome: &Outcome,
) -> io::Result<()> {
    let redact = printer.redact();
    let repairs = match outcome {
        Outcome::Fixed(f) => f.repairs(),
        Outcome::Unrepairable(e) => e.repairs(),
        Outcome::NotUtf8(..) => &[],
    };
    let error = match outcome {
        Outcome::Fixed(_) => None,
        Outcome::Unrepairable(e) => Some(ErrorJson::new(
            input,
            e.offset(),
            (e.cause().name(), e.hint()),
            e.error(),
            e.describe(),
            e.partial(),
            redact,
        )),
        Outcome::NotUtf8(lossy, error) => Some(ErrorJson::new(
            lossy,
            error.offset(),
            ("syntax", error.hint()),
            error,
            error.detail(),
            lossy,
            redact,
        )),
    };
    let secret = redact.then(|| report::password_span(input)).flatten();
    printer.record(&LineJson {
        file,
        line,
        input: Cow::Borrowed(input),
        fixed: match outcome {
            Outcome::Fixed(f) => Some(Cow::Borrowed(f.as_str())),
            _ => None,
        },
        repairs: RepairsJson { repairs, secret },
        error,
    })
}

/// The repair notes and the error of one line, on standard error, in the diagnostic shape of every
/// subcommand (`SOURCE:LINE:COL: fixed|error: ...`; the password of a userinfo masked, with the encoding
/// of a character of it, which would spell the character).
fn write_notes(
    args: &Args,
    printer: &mut Printer,
    file: &str,
    line: u64,
    input: &str,
    outcome: &Outcome,
) -> io::Result<()> {
    let shown_file = report::escape_text(file);
    let secrets = report::password_spans(input);
    let repairs = match outcome {
        Outcome::Fixed(f) => f.repairs(),
        Outcome::Unrepairable(e) => e.repairs(),
        Outcome::NotUtf8(..) => &[],
    };
    if !args.quiet {
        for r in repairs {
            let hidden = secrets.iter().any(|s| s.contains(&r.offset()));
            let found = if hidden {
                HIDDEN.to_string()
            } else {
                report::escape_text(&r.found().to_string()).into_owned()
            };
            let replacement = if hidden {
                HIDDEN.to_string()
            } else {
                r.replacement()
            };
            printer.note(format_args!(
                "{shown_file}:{line}:{}: fixed: '{found}' -> {replacement} ({})",
                r.offset() + 1,
                r.reason().section()
            ))?;
        }
    }
    let (message, shown, error) = match outcome {
        Outcome::Fixed(_) => return Ok(()),
        Outcome::Unrepairable(e) => (e.describe(), e.partial(), e.error()),
        Outcome::NotUtf8(lossy, e) => (e.detail(), lossy.as_str(), e),
    };
    let mut diagnostic = report::Diagnostic::error(file, line, shown, error);
    diagnostic.words = report::Words::own(message);
    printer.diagnostic(&diagnostic)
}

/// The findings of one line in a CI format: a note per repair (a character of a password named by
/// neither itself nor its encoding), and the error of an unrepairable line.
fn ci_records(
    ci: &mut Ci,
    file: &str,
    line: u64,
    input: &str,
    outcome: &Outcome,
) -> io::Result<()> {
    let secrets = report::password_spans(input);
    let repairs = match outcome {
        Outcome::Fixed(f) => f.repairs(),
        Outcome::Unrepairable(e) => e.repairs(),
        Outcome::NotUtf8(..) => &[],
    };
    for r in repairs {
        let hidden = secrets.iter().any(|s| s.contains(&r.offset()));
        let message = if hidden {
            format!("fixed: '{HIDDEN}' -> {HIDDEN} ({})", r.reason().section())
        } else {
            format!(
                "fixed: '{}' -> {} ({})",
                report::escape_text(&r.found().to_string()),
                r.replacement(),
                r.reason().section()
            )
        };
        let end = r.offset() + r.found().len_utf8();
        ci.record(&CiRecord {
            level: "note",
            rule: super::print::sarif::REPAIR_RULE,
            source: file.to_owned(),
            line,
            column: report::column(input, r.offset()),
            end_column: report::column(input, end),
            message,
        })?;
    }
    let (message, error) = match outcome {
        Outcome::Fixed(_) => return Ok(()),
        Outcome::Unrepairable(e) => (e.describe(), e.error()),
        Outcome::NotUtf8(_, e) => (e.detail(), e),
    };
    // At the position in the line as read, not in the partly repaired text.
    let offset = match outcome {
        Outcome::Unrepairable(e) => e.offset(),
        _ => error.offset(),
    };
    let mut diagnostic = report::Diagnostic::error(file, line, input, error);
    diagnostic.span = offset..offset;
    diagnostic.words = report::Words::own(message);
    ci.record(&diagnostic.record())
}
