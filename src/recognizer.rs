//! The compiled fast path: `uri.pest` compiled by `build.rs` into plain Rust over bytes.
//!
//! For every rule of the grammar the build generates a function that matches it at a byte position with
//! PEG semantics (ordered choice, greedy repetition that never gives back, predicates), and records the
//! spans of the component rules (`src/component_rules.rs`) as pest's pairs would have them. It gives the
//! same verdicts and component spans as the pest_derive parser (the `fast_path_agrees` tests in
//! `src/grammar.rs` check both on tricky inputs for every rule, generated inputs and every line of the
//! shipped sample); the pest_derive parser stays the reference and explains every rejection.

use crate::builder::{Slot, COMPONENT_RULES};

/// The component rules recorded so far in a match: a span per component rule (by its position in
/// `COMPONENT_RULES`), valid where its bit in `set` is, so that forgetting what a failed branch recorded
/// is restoring `set` (no list to truncate, no allocation, nothing to sort out afterwards).
///
/// A component that matches again while its span is still valid (a grammar where a component rule can
/// occur twice in one match; `uri.pest` has none) is not stored twice: [`Events::repeated`] then says so,
/// and the pest_derive parser gives the answer.
pub(crate) struct Events {
    spans: [Slot; COMPONENT_RULES.len()],
    set: u32,
    repeated: bool,
}

const _: () = assert!(
    COMPONENT_RULES.len() <= 32,
    "one bit of Events::set per component rule"
);

impl Events {
    pub(crate) fn new() -> Events {
        Events {
            spans: [Slot::NONE; COMPONENT_RULES.len()],
            set: 0,
            repeated: false,
        }
    }

    /// What has been recorded so far, to go back to with [`Events::truncate`] if a branch fails.
    #[inline(always)]
    fn len(&self) -> usize {
        self.set as usize
    }

    /// Opens the span of component rule number `component` at `start`; returns what was recorded before
    /// it, for [`Events::truncate`].
    #[inline(always)]
    fn push(&mut self, component: u32, start: usize) -> usize {
        let before = self.set;
        let bit = 1 << component;
        self.repeated |= before & bit != 0;
        self.set = before | bit;
        self.spans[component as usize] = Slot::new(start, start);
        before as usize
    }

    /// Closes the span of component rule number `component` at `end`.
    #[inline(always)]
    fn close(&mut self, component: u32, end: usize) {
        self.spans[component as usize] = Slot::new(self.spans[component as usize].start(), end);
    }

    /// Forgets what was recorded after [`Events::len`] returned `n` (a branch that failed).
    #[inline(always)]
    fn truncate(&mut self, n: usize) {
        self.set = n as u32;
    }

    /// Whether a component matched twice (see [`Events`]): then the spans are not to be used.
    #[inline(always)]
    pub(crate) fn repeated(&self) -> bool {
        self.repeated
    }

    /// Bit `i` set for each component rule number `i` that matched.
    #[inline(always)]
    pub(crate) fn matched(&self) -> u32 {
        self.set
    }

    /// The span of component rule number `i` in the match, `Slot::NONE` if it did not match.
    #[inline(always)]
    pub(crate) fn span(&self, i: usize) -> Slot {
        if self.set & (1 << i) != 0 {
            self.spans[i]
        } else {
            Slot::NONE
        }
    }
}

/// The byte `b` at `p`.
#[inline(always)]
fn byte_is(s: &[u8], p: usize, b: u8) -> Option<usize> {
    (s.get(p) == Some(&b)).then_some(p + 1)
}

/// The end of the run of bytes from `p` on whose entries in `table` are true (a tight loop for
/// `class*`), four bytes at a time while they last.
#[inline(always)]
fn scan(s: &[u8], mut p: usize, table: &[bool; 256]) -> usize {
    while let Some(&[a, b, c, d]) = s.get(p..p + 4) {
        if table[a as usize] & table[b as usize] & table[c as usize] & table[d as usize] {
            p += 4;
        } else {
            break;
        }
    }
    while let Some(&b) = s.get(p) {
        if !table[b as usize] {
            break;
        }
        p += 1;
    }
    p
}

/// One byte at `p` whose entry in `table` is true.
#[inline(always)]
fn byte_of(s: &[u8], p: usize, table: &[bool; 256]) -> Option<usize> {
    match s.get(p) {
        Some(&b) if table[b as usize] => Some(p + 1),
        _ => None,
    }
}

/// `literal` at `p`.
#[inline(always)]
fn lit(s: &[u8], p: usize, literal: &[u8]) -> Option<usize> {
    let end = p + literal.len();
    (s.get(p..end) == Some(literal)).then_some(end)
}

/// `literal` at `p`, ASCII case-insensitively (pest's `^"..."`).
#[allow(dead_code)]
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
