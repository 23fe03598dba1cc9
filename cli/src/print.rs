//! The printer: every record a subcommand writes goes through here, so that what comes from input or
//! from a grammar file is escaped and redacted by construction, not by each subcommand remembering to.
//!
//! - JSON ([`json`]): one object per line, by serde_json, then with what serde_json leaves raw and
//!   some readers split records at or terminals obey escaped as `\uXXXX` ([`escape_tail`]: DEL, the
//!   C1 controls, bidirectional controls, U+2028/U+2029; the JSON value is the same). Under `--redact`
//!   every string of the record has its userinfo passwords masked ([`Secrets`], through the
//!   [`Escaping`] formatter): a URI's own (RFC 3986 3.2.1, found as Appendix B splits any string),
//!   and, in the fields that follow, the same password wherever it appears as `:PASSWORD@` or a
//!   trailing `:PASSWORD` (a `userinfo` or `authority` component).
//! - Text results on standard output ([`Printer::text`]): control, bidirectional and separator
//!   characters escaped as `\u{..}`, the password masked under `--redact`.
//! - Diagnostics on standard error ([`Printer::diagnostic`], [`crate::report::Diagnostic`]): escaped and
//!   with passwords masked always.
//! - CI formats: GitHub workflow commands ([`github`]) and SARIF 2.1.0 ([`sarif`]).
//!
//! Results go to standard output and diagnostics to standard error in every subcommand; the printer
//! flushes standard output before writing a diagnostic, so that a terminal or a file that takes both
//! shows them in input order.

use std::borrow::Cow;
use std::io::{self, BufWriter, IsTerminal, Write};

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};

use crate::report::{self, CiFormat, CiRecord, Diagnostic, Format, Look};

pub(crate) mod github;
pub(crate) mod sarif;

/// Writes `record` as one line of JSON: escaped as [`escape_tail`] says, its passwords masked when
/// `redact` (`--redact`).
pub(crate) fn json(out: &mut impl Write, redact: bool, record: &impl Serialize) -> io::Result<()> {
    let mut line = Vec::with_capacity(256);
    json_into(&mut line, redact, record)?;
    out.write_all(&line)
}

/// [`json`] appended to a buffer (`check`'s chunks), without a copy.
pub(crate) fn json_into(
    out: &mut Vec<u8>,
    redact: bool,
    record: &impl Serialize,
) -> io::Result<()> {
    let start = out.len();
    if redact {
        let formatter = Escaping {
            secrets: Secrets::default(),
            string: String::new(),
        };
        let mut serializer = serde_json::Serializer::with_formatter(&mut *out, formatter);
        record.serialize(&mut serializer).map_err(io::Error::from)?;
    } else {
        serde_json::to_writer(&mut *out, record)?;
    }
    escape_tail(out, start);
    out.push(b'\n');
    Ok(())
}

/// Escapes, in the JSON written from `start` on, what serde_json leaves raw and some readers split
/// records at or terminals obey: DEL, the C1 controls, bidirectional controls and U+2028/U+2029, as
/// `\uXXXX` (the JSON value is the same: outside strings JSON has only ASCII). One pass over the
/// record's bytes when there is nothing to escape, as for nearly every line.
fn escape_tail(out: &mut Vec<u8>, start: usize) {
    // Every such character starts with one of three bytes in UTF-8: DEL 0x7f, 0xc2 (U+0080 to
    // U+009F) or 0xe2 (U+200E to U+2069): one vectorized search finds the first candidate.
    let Some(first) = memchr::memchr3(0x7f, 0xc2, 0xe2, &out[start..]) else {
        return;
    };
    let start = start + first;
    let Ok(text) = String::from_utf8(out.split_off(start)) else {
        unreachable!("serde_json writes UTF-8");
    };
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if report::needs_escape(c) {
            escaped.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            escaped.push(c);
        }
    }
    out.extend_from_slice(escaped.as_bytes());
}

/// serde_json's compact formatter for `--redact`: every string collected whole and masked before it
/// is written.
struct Escaping {
    /// The passwords seen so far in this record.
    secrets: Secrets,
    /// The string being collected under `--redact`.
    string: String,
}

impl Formatter for Escaping {
    fn begin_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.string.clear();
        writer.write_all(b"\"")
    }

    fn end_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let masked = self.secrets.mask(&self.string);
        write_escaped(writer, &masked)?;
        writer.write_all(b"\"")
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        _writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        self.string.push_str(fragment);
        Ok(())
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        _writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        self.string.push(match char_escape {
            CharEscape::Quote => '"',
            CharEscape::ReverseSolidus => '\\',
            CharEscape::Solidus => '/',
            CharEscape::Backspace => '\u{8}',
            CharEscape::FormFeed => '\u{c}',
            CharEscape::LineFeed => '\n',
            CharEscape::CarriageReturn => '\r',
            CharEscape::Tab => '\t',
            CharEscape::AsciiControl(byte) => char::from(byte),
        });
        Ok(())
    }
}

/// Writes the characters of a whole string (without its quotes) escaped as serde_json escapes them
/// ([`escape_tail`] escapes the rest).
fn write_escaped<W: ?Sized + Write>(writer: &mut W, text: &str) -> io::Result<()> {
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let short: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\u{8}' => Some(b"\\b"),
            '\u{c}' => Some(b"\\f"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            _ => None,
        };
        if short.is_none() && c >= ' ' {
            continue;
        }
        writer.write_all(&text.as_bytes()[start..i])?;
        match short {
            Some(bytes) => writer.write_all(bytes)?,
            None => write!(writer, "\\u{:04x}", c as u32)?,
        }
        start = i + c.len_utf8();
    }
    writer.write_all(&text.as_bytes()[start..])
}

/// The userinfo passwords of one record, learnt from its strings in order, and the masking of them.
#[derive(Debug, Default)]
struct Secrets {
    known: Vec<String>,
}

impl Secrets {
    /// `text` with its own passwords masked ([`report::redact_all`]) and every password seen before in
    /// the record masked where it stands as `:PASSWORD@` or ends the text as `:PASSWORD`.
    fn mask<'a>(&mut self, text: &'a str) -> Cow<'a, str> {
        for span in report::password_spans(text) {
            let password = &text[span];
            if !self.known.iter().any(|k| k == password) {
                self.known.push(password.to_owned());
            }
        }
        let mut masked = report::redact_all(text);
        // Only a string longer than a password can hold `:PASSWORD`: the short strings of a record
        // (a repair's `found`) cost no search, however long the password.
        for password in &self.known {
            if masked.len() <= password.len() {
                continue;
            }
            let inner = format!(":{password}@");
            if masked.contains(&inner) {
                masked = Cow::Owned(masked.replace(&inner, &format!(":{}@", report::MASK)));
            }
            let tail = format!(":{password}");
            if let Some(head) = masked.strip_suffix(&tail) {
                masked = Cow::Owned(format!("{head}:{}", report::MASK));
            }
        }
        masked
    }
}

/// Writes `record` in a CI format (`github` or `sarif`); `first`: the first SARIF result of the log.
pub(crate) fn ci_record(
    out: &mut impl Write,
    format: CiFormat,
    record: &CiRecord,
    first: bool,
) -> io::Result<()> {
    match format {
        CiFormat::Sarif => sarif::result(out, record, first),
        _ => github::write(out, record),
    }
}

/// The CI formats on standard output, for a subcommand that writes them one record at a time (`fix`):
/// the SARIF log is opened at the start and closed by [`Ci::finish`].
pub(crate) struct Ci {
    out: BufWriter<io::StdoutLock<'static>>,
    format: CiFormat,
    first: bool,
}

impl Ci {
    /// Starts the output of `format` (`github` or `sarif`).
    pub(crate) fn new(format: CiFormat) -> io::Result<Ci> {
        let mut out = BufWriter::new(io::stdout().lock());
        if format == CiFormat::Sarif {
            sarif::header(&mut out)?;
        }
        Ok(Ci {
            out,
            format,
            first: true,
        })
    }

    /// One finding.
    pub(crate) fn record(&mut self, record: &CiRecord) -> io::Result<()> {
        ci_record(&mut self.out, self.format, record, self.first)?;
        self.first = false;
        Ok(())
    }

    /// Ends the output (closes the SARIF log) and flushes it.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        if self.format == CiFormat::Sarif {
            sarif::footer(&mut self.out)?;
        }
        self.out.flush()
    }
}

/// Where the records of a line-by-line subcommand go: standard output (buffered, flushed after each
/// input on a terminal) for results, standard error for diagnostics.
pub(crate) struct Printer {
    out: BufWriter<io::StdoutLock<'static>>,
    interactive: bool,
    pub(crate) format: Format,
    /// How diagnostics look on standard error, and `--redact`.
    pub(crate) look: Look,
    /// Under `--redact`, the passwords of the current input, for text results.
    secrets: Option<Secrets>,
}

impl Printer {
    /// A printer for `format`, diagnostics drawn as `look` says for standard error.
    pub(crate) fn new(format: Format, look: &report::LookArgs) -> Printer {
        let stdout = io::stdout();
        Printer {
            interactive: stdout.is_terminal(),
            out: BufWriter::new(stdout.lock()),
            format,
            look: look.stderr_look(),
            secrets: look.stderr_look().redact_json.then(Secrets::default),
        }
    }

    /// A printer of a subcommand without `--diagnostics`, `--color` and `--redact`.
    pub(crate) fn plain(format: Format) -> Printer {
        let stdout = io::stdout();
        let terminal = io::stderr().is_terminal();
        Printer {
            interactive: stdout.is_terminal(),
            out: BufWriter::new(stdout.lock()),
            format,
            look: Look {
                rich: terminal,
                color: terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
                redact_json: false,
            },
            secrets: None,
        }
    }

    /// Whether `--redact` was given.
    pub(crate) fn redact(&self) -> bool {
        self.look.redact_json
    }

    /// One JSON record on standard output.
    pub(crate) fn record(&mut self, record: &impl Serialize) -> io::Result<()> {
        json(&mut self.out, self.look.redact_json, record)
    }

    /// One text result line on standard output, escaped and (under `--redact`) masked.
    pub(crate) fn text(&mut self, line: &str) -> io::Result<()> {
        self.field("", line)
    }

    /// One text result line `LABEL VALUE` on standard output: the value escaped and (under
    /// `--redact`) masked as a JSON string is, by the passwords seen so far in this input's lines.
    pub(crate) fn field(&mut self, label: &str, value: &str) -> io::Result<()> {
        let masked = match &mut self.secrets {
            Some(secrets) => secrets.mask(value),
            None => Cow::Borrowed(value),
        };
        let shown = report::escape_text(&masked);
        self.out.write_all(label.as_bytes())?;
        self.out.write_all(shown.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// A product on standard output (`fix`'s lines): escaped, never masked (it is the result asked
    /// for). A line that is not UTF-8 is written as it came unless it holds an ASCII control character.
    pub(crate) fn product(&mut self, bytes: &[u8]) -> io::Result<()> {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                let shown = report::escape_text(text);
                self.raw(shown.as_bytes())
            }
            Err(_) if !bytes.iter().any(|&b| b < b' ' || b == 0x7f) => self.raw(bytes),
            Err(_) => {
                let lossy = String::from_utf8_lossy(bytes);
                let shown = report::escape_text(&lossy).into_owned();
                self.raw(shown.as_bytes())
            }
        }
    }

    /// Bytes on standard output as they are: a product that is not text (`decode --bytes`).
    pub(crate) fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.out.write_all(b"\n")
    }

    /// A diagnostic on standard error, after what standard output has so far.
    pub(crate) fn diagnostic(&mut self, diagnostic: &Diagnostic<'_>) -> io::Result<()> {
        self.out.flush()?;
        let mut text = Vec::new();
        let _ = diagnostic.write(&mut text, self.look);
        let _ = io::stderr().lock().write_all(&text);
        Ok(())
    }

    /// A line of its own on standard error (`fix`'s repair notes), after what standard output has so
    /// far; the caller escapes what it quotes.
    pub(crate) fn note(&mut self, line: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.out.flush()?;
        let _ = writeln!(io::stderr().lock(), "{line}");
        Ok(())
    }

    /// The end of one input: the passwords learnt from it forgotten; flushed when standard output is a
    /// terminal.
    pub(crate) fn end_input(&mut self) -> io::Result<()> {
        if let Some(secrets) = &mut self.secrets {
            secrets.known.clear();
        }
        if self.interactive {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Flushes standard output.
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(redact: bool, value: &serde_json::Value) -> String {
        let mut out = Vec::new();
        json(&mut out, redact, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_escapes_separators_c1_and_bidi_and_keeps_the_value() {
        let value =
            serde_json::json!({"input": "a\u{2028}b\u{2029}c\u{85}d\u{202e}e\u{1b}f\u{7f}\"\\"});
        let text = line(false, &value);
        assert_eq!(
            text,
            "{\"input\":\"a\\u2028b\\u2029c\\u0085d\\u202ee\\u001bf\\u007f\\\"\\\\\"}\n"
        );
        assert!(text.is_ascii());
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
        // The same bytes through the collecting path of --redact.
        assert_eq!(line(true, &value), text);
    }

    #[test]
    fn redact_masks_every_string_of_the_record() {
        // In field order, as records are: the input first.
        #[derive(Serialize)]
        struct Record {
            input: &'static str,
            authority: &'static str,
            userinfo: &'static str,
            normalized: &'static str,
        }
        let record = Record {
            input: "http://u:hunter2@h/\u{1b}",
            authority: "u:hunter2@h",
            userinfo: "u:hunter2",
            normalized: "HTTP://u:hunter2@H/",
        };
        let mut out = Vec::new();
        json(&mut out, true, &record).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("u:****@h"), "{text}");
        assert!(text.contains("\"u:****\""), "{text}");
        assert!(text.contains("\\u001b"), "{text}");
    }
}
