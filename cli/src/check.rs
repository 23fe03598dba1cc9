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

use rfc3986::runtime::SchemeGrammars;
use rfc3986::ParseError;
use serde::Serialize;

use super::input::{self, Chunk, Line, Piece};
use super::progress::Progress;
use super::report::{self, CiFormat, Diagnostic, ErrorJson, Look, Severity, Warning};
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

Lint codes (findings of SHOULD-level rules, warnings by default): `rfc3986 check --list-codes` lists
them with their RFC 3986 sections; --allow, --deny and --strict change their levels.

A progress bar (lines/s) appears on standard error after a second, only when standard error is a
terminal and --quiet is not given. The output is the same for every --jobs.")]
pub(crate) struct Args {
    /// The grammar rule each input must match, by its ABNF name (URI, URI-reference, absolute-URI,
    /// relative-ref, authority, host, IPv6address, path-abempty, dec-octet, HEXDIG, ...; any case)
    /// [default: URI-reference; with --grammar, the grammar's URI-reference-like rule].
    #[arg(long, value_name = "RULE")]
    rule: Option<String>,

    /// Check against another grammar instead of the built-in uri.pest: a built-in one by name (iri: RFC
    /// 3987 IRIs; zone-id: RFC 6874 zone identifiers; uri-template: RFC 6570 URI Templates; uri) or a
    /// .pest file, loaded at run time (it must keep uri.pest's component rule names; a file that uses
    /// uri.pest rules without defining them is laid over uri.pest).
    #[arg(long, value_name = "NAME|FILE.pest")]
    grammar: Option<String>,

    /// Also check each URI whose scheme has a grammar (schemes/: http, https, urn, mailto, file, data)
    /// against it; a mismatch is an error that cites the scheme's RFC.
    #[arg(long)]
    schemes: bool,

    /// Add the scheme grammars SCHEME.pest of DIR to --schemes (implies --schemes; a file replaces the
    /// built-in grammar of the same scheme).
    #[arg(long, value_name = "DIR")]
    scheme_dir: Option<PathBuf>,

    /// Output format: text, json (one object per checked line), github (workflow annotations, one per
    /// finding) or sarif (one SARIF 2.1.0 log, one result per finding).
    #[arg(long, value_enum, default_value_t = CiFormat::Text)]
    format: CiFormat,

    /// Also fail on SHOULD-level findings (warnings).
    #[arg(long)]
    strict: bool,

    /// Print nothing per line, only the summary on standard error (and the exit status); no progress bar.
    #[arg(short, long)]
    quiet: bool,

    /// Print the lint codes (code, RFC 3986 section, default level) and exit.
    #[arg(long)]
    list_codes: bool,

    /// Do not report findings of the lint CODE (repeatable; `rfc3986 check --allow port-default`).
    /// The codes: `rfc3986 check --list-codes`.
    #[arg(long, value_name = "CODE", value_parser = parse_code)]
    allow: Vec<rfc3986::lint::Code>,

    /// Fail a line on findings of the lint CODE, as --strict does for all (repeatable; wins over
    /// --allow).
    #[arg(long, value_name = "CODE", value_parser = parse_code)]
    deny: Vec<rfc3986::lint::Code>,

    #[command(flatten)]
    look: report::LookArgs,

    /// Check on N threads [default: all cores]; 1 checks on the main thread, one line after another. At
    /// most four times the number of cores.
    #[arg(short, long, value_name = "N")]
    jobs: Option<NonZeroUsize>,

    /// Files of URIs, one per line; `-` or none for standard input. Blank lines are skipped.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// What every checking thread needs to know: small and `Copy`.
#[derive(Clone, Copy, Debug)]
struct Options {
    engine: Engine,
    /// `--schemes`: the scheme grammars to check URIs against.
    schemes: Option<&'static SchemeGrammars>,
    format: CiFormat,
    /// What each lint code is: allowed, a warning, or denied (an error).
    lints: Lints,
    quiet: bool,
    look: Look,
}

/// The severity of each lint code after `--strict`, `--allow` and `--deny`: `None` for an allowed code.
#[derive(Clone, Copy, Debug)]
struct Lints([Option<Severity>; rfc3986::lint::Code::ALL.len()]);

impl Lints {
    fn new(args: &Args) -> Lints {
        let mut lints = [Some(if args.strict {
            Severity::Error
        } else {
            Severity::Warning
        }); rfc3986::lint::Code::ALL.len()];
        for &code in &args.allow {
            lints[index(code)] = None;
        }
        for &code in &args.deny {
            lints[index(code)] = Some(Severity::Error);
        }
        Lints(lints)
    }

    fn severity(&self, code: rfc3986::lint::Code) -> Option<Severity> {
        self.0[index(code)]
    }
}

/// The position of `code` in `Code::ALL`.
fn index(code: rfc3986::lint::Code) -> usize {
    rfc3986::lint::Code::ALL
        .iter()
        .position(|&c| c == code)
        .unwrap_or_default()
}

/// clap value parser for `--allow` and `--deny`: a lint code by its kebab-case name.
fn parse_code(name: &str) -> Result<rfc3986::lint::Code, String> {
    rfc3986::lint::Code::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
        let names: Vec<&str> = rfc3986::lint::Code::ALL
            .iter()
            .map(|c| c.as_str())
            .collect();
        let name = super::report::escape_text(name);
        format!("unknown lint code '{name}'; codes: {}", names.join(", "))
    })
}

/// Findings of each code listed per line; the others are counted and reported as one line, so that the
/// memory a line takes does not grow with its findings.
const LISTED_PER_CODE: usize = 10;

/// The largest `--jobs`, as a multiple of the cores: more threads only add memory and switching.
const JOBS_PER_CORE: usize = 4;

/// One line of `--format json`. `valid` is `null` when a parser limit stopped the check
/// (then `error.kind` is `limit-reached`): the line is neither valid nor invalid.
#[derive(Debug, Serialize)]
struct Record<'a> {
    file: &'a str,
    line: u64,
    input: &'a str,
    valid: Option<bool>,
    error: Option<ErrorJson>,
    warnings: Vec<Warning<'a>>,
    /// Findings found but not listed in `warnings` (over 10 of one code on the line).
    #[serde(skip_serializing_if = "is_zero")]
    warnings_not_listed: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
    /// SHOULD-level findings, at most [`LISTED_PER_CODE`] of each code, allowed codes left out.
    findings: Vec<(rfc3986::lint::Finding, Severity)>,
    /// Findings of codes not allowed that are not in `findings`.
    not_listed: u64,
    /// Findings of codes not allowed, listed or not.
    warnings: u64,
    /// No error, and no finding of a denied code.
    valid: bool,
    /// A parser limit stopped the check: neither valid nor invalid.
    limit: bool,
}

/// The counts of the summary line.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    checked: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    skipped: u64,
    /// Lines a parser limit stopped (neither valid nor invalid).
    limits: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.checked += other.checked;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        self.skipped += other.skipped;
        self.limits += other.limits;
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
    if args.list_codes {
        return list_codes();
    }
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let cores = thread::available_parallelism().map_or(1, NonZeroUsize::get);
    if let Some(jobs) = args.jobs {
        if jobs.get() > JOBS_PER_CORE * cores {
            super::error(format_args!(
                "-j {jobs}: at most {} threads on this machine ({JOBS_PER_CORE} per core, {cores} cores)",
                JOBS_PER_CORE * cores
            ));
            return Ok(Status::IoError);
        }
    }
    let engine = match Engine::new(args.rule.as_deref(), args.grammar.as_deref()) {
        Ok(engine) => engine,
        Err(message) => {
            super::error(format_args!("{message}"));
            return Ok(Status::IoError);
        }
    };
    // Scheme grammars are overlays: under --grammar they take the rules they do not define (host, ...)
    // from the loaded grammar.
    let schemes = match (&args.scheme_dir, args.schemes, engine.grammar()) {
        (None, false, _) => None,
        (None, true, None) => Some(SchemeGrammars::builtin()),
        (dir, _, base) => match scheme_grammars(dir.as_deref(), base) {
            Ok(schemes) => Some(schemes),
            Err(message) => {
                super::error(format_args!("{message}"));
                return Ok(Status::IoError);
            }
        },
    };
    let options = Options {
        engine,
        schemes,
        format: args.format,
        lints: Lints::new(args),
        quiet: args.quiet,
        look: args.look.look(interactive),
    };
    let jobs = args.jobs.map_or(cores, NonZeroUsize::get);

    let mut sink = Sink {
        out: BufWriter::with_capacity(64 * 1024, stdout.lock()),
        interactive,
        counts: Counts::default(),
        progress: Progress::new(show_progress(args), total_bytes(&args.files)),
        sarif_first: args.format == CiFormat::Sarif,
    };
    if args.format == CiFormat::Sarif {
        crate::print::sarif::header(&mut sink.out)?;
    }
    let all_read = if jobs == 1 {
        input::for_each_chunk(&args.files, CHUNK_SIZE, |piece| match piece {
            Piece::Chunk(chunk) => sink.write(check_chunk(options, &chunk)),
            Piece::Failed(message) => sink.failed(&message),
        })?
    } else {
        run_parallel(args, options, jobs, &mut sink)?
    };
    if args.format == CiFormat::Sarif {
        crate::print::sarif::footer(&mut sink.out)?;
    }
    sink.out.flush()?;
    sink.progress.finish();

    let Counts {
        checked,
        valid,
        invalid,
        warnings,
        skipped,
        limits,
    } = sink.counts;
    let limits_note = if limits > 0 {
        format!(", {limits} stopped by a parser limit")
    } else {
        String::new()
    };
    // No summary of nothing: when no line could be read, the I/O errors are all there is to say.
    if all_read || checked + skipped > 0 {
        let _ = writeln!(
            io::stderr().lock(),
            "{checked} checked, {valid} valid, {invalid} invalid, {warnings} warning{}, {skipped} skipped{limits_note} (rule {})",
            if warnings == 1 { "" } else { "s" },
            crate::report::escape_text(engine.rule_name())
        );
    }
    let status = Status::of(all_read, invalid > 0);
    if limits > 0 && status != Status::IoError {
        return Ok(Status::Limit);
    }
    Ok(status)
}

/// `--list-codes`: one line per lint code of the library (`rfc3986::lint::Code::ALL`), its section of
/// RFC 3986 and its level when neither `--strict`, `--allow` nor `--deny` is given.
fn list_codes() -> io::Result<Status> {
    let width = rfc3986::lint::Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    let mut text = format!("{:width$}  {:8}  default level\n", "code", "section");
    for code in rfc3986::lint::Code::ALL {
        text.push_str(&format!(
            "{:width$}  {:8}  warning\n",
            code.as_str(),
            code.section()
        ));
    }
    super::write_stdout(text.as_bytes())
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
    let budget = std::sync::Arc::new(Budget::default());
    let reader_budget = std::sync::Arc::clone(&budget);
    let files = args.files.clone();
    let reader = thread::Builder::new()
        .name("rfc3986-read".into())
        .spawn(move || {
            input::for_each_chunk(&files, CHUNK_SIZE, |piece| {
                let pending = match piece {
                    Piece::Chunk(chunk) => {
                        reader_budget.take(chunk.data.len());
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
                let bytes = report.bytes as usize;
                sink.write(report)?;
                budget.give(bytes);
            }
            Pending::Failed(message) => sink.failed(&message)?,
        }
    }
    match reader.join() {
        Ok(all_read) => all_read,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Bytes of input read but not yet written out that the reader may run ahead by, whatever `--jobs`: with
/// the chunk being read, what `check` holds of its input is at most this plus the longest line.
const IN_FLIGHT: usize = 16 * 1024 * 1024;

/// The bytes of input in flight between the reader and the writer, kept under [`IN_FLIGHT`] (one chunk
/// always goes, however long).
#[derive(Debug, Default)]
struct Budget {
    used: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

impl Budget {
    /// Waits until `bytes` more fit (or nothing is in flight), then counts them.
    fn take(&self, bytes: usize) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && *used + bytes > IN_FLIGHT {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
    }

    /// Counts `bytes` as written out.
    fn give(&self, bytes: usize) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(bytes);
        self.freed.notify_all();
    }
}

/// Where checked chunks go, in input order: standard output, the summary counts, the progress bar.
struct Sink<'a> {
    out: BufWriter<io::StdoutLock<'a>>,
    /// Standard output is a terminal: flush after each chunk, keep out of the progress bar's way.
    interactive: bool,
    counts: Counts,
    progress: Progress,
    /// `--format sarif` and no result written yet.
    sarif_first: bool,
}

impl Sink<'_> {
    fn write(&mut self, mut report: ChunkReport) -> io::Result<()> {
        self.counts.add(report.counts);
        if self.sarif_first && !report.output.is_empty() {
            // The first SARIF result of the log: without the `,` before it.
            report.output.remove(0);
            self.sarif_first = false;
        }
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

    /// Reports an input that could not be read, in its place among the outputs: what was written for
    /// the inputs before it is flushed first, so that a terminal or a file that takes both streams shows
    /// them in input order.
    fn failed(&mut self, message: &str) -> io::Result<()> {
        self.out.flush()?;
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
    // UTF-8 validated once per chunk: then every line is a slice of one `str` (lines end at "\n", a
    // character boundary); a chunk that is not UTF-8 is decoded line by line.
    let text = std::str::from_utf8(&chunk.data).ok();
    for (number, start, end) in chunk.spans() {
        let line = Line {
            file: &chunk.file,
            number,
            bytes: &chunk.data[start..end],
        };
        lines += 1;
        let report = match check_line(options, line.bytes, text.map(|t| &t[start..end])) {
            None => {
                counts.skipped += 1;
                continue;
            }
            Some(Checked::Clean) => {
                counts.checked += 1;
                counts.valid += 1;
                continue;
            }
            Some(Checked::Report(report)) => report,
        };
        counts.checked += 1;
        counts.warnings += report.warnings;
        if report.limit {
            counts.limits += 1;
        } else if report.valid {
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

/// The built-in scheme grammars plus those of `dir` (`SCHEME.pest`), laid over `base` (the grammar of
/// `--grammar`) or `uri.pest`, loaded once for the whole run.
fn scheme_grammars(
    dir: Option<&std::path::Path>,
    base: Option<&rfc3986::runtime::Grammar>,
) -> Result<&'static SchemeGrammars, String> {
    let mut schemes = match base.map(SchemeGrammars::over) {
        Some(Ok(schemes)) => schemes,
        Some(Err(e)) => {
            // A grammar without the rules the scheme grammars take from below (authority, host, ...).
            super::error(format_args!(
                "warning: the scheme grammars do not load over --grammar ({}); --schemes checks \
                 against them over uri.pest",
                e.issues()
                    .first()
                    .map_or_else(|| e.to_string(), |i| i.message().to_string())
            ));
            SchemeGrammars::builtin().clone()
        }
        None => SchemeGrammars::builtin().clone(),
    };
    let Some(dir) = dir else {
        return Ok(Box::leak(Box::new(schemes)));
    };
    let entries = std::fs::read_dir(dir).map_err(|e| {
        let name = super::input::escape_name(&dir.to_string_lossy());
        format!("{name}: {e}")
    })?;
    // Regular files only, as the library's `SchemeGrammars::from_dir`: a FIFO or a device named
    // `x.pest` would block the run.
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pest") && path.is_file())
        .collect();
    if paths.len() > input::MAX_SCHEME_FILES {
        let name = super::input::escape_name(&dir.to_string_lossy());
        return Err(format!(
            "{name}: {} scheme grammars, more than the limit of {}",
            paths.len(),
            input::MAX_SCHEME_FILES
        ));
    }
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

/// What [`check_line`] found on a non-blank line.
enum Checked<'a> {
    /// Valid, no finding, and nothing to write for it (text output or `--quiet`, no `--schemes`): most
    /// lines, counted without a report.
    Clean,
    /// Boxed: most lines are [`Checked::Clean`], and the small enum is returned without a copy of a
    /// report.
    Report(Box<LineReport<'a>>),
}

/// Validates one line; `None` for a blank line (skipped).
fn check_line<'a>(options: Options, bytes: &'a [u8], text: Option<&'a str>) -> Option<Checked<'a>> {
    if bytes.is_empty() {
        return None;
    }
    let decoded = match text {
        Some(text) => Ok(text),
        None => options.engine.decode(bytes),
    };
    // Each outcome goes to its report directly (no intermediate `Result` of a match or an error to
    // move around for the valid lines, most of them).
    Some(match decoded {
        Ok(text) => match options.engine {
            // --quiet prints no error: a rejection by the built-in grammar is counted, not explained
            // (the explanation is most of what a rejected line costs). A line over 2 GiB is parsed in
            // full, so that one too long for the parser counts as a limit. Matched by reference: the
            // value stays where `match_as` wrote it (no copy per line).
            Engine::Builtin(rule) if options.quiet && text.len() <= 1 << 31 => {
                match &rfc3986::match_as(rule, text) {
                    Some(uri) => matched(options, Cow::Borrowed(text), uri),
                    // Rejected without an explanation.
                    None => Checked::Report(Box::new(report(Cow::Borrowed(text), None, true))),
                }
            }
            // The match is read where the parse wrote it (`ref`): handing the `Result` to a function
            // by value copied it (over 100 bytes, a `memcpy` call) on every line, which cost `-j 1`
            // about 9 % of its time.
            _ => match options.engine.parse(text) {
                Ok(ref uri) => matched(options, Cow::Borrowed(text), uri),
                Err(error) => {
                    Checked::Report(Box::new(report(Cow::Borrowed(text), Some(error), false)))
                }
            },
        },
        Err((text, error)) => {
            Checked::Report(Box::new(report(Cow::Owned(text), Some(error), false)))
        }
    })
}

/// The report of a line that is in the rule's language: its lint findings, and with `--schemes` its
/// scheme's grammar; [`Checked::Clean`] when there is nothing to count but the line or to write.
fn matched<'a>(options: Options, input: Cow<'a, str>, uri: &rfc3986::RuleMatch<'a>) -> Checked<'a> {
    let all = uri.lint_capped(LISTED_PER_CODE);
    let silent = options.quiet || options.format != CiFormat::Json;
    if all.total() == 0 && options.schemes.is_none() && silent {
        return Checked::Clean;
    }
    let mut findings = Vec::new();
    let mut warnings = 0;
    let mut denied = false;
    for finding in all.listed() {
        if let Some(severity) = options.lints.severity(finding.code()) {
            denied |= severity == Severity::Error;
            findings.push((finding.clone(), severity));
        }
    }
    if all.total() > 0 {
        for (&code, severity) in rfc3986::lint::Code::ALL.iter().zip(options.lints.0) {
            if let Some(severity) = severity {
                let count = all.count(code);
                warnings += count;
                denied |= count > 0 && severity == Severity::Error;
            }
        }
    }
    let not_listed = warnings - findings.len() as u64;
    let mut error = None;
    let mut note = None;
    // The scheme grammars (--schemes) need the reference's components; nothing else does.
    if let Some(schemes) = options.schemes {
        let reference = uri.clone().into_uri_ref().ok();
        if let Some(Err(e)) = reference.as_ref().and_then(|r| schemes.check(r)) {
            note = Some(format!("not a valid {} URI ({})", e.scheme(), e.citation()));
            error = Some(e.parse_error().clone());
        }
    }
    let mut line = report(input, error, false);
    // --strict, --deny: a finding fails the line too.
    line.valid &= !denied;
    line.note = note;
    line.findings = findings;
    line.not_listed = not_listed;
    line.warnings = warnings;
    Checked::Report(Box::new(line))
}

/// The report of a line with `error` (`None`: valid) and no finding yet; `unexplained`: rejected
/// without an explanation (--quiet).
fn report(input: Cow<'_, str>, error: Option<ParseError>, unexplained: bool) -> LineReport<'_> {
    let valid = error.is_none() && !unexplained;
    let limit = error
        .as_ref()
        .is_some_and(|e| e.kind() == rfc3986::ParseErrorKind::LimitReached);
    LineReport {
        input,
        error,
        note: None,
        findings: Vec::new(),
        not_listed: 0,
        warnings: 0,
        valid,
        limit,
    }
}

/// Writes the result of one checked line in the output format.
fn render(
    options: Options,
    line: &Line<'_>,
    report: &LineReport<'_>,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    match options.format {
        CiFormat::Text | CiFormat::Github | CiFormat::Sarif => {
            // One diagnostic each, drawn as text or written as a CI record (a SARIF result after a
            // `,`: the writer drops the first of the log).
            let mut put = |diagnostic: Diagnostic<'_>| match options.format {
                CiFormat::Text => diagnostic.write(&mut *out, options.look),
                format => crate::print::ci_record(&mut *out, format, &diagnostic.record(), false),
            };
            if let Some(error) = &report.error {
                put(
                    Diagnostic::error(line.file, line.number, &report.input, error)
                        .with_note(report.note.as_deref()),
                )?;
            }
            for (finding, severity) in &report.findings {
                put(Diagnostic::finding(
                    line.file,
                    line.number,
                    &report.input,
                    finding,
                    *severity,
                ))?;
            }
            if report.not_listed > 0 {
                let message = format!(
                    "{} more finding{} on this line not listed (at most {LISTED_PER_CODE} of each code)",
                    report.not_listed,
                    if report.not_listed == 1 { "" } else { "s" }
                );
                let mut diagnostic =
                    Diagnostic::whole(line.file, line.number, &report.input, message);
                diagnostic.severity = Severity::Warning;
                put(diagnostic)?;
            }
            Ok(())
        }
        CiFormat::Json => {
            let redact = options.look.redact_json;
            let record = Record {
                file: line.file,
                line: line.number,
                input: &report.input,
                valid: (!report.limit).then_some(report.valid),
                error: report.error.as_ref().map(|e| {
                    ErrorJson::redacted_if(options.look.redact_json, e, &report.input)
                        .with_note(report.note.as_deref())
                }),
                warnings: report
                    .findings
                    .iter()
                    .map(|(f, severity)| Warning::new(f, *severity, &report.input, redact))
                    .collect(),
                warnings_not_listed: report.not_listed,
            };
            crate::print::json_into(out, redact, &record)
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
