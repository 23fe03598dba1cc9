//! The compiled fast path: `uri.pest` compiled by `build.rs` into plain Rust over bytes.
//!
//! For every rule of the grammar the build generates a function that matches it at a byte position with
//! PEG semantics (ordered choice, greedy repetition that never gives back, predicates), and records the
//! spans of non-silent rules as pest's pairs would have them. It gives the same verdicts and component
//! spans as the pest_derive parser (`tests/fast_path.rs` checks both on every test input and every line of
//! the shipped corpus); the pest_derive parser stays the reference and explains every rejection.

/// A non-silent rule matched: `(rule index in uri.pest, start byte, end byte)`.
pub(crate) type Event = (usize, usize, usize);

/// `literal` at `p`.
#[inline(always)]
fn lit(s: &[u8], p: usize, literal: &[u8]) -> Option<usize> {
    let end = p + literal.len();
    (s.get(p..end) == Some(literal)).then_some(end)
}

/// `literal` at `p`, ASCII case-insensitively (pest's `^"..."`).
#[inline(always)]
fn lit_ci(s: &[u8], p: usize, literal: &[u8]) -> Option<usize> {
    let end = p + literal.len();
    s.get(p..end)?.eq_ignore_ascii_case(literal).then_some(end)
}

/// One byte in `lo..=hi` (an ASCII range: a byte of a multi-byte UTF-8 character never falls in it).
#[inline(always)]
fn byte_in(s: &[u8], p: usize, lo: u8, hi: u8) -> Option<usize> {
    match s.get(p) {
        Some(&b) if lo <= b && b <= hi => Some(p + 1),
        _ => None,
    }
}

/// The character at `p` (the input is UTF-8) and its length.
#[inline]
fn char_at(s: &[u8], p: usize) -> Option<(char, usize)> {
    let rest = s.get(p..)?;
    let len = match *rest.first()? {
        b if b < 0x80 => 1,
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        _ => 2,
    };
    let c = std::str::from_utf8(rest.get(..len)?).ok()?.chars().next()?;
    Some((c, len))
}

/// One character in `lo..=hi`.
#[inline]
#[allow(dead_code)]
fn char_in(s: &[u8], p: usize, lo: char, hi: char) -> Option<usize> {
    let (c, len) = char_at(s, p)?;
    (lo <= c && c <= hi).then_some(p + len)
}

/// Any one character (pest's `ANY`).
#[inline]
#[allow(dead_code)]
fn any_char(s: &[u8], p: usize) -> Option<usize> {
    char_at(s, p).map(|(_, len)| p + len)
}

include!(concat!(env!("OUT_DIR"), "/fastpath.rs"));
