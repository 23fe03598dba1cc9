//! The `rfc3986` command-line tool: check, parse, resolve, normalize and compare URIs by the grammar of RFC 3986.
//!
//! It uses only the public API of the `rfc3986` library. One module per subcommand, plus what they share:
//!
//! - [`input`]: lines of FILE arguments or standard input, as bytes, one buffer reused.
//! - [`rule`]: `--rule RULE` by ABNF name.
//! - [`report`]: errors and warnings as JSON values and as text with a caret (plain or rustc-like).
//! - [`progress`]: the progress bar of long runs.
//! - [`check`], [`parse`], [`resolve`], [`normalize`], [`equiv`], [`encode`] (`encode` and `decode`),
//!   [`fix`], [`grammar`] (the grammar workbench, and `parse --tree`): the subcommands, each a module
//!   with an `Args` struct and a `run` function, and one variant of [`Command`].
//!
//! Every diagnostic goes through [`report::Diagnostic`]: one shape (`SOURCE:LINE:COL: error|warning:
//! MESSAGE`, the line, a caret; or rustc-like), passwords masked, control characters escaped.
//!
//! Exit status: 0 success, 1 some input was invalid, 2 usage or I/O error, 3 a parser limit
//! stopped the check of a line. clap exits with 2 on usage errors by itself.

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod check;
mod encode;
mod equiv;
mod expand;
mod fix;
mod grammar;
mod input;
mod man;
mod normalize;
mod parse;
mod print;
mod progress;
mod report;
mod resolve;
mod rule;

/// Parse and validate URIs exactly as RFC 3986 defines them.
#[derive(Debug, Parser)]
#[command(
    name = "rfc3986",
    version,
    about,
    max_term_width = 100,
    after_help = "Rules are named as RFC 3986 spells them: URI, URI-reference, IPv6address, path-abempty, ...\n\
                  Exit status: 0 all inputs valid, 1 some input invalid, 2 usage or I/O error, 3 a parser limit\n\
                  stopped some line (check)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate every line of every FILE (standard input if none).
    Check(check::Args),
    /// Print the components of each URI (standard input lines if none).
    Parse(parse::Args),
    /// Resolve references against a base URI (RFC 3986 5.2).
    Resolve(resolve::Args),
    /// Print the normal form of each URI (RFC 3986 6.2.2; 6.2.3 with --level scheme).
    Normalize(normalize::Args),
    /// Tell whether two URIs are equivalent (RFC 3986 6.2); exit 0 if so, 1 if not, 2 if one is invalid.
    Equiv(equiv::Args),
    /// Expand a URI Template (RFC 6570) with NAME=VALUE and --vars FILE.json; check the result.
    Expand(expand::Args),
    /// Percent-encode text for one component (RFC 3986 2.1, 2.4, 2.5).
    Encode(encode::EncodeArgs),
    /// Percent-decode text (RFC 3986 2.1, 2.5); exit 1 if some input cannot be decoded.
    Decode(encode::DecodeArgs),
    /// Repair near-URIs where the repair is unambiguous (percent-encoding), reporting each repair.
    Fix(fix::Args),
    /// The grammar workbench: list, show, lint, export and diff grammars.
    Grammar(grammar::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on standard output.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff) on standard output: `rfc3986 man > rfc3986.1`, `rfc3986 man check >
    /// rfc3986-check.1`.
    Man(man::Args),
}

/// How a subcommand ended, before it becomes an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    /// Every input was valid: exit 0.
    Success,
    /// Some input was invalid: exit 1.
    Invalid,
    /// An input could not be read, or (`equiv`) an operand is not a URI reference; reported on standard
    /// error when it happened: exit 2.
    IoError,
    /// Every input was read, and a parser limit (an input too long or too deep for the grammar) stopped
    /// the check of some line, which is then neither valid nor invalid: exit 3.
    Limit,
}

impl Status {
    /// The status of a run: an input could not be read (2) before some input was invalid (1).
    pub(crate) fn of(all_read: bool, any_invalid: bool) -> Status {
        if !all_read {
            Status::IoError
        } else if any_invalid {
            Status::Invalid
        } else {
            Status::Success
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::Invalid => ExitCode::from(1),
            Status::IoError => ExitCode::from(2),
            Status::Limit => ExitCode::from(3),
        }
    }
}

/// clap's error with the arguments it quotes (an unknown option or subcommand, an invalid value)
/// escaped as file names are (control characters, bidi overrides and line separators as `\u{..}`): what
/// a user or a script passed never reaches the terminal raw.
fn escaped_quotes(mut e: clap::Error) -> clap::Error {
    use clap::error::ContextValue;
    let escape = |s: &String| Some(input::escape_name(s)).filter(|t| t != s);
    let escaped: Vec<_> = e
        .context()
        .filter_map(|(kind, value)| match value {
            ContextValue::String(s) => Some((kind, ContextValue::String(escape(s)?))),
            ContextValue::Strings(v) if v.iter().any(|s| escape(s).is_some()) => Some((
                kind,
                ContextValue::Strings(v.iter().map(|s| input::escape_name(s)).collect()),
            )),
            _ => None,
        })
        .collect();
    if !escaped.is_empty() {
        // The tips quote the argument too (`to pass '--a\u{1b}b' as a value`), as styled text: said
        // again from their plain text, escaped, without the styling.
        let tips: Vec<clap::builder::StyledStr> = e
            .get(clap::error::ContextKind::Suggested)
            .into_iter()
            .flat_map(|value| match value {
                ContextValue::StyledStrs(tips) => tips.clone(),
                _ => Vec::new(),
            })
            .map(|tip| input::escape_name(&tip.to_string()).into())
            .collect();
        e.insert(
            clap::error::ContextKind::Suggested,
            ContextValue::StyledStrs(tips),
        );
    }
    for (kind, value) in escaped {
        e.insert(kind, value);
    }
    e
}

/// Runs the command line and returns the exit status.
fn main() -> ExitCode {
    // A panic of pest_meta on a grammar becomes that grammar's error, with the panic's message, on the
    // loader thread (`runtime_limits`): it is reported once, as FILE:LINE:COL, not also as a panic.
    let report_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(rfc3986::runtime_limits::LOADER_THREAD) {
            report_panic(info);
        }
    }));
    // The tool owns its process: a grammar that runs on pest_vm gets the engine's budget (pest's
    // process-wide call limit), so that no grammar file can make a line take exponential time.
    rfc3986::runtime::bound_pest_vm_matches();
    let cli = Cli::try_parse().unwrap_or_else(|e| escaped_quotes(e).exit());
    if stdout_closed() {
        // Rust's standard output drops writes to a closed descriptor silently: say so instead of
        // printing nothing with success.
        error(format_args!(
            "cannot write output: standard output is closed"
        ));
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Parse(args) => parse::run(&args),
        Command::Resolve(args) => resolve::run(&args),
        Command::Normalize(args) => normalize::run(&args),
        Command::Equiv(args) => equiv::run(&args),
        Command::Expand(args) => expand::run(&args),
        Command::Encode(args) => encode::run_encode(&args),
        Command::Decode(args) => encode::run_decode(&args),
        Command::Fix(args) => fix::run(&args),
        Command::Grammar(args) => grammar::run(&args),
        Command::Completions { shell } => {
            // Into memory first: clap_complete panics when its writer fails (`> /dev/full`).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rfc3986", &mut script);
            write_stdout(&script)
        }
        Command::Man(args) => man::run(&args, Cli::command()),
    };
    match result {
        Ok(status) => status.into(),
        // The reader of standard output went away (`rfc3986 check big.txt | head`): what was not
        // written was not all checked, so this is not a success (exit 2), said once on standard error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            error(format_args!(
                "standard output was closed before every input was handled"
            ));
            ExitCode::from(2)
        }
        Err(e) => {
            error(format_args!("cannot write output: {e}"));
            ExitCode::from(2)
        }
    }
}

/// Writes `bytes` on standard output and flushes it.
pub(crate) fn write_stdout(bytes: &[u8]) -> io::Result<Status> {
    use io::Write as _;
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(Status::Success)
}

/// Whether standard output was closed when the program started (`rfc3986 check FILE >&-`).
///
/// Rust's runtime reopens a closed descriptor 1 on `/dev/null` before `main`, so output would vanish
/// with success; a `/dev/null` that the caller opened (`>/dev/null`, Python's `subprocess.DEVNULL`,
/// read-write) looks the same afterwards. So the descriptor is looked at before the runtime starts, by
/// [`STDOUT_AT_START`], a constructor the C runtime calls before `main`.
#[cfg(target_os = "linux")]
fn stdout_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed)
}

/// Set before `main` when descriptor 1 was closed.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Runs before `main` (an `.init_array` entry, called by the C runtime before Rust's runtime reopens
/// closed standard descriptors): descriptor 1 is closed when `/proc/self/fd/1` does not exist while
/// `/proc/self/fd` does (without `/proc` nothing is concluded).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static STDOUT_AT_START: extern "C" fn() = {
    extern "C" fn look() {
        let missing = std::fs::symlink_metadata("/proc/self/fd/1")
            .is_err_and(|e| e.kind() == io::ErrorKind::NotFound);
        if missing && std::path::Path::new("/proc/self/fd").is_dir() {
            STDOUT_CLOSED_AT_START.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    look
};

/// Whether standard output was closed: not detectable here.
#[cfg(not(target_os = "linux"))]
fn stdout_closed() -> bool {
    false
}

/// Prints `MESSAGE` (a summary) on standard error, ignoring a failure to do so.
pub(crate) fn error_plain(message: std::fmt::Arguments<'_>) {
    use io::Write as _;
    let _ = writeln!(io::stderr().lock(), "{message}");
}

/// Prints `rfc3986: MESSAGE` on standard error, ignoring a failure to do so. Each line of the message
/// is escaped ([`report::escape_text`]): a message may quote a grammar file (its rule names, its
/// literals), a file name or an argument, and none of them reaches the terminal raw.
pub(crate) fn error(message: std::fmt::Arguments<'_>) {
    use io::Write as _;
    let message = message.to_string();
    let lines: Vec<_> = message.split('\n').map(report::escape_text).collect();
    let _ = writeln!(io::stderr().lock(), "rfc3986: {}", lines.join("\n"));
}
