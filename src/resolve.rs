//! Reference resolution (RFC 3986 section 5): a [`UriRef`] and a base [`Uri`] give a target [`Uri`].
//!
//! [`UriRef::resolve_against`] is the strict algorithm of section 5.2.2; [`Resolver`] selects the
//! backward-compatible variant and what to do with a target that cannot be written as a URI without a
//! change. [`merge`] (5.2.3) and [`remove_dot_segments`] (5.2.4) are public for their own sake.
//!
//! Every target is written into one `String` (5.3 recomposition, with the path merged and its dot-segments
//! removed in the same pass), the only allocation. Its components are known from where they were written
//! (copies of components of the base and the reference, which the grammar accepted, and a path built of
//! their segments), so the grammar is not run again; debug builds (and so the test suite) check every
//! target against the rule `URI`, and the fuzz target `resolve` compares them in release builds.

use crate::builder::{Parts, Slot};
use crate::error::ParseError;
use crate::grammar::Rule;
pub use crate::relative::make_relative;
use crate::uri::{Uri, UriRef};

/// Why a reference could not be resolved.
///
/// Each variant names a minimal input that triggers it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The target has no authority and its path begins with `//`, which would be read back as an
    /// authority (RFC 3986 section 3.3: "If a URI does not contain an authority component, then the path
    /// cannot begin with two slash characters"). Returned only by a [`Resolver`] with
    /// [`dot_prefix(false)`](Resolver::dot_prefix); the default writes `/.` before such a path instead.
    /// Base `f:/a`, reference `.//g`: the 5.2.2 target path is `//g`.
    #[error("the target has no authority and its path {path:?} begins with \"//\" (RFC 3986 3.3)")]
    AmbiguousPath {
        /// The target's path as computed by 5.2.2 (`//g` in the example).
        path: String,
    },
    /// The target cannot be made: it would be longer than 4 GiB - 2 bytes, the most a value can hold
    /// (the error's kind is [`LimitReached`](crate::ParseErrorKind::LimitReached)).
    #[error("the resolved target is not a URI this crate can hold: {0}")]
    Target(ParseError),
}

/// Reference resolution with options (RFC 3986 section 5.2).
///
/// [`Resolver::new`] (also the [`Default`]) is what [`UriRef::resolve_against`] does: strict 5.2.2, and a
/// `/.` written before a path that would otherwise be read as an authority.
///
/// ```
/// use rfc3986::{resolve::Resolver, Uri, UriRef};
/// let base = Uri::parse("http://a/b/c/d;p?q")?;
/// let r = UriRef::parse("http:g")?;
/// assert_eq!(Resolver::new().resolve(&base, &r)?.to_string(), "http:g");
/// assert_eq!(Resolver::new().strict(false).resolve(&base, &r)?.to_string(), "http://a/b/c/g");
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Resolver {
    strict: bool,
    dot_prefix: bool,
}

impl Default for Resolver {
    fn default() -> Self {
        Resolver::new()
    }
}

impl Resolver {
    /// Strict resolution with the `/.` prefix for ambiguous paths (see [`dot_prefix`](Self::dot_prefix)).
    pub fn new() -> Resolver {
        Resolver {
            strict: true,
            dot_prefix: true,
        }
    }

    /// `true` (the default): a reference with a scheme is always taken as it is (5.2.2, strict).
    /// `false`: the backward-compatible rule of 5.2.2 and 5.4.2 ("A non-strict parser may ignore a scheme
    /// in the reference if it is identical to the base URI's scheme"), so `http:g` against `http://a/b/c/d`
    /// gives `http://a/b/c/g`. Schemes are compared ignoring ASCII case, since a scheme is
    /// case-insensitive (3.1); the target then takes the base's scheme as written.
    pub fn strict(self, strict: bool) -> Resolver {
        Resolver { strict, ..self }
    }

    /// What to do when the target has no authority and its path begins with `//` (base `f:/a`, reference
    /// `.//g` or `/.//g`; or, strict, the reference `f:/.//g` itself). Recomposed as 5.3 says, such a target
    /// (`f://g`) would be read back with an authority `g` and an empty path: a different URI.
    ///
    /// `true` (the default): write `/.` before the path (`f:/.//g`). That URI parses to the path `/.//g`,
    /// whose dot-segments removed give back `//g`, so resolving it again against any base (or normalizing
    /// it) gives the same text: the form is stable. WHATWG URL writes the same prefix in this case.
    /// `false`: return [`ResolveError::AmbiguousPath`].
    pub fn dot_prefix(self, dot_prefix: bool) -> Resolver {
        Resolver { dot_prefix, ..self }
    }

    /// Transforms `reference` into its target URI against `base` (RFC 3986 [5.2.2]), recomposed as in
    /// [5.3].
    ///
    /// The base is used as given: it is not normalized (5.2.1 makes that optional), and its fragment, if it
    /// has one, is ignored (5.1 asks for a base without fragment; 5.2.2 never reads `Base.fragment`, so a
    /// base with a fragment gives the same targets as without it). A `%2E` is not a dot-segment (5.2.4
    /// removes only the complete segments `.` and `..`), so it stays as written.
    ///
    /// # Errors
    /// [`ResolveError::AmbiguousPath`] with [`dot_prefix(false)`](Self::dot_prefix), when the target has no
    /// authority and a path that begins with `//`. [`ResolveError::Target`] when the target would be over
    /// 4 GiB - 2 bytes long.
    ///
    /// [5.2.2]: https://datatracker.ietf.org/doc/html/rfc3986#section-5.2.2
    /// [5.3]: https://datatracker.ietf.org/doc/html/rfc3986#section-5.3
    pub fn resolve(
        &self,
        base: &Uri<'_>,
        reference: &UriRef<'_>,
    ) -> Result<Uri<'static>, ResolveError> {
        let b = base.as_str();
        let b_parts = base.as_uri_ref().parts();
        let r = reference.as_str();
        let r_parts = reference.parts();
        let mut t = String::with_capacity(b.len() + r.len() + 2);

        // -- The URI reference is parsed into the five URI components
        // (R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);
        // (here, as the byte ranges the parser recorded).
        let span = |slot: Slot| slot.get().unwrap_or((0, 0));
        let (r_path_start, r_path_end) = span(r_parts.path);
        let (b_path_start, b_path_end) = span(b_parts.path);
        let r_path = &r[r_path_start..r_path_end];
        let mut r_scheme = reference.scheme();

        // if ((not strict) and (R.scheme == Base.scheme)) then
        //    undefine(R.scheme);
        if !self.strict && r_scheme.is_some_and(|s| s.eq_ignore_ascii_case(base.scheme())) {
            r_scheme = None;
        }

        // The components are written in the order of 5.3 as soon as they are known (T.scheme, set last in
        // the pseudo-code independently of the rest, comes first), each run of them that is contiguous in
        // the base or the reference copied at once.
        let scheme_end;
        // Where the target's authority is copied from, and the offset of `t` it is copied to.
        let authority: Option<(&Parts, usize)>;
        let path_start;
        // The end of T.path, when the base's query was copied after it (else the end of `t`), and that
        // query's span.
        let mut path_end = None;
        let mut query = None;
        // if defined(R.scheme) then
        //    T.scheme    = R.scheme;
        //    T.authority = R.authority;
        //    T.path      = remove_dot_segments(R.path);
        //    T.query     = R.query;
        if r_scheme.is_some() {
            // R as written up to its path: scheme ":" ["//" authority].
            t.push_str(&r[..r_path_start]);
            scheme_end = span(r_parts.scheme).1;
            authority = r_parts.authority.get().map(|(start, _)| (r_parts, start));
            path_start = t.len();
            t.push_str(r_path);
            remove_dot_segments_at(&mut t, path_start);
        } else {
            // T.scheme = Base.scheme;
            scheme_end = span(b_parts.scheme).1;
            // if defined(R.authority) then
            //    T.authority = R.authority;
            //    T.path      = remove_dot_segments(R.path);
            //    T.query     = R.query;
            if let Some((r_authority_start, _)) = r_parts.authority.get() {
                t.push_str(&b[..=scheme_end]);
                let at = t.len() + 2;
                // "//" authority, as written in R.
                t.push_str(&r[r_authority_start - 2..r_path_start]);
                authority = Some((r_parts, at));
                path_start = t.len();
                t.push_str(r_path);
                remove_dot_segments_at(&mut t, path_start);
            } else {
                // T.authority = Base.authority;
                authority = b_parts.authority.get().map(|(start, _)| (b_parts, start));
                // The base as written up to its path: scheme ":" ["//" authority].
                t.push_str(&b[..b_path_start]);
                path_start = t.len();
                // if (R.path == "") then
                //    T.path = Base.path;
                //    if defined(R.query) then T.query = R.query; else T.query = Base.query;
                if r_path.is_empty() {
                    // Base.path ["?" Base.query], as written.
                    match (r_parts.query.is_some(), b_parts.query.get()) {
                        (false, Some((q_start, q_end))) => {
                            t.push_str(&b[b_path_start..q_end]);
                            let end = path_start + (b_path_end - b_path_start);
                            path_end = Some(end);
                            query = Some((end + 1, end + 1 + (q_end - q_start)));
                        }
                        _ => t.push_str(&b[b_path_start..b_path_end]),
                    }
                } else {
                    // if (R.path starts-with "/") then
                    //    T.path = remove_dot_segments(R.path);
                    // else
                    //    T.path = merge(Base.path, R.path);
                    //    T.path = remove_dot_segments(T.path);
                    if !r_path.starts_with('/') {
                        t.push_str(merge_head(base));
                    }
                    t.push_str(r_path);
                    remove_dot_segments_at(&mut t, path_start);
                    // T.query = R.query;
                }
            }
        }
        let mut path_end = path_end.unwrap_or(t.len());

        // RFC 3986 3.3: without an authority the path cannot begin with "//".
        if authority.is_none() && t[path_start..].starts_with("//") {
            if !self.dot_prefix {
                return Err(ResolveError::AmbiguousPath {
                    path: t[path_start..path_end].to_owned(),
                });
            }
            t.insert_str(path_start, "/.");
            path_end += 2;
            query = query.map(|(s, e)| (s + 2, e + 2));
        }

        // T.query = R.query (when not Base.query, above); T.fragment = R.fragment: R as written after its
        // path, ["?" query] ["#" fragment].
        let at = t.len();
        t.push_str(&r[r_path_end..]);
        query = query.or(r_parts.query.moved(r_path_end, at).get());
        let fragment = r_parts.fragment.moved(r_path_end, at).get();

        if t.len() > crate::builder::MAX_LEN {
            return Err(ResolveError::Target(ParseError::too_long(Rule::URI, &t)));
        }
        // The components of T are known from where they were written (the grammar is not run again).
        let parts = Parts::resolved(
            scheme_end,
            authority,
            (path_start, path_end),
            t.as_bytes().get(path_start) == Some(&b'/'),
            query,
            fragment,
        );
        Ok(Uri::from_written(t, parts))
    }
}

impl UriRef<'_> {
    /// Resolves this reference against `base` (RFC 3986 section 5.2, strict): the target URI, owned.
    ///
    /// Same as [`Resolver::new().resolve(base, self)`](Resolver::resolve); see there for the base's
    /// fragment, `%2E` and the `/.` written before a path that would otherwise read as an authority.
    ///
    /// ```
    /// use rfc3986::{Uri, UriRef};
    /// let base = Uri::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(UriRef::parse("../g")?.resolve_against(&base)?.to_string(), "http://a/b/g");
    /// assert_eq!(UriRef::parse("?y")?.resolve_against(&base)?.to_string(), "http://a/b/c/d;p?y");
    /// // The ambiguous case: a path "//g" without authority is written as "/.//g".
    /// let base = Uri::parse("f:/a")?;
    /// assert_eq!(UriRef::parse(".//g")?.resolve_against(&base)?.to_string(), "f:/.//g");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// None in practice: the default [`Resolver`] returns [`ResolveError::AmbiguousPath`] only when asked
    /// to, and [`ResolveError::Target`] only for a target over 4 GiB - 2 bytes.
    pub fn resolve_against(&self, base: &Uri<'_>) -> Result<Uri<'static>, ResolveError> {
        Resolver::new().resolve(base, self)
    }
}

/// What [`merge`] puts before the reference's path: `"/"` for a base with an authority and an empty path,
/// else the base path up to and including its last `/` (`""` when it has none). Never empty unless the
/// result is `""`; always ends in `/` otherwise.
fn merge_head<'b>(base: &'b Uri<'_>) -> &'b str {
    let path = base.path();
    // If the base URI has a defined authority component and an empty path, then return a string
    // consisting of "/" concatenated with the reference's path; otherwise,
    if base.authority().is_some() && path.is_empty() {
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

/// The high bit of each byte of the word `x` that equals `b`, and no other bit (SWAR: eight bytes
/// compared at once; no carry crosses a byte, as the low seven bits plus 0x7F stay below 0x100).
#[inline(always)]
fn bytes_equal(x: u64, b: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let t = x ^ (ONES * u64::from(b));
    !(((t & !HIGH) + !HIGH) | t) & HIGH
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
    chunks.remainder().iter().rposition(|&b| b == b'/')
}

/// The position of the first `.` of `path` that begins a segment (right after a `/`, or at 0 when
/// `at_segment_start`): the only places a dot-segment can begin. `None` when there is none, so no
/// dot-segment either.
///
/// Eight bytes at a time (SWAR: a word's bytes compared at once), because most paths have no dot-segment
/// and this test is all that resolution and normalization pay for them.
fn first_dot_at_segment_start(path: &[u8], at_segment_start: bool) -> Option<usize> {
    let mut after_slash = if at_segment_start { 0x80 } else { 0 };
    let mut chunks = path.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let x = word(chunk);
        let slashes = bytes_equal(x, b'/');
        let starts = bytes_equal(x, b'.') & ((slashes << 8) | after_slash);
        if starts != 0 {
            return Some(at + (starts.trailing_zeros() / 8) as usize);
        }
        after_slash = slashes >> 56;
        at += 8;
    }
    let mut previous_is_slash = after_slash != 0;
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if previous_is_slash && b == b'.' {
            return Some(at + i);
        }
        previous_is_slash = b == b'/';
    }
    None
}

/// Removes the dot-segments of the path written at `out[start..]` (RFC 3986 5.2.4), in place: the result
/// is `out[..start]` followed by `remove_dot_segments(&out[start..])`.
///
/// The buffers of 5.2.4 share the string: `out[start..r]` is the output buffer and `out[r..]` the input
/// buffer, and each rule that drops characters removes them where they are. The segments before the first
/// `.` at a segment start (see [`first_dot_at_segment_start`]) are moved by rule E unchanged, so the loop
/// begins there; a path without one is left as it is.
pub(crate) fn remove_dot_segments_at(out: &mut String, start: usize) {
    let Some(first) = first_dot_at_segment_start(&out.as_bytes()[start..], true) else {
        return;
    };
    // Before `first` the input began with "/" since rule E moved the first segment (or `first` is the
    // start of the path).
    let mut r = if first == 0 { start } else { start + first - 1 };
    loop {
        let input = &out.as_bytes()[r..];
        match input {
            [] => break,
            // A.  If the input buffer begins with a prefix of "../" or "./", then remove that prefix from
            //     the input buffer; otherwise,
            [b'.', b'.', b'/', ..] => {
                out.drain(r..r + 3);
            }
            [b'.', b'/', ..] => {
                out.drain(r..r + 2);
            }
            // B.  if the input buffer begins with a prefix of "/./" or "/.", where "." is a complete path
            //     segment, then replace that prefix with "/" in the input buffer; otherwise,
            [b'/', b'.', b'/', ..] => {
                out.drain(r..r + 2);
            }
            [b'/', b'.'] => {
                out.drain(r + 1..r + 2);
            }
            // C.  if the input buffer begins with a prefix of "/../" or "/..", where ".." is a complete
            //     path segment, then replace that prefix with "/" in the input buffer and remove the last
            //     segment and its preceding "/" (if any) from the output buffer; otherwise,
            [b'/', b'.', b'.', rest @ ..] if rest.first().is_none_or(|&b| b == b'/') => {
                let last_segment = out.as_bytes()[start..r]
                    .iter()
                    .rposition(|&b| b == b'/')
                    .map_or(start, |i| start + i);
                if rest.is_empty() {
                    out.replace_range(last_segment..r + 3, "/");
                } else {
                    out.drain(last_segment..r + 3);
                }
                r = last_segment;
            }
            // D.  if the input buffer consists only of "." or "..", then remove that from the input
            //     buffer; otherwise,
            [b'.'] | [b'.', b'.'] => {
                out.truncate(r);
                break;
            }
            // E.  move the first path segment in the input buffer to the end of the output buffer,
            //     including the initial "/" character (if any) and any subsequent characters up to, but
            //     not including, the next "/" character or the end of the input buffer.
            // And every segment after it up to the next "." that begins one (a "/" before it).
            [first, ..] => {
                let segment = r + usize::from(*first == b'/');
                match first_dot_at_segment_start(&out.as_bytes()[segment..], false) {
                    Some(dot) => r = segment + dot - 1,
                    None => break,
                }
            }
        }
    }
}
