//! Reference resolution (RFC 3986 section 5): a [`UriRef`] and a base [`Uri`] give a target [`Uri`].
//!
//! [`UriRef::resolve_against`] is the strict algorithm of section 5.2.2; [`Resolver`] selects the
//! backward-compatible variant and what to do with a target that cannot be written as a URI without a
//! change. [`merge`] (5.2.3) and [`remove_dot_segments`] (5.2.4) are public for their own sake.
//!
//! Every target is written into one `String` (5.3 recomposition, with the path merged and its dot-segments
//! removed in the same pass), the only allocation: the base or the reference as written up to its path,
//! the path, the reference after its path, each copied at once (a reference with a scheme and no
//! dot-segment, the most common absolute link, is one copy of itself). Its components are known from
//! where they were written (those of the copied base or reference, which the grammar accepted, at the
//! same offsets, and a path built of their segments), so the grammar is not run again; debug builds (and so the test suite) check every
//! target against the rule `URI`, and the fuzz target `resolve` compares them in release builds.

use std::borrow::Cow;

use crate::components::RefParts;
use crate::engine::Rule;
use crate::error::ParseError;
use crate::value::iri::{Iri, IriRef};
use crate::value::uri::{Uri, UriRef};

pub(crate) mod path;
mod relative;

pub use path::{merge, remove_dot_segments};
use path::{merge_head_of, push_merged_without_dot_segments};
pub use relative::make_relative;

pub use crate::error::ResolveError;

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
    #[inline]
    pub fn resolve(
        &self,
        base: &Uri<'_>,
        reference: &UriRef<'_>,
    ) -> Result<Uri<'static>, ResolveError> {
        self.resolve_text(
            base.as_str(),
            base.as_uri_ref().parts(),
            reference.as_str(),
            reference.parts(),
            Uri::from_written,
        )
    }

    /// The algorithm of [`resolve`](Self::resolve) on texts and their components, for any grammar that
    /// keeps RFC 3986's delimiters (also IRIs, RFC 3987 6.5): the value `make` makes of the target's
    /// text and components (made where it is returned, without a copy of the pair in between).
    ///
    /// The target is written in the order of 5.3 (T.scheme, set last in the pseudo-code independently of
    /// the rest, comes first): the base or the reference as written up to its path, copied at once, whose
    /// components are then those of the target there, at the same offsets; the path; R as written after
    /// its path. Two cases are one copy: a reference with a scheme whose path has no `.` at a segment start
    /// is its own target (5.2.4 leaves such a path as it is), and one with an empty path is the base as
    /// written up to its path or query followed by the reference.
    #[inline(always)]
    pub(crate) fn resolve_text<T>(
        &self,
        b: &str,
        b_parts: &RefParts,
        r: &str,
        r_parts: &RefParts,
        make: impl FnOnce(String, RefParts) -> T,
    ) -> Result<T, ResolveError> {
        // -- The URI reference is parsed into the five URI components
        // (R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);
        // (here, as the byte ranges the parser recorded).
        let (r_path_start, r_path_end) = r_parts.path();
        let r_path = &r.as_bytes()[r_path_start..r_path_end];

        // if ((not strict) and (R.scheme == Base.scheme)) then
        //    undefine(R.scheme);
        let r_scheme_defined =
            r_parts.has_scheme() && (self.strict || !same_scheme(b, b_parts, r, r_parts));

        // The target up to its path (and the merge head of 5.2.3 after it), and its components there.
        let (mut t, prefix, path_start);
        // if defined(R.scheme) then
        //    T.scheme    = R.scheme;
        //    T.authority = R.authority;
        //    T.path      = remove_dot_segments(R.path);
        //    T.query     = R.query;
        if r_scheme_defined {
            // A path without a `.` at a segment start has no dot-segment: T is R (T.fragment = R.fragment).
            if path::first_dot_at_segment_start_inline(r_path, true).is_none() {
                return Ok(make(r.to_owned(), *r_parts));
            }
            // R as written up to its path: scheme ":" ["//" authority].
            t = String::with_capacity(r.len() + 2);
            t.push_str(&r[..r_path_start]);
            prefix = *r_parts;
            path_start = t.len();
        } else if r_parts.has_authority() {
            // T.scheme = Base.scheme (set last in 5.2.2);
            // if defined(R.authority) then
            //    T.authority = R.authority;
            //    T.path      = remove_dot_segments(R.path);
            //    T.query     = R.query;
            let scheme_end = b_parts.scheme().get().unwrap_or((0, 0)).1;
            t = String::with_capacity(scheme_end + 1 + r.len() + 2);
            t.push_str(&b[..=scheme_end]);
            // "//" authority, as written in R.
            t.push_str(&r[r_parts.authority().start() - 2..r_path_start]);
            prefix = RefParts::network_path_prefix(scheme_end, r_parts);
            path_start = t.len();
        } else {
            // T.authority = Base.authority;
            let (b_path_start, b_path_end) = b_parts.path();
            // if (R.path == "") then
            //    T.path = Base.path;
            //    if defined(R.query) then T.query = R.query; else T.query = Base.query;
            if r_path.is_empty() {
                // The base as written up to its path, or its query when R has none, then R as written
                // after its path (["?" query] ["#" fragment]).
                let end = match (r_parts.has_query(), b_parts.query().get()) {
                    (false, Some((_, query_end))) => query_end,
                    _ => b_path_end,
                };
                let after = &r[r_path_end..];
                let mut t = String::with_capacity(end + after.len());
                t.push_str(&b[..end]);
                t.push_str(after);
                if t.len() > crate::components::MAX_LEN {
                    return Err(too_long(&t));
                }
                let parts = RefParts::resolved_on_base_path(b_parts, end, r_parts, t.len());
                return Ok(make(t, parts));
            }
            // if (R.path starts-with "/") then
            //    T.path = remove_dot_segments(R.path);
            // else
            //    T.path = merge(Base.path, R.path);
            //    T.path = remove_dot_segments(T.path);
            let b_path = &b[b_path_start..b_path_end];
            let head_len = if r_path.first() == Some(&b'/') {
                0
            } else {
                merge_head_of(b_parts.has_authority(), b_path).len()
            };
            t = String::with_capacity(b_path_start + head_len + r.len() + 2);
            // The base as written up to its path (scheme ":" ["//" authority]) and the merge head, which
            // is the start of Base.path, except the "/" for a base with an authority and an empty path.
            if head_len > b_path.len() {
                t.push_str(&b[..b_path_start]);
                t.push('/');
            } else {
                t.push_str(&b[..b_path_start + head_len]);
            }
            prefix = *b_parts;
            path_start = b_path_start;
        }
        let mut path_end =
            push_merged_without_dot_segments(&mut t, path_start, &r[r_path_start..], r_path.len());

        // RFC 3986 3.3: without an authority the path cannot begin with "//".
        if !prefix.has_authority() && t.as_bytes()[path_start..path_end].starts_with(b"//") {
            if !self.dot_prefix {
                return Err(ResolveError::AmbiguousPath {
                    path: t[path_start..path_end].to_owned(),
                });
            }
            t.insert_str(path_start, "/.");
            path_end += 2;
        }

        // T.query = R.query; T.fragment = R.fragment: R as written after its path, ["?" query] ["#" fragment]
        // (written after the path above).
        if t.len() > crate::components::MAX_LEN {
            return Err(too_long(&t));
        }
        let parts = RefParts::resolved(
            &prefix,
            (path_start, path_end),
            t.as_bytes().get(path_start) == Some(&b'/'),
            r_parts,
            t.len(),
        );
        Ok(make(t, parts))
    }
}

/// Whether the schemes of `b` and `r` are the same, ignoring ASCII case (RFC 3986 3.1): the test of the
/// non-strict variant of 5.2.2, kept out of the strict path.
#[inline(never)]
fn same_scheme(b: &str, b_parts: &RefParts, r: &str, r_parts: &RefParts) -> bool {
    fn scheme<'t>(text: &'t str, parts: &RefParts) -> &'t str {
        parts.scheme().get().map_or("", |(s, e)| &text[s..e])
    }
    scheme(r, r_parts).eq_ignore_ascii_case(scheme(b, b_parts))
}

/// The error for a target `t` longer than a value can hold.
#[cold]
fn too_long(t: &str) -> ResolveError {
    ResolveError::Target(ParseError::too_long(Rule::URI, t))
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

impl IriRef<'_> {
    /// Resolves this IRI reference against `base` ([RFC 3987 6.5](https://datatracker.ietf.org/doc/html/rfc3987#section-6.5):
    /// "the algorithms of RFC 3986 can be applied directly", non-ASCII characters being treated like
    /// unreserved ones): RFC 3986 5.2, strict, as [`UriRef::resolve_against`](crate::UriRef::resolve_against), on the IRI text.
    ///
    /// ```text
    /// T = resolve(Base, R)   ; RFC 3986 5.2.2, with merge (5.2.3) and remove_dot_segments (5.2.4)
    /// ```
    ///
    /// ```
    /// use rfc3986::iri::{Iri, IriRef};
    /// let base = Iri::parse("http://\u{4f8b}\u{3048}.jp/a/b/c?q")?;
    /// assert_eq!(IriRef::parse("../d\u{fc}rst#\u{e9}")?.resolve_against(&base)?.as_str(),
    ///            "http://\u{4f8b}\u{3048}.jp/a/d\u{fc}rst#\u{e9}");
    /// assert_eq!(IriRef::parse("")?.resolve_against(&base)?.as_str(), "http://\u{4f8b}\u{3048}.jp/a/b/c?q");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// None in practice, as for [`UriRef::resolve_against`](crate::UriRef::resolve_against) (a target over 4 GiB - 2 bytes).
    pub fn resolve_against(&self, base: &Iri<'_>) -> Result<Iri<'static>, ResolveError> {
        Resolver::new().resolve_text(
            base.as_str(),
            &base.inner.parts,
            self.as_str(),
            &self.parts,
            |text, parts| Iri {
                inner: IriRef::from_parts(Cow::Owned(text), parts),
            },
        )
    }
}

impl Uri<'_> {
    /// Parses `reference` (rule `URI-reference`) and resolves it against this URI as the base (RFC 3986
    /// 5.2, strict): what a browser does with a link in a page.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let base = Uri::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.join("../g?y#s")?.as_str(), "http://a/b/g?y#s");
    /// assert!(matches!(base.join("a b"), Err(rfc3986::resolve::ResolveError::Reference(_))));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ResolveError::Reference`] when `reference` is not a URI reference, and what
    /// [`UriRef::resolve_against`] returns.
    pub fn join(&self, reference: &str) -> Result<Uri<'static>, ResolveError> {
        let reference = UriRef::parse(reference).map_err(ResolveError::Reference)?;
        reference.resolve_against(self)
    }
}
