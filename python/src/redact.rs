//! Messages that do not name a character of a userinfo password.
//!
//! A `ParseError`'s `str()`, `message` and `hint`, and the batch `message` column, are read by people
//! and land in logs and stored datasets; when the error is at a character of the password of a
//! `user:password@` userinfo, they say so without naming the character or its encoding, as the rfc3986
//! command line does (`--redact`; its text diagnostics always). The input itself (`ParseError.input`,
//! `found`, and the rows of a batch) is data and stays as given.
//!
//! The password is found as the command line finds it (the library's `rfc3986::password_span`): the
//! generic split of RFC 3986 Appendix B (scheme up to the first `:` before any `/?#`, then `//` and the
//! authority up to the next `/?#`), the userinfo before the authority's last `@`, the password after the
//! userinfo's first `:` (RFC 3986 3.2.1), so that it is found in text that is not a valid URI.

use std::ops::Range;

use rfc3986::ParseError;

/// The message of a parse error at a character of the userinfo password.
pub(crate) const IN_PASSWORD: &str =
    "character not allowed in the password of the userinfo (not shown)";

/// The byte range of the userinfo password of `input`, if it has a non-empty one: the library's
/// [`rfc3986::password_span`], which the command line uses too.
pub(crate) fn password_span(input: &[u8]) -> Option<Range<usize>> {
    rfc3986::password_span(input)
}

/// What a parse error says, without naming a character of the password.
pub(crate) struct Explained {
    /// Short: `space not allowed here`.
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
    /// The message, the hint and the expected items, separated by `; `.
    pub(crate) detail: String,
}

/// What `error`, found in `input`, says.
pub(crate) fn explain(error: &ParseError, input: &[u8]) -> Explained {
    if in_password(error, input) {
        let mut detail = IN_PASSWORD.to_string();
        if !error.expected().is_empty() {
            detail.push_str("; ");
            detail.push_str(&error.expected_list());
        }
        return Explained {
            message: IN_PASSWORD.to_string(),
            hint: None,
            detail,
        };
    }
    Explained {
        message: error.message(),
        hint: error.hint(),
        detail: error.detail(),
    }
}

/// Whether `error` is at a character of the userinfo password of `input`.
fn in_password(error: &ParseError, input: &[u8]) -> bool {
    let offset = error.offset();
    // A password ends before an `@` (RFC 3986 3.2.1): with none at or after the error, the error is
    // not in one, and most rejected rows are found so without the generic split.
    input.get(offset..).is_some_and(|rest| rest.contains(&b'@'))
        && password_span(input).is_some_and(|p| p.contains(&offset))
}

/// The `detail` of [`explain`] alone.
pub(crate) fn detail(error: &ParseError, input: &[u8]) -> String {
    let mut detail = String::new();
    write_kind_and_detail(error, input, &mut detail);
    detail
}

/// Appends the `detail` of [`explain`] to `out` and returns [`kind`], with one look for the
/// password: what a row of the batch `check` says, written without a `String` of its own.
pub(crate) fn write_kind_and_detail(
    error: &ParseError,
    input: &[u8],
    out: &mut String,
) -> &'static str {
    if in_password(error, input) {
        out.push_str(&explain(error, input).detail);
        rfc3986::ParseErrorKind::InvalidCharacter.name()
    } else {
        // Writing to a String cannot fail.
        let _ = error.write_detail(out);
        error.kind().name()
    }
}

/// The error's kind, as the command line's `--redact` gives it: `invalid-character` for an error at a
/// character of the password, whose own kind (`space`, `brace`, ...) would say what the character is.
pub(crate) fn kind(error: &ParseError, input: &[u8]) -> &'static str {
    if in_password(error, input) {
        rfc3986::ParseErrorKind::InvalidCharacter.name()
    } else {
        error.kind().name()
    }
}
