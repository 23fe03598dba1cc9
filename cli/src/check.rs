//! `rfc3986 check [--rule RULE] [--format text|jsonl] [--strict] [-q] [-j N] [FILE...]`: validate every
//! line.
//!
//! A pipeline with memory bounded by a fixed number of chunks in flight, whatever the input's size:
//!
//! 1. a reader thread cuts the inputs into [`Chunk`]s of whole lines ([`input::for_each_chunk`]);
//! 2. a pool of `--jobs` threads checks each chunk ([`check_chunk`]: one [`LineReport`] per line) and
//!    renders its output into the chunk's own buffer;
//! 3. the main thread writes the buffers in input order through one buffered standard output, sums the
//!    counts and moves the progress bar.
//!
//! With `-j 1` the three run one after the other on the main thread. Either way each line's result is the
//! same bytes, so the output does not depend on `--jobs`.

use std::borrow::Cow;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread;

use clap::ValueEnum;
use rfc3986::runtime::SchemeGrammars;
use rfc3986::ParseError;
use serde::Serialize;

use super::input::{self, Chunk, Line, Piece};
use super::progress::Progress;
use super::report::{self, ErrorJson, Look, Warning};
use super::rule::Engine;
use super::Status;

/// Bytes of input per chunk: one `read`, some thousands of lines.
const CHUNK_SIZE: usize = 256 * 1024;

/// Stack of each checking thread: as much as the main thread has, for the pest parsers on long lines.
const STACK_SIZE: usize = 8 * 1024 * 1024;

/// Arguments of `rfc3986 check`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Text diagnostics: on a terminal (--diagnostics auto), rustc-like blocks:
    error: space not allowed here
     --> uris.txt:2:11
      |
    2 | http://a/b c
      |           ^ expected pchar, \"?\", \"#\", \"/\" or end of input
      |
      = help: percent-encode a space as %20 (RFC 3986 2.1)
When standard output is not a terminal (a pipe, a file), three plain lines per invalid line, for scripts:
    uris.txt:2:11: error: space not allowed here; ...; expected pchar, \"?\", \"#\", \"/\" or end of input
    http://a/b c
              ^
COL is the 1-based byte column. Colour (--color auto) only on a terminal and when NO_COLOR is not set.

A progress bar (lines/s) appears on standard error after a second, only when standard error is a
terminal and --quiet is not given. The output is the same for every --jobs.")]
pub(crate) struct Args {
    /// The grammar rule each line must match, by its ABNF name in RFC 3986 (URI, URI-reference,
    /// absolute-URI, relative-ref, authority, host, IPv6address, path-abempty, dec-octet, HEXDIG, ...).
    #[arg(long, value_name = "RULE", default_value = "URI-reference")]
    rule: String,

    /// Check against the grammar in FILE.pest, loaded at run time, instead of the built-in uri.pest (it
    /// must keep uri.pest's component rule names; see grammars/ for an IRI and a zone-ID grammar).
    #[arg(long, value_name = "FILE.pest")]
    grammar: Option<PathBuf>,

    /// Also check each URI whose scheme has a grammar (schemes/: http, https, urn, mailto, file, data)
    /// against it; a mismatch is an error that cites the scheme's RFC.
    #[arg(long)]
    schemes: bool,

    /// Add the scheme grammars SCHEME.pest of DIR to --schemes (implies --schemes; a file replaces the
    /// built-in grammar of the same scheme).
    #[arg(long, value_name = "DIR")]
    scheme_dir: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Also fail on SHOULD-level findings (warnings).
    #[arg(long)]
    strict: bool,

    /// Print nothing per line, only the summary on standard error (and the exit status); no progress bar.
    #[arg(short, long)]
    quiet: bool,

    /// How text diagnostics look: rich (rustc-like) or plain (`FILE:LINE:COL: error: MESSAGE`, the line, a
    /// caret); auto: rich when standard output is a terminal, plain otherwise.
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = Diagnostics::Auto)]
    diagnostics: Diagnostics,

    /// Colour text diagnostics; auto: when standard output is a terminal and NO_COLOR is not set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,

    /// Check on N threads [default: all cores]; 1 checks on the main thread, one line after another.
    #[arg(short, long, value_name = "N")]
    jobs: Option<NonZeroUsize>,

    /// Files of URIs, one per line; `-` or none for standard input. Blank lines are skipped.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Output format of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// For each invalid line a diagnostic: the line with a caret under the byte (see --diagnostics).
    Text,
    /// One JSON object per checked line (`jsonl` is the same).
    #[value(name = "json", alias = "jsonl")]
    Jsonl,
}

/// `--diagnostics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Diagnostics {
    /// Rich on a terminal, plain otherwise.
    Auto,
    /// `error: MESSAGE`, ` --> FILE:LINE:COL`, the line with a caret and what was expected.
    Rich,
    /// `FILE:LINE:COL: error: MESSAGE`, the line, the caret.
    Plain,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    /// When standard output is a terminal and NO_COLOR is not set.
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

/// What every checking thread needs to know: small and `Copy`.
#[derive(Clone, Copy, Debug)]
struct Options {
    engine: Engine,
    /// `--schemes`: the scheme grammars to check URIs against.
    schemes: Option<&'static SchemeGrammars>,
    format: Format,
    strict: bool,
    quiet: bool,
    look: Look,
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

/// What `check` found on one non-blank line. Findings of new kinds (lints) go into `warnings`.
#[derive(Debug)]
struct LineReport<'a> {
    /// The line as text: itself, or its lossy decoding when it is not UTF-8.
    input: Cow<'a, str>,
    /// Why the line is not in the rule's language (or its scheme's).
    error: Option<ParseError>,
    /// What the error is about when it is not the rule's grammar (`not a valid urn URI (RFC 8141 ...)`).
    note: Option<String>,
    /// SHOULD-level findings.
    warnings: Vec<Warning>,
    /// No error, and under `--strict` no warning either.
    valid: bool,
}

/// The counts of the summary line.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    checked: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    skipped: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.checked += other.checked;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        self.skipped += other.skipped;
    }
}

/// A checked chunk: its output, ready to write, and what it adds to the summary and the progress.
#[derive(Debug)]
struct ChunkReport {
    output: Vec<u8>,
    counts: Counts,
    lines: u64,
    bytes: u64,
}

/// Runs `check`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let engine = match Engine::new(&args.rule, args.grammar.as_deref()) {
        Ok(engine) => engine,
        Err(message) => {
            super::error(format_args!("{message}"));
            return Ok(Status::IoError);
        }
    };
    let schemes = match (&args.scheme_dir, args.schemes) {
        (Some(dir), _) => match scheme_grammars(dir) {
            Ok(schemes) => Some(schemes),
            Err(message) => {
                super::error(format_args!("{message}"));
                return Ok(Status::IoError);
            }
        },
        (None, true) => Some(SchemeGrammars::builtin()),
        (None, false) => None,
    };
    let options = Options {
        engine,
        schemes,
        format: args.format,
        strict: args.strict,
        quiet: args.quiet,
        look: look(args, interactive),
    };
    let jobs = args
        .jobs
        .or_else(|| thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);

    let mut sink = Sink {
        out: BufWriter::with_capacity(64 * 1024, stdout.lock()),
        interactive,
        counts: Counts::default(),
        progress: Progress::new(show_progress(args), total_bytes(&args.files)),
    };
    let all_read = if jobs == 1 {
        input::for_each_chunk(&args.files, CHUNK_SIZE, |piece| match piece {
            Piece::Chunk(chunk) => sink.write(check_chunk(options, &chunk)),
            Piece::Failed(message) => sink.failed(&message),
        })?
    } else {
        run_parallel(args, options, jobs, &mut sink)?
    };
    sink.out.flush()?;
    sink.progress.finish();

    let Counts {
        checked,
        valid,
        invalid,
        warnings,
        skipped,
    } = sink.counts;
    let _ = writeln!(
        io::stderr().lock(),
        "{checked} checked, {valid} valid, {invalid} invalid, {warnings} warning{}, {skipped} skipped",
        if warnings == 1 { "" } else { "s" }
    );
    Ok(Status::of(all_read, invalid > 0))
}

/// The text diagnostics' look from `--diagnostics`, `--color`, `NO_COLOR` and whether standard output is a
/// terminal.
fn look(args: &Args, interactive: bool) -> Look {
    let rich = match args.diagnostics {
        Diagnostics::Auto => interactive,
        Diagnostics::Rich => true,
        Diagnostics::Plain => false,
    };
    let color = match args.color {
        ColorChoice::Auto => {
            interactive && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
        ColorChoice::Always => true,
        ColorChoice::Never => false,
    };
    Look { rich, color }
}

/// Whether a progress bar may appear: standard error is a terminal, no `--quiet`, and no input is being
/// typed on a terminal.
fn show_progress(args: &Args) -> bool {
    let reads_stdin = args.files.is_empty() || args.files.iter().any(|f| f.as_os_str() == "-");
    !args.quiet && io::stderr().is_terminal() && !(reads_stdin && io::stdin().is_terminal())
}

/// The inputs' total size when all are regular files, for the progress bar.
fn total_bytes(files: &[PathBuf]) -> Option<u64> {
    if files.is_empty() {
        return None;
    }
    files
        .iter()
        .map(|f| {
            let metadata = std::fs::metadata(f).ok()?;
            metadata.is_file().then_some(metadata.len())
        })
        .sum()
}

/// The reader thread, the checking pool and, on this thread, the writer. At most `2 * jobs + 2` chunks are
/// queued for the writer; one more is being read and one written.
fn run_parallel(
    args: &Args,
    options: Options,
    jobs: usize,
    sink: &mut Sink<'_>,
) -> io::Result<bool> {
    /// A chunk on its way to the writer, in input order.
    enum Pending {
        Chunk(mpsc::Receiver<ChunkReport>),
        Failed(String),
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(STACK_SIZE)
        .thread_name(|i| format!("rfc3986-check-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let (order_tx, order_rx) = mpsc::sync_channel::<Pending>(2 * jobs + 2);
    let files = args.files.clone();
    let reader = thread::Builder::new()
        .name("rfc3986-read".into())
        .spawn(move || {
            input::for_each_chunk(&files, CHUNK_SIZE, |piece| {
                let pending = match piece {
                    Piece::Chunk(chunk) => {
                        let (tx, rx) = mpsc::sync_channel(1);
                        pool.spawn(move || {
                            // The writer may have gone (closed standard output): nothing to tell.
                            let _ = tx.send(check_chunk(options, &chunk));
                        });
                        Pending::Chunk(rx)
                    }
                    Piece::Failed(message) => Pending::Failed(message),
                };
                // The writer stopped (closed standard output): stop reading.
                order_tx
                    .send(pending)
                    .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
            })
        })?;

    for pending in order_rx {
        match pending {
            Pending::Chunk(rx) => {
                let report = rx
                    .recv()
                    .map_err(|_| io::Error::other("a checking thread stopped"))?;
                // On a write error the reader is left behind: it may be blocked reading a terminal, and
                // stops at its next chunk; the process is about to end.
                sink.write(report)?;
            }
            Pending::Failed(message) => sink.failed(&message)?,
        }
    }
    match reader.join() {
        Ok(all_read) => all_read,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Where checked chunks go, in input order: standard output, the summary counts, the progress bar.
struct Sink<'a> {
    out: BufWriter<io::StdoutLock<'a>>,
    /// Standard output is a terminal: flush after each chunk, keep out of the progress bar's way.
    interactive: bool,
    counts: Counts,
    progress: Progress,
}

impl Sink<'_> {
    fn write(&mut self, report: ChunkReport) -> io::Result<()> {
        self.counts.add(report.counts);
        if self.interactive {
            let out = &mut self.out;
            self.progress.suspend(|| {
                out.write_all(&report.output)?;
                out.flush()
            })?;
        } else {
            self.out.write_all(&report.output)?;
        }
        self.progress.advance(report.lines, report.bytes);
        Ok(())
    }

    /// Reports an input that could not be read, in its place among the outputs.
    fn failed(&mut self, message: &str) -> io::Result<()> {
        self.progress
            .suspend(|| super::error(format_args!("{message}")));
        Ok(())
    }
}

/// Checks every line of `chunk` and renders the results, in order, into one buffer.
fn check_chunk(options: Options, chunk: &Chunk) -> ChunkReport {
    let mut output = Vec::new();
    let mut counts = Counts::default();
    let mut lines = 0;
    for line in chunk.lines() {
        lines += 1;
        let Some(report) = check_line(options, line.bytes) else {
            counts.skipped += 1;
            continue;
        };
        counts.checked += 1;
        counts.warnings += report.warnings.len() as u64;
        if report.valid {
            counts.valid += 1;
        } else {
            counts.invalid += 1;
        }
        if !options.quiet {
            render(options, &line, &report, &mut output)
                .unwrap_or_else(|e| unreachable!("writing to a Vec: {e}"));
        }
    }
    ChunkReport {
        output,
        counts,
        lines,
        bytes: chunk.data.len() as u64,
    }
}

/// The built-in scheme grammars plus those of `dir` (`SCHEME.pest`), loaded once for the whole run.
fn scheme_grammars(dir: &std::path::Path) -> Result<&'static SchemeGrammars, String> {
    let mut schemes = SchemeGrammars::builtin().clone();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Regular files only, as the library's `SchemeGrammars::from_dir`: a FIFO or a device named
    // `x.pest` would block the run.
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pest") && path.is_file())
        .collect();
    paths.sort();
    for path in paths {
        let text = rfc3986::runtime_limits::read_grammar_file(&path)
            .map_err(|e| crate::rule::grammar_error(&path, &e))?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        schemes
            .add(stem, &text)
            .map_err(|e| crate::rule::grammar_error(&path, &e))?;
    }
    Ok(Box::leak(Box::new(schemes)))
}

/// Validates one line; `None` for a blank line (skipped).
fn check_line(options: Options, bytes: &[u8]) -> Option<LineReport<'_>> {
    if bytes.is_empty() {
        return None;
    }
    let (input, parsed) = match input::decode(options.engine.builtin_rule(), bytes) {
        Ok(text) => (Cow::Borrowed(text), Some(options.engine.parse(text))),
        Err((text, error)) => (Cow::Owned(text), Some(Err(error))),
    };
    let mut error = None;
    let mut note = None;
    let mut warnings = Vec::new();
    match parsed {
        Some(Ok(uri)) => {
            warnings = uri.lint().iter().map(Warning::from).collect();
            let reference = uri.into_uri_ref().ok();
            if let Some(Err(e)) = options
                .schemes
                .zip(reference.as_ref())
                .and_then(|(s, r)| s.check(r))
            {
                note = Some(format!("not a valid {} URI ({})", e.scheme(), e.citation()));
                error = Some(e.parse_error().clone());
            }
        }
        Some(Err(e)) => error = Some(e),
        None => {}
    }
    // --strict: a warning fails the line too.
    let valid = error.is_none() && (warnings.is_empty() || !options.strict);
    Some(LineReport {
        input,
        error,
        note,
        warnings,
        valid,
    })
}

/// Writes the result of one checked line in the output format.
fn render(
    options: Options,
    line: &Line<'_>,
    report: &LineReport<'_>,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    match options.format {
        Format::Text => {
            if let Some(error) = &report.error {
                report::write_diagnostic(
                    out,
                    options.look,
                    line.file,
                    line.number,
                    &report.input,
                    error,
                    report.note.as_deref(),
                )?;
            }
            for warning in &report.warnings {
                report::write_warning(out, options.look, line.file, line.number, warning)?;
            }
            Ok(())
        }
        Format::Jsonl => {
            let record = Record {
                file: line.file,
                line: line.number,
                input: &report.input,
                valid: report.valid,
                error: report
                    .error
                    .as_ref()
                    .map(|e| ErrorJson::new(e, &report.input).with_note(report.note.as_deref())),
                warnings: &report.warnings,
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_and_reports_cross_threads() {
        fn send<T: Send>() {}
        send::<ChunkReport>();
        send::<Chunk>();
        send::<ParseError>();
    }
}
