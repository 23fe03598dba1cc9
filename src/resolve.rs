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

use crate::builder::{Parts, WrittenAuthority};
use crate::error::ParseError;
use crate::grammar::Rule;
use crate::normalize::push_pct_normalized;
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
/// use rfc3986::{Resolver, Uri, UriRef};
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
        let mut t = String::with_capacity(base.as_str().len() + reference.as_str().len() + 2);

        // -- The URI reference is parsed into the five URI components
        // (R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);
        let mut r_scheme = reference.scheme();
        let r_authority = reference.authority();
        let r_path = reference.path();
        let r_query = reference.query();

        // if ((not strict) and (R.scheme == Base.scheme)) then
        //    undefine(R.scheme);
        if !self.strict && r_scheme.is_some_and(|s| s.eq_ignore_ascii_case(base.scheme())) {
            r_scheme = None;
        }

        // The components are written in the order of 5.3 as soon as they are known, so T.scheme (set last
        // in the pseudo-code, independently of the rest) comes first.
        let t_authority;
        // Where the authority written is copied from, for the components of the target.
        let authority_source;
        let scheme_end;
        let path_start;
        let t_query;
        // if defined(R.scheme) then
        if let Some(scheme) = r_scheme {
            // T.scheme    = R.scheme;
            t.push_str(scheme);
            scheme_end = t.len();
            t.push(':');
            // T.authority = R.authority;
            t_authority = r_authority;
            authority_source = reference.parts();
            push_authority(&mut t, t_authority);
            // T.path      = remove_dot_segments(R.path);
            path_start = t.len();
            remove_dot_segments_into(&mut t, "", r_path, false);
            // T.query     = R.query;
            t_query = r_query;
        } else {
            // T.scheme = Base.scheme;
            t.push_str(base.scheme());
            scheme_end = t.len();
            t.push(':');
            // if defined(R.authority) then
            if let Some(authority) = r_authority {
                // T.authority = R.authority;
                t_authority = Some(authority);
                authority_source = reference.parts();
                push_authority(&mut t, t_authority);
                // T.path      = remove_dot_segments(R.path);
                path_start = t.len();
                remove_dot_segments_into(&mut t, "", r_path, false);
                // T.query     = R.query;
                t_query = r_query;
            } else {
                // T.authority = Base.authority;
                t_authority = base.authority();
                authority_source = base.as_uri_ref().parts();
                push_authority(&mut t, t_authority);
                path_start = t.len();
                // if (R.path == "") then
                if r_path.is_empty() {
                    // T.path = Base.path;
                    t.push_str(base.path());
                    // if defined(R.query) then T.query = R.query; else T.query = Base.query;
                    t_query = r_query.or(base.query());
                } else {
                    // if (R.path starts-with "/") then
                    if r_path.starts_with('/') {
                        // T.path = remove_dot_segments(R.path);
                        remove_dot_segments_into(&mut t, "", r_path, false);
                    } else {
                        // T.path = merge(Base.path, R.path);
                        // T.path = remove_dot_segments(T.path);
                        remove_dot_segments_into(&mut t, merge_head(base), r_path, false);
                    }
                    // T.query = R.query;
                    t_query = r_query;
                }
            }
        }

        // RFC 3986 3.3: without an authority the path cannot begin with "//".
        if t_authority.is_none() && t[path_start..].starts_with("//") {
            if !self.dot_prefix {
                return Err(ResolveError::AmbiguousPath {
                    path: t.split_off(path_start),
                });
            }
            t.insert_str(path_start, "/.");
        }
        let path = (path_start, t.len());
        let query = t_query.map(|query| {
            t.push('?');
            t.push_str(query);
            (path.1 + 1, t.len())
        });
        // T.fragment = R.fragment;
        let fragment = reference.fragment().map(|fragment| {
            let start = t.len() + 1;
            t.push('#');
            t.push_str(fragment);
            (start, t.len())
        });

        if t.len() > crate::builder::MAX_LEN {
            return Err(ResolveError::Target(ParseError::too_long(Rule::URI, &t)));
        }
        // The components of T are known from where they were written (the grammar is not run again).
        let authority = WrittenAuthority::copied(authority_source, scheme_end + 3);
        let parts = Parts::written(&t, Some(scheme_end), authority, path, query, fragment);
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

/// `"//" authority` when the authority is defined (5.3).
fn push_authority(t: &mut String, authority: Option<&str>) {
    if let Some(authority) = authority {
        t.push_str("//");
        t.push_str(authority);
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
    match path.rfind('/') {
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
/// use rfc3986::{merge, Uri};
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
/// use rfc3986::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// assert_eq!(remove_dot_segments("/a/%2E/b"), "/a/%2E/b");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    remove_dot_segments_into(&mut out, "", path, false);
    out
}

/// The segments of a path between its `/`s (what `str::split('/')` gives), found by a plain byte loop:
/// segments are short, too short for `memchr` to pay off.
struct Segments<'a>(Option<&'a str>);

impl<'a> Segments<'a> {
    fn of(path: &'a str) -> Segments<'a> {
        Segments(Some(path))
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.0?;
        match rest.bytes().position(|b| b == b'/') {
            Some(i) => {
                self.0 = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.0 = None;
                Some(rest)
            }
        }
    }
}

/// A path segment, as far as 5.2.4 is concerned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dot {
    /// `.`
    One,
    /// `..`
    Two,
    /// Anything else.
    No,
}

/// Classifies a segment; with `decode`, a `%2E` (either case) counts as a `.` (the normal form of `%2E` is
/// `.`, RFC 3986 2.3 and 6.2.2.2).
fn dot(segment: &str, decode: bool) -> Dot {
    match segment {
        "." => return Dot::One,
        ".." => return Dot::Two,
        _ if !decode || segment.len() < 3 || segment.len() > 6 => return Dot::No,
        _ => {}
    }
    let mut rest = segment;
    let mut dots = 0;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else if rest.len() >= 3 && rest[..3].eq_ignore_ascii_case("%2e") {
            rest = &rest[3..];
        } else {
            return Dot::No;
        }
        dots += 1;
    }
    match dots {
        1 => Dot::One,
        2 => Dot::Two,
        _ => Dot::No,
    }
}

/// Appends `remove_dot_segments(head + tail)` to `out`, where `head` is empty or ends in `/` (the output of
/// 5.2.3 merge without building it). With `normalize`, `%2E` counts as `.` and every segment written is
/// percent-encoding normalized (6.2.2.2), which is the same as normalizing first and then removing the
/// dot-segments, in one pass.
///
/// This follows the buffers of 5.2.4 segment by segment. While the input does not begin with `/` (a
/// relative path), rule A drops a leading `./` or `../`, rule D a final `.` or `..`, and rule E moves the
/// first segment and leaves the rest starting with `/`. From then on, each `"/" segment` is B (`.`), C
/// (`..`) or E (anything else), and a final `/.` or `/..` leaves a `/` in the input that E then moves.
pub(crate) fn remove_dot_segments_into(out: &mut String, head: &str, tail: &str, normalize: bool) {
    debug_assert!(head.is_empty() || head.ends_with('/'));
    let push = |out: &mut String, segment: &str| {
        if normalize {
            push_pct_normalized(out, segment, false);
        } else {
            out.push_str(segment);
        }
    };
    // A dot-segment begins with "." (or, normalizing, "%2E") at the start of the path or after a "/"
    // (head, when not empty, ends in "/"). Without one, the result is head + tail.
    let dot_segment_start = |s: &str| {
        let mut previous = b'/';
        for &b in s.as_bytes() {
            if previous == b'/' && (b == b'.' || (normalize && b == b'%')) {
                return true;
            }
            previous = b;
        }
        false
    };
    if !dot_segment_start(head) && !dot_segment_start(tail) {
        push(out, head);
        push(out, tail);
        return;
    }
    let start = out.len();
    let mut absolute = head.starts_with('/') || (head.is_empty() && tail.starts_with('/'));
    // The segments of head + tail, without the leading "/" of an absolute path. The "/" at the end of
    // head separates its last segment from the first one of tail.
    let (head_body, tail_body) = if head.is_empty() {
        let tail_body = if absolute { &tail[1..] } else { tail };
        (None, tail_body)
    } else {
        let head_body = if absolute { &head[1..] } else { head };
        (head_body.strip_suffix('/'), tail)
    };
    let mut segments = head_body
        .into_iter()
        .flat_map(Segments::of)
        .chain(Segments::of(tail_body))
        .peekable();

    if !absolute {
        while let Some(segment) = segments.next() {
            let last = segments.peek().is_none();
            match dot(segment, normalize) {
                // A.  If the input buffer begins with a prefix of "../" or "./", then remove that prefix
                // D.  if the input buffer consists only of "." or "..", then remove that
                Dot::One | Dot::Two => {}
                // The input now begins with "/" (the segment was empty): B, C or E below.
                Dot::No if segment.is_empty() => {
                    absolute = true;
                    break;
                }
                // E.  move the first path segment in the input buffer to the end of the output buffer
                Dot::No => {
                    push(out, segment);
                    absolute = true;
                    break;
                }
            }
            if last {
                break;
            }
        }
    }
    if absolute {
        while let Some(segment) = segments.next() {
            let last = segments.peek().is_none();
            match dot(segment, normalize) {
                // B.  if the input buffer begins with a prefix of "/./" or "/.", where "." is a complete
                //     path segment, then replace that prefix with "/" in the input buffer
                Dot::One => {}
                // C.  if the input buffer begins with a prefix of "/../" or "/..", where ".." is a complete
                //     path segment, then replace that prefix with "/" in the input buffer and remove the
                //     last segment and its preceding "/" (if any) from the output buffer
                Dot::Two => {
                    let cut = out.as_bytes()[start..]
                        .iter()
                        .rposition(|&b| b == b'/')
                        .map_or(start, |i| start + i);
                    out.truncate(cut);
                }
                // E.  move the first path segment in the input buffer to the end of the output buffer,
                //     including the initial "/" character (if any)
                Dot::No => {
                    out.push('/');
                    push(out, segment);
                    continue;
                }
            }
            // After B or C at the end of the input, the input is "/", which E moves.
            if last {
                out.push('/');
            }
        }
    }
}
