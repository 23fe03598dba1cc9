//! Input lines: FILE arguments or standard input (`-`), read as bytes so that a line that is not UTF-8
//! is reported rather than fatal, through one reused buffer so that memory stays flat on any file size.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

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
                    super::error(format_args!("{name}: {e}"));
                    false
                }
            }
        };
        all_read &= ok;
    }
    Ok(all_read)
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

/// The line without its `\n` and one `\r` before it.
fn strip_terminator(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// An input as text: the line itself when it is UTF-8, or its lossy decoding together with the error
/// [`rfc3986::validate_bytes`] reports (offset at the first bad byte, or at an earlier grammar error).
pub(crate) fn decode(rule: Rule, bytes: &[u8]) -> Result<&str, (String, ParseError)> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(_) => {
            let error = match rfc3986::validate_bytes(rule, bytes) {
                Err(error) => error,
                Ok(()) => unreachable!("validate_bytes accepted bytes that are not UTF-8"),
            };
            Err((String::from_utf8_lossy(bytes).into_owned(), error))
        }
    }
}
