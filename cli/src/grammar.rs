//! `rfc3986 grammar list | show | lint | export | diff`: the grammar workbench (the library's
//! `rfc3986::runtime::workbench`).
//!
//! - `list`: the shipped grammars and scheme grammars, with the RFC each transcribes.
//! - `show NAME`: the text of one, to copy into an edited file or an overlay.
//! - `lint FILE.pest|NAME...`: the PEG traps of a grammar; exit 1 if any is not explained in the file.
//! - `export --rule RULE --flavor F`: a regular expression for the rule's language, or the reason there
//!   is none (exit 1).
//! - `diff OLD NEW [FILE...]`: the input lines whose verdict (or, with `--components`, split) changes,
//!   grouped with counts and first examples, then a summary; `--format json`: one record per changed line.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use rfc3986::runtime::workbench::{
    self, ChangeKind, DiffOptions, Flavor, GrammarText, ShippedKind,
};
use rfc3986::runtime::{Grammar, GrammarError};
use serde::Serialize;

use super::input;
use super::report::{escape_text, Format};
use super::Status;

/// Arguments of `rfc3986 grammar`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// List the shipped grammars and scheme grammars with the RFC each transcribes.
    List {
        /// Output format (json: one object per grammar).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the text of a shipped grammar (as `grammar list` names it), to copy and edit.
    Show {
        /// The grammar's name: uri, iri, zone-id, uri-template, or a scheme (http, urn, ...).
        name: String,
    },
    /// Report the PEG traps of grammar files (a shipped name or a .pest file); exit 1 if any finding is
    /// not explained in the file (`// PEG:` or `// lint: allow(CODE)` above the rule).
    Lint {
        /// Output format (json: one object per finding).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Grammar files or shipped grammar names.
        #[arg(required = true, value_name = "FILE.pest|NAME")]
        grammars: Vec<String>,
    },
    /// Write a regular expression that accepts exactly a rule's language (anchored), or say why there is
    /// none (exit 1).
    Export {
        /// The rule, by its ABNF or pest name.
        #[arg(long, value_name = "RULE")]
        rule: String,
        /// The regular-expression syntax.
        #[arg(long, value_enum)]
        flavor: FlavorArg,
        /// The grammar: a shipped name or a .pest file [default: uri].
        #[arg(long, value_name = "NAME|FILE.pest", default_value = "uri")]
        grammar: String,
        /// The largest expression written, in bytes (a longer one is refused with its size).
        #[arg(long, value_name = "BYTES", default_value_t = workbench::DEFAULT_MAX_EXPORT_BYTES)]
        max_bytes: usize,
        /// Output format (json: one object with the pattern, its size and notes).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare two grammars on input lines: the lines whose verdict (or split) changes, grouped, then a
    /// summary; the cost is the two checks.
    Diff {
        /// The old grammar: a shipped name or a .pest file.
        old: String,
        /// The new grammar: a shipped name or a .pest file.
        new: String,
        /// Files of input lines (standard input if none).
        files: Vec<std::path::PathBuf>,
        /// The rule on both sides [default: each grammar's URI-reference-like rule].
        #[arg(long, value_name = "RULE")]
        rule: Option<String>,
        /// The rule of the old grammar (overrides --rule).
        #[arg(long, value_name = "RULE")]
        rule_old: Option<String>,
        /// The rule of the new grammar (overrides --rule).
        #[arg(long, value_name = "RULE")]
        rule_new: Option<String>,
        /// Also report lines valid on both sides whose components differ.
        #[arg(long)]
        components: bool,
        /// Examples shown per kind of change (text).
        #[arg(long, value_name = "N", default_value_t = 3)]
        examples: usize,
        /// Output format (json: one object per changed line; the summary on standard error).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// `--flavor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FlavorArg {
    /// JavaScript RegExp with the u flag (JSON Schema and HTML `pattern`).
    Ecmascript,
    /// PCRE2 (PHP, R, nginx).
    Pcre2,
    /// Python `re`.
    Python,
    /// RE2 syntax (Go, RE2, Rust regex); no lookaround.
    Re2,
    /// POSIX extended (grep -E, PostgreSQL); no lookaround.
    PosixEre,
}

impl From<FlavorArg> for Flavor {
    fn from(f: FlavorArg) -> Flavor {
        match f {
            FlavorArg::Ecmascript => Flavor::EcmaScript,
            FlavorArg::Pcre2 => Flavor::Pcre2,
            FlavorArg::Python => Flavor::Python,
            FlavorArg::Re2 => Flavor::Re2,
            FlavorArg::PosixEre => Flavor::PosixEre,
        }
    }
}

/// Runs `grammar`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let status = match &args.command {
        Command::List { format } => list(*format, &mut out)?,
        Command::Show { name } => show(name, &mut out)?,
        Command::Lint { format, grammars } => lint(*format, grammars, &mut out)?,
        Command::Export {
            rule,
            flavor,
            grammar,
            max_bytes,
            format,
        } => export(
            grammar,
            rule,
            (*flavor).into(),
            *max_bytes,
            *format,
            &mut out,
        )?,
        Command::Diff {
            old,
            new,
            files,
            rule,
            rule_old,
            rule_new,
            components,
            examples,
            format,
        } => {
            let rules = (
                rule_old.as_deref().or(rule.as_deref()),
                rule_new.as_deref().or(rule.as_deref()),
            );
            diff(
                (old, new),
                rules,
                files,
                (*components, *examples, *format),
                &mut out,
            )?
        }
    };
    out.flush()?;
    Ok(status)
}

/// A grammar's problems as `NAME:LINE:COL: error: MESSAGE` lines.
fn grammar_error(name: &str, e: &GrammarError) -> String {
    super::rule::grammar_error(std::path::Path::new(name), e)
}

#[derive(Serialize)]
struct ListJson {
    name: &'static str,
    kind: &'static str,
    path: &'static str,
    overlay: bool,
    rfc: &'static str,
}

fn list(format: Format, out: &mut impl Write) -> io::Result<Status> {
    for s in workbench::shipped() {
        let kind = match s.kind {
            ShippedKind::Grammar => "grammar",
            ShippedKind::Scheme => "scheme",
        };
        match format {
            Format::Json => {
                serde_json::to_writer(
                    &mut *out,
                    &ListJson {
                        name: s.name,
                        kind,
                        path: s.path,
                        overlay: s.overlay,
                        rfc: s.citation,
                    },
                )?;
                out.write_all(b"\n")?;
            }
            Format::Text => writeln!(
                out,
                "{:<13} {:<8} {:<28} {}{}",
                s.name,
                kind,
                s.path,
                s.citation,
                if s.overlay && s.kind == ShippedKind::Grammar {
                    " (overlay on uri.pest)"
                } else {
                    ""
                }
            )?,
        }
    }
    Ok(Status::Success)
}

fn show(name: &str, out: &mut impl Write) -> io::Result<Status> {
    match workbench::shipped_grammar(name) {
        Some(s) => {
            out.write_all(s.text.as_bytes())?;
            Ok(Status::Success)
        }
        None => {
            let names: Vec<&str> = workbench::shipped().map(|s| s.name).collect();
            super::error(format_args!(
                "no shipped grammar named '{}'; names: {}",
                escape_text(name),
                names.join(", ")
            ));
            Ok(Status::IoError)
        }
    }
}

#[derive(Serialize)]
struct FindingJson<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    rule: &'a str,
    code: &'static str,
    message: &'a str,
    suggestion: &'a str,
    explained: Option<&'a str>,
}

fn lint(format: Format, grammars: &[String], out: &mut impl Write) -> io::Result<Status> {
    let mut status = Status::Success;
    let (mut total, mut explained) = (0usize, 0usize);
    for arg in grammars {
        let mut shown = input::escape_name(arg);
        let text = match workbench::shipped_grammar(arg) {
            Some(s) => {
                shown = s.path.to_string();
                s.text.to_string()
            }
            None => match rfc3986::runtime_limits::read_grammar_file(std::path::Path::new(arg)) {
                Ok(t) => t,
                Err(e) => {
                    super::error(format_args!("{}", grammar_error(arg, &e)));
                    status = status.max(Status::IoError);
                    continue;
                }
            },
        };
        let findings = match workbench::lint(&text) {
            Ok(f) => f,
            Err(e) => {
                super::error(format_args!("{}", grammar_error(arg, &e)));
                status = status.max(Status::IoError);
                continue;
            }
        };
        for f in &findings {
            total += 1;
            if f.explained.is_some() {
                explained += 1;
            } else {
                status = status.max(Status::Invalid);
            }
            match format {
                Format::Json => {
                    serde_json::to_writer(
                        &mut *out,
                        &FindingJson {
                            file: &shown,
                            line: f.line,
                            column: f.column,
                            rule: &f.rule,
                            code: f.code.name(),
                            message: &f.message,
                            suggestion: &f.suggestion,
                            explained: f.explained.as_deref(),
                        },
                    )?;
                    out.write_all(b"\n")?;
                }
                Format::Text => {
                    let level = if f.explained.is_some() {
                        "note"
                    } else {
                        "warning"
                    };
                    writeln!(
                        out,
                        "{shown}:{}:{}: {level}[{}]: in rule `{}`: {}",
                        f.line,
                        f.column,
                        f.code.name(),
                        escape_text(&f.rule),
                        escape_text(&f.message)
                    )?;
                    match &f.explained {
                        Some(how) => writeln!(out, "  = explained in the file: {how}")?,
                        None => writeln!(out, "  = help: {}", escape_text(&f.suggestion))?,
                    }
                }
            }
        }
        if format == Format::Text && findings.is_empty() {
            writeln!(out, "{shown}: no findings")?;
        }
    }
    out.flush()?;
    super::error(format_args!(
        "{} grammar(s) linted: {total} finding(s), {explained} explained in the file, {} to fix",
        grammars.len(),
        total - explained
    ));
    Ok(status)
}

#[derive(Serialize)]
struct ExportJson<'a> {
    rule: &'a str,
    flavor: &'static str,
    pattern: &'a str,
    bytes: usize,
    notes: &'a [String],
}

fn export(
    grammar: &str,
    rule: &str,
    flavor: Flavor,
    max_bytes: usize,
    format: Format,
    out: &mut impl Write,
) -> io::Result<Status> {
    let text = match GrammarText::named_or_file(grammar) {
        Ok(t) => t,
        Err(e) => {
            super::error(format_args!("{}", grammar_error(grammar, &e)));
            return Ok(Status::IoError);
        }
    };
    match workbench::export(&text, rule, flavor, max_bytes) {
        Ok(e) => {
            match format {
                Format::Text => writeln!(out, "{}", e.pattern)?,
                Format::Json => {
                    serde_json::to_writer(
                        &mut *out,
                        &ExportJson {
                            rule: &e.rule,
                            flavor: flavor.name(),
                            pattern: &e.pattern,
                            bytes: e.pattern.len(),
                            notes: &e.notes,
                        },
                    )?;
                    out.write_all(b"\n")?;
                }
            }
            out.flush()?;
            super::error(format_args!(
                "{} bytes ({} expression for rule {})",
                e.pattern.len(),
                flavor.name(),
                e.rule
            ));
            for note in &e.notes {
                super::error(format_args!("note: {}", escape_text(note)));
            }
            Ok(Status::Success)
        }
        Err(workbench::ExportError::Grammar(e)) => {
            super::error(format_args!("{}", grammar_error(grammar, &e)));
            Ok(Status::IoError)
        }
        Err(workbench::ExportError::UnknownRule(e)) => {
            super::error(format_args!("{}", escape_text(&e.to_string())));
            Ok(Status::IoError)
        }
        Err(e @ workbench::ExportError::Refused { .. }) => {
            super::error(format_args!(
                "{}:{}; no {} expression",
                input::escape_name(grammar),
                escape_text(&e.to_string()),
                flavor.name()
            ));
            Ok(Status::Invalid)
        }
        Err(e) => {
            super::error(format_args!(
                "no expression: {}",
                escape_text(&e.to_string())
            ));
            Ok(Status::Invalid)
        }
    }
}

/// Loads a grammar for `diff` and resolves its rule (the start rule when none is named).
fn side(arg: &str, rule: Option<&str>) -> Result<&'static Grammar, String> {
    let text = GrammarText::named_or_file(arg).map_err(|e| grammar_error(arg, &e))?;
    let grammar = text.load().map_err(|e| grammar_error(arg, &e))?;
    let grammar: &'static Grammar = Box::leak(Box::new(grammar));
    match rule {
        Some(r) => grammar.entry(r).map(|_| grammar).map_err(|e| {
            format!(
                "{}: {}",
                input::escape_name(arg),
                escape_text(&e.to_string())
            )
        }),
        None => grammar.start_rule().map(|_| grammar).ok_or_else(|| {
            format!(
                "{} has no URI-reference-like rule; name one with --rule",
                input::escape_name(arg)
            )
        }),
    }
}

#[derive(Serialize)]
struct SideJson<'a> {
    valid: Option<bool>,
    error: Option<ErrJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    components: Option<BTreeMap<&'static str, Option<&'a str>>>,
}

#[derive(Serialize)]
struct ErrJson<'a> {
    offset: usize,
    message: &'a str,
}

#[derive(Serialize)]
struct ChangeJson<'a> {
    file: &'a str,
    line: u64,
    input: &'a str,
    change: String,
    old: SideJson<'a>,
    new: SideJson<'a>,
}

fn side_json(v: &workbench::Verdict) -> SideJson<'_> {
    SideJson {
        valid: v.valid,
        error: v.error.as_ref().map(|(offset, message, _)| ErrJson {
            offset: *offset,
            message,
        }),
        components: (!v.components.is_empty()).then(|| {
            v.components
                .iter()
                .map(|(n, c)| (*n, c.as_deref()))
                .collect()
        }),
    }
}

/// A kind of change with its count and first examples (`FILE:LINE: input (old -> new)`).
#[derive(Default)]
struct Group {
    count: u64,
    examples: Vec<String>,
}

fn describe(v: &workbench::Verdict) -> String {
    match (&v.valid, &v.error) {
        (Some(true), _) => "valid".to_string(),
        (_, Some((offset, message, _))) => format!("at byte {offset}: {message}"),
        _ => "invalid".to_string(),
    }
}

fn diff(
    (old_arg, new_arg): (&str, &str),
    (rule_old, rule_new): (Option<&str>, Option<&str>),
    files: &[std::path::PathBuf],
    (components, examples, format): (bool, usize, Format),
    out: &mut impl Write,
) -> io::Result<Status> {
    let (old, new) = match (side(old_arg, rule_old), side(new_arg, rule_new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => {
            super::error(format_args!("{e}"));
            return Ok(Status::IoError);
        }
    };
    let entry = |g: &'static Grammar, r: Option<&str>| match r {
        Some(r) => g.entry(r).ok(),
        None => g.start_rule(),
    };
    let (Some(old_entry), Some(new_entry)) = (entry(old, rule_old), entry(new, rule_new)) else {
        return Ok(Status::IoError);
    };
    let d = workbench::diff(old_entry, new_entry, DiffOptions { components });
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let (mut lines, mut blank, mut not_utf8, mut changed) = (0u64, 0u64, 0u64, 0u64);
    let mut by_kind: BTreeMap<&'static str, u64> = BTreeMap::new();
    let all_read = input::for_each_line(files, |line| {
        if line.bytes.is_empty() {
            blank += 1;
            return Ok(());
        }
        let Ok(text) = std::str::from_utf8(line.bytes) else {
            not_utf8 += 1;
            return Ok(());
        };
        lines += 1;
        let Some(change) = d.input(text) else {
            return Ok(());
        };
        changed += 1;
        let kind_name = match change.kind {
            ChangeKind::NowValid => "now valid",
            ChangeKind::NowInvalid => "now invalid",
            ChangeKind::Split(_) => "split changed",
            ChangeKind::Limit => "limit",
        };
        *by_kind.entry(kind_name).or_default() += 1;
        match format {
            Format::Json => {
                serde_json::to_writer(
                    &mut *out,
                    &ChangeJson {
                        file: line.file,
                        line: line.number,
                        input: text,
                        change: change.kind.label(),
                        old: side_json(&change.old),
                        new: side_json(&change.new),
                    },
                )?;
                out.write_all(b"\n")?;
            }
            Format::Text => {
                let g = groups.entry(change.group()).or_default();
                g.count += 1;
                if g.examples.len() < examples {
                    let detail = match &change.kind {
                        ChangeKind::Split(parts) => parts
                            .iter()
                            .map(|p| {
                                let get = |v: &workbench::Verdict| {
                                    v.components
                                        .iter()
                                        .find(|(n, _)| n == p)
                                        .and_then(|(_, c)| c.clone())
                                        .map_or("(undefined)".to_string(), |c| format!("{c:?}"))
                                };
                                format!("{p}: {} -> {}", get(&change.old), get(&change.new))
                            })
                            .collect::<Vec<_>>()
                            .join("; "),
                        _ => format!("{} -> {}", describe(&change.old), describe(&change.new)),
                    };
                    g.examples.push(format!(
                        "{}:{}: {}\n      {}",
                        input::escape_name(line.file),
                        line.number,
                        escape_text(text),
                        escape_text(&detail)
                    ));
                }
            }
        }
        Ok(())
    })?;
    if format == Format::Text {
        let mut sorted: Vec<(&String, &Group)> = groups.iter().collect();
        sorted.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
        for (label, g) in sorted {
            writeln!(out, "{}: {} line(s)", escape_text(label), g.count)?;
            for e in &g.examples {
                writeln!(out, "    {e}")?;
            }
        }
    }
    let summary = format!(
        "{lines} line(s) compared ({} under {}, {} under {}): {} unchanged, {} now valid, {} now invalid{}{}; {blank} blank and {not_utf8} non-UTF-8 line(s) skipped",
        old_entry.abnf_name(),
        input::escape_name(old_arg),
        new_entry.abnf_name(),
        input::escape_name(new_arg),
        lines - changed,
        by_kind.get("now valid").copied().unwrap_or(0),
        by_kind.get("now invalid").copied().unwrap_or(0),
        if components {
            format!(", {} split changed", by_kind.get("split changed").copied().unwrap_or(0))
        } else {
            String::new()
        },
        match by_kind.get("limit") {
            Some(n) => format!(", {n} stopped by a parser limit on one side"),
            None => String::new(),
        },
    );
    match format {
        Format::Text => writeln!(out, "summary: {summary}")?,
        Format::Json => {
            out.flush()?;
            super::error(format_args!("summary: {summary}"));
        }
    }
    Ok(if !all_read {
        Status::IoError
    } else if changed > 0 {
        Status::Invalid
    } else {
        Status::Success
    })
}

/// One node of an input's tree as JSON, in the record `{"line", "input", "valid", "tree": [node...],
/// "truncated", "error"}` (`valid` is `null` when a limit stopped it), which is written piece by piece.
#[derive(Serialize)]
struct NodeJson<'a> {
    rule: &'a str,
    start: usize,
    end: usize,
    depth: usize,
}

/// The longest text of a node the text format prints (the span says the rest).
const TREE_TEXT: usize = 60;

/// `parse --tree`: the derivation of each input (the URI arguments, or the lines of standard input),
/// under `rule` (default: the grammar's start rule) of `grammar` (default: uri.pest), one record per
/// input; exit 1 if some input is rejected.
pub(crate) fn parse_tree(
    rule: Option<&str>,
    grammar: Option<&str>,
    format: Format,
    uris: &[std::ffi::OsString],
) -> io::Result<Status> {
    let arg = grammar.unwrap_or("uri");
    let loaded = match side(arg, rule) {
        Ok(g) => g,
        Err(e) => {
            super::error(format_args!("{e}"));
            return Ok(Status::IoError);
        }
    };
    let rule_name = match rule {
        Some(r) => r.to_string(),
        None => match loaded.start_rule() {
            Some(e) => e.abnf_name().to_string(),
            None => return Ok(Status::IoError),
        },
    };
    let trees = match workbench::tree(loaded) {
        Ok(t) => t,
        Err(e) => {
            super::error(format_args!("{}", grammar_error(arg, &e)));
            return Ok(Status::IoError);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut any_invalid, mut any_limit, mut first) = (false, false, true);
    let mut one = |number: u64, bytes: &[u8], out: &mut BufWriter<_>| -> io::Result<()> {
        let lossy = String::from_utf8_lossy(bytes);
        let text: &str = &lossy;
        let tree = match trees.start(&rule_name, text, workbench::TreeLimits::default()) {
            Ok(t) => t,
            Err(e) => {
                super::error(format_args!("{}", escape_text(&e.to_string())));
                any_invalid = true;
                return Ok(());
            }
        };
        let error = tree.error().cloned();
        let valid = match &error {
            None if std::str::from_utf8(bytes).is_ok() => Some(true),
            Some(e) if e.kind() == rfc3986::ParseErrorKind::LimitReached => None,
            _ => Some(false),
        };
        any_invalid |= valid == Some(false);
        any_limit |= valid.is_none();
        // The nodes go out as the tree hands them on: the record of a long line is streamed, its tree
        // never held whole.
        match format {
            Format::Json => {
                // `{"line", "input", "valid", "tree": [...], "truncated", "error"}`, the array written
                // node by node.
                write!(out, "{{\"line\":{number},\"input\":")?;
                serde_json::to_writer(&mut *out, text)?;
                out.write_all(b",\"valid\":")?;
                serde_json::to_writer(&mut *out, &valid)?;
                out.write_all(b",\"tree\":[")?;
                let mut comma = false;
                let complete = tree.for_each(|n| {
                    if comma {
                        out.write_all(b",")?;
                    }
                    comma = true;
                    let node = NodeJson {
                        rule: n.rule,
                        start: n.start,
                        end: n.end,
                        depth: n.depth,
                    };
                    serde_json::to_writer(&mut *out, &node).map_err(io::Error::from)
                })?;
                write!(out, "],\"truncated\":{},\"error\":", !complete)?;
                let error = error
                    .as_ref()
                    .map(|e| super::report::ErrorJson::new(e, text));
                serde_json::to_writer(&mut *out, &error)?;
                out.write_all(b"}\n")?;
            }
            Format::Text => {
                if !first {
                    out.write_all(b"\n")?;
                }
                writeln!(out, "input: {}", escape_text(text))?;
                let mut nodes = 0u64;
                let complete = tree.for_each(|n| {
                    nodes += 1;
                    let span = text.get(n.start..n.end).unwrap_or("");
                    let shown: String = span.chars().take(TREE_TEXT).collect();
                    let more = if shown.len() < span.len() { "..." } else { "" };
                    writeln!(
                        out,
                        "{:indent$}{} {}..{} \"{}{more}\"",
                        "",
                        n.rule,
                        n.start,
                        n.end,
                        escape_text(&shown),
                        indent = 2 * (n.depth + 1)
                    )
                })?;
                if !complete {
                    writeln!(out, "  (tree cut at {nodes} nodes)")?;
                }
                if let Some(e) = &error {
                    writeln!(out, "error: {}", escape_text(&e.to_string()))?;
                }
            }
        }
        first = false;
        Ok(())
    };
    let all_read = if uris.is_empty() {
        let no_files: &[&str] = &[];
        input::for_each_line(no_files, |line| one(line.number, line.bytes, &mut out))?
    } else {
        for (i, uri) in uris.iter().enumerate() {
            one(i as u64 + 1, uri.as_encoded_bytes(), &mut out)?;
        }
        true
    };
    out.flush()?;
    let status = Status::of(all_read, any_invalid);
    Ok(if any_limit && status != Status::IoError {
        Status::Limit
    } else {
        status
    })
}
