//! `rfc3986 check [--rule RULE] [--format text|jsonl] [--strict] [-q] [FILE...]`: validate every line.
//!
//! Streams: each line is validated and its result written before the next is read, through one buffered,
//! locked standard output.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use rfc3986::{ParseError, Rule};
use serde::Serialize;

use super::input::{self, Line};
use super::report::{self, ErrorJson, Warning};
use super::Status;

/// Arguments of `rfc3986 check`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The grammar rule each line must match, by its ABNF name in RFC 3986 (URI, URI-reference,
    /// absolute-URI, relative-ref, authority, host, IPv6address, path-abempty, dec-octet, HEXDIG, ...).
    #[arg(long, value_name = "RULE", default_value = "URI-reference", value_parser = super::rule::parse_rule)]
    rule: Rule,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Also fail on SHOULD-level findings (warnings).
    #[arg(long)]
    strict: bool,

    /// Print nothing per line, only the summary on standard error (and the exit status).
    #[arg(short, long)]
    quiet: bool,

    /// Files of URIs, one per line; `-` or none for standard input. Blank lines are skipped.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Output format of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// For each invalid line `FILE:LINE:COL: error: MESSAGE`, the line and a caret under the byte.
    Text,
    /// One JSON object per checked line.
    Jsonl,
}

/// One line of `--format jsonl` (CONTRACT.md).
#[derive(Debug, Serialize)]
struct Record<'a> {
    file: &'a str,
    line: u64,
    input: &'a str,
    valid: bool,
    error: Option<ErrorJson>,
    warnings: &'a [Warning],
}

/// The counts of the summary line.
#[derive(Debug, Default)]
struct Counts {
    checked: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    skipped: u64,
}

/// Runs `check`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut counts = Counts::default();

    let all_read = input::for_each_line(&args.files, |line| {
        check_line(args, &line, &mut counts, &mut out)?;
        if interactive {
            out.flush()?;
        }
        Ok(())
    })?;
    out.flush()?;

    let Counts {
        checked,
        valid,
        invalid,
        warnings,
        skipped,
    } = counts;
    let _ = writeln!(
        io::stderr().lock(),
        "{checked} checked, {valid} valid, {invalid} invalid, {warnings} warnings, {skipped} skipped"
    );
    Ok(if !all_read {
        Status::IoError
    } else if invalid > 0 {
        Status::Invalid
    } else {
        Status::Success
    })
}

/// Validates one line, counts it and writes its result.
fn check_line(
    args: &Args,
    line: &Line<'_>,
    counts: &mut Counts,
    out: &mut impl Write,
) -> io::Result<()> {
    if line.bytes.is_empty() {
        counts.skipped += 1;
        return Ok(());
    }
    counts.checked += 1;

    let lossy;
    let (input, error) = match input::decode(args.rule, line.bytes) {
        Ok(text) => (text, rfc3986::validate(args.rule, text).err()),
        Err((text, error)) => {
            lossy = text;
            (lossy.as_str(), Some(error))
        }
    };
    // SHOULD-level findings (lint) are a later issue: none yet.
    let warnings: &[Warning] = &[];
    counts.warnings += warnings.len() as u64;
    // --strict: a warning fails the line too.
    let valid = error.is_none() && (warnings.is_empty() || !args.strict);
    if valid {
        counts.valid += 1;
    } else {
        counts.invalid += 1;
    }

    if args.quiet {
        return Ok(());
    }
    match args.format {
        Format::Text => match &error {
            Some(error) => write_diagnostic(out, line, input, error),
            None => Ok(()),
        },
        Format::Jsonl => {
            let record = Record {
                file: line.file,
                line: line.number,
                input,
                valid,
                error: error.as_ref().map(ErrorJson::from),
                warnings,
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
    }
}

/// `FILE:LINE:COL: error: MESSAGE`, then the line and a caret; COL is the 1-based byte column.
fn write_diagnostic(
    out: &mut impl Write,
    line: &Line<'_>,
    input: &str,
    error: &ParseError,
) -> io::Result<()> {
    writeln!(
        out,
        "{}:{}:{}: error: {}",
        line.file,
        line.number,
        error.offset() + 1,
        error.message()
    )?;
    report::write_caret(out, "", input, error)
}
