//! Path algorithms of RFC 3986 section 5.2: [`merge`] (5.2.3) and [`remove_dot_segments`] (5.2.4),
//! shared by resolution ([`crate::resolve`]) and normalization ([`crate::normalize`], 6.2.2.3).
//!
//! Both are linear in the length of the path: 5.2.4 reads the input buffer with a cursor and writes the
//! output buffer at its end (either in place, over the same bytes, or appended to the target being
//! written from another string), so a reference of a million `../` segments costs a million steps, not a
//! million moves of the rest of the string.

use crate::value::uri::Uri;

/// What [`merge`] puts before the reference's path: `"/"` for a base with an authority and an empty path,
/// else the base path up to and including its last `/` (`""` when it has none). Never empty unless the
/// result is `""`; always ends in `/` otherwise.
pub(crate) fn merge_head<'b>(base: &'b Uri<'_>) -> &'b str {
    merge_head_of(base.authority().is_some(), base.path())
}

/// [`merge_head`] for a base given by whether it has an authority and its path.
#[inline(always)]
pub(crate) fn merge_head_of(has_authority: bool, path: &str) -> &str {
    // If the base URI has a defined authority component and an empty path, then return a string
    // consisting of "/" concatenated with the reference's path; otherwise,
    if has_authority && path.is_empty() {
        return "/";
    }
    // return a string consisting of the reference's path component appended to all but the last segment
    // of the base URI's path (i.e., excluding any characters after the right-most "/" in the base URI
    // path, or excluding the entire base URI path if it does not contain any "/" characters).
    match last_slash(path.as_bytes()) {
        Some(i) => &path[..=i],
        None => "",
    }
}

/// Merges a relative-path reference's path with the path of `base` (RFC 3986 section [5.2.3]).
///
/// [5.2.3]: https://datatracker.ietf.org/doc/html/rfc3986#section-5.2.3
///
/// If `base` has an authority and an empty path, the result is `"/"` followed by `reference_path`;
/// otherwise it is `base`'s path up to and including its right-most `/` (nothing if it has none), followed
/// by `reference_path`. Dot-segments are kept: [`remove_dot_segments`] is the next step of 5.2.2.
///
/// ```
/// use rfc3986::{resolve::merge, Uri};
/// assert_eq!(merge(&Uri::parse("http://a/b/c/d;p?q")?, "../g"), "/b/c/../g");
/// assert_eq!(merge(&Uri::parse("http://a")?, "g"), "/g");
/// assert_eq!(merge(&Uri::parse("urn:isbn")?, "g"), "g");
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub fn merge(base: &Uri<'_>, reference_path: &str) -> String {
    let head = merge_head(base);
    let mut path = String::with_capacity(head.len() + reference_path.len());
    path.push_str(head);
    path.push_str(reference_path);
    path
}

/// Removes the complete path segments `.` and `..` from `path` (RFC 3986 section [5.2.4]).
///
/// [5.2.4]: https://datatracker.ietf.org/doc/html/rfc3986#section-5.2.4
///
/// The result is the output buffer of the algorithm of 5.2.4: a `..` removes the segment before it, but
/// never goes above the root (`/../g` gives `/g`); leading `./` and `../` of a relative path are dropped.
/// Only complete segments count: `g.`, `..g` and `%2E` stay as they are. The path is not otherwise
/// checked; any string is accepted.
///
/// ```
/// use rfc3986::resolve::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// assert_eq!(remove_dot_segments("/a/%2E/b"), "/a/%2E/b");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = path.to_owned();
    remove_dot_segments_at(&mut out, 0);
    out
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of the word `x` that is zero, and no other bit (SWAR: eight bytes tested at
/// once; no carry crosses a byte, as the low seven bits plus 0x7F stay below 0x100).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    !(((x & !HIGH) + !HIGH) | x) & HIGH
}

/// The high bit of each byte of the word `x` that equals `b`, and no other bit.
#[inline(always)]
fn bytes_equal(x: u64, b: u8) -> u64 {
    zero_bytes(x ^ (ONES * u64::from(b)))
}

/// A word whose lowest set bit is the high bit of the first byte of the word `x` that is a `.` right
/// after a `/` (the byte before byte 0 being `before`, in the low byte), zero when there is none: both
/// tests in one (a byte is zero in the `or` of the two differences only when both are), then the first
/// zero byte found by the borrow of a subtraction (bits above it may be set by that borrow).
#[inline(always)]
fn first_dot_after_slash(x: u64, before: u64) -> u64 {
    let v = (x ^ (ONES * u64::from(b'.'))) | (((x << 8) | before) ^ (ONES * u64::from(b'/')));
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The eight bytes of `chunk` as a little-endian word (byte 0 in the low bits).
#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(chunk);
    u64::from_le_bytes(bytes)
}

/// The position of the last `/` in `path`, eight bytes at a time from the end (a base path's last
/// segment is often longer than a byte loop would like, and too short for `rfind`'s setup to pay).
#[inline(always)]
fn last_slash(path: &[u8]) -> Option<usize> {
    let mut chunks = path.rchunks_exact(8);
    let mut end = path.len();
    for chunk in &mut chunks {
        let slashes = bytes_equal(word(chunk), b'/');
        if slashes != 0 {
            return Some(end - 1 - (slashes.leading_zeros() / 8) as usize);
        }
        end -= 8;
    }
    match path.get(..8) {
        // The first `end` bytes are those of the first word; the others have no `/`.
        Some(first) if end > 0 => {
            let slashes = bytes_equal(word(first), b'/');
            (slashes != 0).then(|| 7 - (slashes.leading_zeros() / 8) as usize)
        }
        _ => chunks.remainder().iter().rposition(|&b| b == b'/'),
    }
}

/// The position of the first `.` of `path` that begins a segment (right after a `/`, or at 0 when
/// `at_segment_start`): the only places a dot-segment can begin. `None` when there is none, so no
/// dot-segment either.
///
/// Most paths have no dot-segment and this search is all that resolution and normalization pay for
/// them, so it reads many bytes a step: a path of 17 bytes or more by memchr's SSE2 searcher for the pair
/// `/.` (on x86-64), a shorter one (or any, elsewhere) sixteen, then eight bytes at a time (SWAR: a
/// word's bytes compared at once), its last bytes as one word.
pub(crate) fn first_dot_at_segment_start(path: &[u8], at_segment_start: bool) -> Option<usize> {
    first_dot_at_segment_start_inline(path, at_segment_start)
}

/// [`first_dot_at_segment_start`], inlined where resolution calls it on every reference.
#[inline(always)]
pub(crate) fn first_dot_at_segment_start_inline(
    path: &[u8],
    at_segment_start: bool,
) -> Option<usize> {
    if at_segment_start && path.first() == Some(&b'.') {
        return Some(0);
    }
    if let Some(slash_dot) = find_slash_dot(path) {
        return slash_dot.map(|at| at + 1);
    }
    // The byte before the next word: a "/" stands for the start of a segment.
    let start = if at_segment_start { u64::from(b'/') } else { 0 };
    let mut before = start;
    let mut at = 0;
    // Sixteen bytes a turn (two words, one test), then eight.
    let mut pairs = path.chunks_exact(16);
    for pair in &mut pairs {
        let (x, y) = (word(&pair[..8]), word(&pair[8..]));
        let (in_x, in_y) = (
            first_dot_after_slash(x, before),
            first_dot_after_slash(y, x >> 56),
        );
        if in_x | in_y != 0 {
            let bit = if in_x != 0 {
                in_x.trailing_zeros()
            } else {
                64 + in_y.trailing_zeros()
            };
            return Some(at + (bit / 8) as usize);
        }
        before = y >> 56;
        at += 16;
    }
    if let Some(chunk) = pairs.remainder().get(..8) {
        let in_x = first_dot_after_slash(word(chunk), before);
        if in_x != 0 {
            return Some(at + (in_x.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let len = path.len();
    if at == len {
        return None;
    }
    if at > 0 {
        // The last eight bytes, whose first ones were read above (with no such `.` among them).
        let before = if len > 8 {
            u64::from(path[len - 9])
        } else {
            start
        };
        let in_x = first_dot_after_slash(word(&path[len - 8..]), before);
        return (in_x != 0).then(|| len - 8 + (in_x.trailing_zeros() / 8) as usize);
    }
    let mut previous_is_slash = at_segment_start;
    for (i, &b) in path.iter().enumerate() {
        if previous_is_slash && b == b'.' {
            return Some(i);
        }
        previous_is_slash = b == b'/';
    }
    None
}

/// The first `/.` of `path`, by memchr's SSE2 packed-pair searcher (sixteen bytes a step), when `path`
/// is long enough for it (`None` otherwise).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn find_slash_dot(path: &[u8]) -> Option<Option<usize>> {
    use memchr::arch::{all::packedpair::Pair, x86_64::sse2::packedpair::Finder};
    const NEEDLE: &[u8] = b"/.";
    let finder = Finder::with_pair(NEEDLE, Pair::with_indices(NEEDLE, 0, 1)?)?;
    (path.len() >= finder.min_haystack_len()).then(|| finder.find(path, NEEDLE))
}

/// Without SSE2, [`first_dot_at_segment_start`] reads words.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn find_slash_dot(_path: &[u8]) -> Option<Option<usize>> {
    None
}

/// Whether [`remove_dot_segments`] could change `path`: it has a `.` that begins a segment (a conservative
/// answer: `/.a` has one and no dot-segment).
pub(crate) fn may_have_dot_segment(path: &str) -> bool {
    first_dot_at_segment_start(path.as_bytes(), true).is_some()
}

/// Removes the dot-segments of the path written at `out[start..]` (RFC 3986 5.2.4), in place: the result
/// is `out[..start]` followed by `remove_dot_segments(&out[start..])`.
///
/// The buffers of 5.2.4 share the bytes ([`InPlace`]); the segments before the first `.` at a segment
/// start (see [`first_dot_at_segment_start`]) are moved by rule E unchanged, so they stay where they are
/// and the loop ([`run_5_2_4`]) begins there; a path without one is left as it is. No allocation.
pub(crate) fn remove_dot_segments_at(out: &mut String, start: usize) {
    let Some(first) = first_dot_at_segment_start(&out.as_bytes()[start..], true) else {
        return;
    };
    let bytes = std::mem::take(out).into_bytes();
    // After rule E moved the segments before `first`, the input buffer begins with the "/" before that "."
    // (or is the whole path, when `first` is 0).
    let slash = first > 0;
    let mut buffers = InPlace {
        r: start + first,
        w: start + first - usize::from(slash),
        start,
        bytes,
    };
    run_5_2_4(&mut buffers, slash);
    let mut bytes = buffers.bytes;
    bytes.truncate(buffers.w);
    // Only ASCII bytes were dropped or written, at segment boundaries: still UTF-8.
    *out = String::from_utf8(bytes).unwrap_or_default();
}

/// Completes the target path begun at `out[start..]` and writes what follows it (RFC 3986 5.2.2: `T.path =
/// remove_dot_segments(merge(Base.path, R.path))`, or `remove_dot_segments(R.path)` for a path used
/// alone): `out[start..]` holds the merge head (what [`merge_head_of`] returns, empty for a path used
/// alone), `reference` is R as written from its path on, `path_len` the length of R.path in it. Appends
/// R.path, removes the dot-segments of the merged path, then appends the rest of `reference` (R's
/// `["?" query] ["#" fragment]`); returns the end of the target path in `out`.
///
/// The merged path is not written first when the head has no dot-segment (a base path is seldom
/// unnormalized): R.path is copied up to its first `.` at a segment start, and the loop of 5.2.4 reads
/// the rest from `reference` ([`Appending`]). A path without such a `.` (most of them) is copied with the
/// rest of `reference`, in one push. No allocation beyond `out`'s growth.
pub(crate) fn push_merged_without_dot_segments(
    out: &mut String,
    start: usize,
    reference: &str,
    path_len: usize,
) -> usize {
    let (path, after) = reference.split_at(path_len);
    if has_dot_segment(&out.as_bytes()[start..]) {
        // A base path with a dot-segment (a base need not be normalized, 5.2.1): the whole merged path.
        out.push_str(path);
        remove_dot_segments_at(out, start);
        let end = out.len();
        out.push_str(after);
        return end;
    }
    // The head is empty or ends with "/", so `path` begins a segment, and the segments of the head are
    // moved by rule E as they are.
    let (slash, rest) = match first_dot_at_segment_start_inline(path.as_bytes(), true) {
        None => {
            out.push_str(reference);
            return out.len() - after.len();
        }
        // The input buffer: the last "/" of the head, if any, and `path`.
        Some(0) => {
            let slash = out.len() > start;
            if slash {
                out.pop();
            }
            (slash, path)
        }
        // The input buffer: the "/" before that "." and the rest of `path`.
        Some(dot) => {
            out.push_str(&path[..dot - 1]);
            (true, &path[dot..])
        }
    };
    run_5_2_4(&mut Appending { out, start, rest }, slash);
    let end = out.len();
    out.push_str(after);
    end
}

/// Whether `path`, a path whose segments all end with "/" (a [`merge_head_of`]), has a complete segment
/// `.` or `..`: a `.` at a segment start followed by `/` or `./`.
#[inline(always)]
fn has_dot_segment(path: &[u8]) -> bool {
    let mut from = 0;
    while let Some(dot) = first_dot_at_segment_start_inline(&path[from..], from == 0) {
        let at = from + dot;
        if matches!(path[at + 1..], [b'/', ..] | [b'.', b'/', ..]) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The two buffers of RFC 3986 5.2.4 as [`run_5_2_4`] uses them: the input buffer (after a `"/"` that the
/// loop keeps as a flag) and the output buffer, which ends in the path written so far.
trait Buffers5_2_4 {
    /// The input buffer (without the `"/"` the loop's flag stands for).
    fn input(&self) -> &[u8];
    /// Drops the first `n` bytes of the input buffer.
    fn skip(&mut self, n: usize);
    /// Moves the first `n` bytes of the input buffer to the end of the output buffer, after a `"/"` when
    /// `slash`.
    fn move_out(&mut self, slash: bool, n: usize);
    /// Removes the last segment and its preceding `"/"` (if any) from the output buffer.
    fn pop(&mut self);
}

/// The buffers of 5.2.4 sharing the bytes of one path: `bytes[start..w]` is the output buffer and
/// `bytes[r..]` the input buffer, with `w + 1 <= r` while the loop's flag stands for a `"/"` before the
/// input (`w <= r` otherwise), so a move never overwrites what is still to be read.
struct InPlace {
    bytes: Vec<u8>,
    start: usize,
    r: usize,
    w: usize,
}

impl Buffers5_2_4 for InPlace {
    fn input(&self) -> &[u8] {
        &self.bytes[self.r..]
    }

    fn skip(&mut self, n: usize) {
        self.r += n;
    }

    fn move_out(&mut self, slash: bool, n: usize) {
        if slash {
            self.bytes[self.w] = b'/';
            self.w += 1;
        }
        self.bytes.copy_within(self.r..self.r + n, self.w);
        self.w += n;
        self.r += n;
    }

    fn pop(&mut self) {
        self.w = last_slash(&self.bytes[self.start..self.w]).map_or(self.start, |i| self.start + i);
    }
}

/// The output buffer `out[start..]` (appended to with `push_str`, cut back with `truncate`) and the input
/// buffer `rest`, another string: segments are cut at `/` only, so every piece moved is a `str` and
/// nothing is checked for UTF-8.
struct Appending<'o, 'r> {
    out: &'o mut String,
    start: usize,
    rest: &'r str,
}

impl Buffers5_2_4 for Appending<'_, '_> {
    fn input(&self) -> &[u8] {
        self.rest.as_bytes()
    }

    fn skip(&mut self, n: usize) {
        self.rest = &self.rest[n..];
    }

    fn move_out(&mut self, slash: bool, n: usize) {
        if slash {
            self.out.push('/');
        }
        self.out.push_str(&self.rest[..n]);
        self.rest = &self.rest[n..];
    }

    fn pop(&mut self) {
        let end =
            last_slash(&self.out.as_bytes()[self.start..]).map_or(self.start, |i| self.start + i);
        self.out.truncate(end);
    }
}

/// The loop of RFC 3986 5.2.4 on the input buffer `"/"` (when `slash`) followed by `buffers.input()`,
/// writing to the output buffer, until the input buffer is empty. The one transcription of its rules,
/// for both [`remove_dot_segments_at`] and [`push_merged_without_dot_segments`].
///
/// Linear in the length of the path: each input byte is read once by a rule, and rule C looks back over
/// the last output segment, which each output byte undergoes at most once.
fn run_5_2_4(buffers: &mut impl Buffers5_2_4, mut slash: bool) {
    loop {
        let input = buffers.input();
        if slash {
            match input {
                // B.  if the input buffer begins with a prefix of "/./" or "/.", where "." is a complete
                //     path segment, then replace that prefix with "/" in the input buffer; otherwise,
                [b'.', b'/', ..] => buffers.skip(2),
                [b'.'] => buffers.skip(1),
                // C.  if the input buffer begins with a prefix of "/../" or "/..", where ".." is a
                //     complete path segment, then replace that prefix with "/" in the input buffer and
                //     remove the last segment and its preceding "/" (if any) from the output buffer;
                //     otherwise,
                [b'.', b'.', b'/', ..] => {
                    buffers.skip(3);
                    buffers.pop();
                }
                [b'.', b'.'] => {
                    buffers.skip(2);
                    buffers.pop();
                }
                // E.  move the first path segment in the input buffer to the end of the output buffer,
                //     including the initial "/" character (if any) and any subsequent characters up to,
                //     but not including, the next "/" character or the end of the input buffer.
                //
                //     The segments after this one up to the next that begins with "." go to the output
                //     by rule E too, one by one: they are moved at once, up to the "/" before that ".",
                //     which stays the flag.
                _ => match first_dot_at_segment_start(input, false) {
                    Some(dot) => {
                        buffers.move_out(true, dot - 1);
                        buffers.skip(1);
                    }
                    None => return buffers.move_out(true, input.len()),
                },
            }
        } else {
            match input {
                // A.  If the input buffer begins with a prefix of "../" or "./", then remove that prefix
                //     from the input buffer; otherwise,
                [b'.', b'.', b'/', ..] => buffers.skip(3),
                [b'.', b'/', ..] => buffers.skip(2),
                // D.  if the input buffer consists only of "." or "..", then remove that from the input
                //     buffer; otherwise,
                [b'.'] | [b'.', b'.'] | [] => return,
                // The input buffer begins with "/": rules B, C and E above.
                [b'/', ..] => {
                    buffers.skip(1);
                    slash = true;
                }
                // E.  as above, for a first segment without "/" before it.
                _ => match first_dot_at_segment_start(input, false) {
                    Some(dot) => {
                        buffers.move_out(false, dot - 1);
                        buffers.skip(1);
                        slash = true;
                    }
                    None => return buffers.move_out(false, input.len()),
                },
            }
        }
    }
}
