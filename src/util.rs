//! The small facts every stage shares, each written once: hex digits, `pct-encoded` triplets, the
//! unreserved characters, the escaping of echoed text, and the longest input a value can hold.

use std::fmt::Write as _;

/// The longest input a value can be built for: 4 GiB - 2 bytes (offsets are 32-bit, and `u32::MAX` marks
/// an absent component). Longer inputs are refused before they reach the components.
pub(crate) const MAX_LEN: usize = u32::MAX as usize - 1;

/// Appends `text` with the characters that would act on a terminal written as `\u{..}` escapes.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if needs_escape(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
}

/// Control characters (C0, DEL, C1), bidirectional controls and line or paragraph separators.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}
