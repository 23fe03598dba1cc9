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
    if password_span(input).is_some_and(|p| p.contains(&error.offset())) {
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

/// The `detail` of [`explain`] alone.
pub(crate) fn detail(error: &ParseError, input: &[u8]) -> String {
    kind_and_detail(error, input).1
}

/// [`kind`] and the `detail` of [`explain`], with one look for the password: what a row of the batch
/// `check` says.
pub(crate) fn kind_and_detail(error: &ParseError, input: &[u8]) -> (&'static str, String) {
    if password_span(input).is_some_and(|p| p.contains(&error.offset())) {
        (
            rfc3986::ParseErrorKind::InvalidCharacter.name(),
            explain(error, input).detail,
        )
    } else {
        (error.kind().name(), error.detail())
    }
}

/// The error's kind, as the command line's `--redact` gives it: `invalid-character` for an error at a
/// character of the password, whose own kind (`space`, `brace`, ...) would say what the character is.
pub(crate) fn kind(error: &ParseError, input: &[u8]) -> &'static str {
    if password_span(input).is_some_and(|p| p.contains(&error.offset())) {
        rfc3986::ParseErrorKind::InvalidCharacter.name()
    } else {
        error.kind().name()
    }
}
