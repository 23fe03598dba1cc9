//! The small facts every stage shares, each written once: hex digits and `pct-encoded` triplets
//! (RFC 3986 2.1), the escaping of echoed text, and the longest input a value can hold. It imports
//! nothing of the crate; the character classes of the grammar are in `engine::classes`, generated from
//! `uri.pest`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// The longest input a value can be built for: 4 GiB - 2 bytes (offsets are 32-bit, and `u32::MAX` marks
/// an absent component). Longer inputs are refused before they reach the components.
pub(crate) const MAX_LEN: usize = u32::MAX as usize - 1;

/// The upper-case hexadecimal digits, which RFC 3986 2.1 says producers SHOULD use in `pct-encoded`.
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// The `pct-encoded` triplet of an octet, with upper-case hex digits: `%2F` for `/` (RFC 3986 2.1).
#[inline]
pub(crate) fn pct_triplet(b: u8) -> [u8; 3] {
    [
        b'%',
        HEX_UPPER[usize::from(b >> 4)],
        HEX_UPPER[usize::from(b & 15)],
    ]
}

/// Appends the `pct-encoded` triplet of an octet (upper-case hex digits, RFC 3986 2.1).
#[inline]
pub(crate) fn push_pct_triplet(out: &mut String, b: u8) {
    for c in pct_triplet(b) {
        out.push(char::from(c));
    }
}

/// The value of an ASCII hex digit (`HEXDIG`, either case), `None` for any other byte.
#[inline]
pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The octet the hex digits of a `pct-encoded` triplet stand for (`b'2'`, `b'f'`: 0x2F); `None` when either
/// is not a `HEXDIG`.
#[inline]
pub(crate) fn triplet_octet(hi: u8, lo: u8) -> Option<u8> {
    Some(hex_value(hi)? << 4 | hex_value(lo)?)
}

/// Whether `bytes[i..]` starts with a `pct-encoded` triplet: `"%" HEXDIG HEXDIG` (RFC 3986 2.1). `false`
/// when `i` is out of range.
#[inline]
pub(crate) fn is_pct_triplet(bytes: &[u8], i: usize) -> bool {
    bytes.get(i) == Some(&b'%')
        && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
}

/// Whether a character would act on a terminal if echoed raw: control characters (C0, DEL, C1),
/// bidirectional controls (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and line or paragraph
/// separators (U+2028, U+2029).
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Appends `text` with the characters that would act on a terminal written as `\u{..}` escapes (see
/// [`escape_echoed`]).
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if needs_escape(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
}

/// `text` made safe to echo on a terminal: every control character (C0, DEL, C1), bidirectional control
/// (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and line or paragraph separator (U+2028, U+2029) is
/// written as a `\u{..}` escape with lower-case hex digits; every other character is kept. Borrows `text`
/// when nothing needs escaping. This is the escaping [`ParseError::annotate`](crate::ParseError::annotate)
/// applies to the input it draws.
///
/// ```
/// use rfc3986::escape_echoed;
/// assert_eq!(escape_echoed("http://a/\u{1b}[2J"), "http://a/\\u{1b}[2J"); // ESC: a terminal command
/// assert_eq!(escape_echoed("a\u{202e}b"), "a\\u{202e}b"); // RIGHT-TO-LEFT OVERRIDE
/// assert_eq!(escape_echoed("d\u{fc}rst"), "d\u{fc}rst"); // printable non-ASCII is kept
/// ```
pub fn escape_echoed(text: &str) -> Cow<'_, str> {
    if text.bytes().all(|b| (b' '..=b'~').contains(&b)) || !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    Cow::Owned(out)
}

/// The byte range of the password in the userinfo of `text` (RFC 3986 3.2.1, `user:password@`), found
/// the way RFC 3986 Appendix B splits any string, valid or not, so that a diagnostic about a rejected
/// line can mask it: an optional `scheme ":"` (no `/`, `?` or `#` before the `:`), then `"//"` and the
/// authority up to the next `/`, `?` or `#`; the userinfo is the authority before its last `@`, the
/// password what follows the userinfo's first `:`. `None` when there is no authority, no userinfo, no
/// `:` in it, or an empty password. Byte offsets into `text`.
///
/// ```
/// use rfc3986::password_span;
/// assert_eq!(password_span(b"http://user:hunter2@h/"), Some(12..19));
/// assert_eq!(password_span(b"http://u:p w@h/ x"), Some(9..12)); // an invalid line too
/// assert_eq!(password_span(b"http://user@h/"), None); // no password
/// assert_eq!(password_span(b"http://user:@h/"), None); // an empty one
/// assert_eq!(password_span(b"mailto:a:b@c"), None); // no authority
/// ```
pub fn password_span(text: &[u8]) -> Option<std::ops::Range<usize>> {
    let delimiter = |b: &u8| matches!(b, b'/' | b'?' | b'#');
    let scheme_end = text
        .iter()
        .position(|&b| b == b':' || delimiter(&b))
        .filter(|&i| i > 0 && text[i] == b':')
        .map_or(0, |i| i + 1);
    if !text[scheme_end..].starts_with(b"//") {
        return None;
    }
    let start = scheme_end + 2;
    let rest = &text[start..];
    let authority = &rest[..rest.iter().position(delimiter).unwrap_or(rest.len())];
    let at = authority.iter().rposition(|&b| b == b'@')?;
    let colon = authority[..at].iter().position(|&b| b == b':')?;
    let span = start + colon + 1..start + at;
    (!span.is_empty()).then_some(span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every octet round-trips through its triplet, and the triplet is what RFC 3986 2.1 writes.
    #[test]
    fn triplets_round_trip_every_octet() {
        for b in 0..=255u8 {
            let t = pct_triplet(b);
            assert!(is_pct_triplet(&t, 0));
            assert_eq!(hex_value(t[1]).unwrap() * 16 + hex_value(t[2]).unwrap(), b);
        }
        assert_eq!(&pct_triplet(b' '), b"%20");
        assert!(
            !is_pct_triplet(b"%2", 0) && !is_pct_triplet(b"%g0", 0) && !is_pct_triplet(b"%", 1)
        );
    }

    #[test]
    fn hex_value_is_hexdig_in_either_case() {
        for b in 0..=255u8 {
            assert_eq!(hex_value(b).is_some(), b.is_ascii_hexdigit(), "{b:#04x}");
        }
        assert_eq!((hex_value(b'a'), hex_value(b'F')), (Some(10), Some(15)));
    }
}
