//! Input lines: FILE arguments or standard input (`-`), read as bytes so that a line that is not UTF-8
//! is reported rather than fatal, in bounded buffers so that memory stays flat on any file size.
//!
//! The one reader of every subcommand. Three ways to read: [`for_each_input`], arguments as inputs or
//! else standard input (`parse`, `normalize`, `encode`, ...); [`for_each_line`], the lines of FILE
//! arguments or standard input, one at a time through one reused buffer (`fix`, `resolve --pairs`,
//! `equiv`; [`Line::pair`] splits `A<TAB>B`); and [`for_each_chunk`], runs of whole lines in owned
//! buffers that can be checked on other threads (`check`). Files given as an option's value are read
//! by [`read_option_file`], with its limits.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use rfc3986::{ParseError, Rule};

/// Size of the read buffer for each input.
const BUFFER: usize = 64 * 1024;

/// One input line, with the line terminator (`\n`, and one `\r` before it) removed.
#[derive(Debug)]
pub(crate) struct Line<'a> {
    /// The input's name for diagnostics: the path as given, or `<stdin>`.
    pub(crate) file: &'a str,
    /// 1-based line number within the input.
    pub(crate) number: u64,
    /// The line's bytes, possibly empty (a blank line), possibly not UTF-8.
    pub(crate) bytes: &'a [u8],
}

/// Calls `on_line` for every line of every input in order: FILE arguments, standard input for `-` or when
/// there are none.
///
/// An input that cannot be opened or read is reported on standard error (`rfc3986: FILE: ...`) and the
/// remaining inputs are read, as grep does; the result is then `Ok(false)`. An error returned by
/// `on_line` (writing the output) stops everything and is returned.
pub(crate) fn for_each_line<P: AsRef<Path>>(
    files: &[P],
    mut on_line: impl FnMut(Line<'_>) -> io::Result<()>,
) -> io::Result<bool> {
    let mut buffer = Vec::with_capacity(256);
    if files.is_empty() {
        let stdin = io::stdin().lock();
        return read_lines("<stdin>", stdin, &mut buffer, &mut on_line);
    }
    let mut all_read = true;
    for path in files {
        let path = path.as_ref();
        let ok = if path == Path::new("-") {
            read_lines("<stdin>", io::stdin().lock(), &mut buffer, &mut on_line)?
        } else {
            let name = path.to_string_lossy();
            match File::open(path) {
                Ok(file) => read_lines(&name, file, &mut buffer, &mut on_line)?,
                Err(e) => {
                    super::error(format_args!("{}", open_failure(path, &e)));
                    false
                }
            }
        };
        all_read &= ok;
    }
    Ok(all_read)
}

/// Calls `on_line` for every input of a subcommand that takes its inputs as arguments (`parse URI...`,
/// `normalize`, `encode`, ...): each argument is one input, `<argument>` with its 1-based position as
/// line number, taken literally (any bytes); `-` stands for the lines of standard input, and so does an
/// empty list. Errors as [`for_each_line`].
pub(crate) fn for_each_input(
    arguments: &[OsString],
    mut on_line: impl FnMut(Line<'_>) -> io::Result<()>,
) -> io::Result<bool> {
    let stdin: &[&str] = &["-"];
    if arguments.is_empty() {
        return for_each_line(stdin, on_line);
    }
    let mut all_read = true;
    for (i, argument) in arguments.iter().enumerate() {
        if argument == "-" {
            all_read &= for_each_line(stdin, &mut on_line)?;
        } else {
            on_line(Line {
                file: ARGUMENT,
                number: i as u64 + 1,
                bytes: argument.as_encoded_bytes(),
            })?;
        }
    }
    Ok(all_read)
}

/// The source name of an input given as an argument.
pub(crate) const ARGUMENT: &str = "<argument>";

/// The longest template `expand` parses: 256 KiB (parsing holds about 110 bytes per template byte).
pub(crate) const MAX_TEMPLATE: usize = 256 * 1024;

/// The longest expansion `expand` makes, bounded before expanding: 64 MiB.
pub(crate) const MAX_EXPANSION: usize = 64 * 1024 * 1024;

/// The most `SCHEME.pest` files `check --scheme-dir DIR` loads: 128 (each is a grammar to compile).
pub(crate) const MAX_SCHEME_FILES: usize = 128;

/// The text of a file given as an option's value (`expand --vars FILE.json`), read whole with the limits
/// of grammar files ([`rfc3986::runtime_limits::read_grammar_file`]): a regular file (not a FIFO or a
/// device, which could block or never end; the open itself cannot wait), at most
/// [`rfc3986::runtime_limits::MAX_GRAMMAR_BYTES`] (1 MiB), UTF-8. The error is the message, the name
/// escaped.
pub(crate) fn read_option_file(path: &Path) -> Result<String, String> {
    let name = escape_name(&path.to_string_lossy());
    rfc3986::runtime_limits::read_grammar_file(path).map_err(|e| match e {
        rfc3986::runtime::GrammarError::Io { source, .. } => {
            format!("{name}: cannot read: {source}")
        }
        other => format!("{name}: cannot read: {other}"),
    })
}

impl Line<'_> {
    /// The two fields of a `BASE<TAB>REF` or `A<TAB>B` line, split at its first tab; `None` when it
    /// has none (a blank line included).
    pub(crate) fn pair(&self) -> Option<(&[u8], &[u8])> {
        let tab = memchr::memchr(b'\t', self.bytes)?;
        Some((&self.bytes[..tab], &self.bytes[tab + 1..]))
    }
}

/// Reads `reader` line by line into `buffer`; `Ok(false)` when reading failed part way (reported).
fn read_lines(
    name: &str,
    reader: impl Read,
    buffer: &mut Vec<u8>,
    on_line: &mut impl FnMut(Line<'_>) -> io::Result<()>,
) -> io::Result<bool> {
    let mut reader = BufReader::with_capacity(BUFFER, reader);
    let mut number = 0;
    loop {
        buffer.clear();
        match reader.read_until(b'\n', buffer) {
            Ok(0) => return Ok(true),
            Ok(_) => {}
            Err(e) => {
                super::error(format_args!("{name}: {e}"));
                return Ok(false);
            }
        }
        number += 1;
        let bytes = strip_terminator(buffer);
        on_line(Line {
            file: name,
            number,
            bytes,
        })?;
    }
}

/// Whole lines of one input, read in one piece into an owned buffer: the unit of work of `check`.
///
/// `data` holds complete lines, each ending in `\n`, except that the last line of an input may lack it.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The input's name for diagnostics: the path as given, or `<stdin>`.
    pub(crate) file: Arc<str>,
    /// 1-based line number of the chunk's first line within its input.
    pub(crate) first_line: u64,
    /// The lines' bytes, terminators included.
    pub(crate) data: Vec<u8>,
}

impl Chunk {
    /// `(line number, start, end)` of each line in `data`, terminators removed: lines found with memchr,
    /// "a\n\nb\n" holding the lines "a", "" and "b".
    pub(crate) fn spans(&self) -> impl Iterator<Item = (u64, usize, usize)> + '_ {
        let data = &self.data[..];
        let ends = memchr::memchr_iter(b'\n', data).chain(
            // The last line of an input may lack its "\n".
            (!data.is_empty() && data.last() != Some(&b'\n')).then_some(data.len()),
        );
        let mut start = 0;
        ends.zip(self.first_line..).map(move |(end, number)| {
            let line_start = start;
            start = end + 1;
            let mut line_end = end;
            if line_end > line_start && data[line_end - 1] == b'\r' {
                line_end -= 1;
            }
            (number, line_start, line_end)
        })
    }
}

/// What [`for_each_chunk`] hands on, in input order.
#[derive(Debug)]
pub(crate) enum Piece {
    /// Lines to check.
    Chunk(Chunk),
    /// An input could not be opened or read further: `FILE: error`, for standard error.
    Failed(String),
}

/// Calls `on_piece` with the lines of every input in order (FILE arguments, standard input for `-` or when
/// there are none), in chunks of about `chunk_size` bytes of whole lines: one `read` each, so that lines
/// typed on a terminal or written slowly into a pipe are handed on as soon as they arrive. A line longer
/// than `chunk_size` makes a chunk of its own.
///
/// An input that cannot be opened or read is handed on as [`Piece::Failed`] and the remaining inputs are
/// read, as grep does; the result is then `Ok(false)`. An error returned by `on_piece` stops everything
/// and is returned.
pub(crate) fn for_each_chunk<P: AsRef<Path>>(
    files: &[P],
    chunk_size: usize,
    mut on_piece: impl FnMut(Piece) -> io::Result<()>,
) -> io::Result<bool> {
    let stdin: Arc<str> = Arc::from("<stdin>");
    if files.is_empty() {
        return read_chunks(&stdin, io::stdin().lock(), chunk_size, false, &mut on_piece);
    }
    let mut all_read = true;
    for path in files {
        let path = path.as_ref();
        let ok = if path == Path::new("-") {
            read_chunks(&stdin, io::stdin().lock(), chunk_size, false, &mut on_piece)?
        } else {
            let name: Arc<str> = Arc::from(path.to_string_lossy());
            match File::open(path) {
                Ok(file) => {
                    // A regular file has no one waiting at the other end: each chunk is read whole.
                    let regular = file.metadata().is_ok_and(|m| m.is_file());
                    read_chunks(&name, file, chunk_size, regular, &mut on_piece)?
                }
                Err(e) => {
                    on_piece(Piece::Failed(open_failure(path, &e)))?;
                    false
                }
            }
        };
        all_read &= ok;
    }
    Ok(all_read)
}

/// Reads `reader` into chunks of whole lines; `Ok(false)` when reading failed part way (handed on).
/// A partial line before a read error is dropped, as [`for_each_line`] drops it. `whole`: fill each
/// chunk before handing it on (a regular file), rather than one `read` each (a pipe, a terminal).
fn read_chunks(
    name: &Arc<str>,
    mut reader: impl Read,
    chunk_size: usize,
    whole: bool,
    on_piece: &mut impl FnMut(Piece) -> io::Result<()>,
) -> io::Result<bool> {
    let chunk_size = chunk_size.max(1);
    let mut first_line = 1;
    let mut buffer: Vec<u8> = Vec::with_capacity(chunk_size);
    loop {
        let start = buffer.len();
        if buffer.capacity() - start < chunk_size / 2 {
            // A long line: make room for it to go on.
            buffer.reserve(chunk_size);
        }
        let read = if whole {
            // Into the spare capacity without zeroing it first (`read_to_end` keeps track of what it
            // wrote), up to the capacity.
            let room = (buffer.capacity() - start) as u64;
            (&mut reader).take(room).read_to_end(&mut buffer)
        } else {
            buffer.resize(buffer.capacity(), 0);
            let read = reader.read(&mut buffer[start..]);
            buffer.truncate(start + *read.as_ref().unwrap_or(&0));
            read
        };
        match read {
            Ok(0) => {
                if !buffer.is_empty() {
                    // The last line, without a final `\n`.
                    let file = Arc::clone(name);
                    on_piece(Piece::Chunk(Chunk {
                        file,
                        first_line,
                        data: buffer,
                    }))?;
                }
                return Ok(true);
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                on_piece(Piece::Failed(format!("{name}: {e}")))?;
                return Ok(false);
            }
        }
        let Some(last) = buffer[start..].iter().rposition(|&b| b == b'\n') else {
            continue;
        };
        let end = start + last + 1;
        let mut rest = Vec::with_capacity(chunk_size.max(buffer.len() - end));
        rest.extend_from_slice(&buffer[end..]);
        buffer.truncate(end);
        let data = std::mem::replace(&mut buffer, rest);
        let lines = memchr::memchr_iter(b'\n', &data).count() as u64;
        on_piece(Piece::Chunk(Chunk {
            file: Arc::clone(name),
            first_line,
            data,
        }))?;
        first_line += lines;
    }
}

/// The line without its `\n` and one `\r` before it.
fn strip_terminator(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// An input as text: the line itself when it is UTF-8, or its lossy decoding together with the error
/// [`rfc3986::validate_bytes`] reports (offset at the first bad byte, or at an earlier grammar error).
pub(crate) fn decode(rule: Rule, bytes: &[u8]) -> Result<&str, (String, ParseError)> {
    decode_with(bytes, |bytes| rfc3986::validate_bytes(rule, bytes))
}

/// As [`decode`], the error of a line that is not UTF-8 coming from `validate`, which is called only then
/// (a grammar loaded at run time explains the line by its own rules).
pub(crate) fn decode_with(
    bytes: &[u8],
    validate: impl FnOnce(&[u8]) -> Result<(), ParseError>,
) -> Result<&str, (String, ParseError)> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(_) => {
            let error = match validate(bytes) {
                Err(error) => error,
                Ok(()) => unreachable!("a grammar accepted bytes that are not UTF-8"),
            };
            Err((String::from_utf8_lossy(bytes).into_owned(), error))
        }
    }
}

/// The message for a FILE argument that cannot be opened: the name (control and bidirectional characters
/// escaped, so a hostile name cannot rewrite the terminal or forge a line), the system's reason, and for
/// a missing "file" that looks like a URI, how to check a URI given on the command line.
pub(crate) fn open_failure(path: &Path, error: &io::Error) -> String {
    let name = escape_name(&path.to_string_lossy());
    let mut message = format!("{name}: {error}");
    let text = path.to_string_lossy();
    let looks_like_uri = text.contains("://")
        || text.contains(' ')
        || text
            .split(['/', '?', '#'])
            .next()
            .is_some_and(|head| head.contains(':'));
    if error.kind() == io::ErrorKind::NotFound && looks_like_uri {
        message.push_str(
            "; check reads FILE arguments: to check a URI given as an argument, use \
             `rfc3986 parse URI` or `echo URI | rfc3986 check`",
        );
    }
    message
}

/// A file name for human-readable output: control characters, bidirectional controls and line
/// separators written as `\u{..}` escapes.
pub(crate) fn escape_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || bidi || matches!(c, '\u{2028}' | '\u{2029}') {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}
