//! The compiled fast path: `uri.pest` compiled by `build.rs` into plain Rust over bytes.
//!
//! For every rule of the grammar the build generates a function that matches it at a byte position with
//! PEG semantics (ordered choice, greedy repetition that never gives back, predicates), and records the
//! spans of the component rules (`src/components/rules.rs`) as pest's pairs would have them. It gives the
//! same verdicts and component spans as the pest_derive parser (the `fast_path_agrees` tests in
//! `src/engine/mod.rs` check both on tricky inputs for every rule, generated inputs and every line of the
//! shipped sample); the pest_derive parser stays the reference, and the explainer explains every
//! rejection.
//!
//! `recognize` is `#[inline]`: a parse entry point that is `#[inline]` too (`UriRef::parse`,
//! `Uri::parse`) gets the recognizer of its rule compiled into its caller with the rule known. The
//! helpers here are what the generated code calls: `scan` and its variants for runs of a class,
//! `Events` for the component spans and `Events::byte_ahead` for the byte an optional part needs.

use crate::components::{Slot, COMPONENT_RULES};

/// The component rules recorded so far in a match: a span per component rule (by its position in
/// `COMPONENT_RULES`; its start and its end in two arrays, so that opening and closing it are a store
/// each), valid where its bit in the set is, so that forgetting what a failed branch recorded is
/// restoring the set (no list to truncate, no allocation, nothing to sort out afterwards).
///
/// A component that matches again while its span is still valid (a grammar where a component rule can
/// occur twice in one match; `uri.pest` has none) is not stored twice: [`Events::repeated`] then says so,
/// and the pest_derive parser gives the answer.
pub(crate) struct Events {
    starts: [u32; COMPONENT_RULES.len()],
    ends: [u32; COMPONENT_RULES.len()],
    set: u32,
    repeated: bool,
    /// The bytes [`Events::byte_ahead`] has read in this match, which it keeps under twice the input's
    /// length (past that it answers "maybe" without reading).
    searched: usize,
}

const _: () = assert!(
    COMPONENT_RULES.len() <= 32,
    "one bit of Events::set per component rule"
);

impl Events {
    pub(crate) fn new() -> Events {
        Events {
            starts: [0; COMPONENT_RULES.len()],
            ends: [0; COMPONENT_RULES.len()],
            set: 0,
            repeated: false,
            searched: 0,
        }
    }

    /// Whether the first byte of `s` at or after `p` outside the class `within` (with its masks
    /// `shifted`, for [`scan_shifted`]) is `c` (`c` not in the class): `false` only when another byte
    /// or the end of the input comes first, so that an optional part that must consume `c` after
    /// bytes of the class (`[ userinfo "@" ]`; see `byte_required_later` in `peg/src/program.rs`) is
    /// not tried for nothing. `true` without reading once this match has read twice the input's length
    /// (so that the searches of a match cost at most that, however often a grammar asks).
    #[inline(always)]
    pub(crate) fn byte_ahead(
        &mut self,
        s: &[u8],
        p: usize,
        c: u8,
        within: &[bool; 256],
        shifted: &Shifted,
    ) -> bool {
        if self.searched > 2 * s.len() {
            return true;
        }
        let q = scan_shifted(s, p, within, shifted);
        self.searched += q + 8 - p;
        s.get(q) == Some(&c)
    }

    /// What has been recorded so far, to go back to with [`Events::truncate`] if a branch fails.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.set as usize
    }

    /// Opens the span of component rule number `component` at `start`; returns what was recorded before
    /// it, for [`Events::truncate`].
    #[inline(always)]
    pub(crate) fn push(&mut self, component: u32, start: usize) -> usize {
        let before = self.set;
        let bit = 1 << component;
        self.repeated |= before & bit != 0;
        self.set = before | bit;
        self.starts[component as usize] = start as u32;
        before as usize
    }

    /// Closes the span of component rule number `component` at `end`.
    #[inline(always)]
    pub(crate) fn close(&mut self, component: u32, end: usize) {
        self.ends[component as usize] = end as u32;
    }

    /// Forgets what was recorded after [`Events::len`] returned `n` (a branch that failed).
    #[inline(always)]
    pub(crate) fn truncate(&mut self, n: usize) {
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

    /// The span last recorded for component rule number `i`: its span in the match when bit `i` of
    /// [`Events::matched`] is set, anything otherwise (for readers that test the bit themselves).
    #[inline(always)]
    pub(crate) fn recorded(&self, i: usize) -> Slot {
        Slot::new(self.starts[i] as usize, self.ends[i] as usize)
    }

    /// The span of component rule number `i` in the match, `Slot::NONE` if it did not match.
    #[inline(always)]
    pub(crate) fn span(&self, i: usize) -> Slot {
        if self.matched() & (1 << i) != 0 {
            self.recorded(i)
        } else {
            Slot::NONE
        }
    }
}

/// `b` in each byte of a word.
#[inline(always)]
pub(crate) const fn repeated_byte(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

/// The high bit of each zero byte of `x` set, exact up to the lowest one (a borrow out of a zero byte
/// may mark the byte above it, never one below): the lowest set bit is the first zero byte.
#[inline(always)]
pub(crate) const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(repeated_byte(1)) & !x & repeated_byte(0x80)
}

/// The byte `b` at `p`.
#[inline(always)]
pub(crate) fn byte_is(s: &[u8], p: usize, b: u8) -> Option<usize> {
    (s.get(p) == Some(&b)).then_some(p + 1)
}

/// The end of the run of bytes from `p` on whose entries in `table` are true (a tight loop for
/// `class*`), eight bytes at a time. The first byte outside the class is found from a bit mask of the
/// eight, so the loop's exit is the only branch that depends on where the run ends: a byte loop
/// mispredicts there too, about once per component, which cost more than the mask's instructions (on
/// the corpus, 9.3 mispredicted branches per line with four bytes then a byte loop, 5.2 with this).
#[inline(always)]
pub(crate) fn scan(s: &[u8], p: usize, table: &[bool; 256]) -> usize {
    scan_by(s, p, table, |chunk| outside_mask(chunk, table))
}

/// The masks of a class by position in a word of eight bytes: `shifted(table)[i][b]` is `1 << i` when
/// byte `b` is outside the class of `table`, 0 inside; so the mask of the bytes of a word outside the
/// class is the `or` of one entry per byte ([`scan_shifted`]), without a shift or a negation. Made at
/// compile time (2 KiB per class), for the classes of the compiled recognizer.
pub(crate) type Shifted = [[u8; 256]; 8];

/// The [`Shifted`] masks of `table`'s class.
pub(crate) const fn shifted(table: &[bool; 256]) -> Shifted {
    let mut out = [[0; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut b = 0;
        while b < 256 {
            if !table[b] {
                out[i][b] = 1 << i;
            }
            b += 1;
        }
        i += 1;
    }
    out
}

/// [`scan`] with the masks of the class by position (`shifted` is [`shifted`]`(table)`): two
/// instructions a byte instead of five, for the runs the compiled recognizer steps over.
#[inline(always)]
pub(crate) fn scan_shifted(s: &[u8], p: usize, table: &[bool; 256], shifted: &Shifted) -> usize {
    scan_by(s, p, table, |chunk| {
        let mut outside = 0;
        for (masks, &b) in shifted.iter().zip(chunk) {
            outside |= masks[b as usize];
        }
        u32::from(outside)
    })
}

/// [`scan`], with `mask` giving the bits of the bytes of an eight-byte chunk outside `table`'s class.
#[inline(always)]
fn scan_by(s: &[u8], mut p: usize, table: &[bool; 256], mask: impl Fn(&[u8]) -> u32) -> usize {
    while let Some(chunk) = s.get(p..p + 8) {
        let outside = mask(chunk);
        if outside != 0 {
            return p + outside.trailing_zeros() as usize;
        }
        p += 8;
    }
    if s.len() >= 8 && p < s.len() {
        // Fewer than eight bytes left: the last eight bytes of `s`, shifted so that bit 0 is `p`, with
        // the end of the input counted as a byte outside.
        let from = p - (s.len() - 8);
        let outside = mask(&s[s.len() - 8..]) >> from | 1 << (8 - from);
        return p + outside.trailing_zeros() as usize;
    }
    while let Some(&b) = s.get(p) {
        if !table[b as usize] {
            break;
        }
        p += 1;
    }
    p
}

/// The end of the run from `p` on of bytes in `table` and of three-byte groups whose bytes are in
/// `triple[0]`, `triple[1]` and `triple[2]` in turn (for `*pchar`: the bytes a pchar is alone, and
/// `pct-encoded` triplets), as [`scan`] finds the end of a run of bytes.
#[allow(dead_code)]
#[inline]
pub(crate) fn scan_triples(
    s: &[u8],
    p: usize,
    table: &[bool; 256],
    triple: &[[bool; 256]; 3],
) -> usize {
    triples_by(s, p, triple, |p| scan(s, p, table))
}

/// [`scan_triples`] with the masks of `table`'s class by position (`shifted` is
/// [`shifted`]`(table)`), as [`scan_shifted`] steps over a run: for the explainer's repetitions.
#[allow(dead_code)]
#[inline]
pub(crate) fn scan_triples_shifted(
    s: &[u8],
    p: usize,
    table: &[bool; 256],
    shifted: &Shifted,
    triple: &[[bool; 256]; 3],
) -> usize {
    triples_by(s, p, triple, |p| scan_shifted(s, p, table, shifted))
}

/// The run of [`scan_triples`] from `p`, the runs of bytes found by `run` (from a position to the end
/// of its run).
#[inline(always)]
fn triples_by(
    s: &[u8],
    mut p: usize,
    triple: &[[bool; 256]; 3],
    run: impl Fn(usize) -> usize,
) -> usize {
    loop {
        p = run(p);
        match s.get(p..p + 3) {
            Some(&[a, b, c])
                if triple[0][a as usize] && triple[1][b as usize] && triple[2][c as usize] =>
            {
                p += 3
            }
            _ => return p,
        }
    }
}

/// The start of the last iteration of `(A ~ R)*` from `p` on, where `A` matches one byte of `start` and
/// `R` is a repetition whose body matches the other bytes of `runs` alone (and, with `triple`, the
/// triplets of [`scan_triples`], none of whose second and third bytes is in `start`) and fails alone on
/// a byte of `start` (for `*( "/" segment )`: `/`, then the bytes of `pchar`): the iterations go on as
/// long as the bytes are in `runs` (or triplets), and the last one starts at the last byte of `start`
/// among them. `p` itself when the byte at `p` is not in `start`.
#[allow(dead_code)]
#[inline]
pub(crate) fn scan_runs(
    s: &[u8],
    p: usize,
    start: &[bool; 256],
    runs: &[bool; 256],
    triple: Option<&[[bool; 256]; 3]>,
) -> usize {
    runs_by(s, p, start, |p| match triple {
        Some(triple) => scan_triples(s, p, runs, triple),
        None => scan(s, p, runs),
    })
}

/// [`scan_runs`] with the masks of `runs`'s class by position (`shifted` is [`shifted`]`(runs)`): for
/// the explainer's repetitions of runs.
#[allow(dead_code)]
#[inline]
pub(crate) fn scan_runs_shifted(
    s: &[u8],
    p: usize,
    start: &[bool; 256],
    runs: &[bool; 256],
    shifted: &Shifted,
    triple: Option<&[[bool; 256]; 3]>,
) -> usize {
    runs_by(s, p, start, |p| match triple {
        Some(triple) => scan_triples_shifted(s, p, runs, shifted, triple),
        None => scan_shifted(s, p, runs, shifted),
    })
}

/// The start of the last iteration of [`scan_runs`] from `p`, the end of the runs found by `end`.
#[inline(always)]
fn runs_by(s: &[u8], p: usize, start: &[bool; 256], end: impl FnOnce(usize) -> usize) -> usize {
    if !s.get(p).is_some_and(|&b| start[b as usize]) {
        return p;
    }
    let mut last = end(p) - 1;
    while !start[s[last] as usize] {
        last -= 1;
    }
    last
}

/// Bit `i` set when `chunk[i]` (of eight bytes) is outside `table`'s class.
#[inline(always)]
fn outside_mask(chunk: &[u8], table: &[bool; 256]) -> u32 {
    let mut outside = 0;
    for (i, &b) in chunk.iter().enumerate() {
        outside |= u32::from(!table[b as usize]) << i;
    }
    outside
}

/// One byte at `p` whose entry in `table` is true.
#[inline(always)]
pub(crate) fn byte_of(s: &[u8], p: usize, table: &[bool; 256]) -> Option<usize> {
    match s.get(p) {
        Some(&b) if table[b as usize] => Some(p + 1),
        _ => None,
    }
}

/// `literal` at `p`.
#[inline(always)]
pub(crate) fn lit(s: &[u8], p: usize, literal: &[u8]) -> Option<usize> {
    let end = p + literal.len();
    (s.get(p..end) == Some(literal)).then_some(end)
}

/// `literal` at `p`, ASCII case-insensitively (pest's `^"..."`).
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn lit_ci(s: &[u8], p: usize, literal: &[u8]) -> Option<usize> {
    let end = p + literal.len();
    s.get(p..end)?.eq_ignore_ascii_case(literal).then_some(end)
}

/// One byte in `lo..=hi` (an ASCII range: a byte of a multi-byte UTF-8 character never falls in it).
#[inline(always)]
pub(crate) fn byte_in(s: &[u8], p: usize, lo: u8, hi: u8) -> Option<usize> {
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
        // An ASCII byte is its character (most bytes a character range is tried on).
        b if b < 0x80 => return Some((char::from(b), 1)),
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
pub(crate) fn char_in(s: &[u8], p: usize, lo: char, hi: char) -> Option<usize> {
    let (c, len) = char_at(s, p)?;
    (lo <= c && c <= hi).then_some(p + len)
}

/// Any one character (pest's `ANY`).
#[inline]
#[allow(dead_code)]
pub(crate) fn any_char(s: &[u8], p: usize) -> Option<usize> {
    char_at(s, p).map(|(_, len)| p + len)
}

/// Whether the match `r` of rule number `rule` from the start of `s` is the whole of `s` (what
/// `recognize` and `recognize_quiet` answer); when it is not, where it stopped is noted for the
/// explainer ([`rejection_hint`]), off the path of an accepted input.
#[inline(always)]
fn whole(rule: usize, s: &[u8], r: Option<usize>) -> bool {
    if r == Some(s.len()) {
        return true;
    }
    note_rejection(rule, s, r);
    false
}

thread_local! {
    /// The last rejection [`whole`] saw on this thread: the rule plus one (0: none), the input's
    /// address and length, and where the rule's match ended (0 when it failed).
    static REJECTION: std::cell::Cell<[usize; 4]> = const { std::cell::Cell::new([0; 4]) };
}

#[cold]
#[inline(never)]
fn note_rejection(rule: usize, s: &[u8], r: Option<usize>) {
    let note = [rule + 1, s.as_ptr() as usize, s.len(), r.unwrap_or(0)];
    // (A thread being torn down has no note any more: the explainer then has no hint.)
    let _ = REJECTION.try_with(|cell| cell.set(note));
}

/// Where the recognizer's match of rule number `rule` on `s` ended short of the end of `s` (0 when it
/// failed, or when the last rejection the recognizer noted on this thread was not of `rule` on a slice
/// at the same address and of the same length). pest then attempts `EOI` at that position, so the
/// furthest position of its record of attempts is at least there: a *hint* for the explainer
/// ([`crate::engine::explainer::Diag::with_bound`]), which checks it. A note left by another input at
/// the same address and of the same length is a wrong hint: one before the furthest position changes
/// nothing, one past it costs a second run.
pub(crate) fn rejection_hint(rule: usize, s: &[u8]) -> usize {
    let [r, address, len, end] = REJECTION.try_with(|cell| cell.get()).unwrap_or([0; 4]);
    if [r, address, len] == [rule + 1, s.as_ptr() as usize, s.len()] {
        end
    } else {
        0
    }
}

include!(concat!(env!("OUT_DIR"), "/generated_recognizer.rs"));

#[cfg(test)]
mod tests {
    /// `scan` and `scan_shifted` end every run where a byte loop ends it, from every start: on every string of up to 12
    /// bytes made of a byte inside the class and one outside, and on runs of 13 to 20 bytes ended
    /// anywhere (or not at all).
    #[test]
    fn scan_ends_runs_where_a_byte_loop_does() {
        let mut table = [false; 256];
        table[b'a' as usize] = true;
        let naive = |s: &[u8], mut p: usize| {
            while p < s.len() && table[s[p] as usize] {
                p += 1;
            }
            p
        };
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for len in 0..=12u32 {
            for bits in 0..1u32 << len {
                inputs.push(
                    (0..len)
                        .map(|i| if bits >> i & 1 == 1 { b'a' } else { b'/' })
                        .collect(),
                );
            }
        }
        for len in 13..=20 {
            for stop in 0..=len {
                let mut s = vec![b'a'; len];
                if stop < len {
                    s[stop] = b'/';
                }
                inputs.push(s);
            }
        }
        let shifted = super::shifted(&table);
        for s in &inputs {
            for p in 0..=s.len() {
                assert_eq!(super::scan(s, p, &table), naive(s, p), "{s:?} from {p}");
                assert_eq!(
                    super::scan_shifted(s, p, &table, &shifted),
                    naive(s, p),
                    "scan_shifted: {s:?} from {p}"
                );
            }
        }
    }

    /// `byte_ahead` answers "yes" exactly when the first byte from `p` on outside the class is the `@`:
    /// for the class of `a` and `A`, on every string of 0 to 10 symbols of `a`, `@`, `/` and `A` (`@`
    /// plus one, where a borrow out of a zero byte would show), and on strings of 16 to 24 `a`s with a
    /// `@` and a `?` anywhere (or nowhere), from every start.
    #[test]
    fn byte_ahead_finds_the_byte_that_ends_the_class() {
        let mut within = [false; 256];
        within[usize::from(b'a')] = true;
        within[usize::from(b'A')] = true;
        let shifted = super::shifted(&within);
        let naive = |s: &[u8], p: usize| {
            (s[p..].iter())
                .find(|&&b| !within[usize::from(b)])
                .is_some_and(|&b| b == b'@')
        };
        let mut inputs = strings_of(b"a@/A", 0..=10);
        for len in 16..=24 {
            for at in 0..=len {
                for stop in 0..=len {
                    let mut s = vec![b'a'; len];
                    if at < len {
                        s[at] = b'@';
                    }
                    if stop < len && stop != at {
                        s[stop] = b'?';
                    }
                    inputs.push(s);
                }
            }
        }
        for s in &inputs {
            for p in 0..=s.len() {
                let found = super::Events::new().byte_ahead(s, p, b'@', &within, &shifted);
                assert_eq!(
                    found,
                    naive(s, p),
                    "{:?} from {p}",
                    String::from_utf8_lossy(s)
                );
            }
        }
        // The budget: after reading twice the input, the answer is "maybe" without reading.
        let s = b"aaaaaaaaaaaaaaaa";
        let mut events = super::Events::new();
        assert!(!events.byte_ahead(s, 0, b'@', &within, &shifted));
        assert!(!events.byte_ahead(s, 0, b'@', &within, &shifted));
        assert!(
            events.byte_ahead(s, 0, b'@', &within, &shifted),
            "budget spent"
        );
    }

    /// The tables of the `scan_triples` and `scan_runs` tests: the bytes `a` and `4`, and the triplets
    /// `%4` then the bytes of `third`.
    fn byte_and_triplet_tables(third: &[u8]) -> ([bool; 256], [[bool; 256]; 3]) {
        let mut table = [false; 256];
        table[b'a' as usize] = true;
        table[b'4' as usize] = true;
        let mut triple = [[false; 256]; 3];
        triple[0][b'%' as usize] = true;
        triple[1][b'4' as usize] = true;
        for &b in third {
            triple[2][b as usize] = true;
        }
        (table, triple)
    }

    /// Every string of up to 7 symbols of `a`, `%`, `4`, `/`.
    fn strings_of_a_percent_4_slash() -> Vec<Vec<u8>> {
        strings_of(b"a%4/", 0..=7)
    }

    /// Every string of the four `symbols` whose length is in `lengths`.
    fn strings_of(symbols: &[u8; 4], lengths: std::ops::RangeInclusive<u32>) -> Vec<Vec<u8>> {
        let mut strings = Vec::new();
        for len in lengths {
            for code in 0..4u32.pow(len) {
                strings.push(
                    (0..len)
                        .map(|i| symbols[(code / 4u32.pow(i) % 4) as usize])
                        .collect(),
                );
            }
        }
        strings
    }

    /// `scan_runs` stops at the start of the last iteration of `("/" ~ run)*`, where a run is the
    /// bytes `a` and triplets `%4a`: on every string of up to 7 symbols of `a`, `%`, `4`, `/`.
    #[test]
    fn scan_runs_stops_at_the_last_iteration() {
        let (table, triple) = byte_and_triplet_tables(b"a");
        let mut start = [false; 256];
        start[b'/' as usize] = true;
        let mut runs = table;
        runs[b'/' as usize] = true;
        // Iterations from `p`: each `/` then the run; the last one is where the run is not followed by
        // a `/`.
        let run_end = |s: &[u8], mut p: usize| loop {
            if p < s.len() && table[s[p] as usize] {
                p += 1;
            } else if p + 3 <= s.len() && s[p] == b'%' && s[p + 1] == b'4' && s[p + 2] == b'a' {
                p += 3;
            } else {
                return p;
            }
        };
        let naive = |s: &[u8], mut p: usize| {
            while p < s.len() && s[p] == b'/' {
                let end = run_end(s, p + 1);
                if end < s.len() && s[end] == b'/' {
                    p = end;
                } else {
                    break;
                }
            }
            p
        };
        for s in strings_of_a_percent_4_slash() {
            for p in 0..=s.len() {
                let found = super::scan_runs(&s, p, &start, &runs, Some(&triple));
                assert_eq!(found, naive(&s, p), "{s:?} from {p}");
            }
        }
        let dots = "/aa".repeat(100) + "/%";
        assert_eq!(
            super::scan_runs(dots.as_bytes(), 0, &start, &runs, None),
            300,
            "the last iteration is the \"/%\" at the end"
        );
    }

    /// `scan_triples` steps over the bytes of the table and over whole triplets `%HH`, and stops at the
    /// first byte that is neither: on every string of up to 7 symbols of `a`, `%`, `4`, `/`.
    #[test]
    fn scan_triples_ends_runs_where_a_byte_loop_does() {
        let (table, triple) = byte_and_triplet_tables(b"4a");
        let naive = |s: &[u8], mut p: usize| loop {
            if p < s.len() && table[s[p] as usize] {
                p += 1;
            } else if p + 3 <= s.len()
                && s[p] == b'%'
                && s[p + 1] == b'4'
                && matches!(s[p + 2], b'4' | b'a')
            {
                p += 3;
            } else {
                return p;
            }
        };
        for s in strings_of_a_percent_4_slash() {
            for p in 0..=s.len() {
                let found = super::scan_triples(&s, p, &table, &triple);
                assert_eq!(found, naive(&s, p), "{s:?} from {p}");
            }
        }
        let long = "%4a".repeat(100) + "%4";
        assert_eq!(
            super::scan_triples(long.as_bytes(), 0, &table, &triple),
            300
        );
    }
}
