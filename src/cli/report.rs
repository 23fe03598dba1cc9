//! What the subcommands say about an input, in the two shapes of CONTRACT.md: JSON values (serde) and text
//! with a caret under the offending byte. Validity itself is decided by the library, never here.

use std::io::{self, Write};

use rfc3986::ParseError;
use serde::Serialize;

/// `"error": {"offset": 7, "expected": ["pchar", "\"/\""], "message": "..."}` (CONTRACT.md, `check`).
#[derive(Debug, Serialize)]
pub(crate) struct ErrorJson {
    /// 0-based byte offset into the input.
    offset: usize,
    /// ABNF spelling: rule names, quoted literals, `end of input`.
    expected: Vec<String>,
    message: String,
}

impl From<&ParseError> for ErrorJson {
    fn from(error: &ParseError) -> ErrorJson {
        ErrorJson {
            offset: error.offset(),
            expected: error.expected().iter().map(ToString::to_string).collect(),
            message: error.message(),
        }
    }
}

/// A SHOULD-level finding: `{"code": "...", "section": "3.2.1", "message": "..."}` (CONTRACT.md, `check`).
///
/// No finding is produced yet (lint is a later issue); the type fixes the JSON shape of `"warnings"`.
#[derive(Debug, Serialize)]
pub(crate) struct Warning {
    pub(crate) code: &'static str,
    pub(crate) section: &'static str,
    pub(crate) message: String,
}

/// Writes `input` and, under it, a caret under the byte at the error's offset, each line preceded by
/// `indent`, as drawn by [`ParseError::snippet`] (long inputs are cut around the offset, control
/// characters shown as `?`).
pub(crate) fn write_caret(
    out: &mut impl Write,
    indent: &str,
    input: &str,
    error: &ParseError,
) -> io::Result<()> {
    let snippet = error.snippet(input);
    let (line, caret) = snippet.split_once('\n').unwrap_or((&snippet, ""));
    writeln!(out, "{indent}{line}\n{indent}{caret}")
}
