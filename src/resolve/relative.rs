//! Making a reference relative: the inverse of reference resolution (RFC 3986 section 5.2).
//!
//! RFC 3986 defines how a reference and a base URI give a target URI (5.2.2), not the way back; this module
//! finds, for a base and a target, a short reference that resolves to exactly that target. The law it keeps,
//! and that its tests check over real and generated pairs:
//!
//! ```text
//! make_relative(base, target) == Some(r)  =>  r.resolve_against(base) == target   (same text)
//! ```

use crate::resolve::remove_dot_segments;
use crate::value::uri::{Uri, UriRef};

/// A reference that resolves against `base` to exactly `target` (RFC 3986 5.2.2 strict resolution,
/// compared as text), as short as this function can make it; `None` when no reference does.
///
/// The reference is the first of these forms that fits, from the shortest kind:
///
/// | target differs from base in | reference (RFC 3986 4.2, 5.2.2) | example, base `http://a/b/c/d;p?q` |
/// |---|---|---|
/// | the fragment only | `""` or `#fragment` | `http://a/b/c/d;p?q#f` -> `#f` |
/// | the query | `?query[#fragment]` | `http://a/b/c/d;p?y` -> `?y` |
/// | the path | a relative-path (`g`, `../g`, `./`) or an absolute-path (`/g`) reference, whichever is shorter (a tie goes to the relative path), then `?query` and `#fragment` as defined in the target | `http://a/b/g` -> `../g`, `http://a/g` -> `/g` |
/// | the authority | a network-path reference `//authority/path...` | `http://g/x` -> `//g/x` |
/// | the scheme | the target itself | `https://a/` -> `https://a/` |
///
/// A relative path whose first segment holds a `:` (it would read as a scheme) or that begins with `/`
/// (an empty first segment) gets a `./` in front (4.2). Scheme, authority, path and query are compared as
/// written, case included: this is about resolving to the same text, not about equivalence (section 6;
/// normalize both first to compare by equivalence).
///
/// `None` only when the target cannot be the result of any resolution against this base: its path holds
/// a dot-segment (`http://a/b/../c`; resolution removes them, 5.2.4) that the base's path does not share.
///
/// ```
/// use rfc3986::{resolve::make_relative, Uri};
///
/// let base = Uri::parse("http://a/b/c/d;p?q")?;
/// for (target, reference) in [
///     ("http://a/b/c/d;p?q", ""),
///     ("http://a/b/c/d;p?q#s", "#s"),
///     ("http://a/b/c/d;p?y", "?y"),
///     ("http://a/b/c/d;p", "d;p"),
///     ("http://a/b/c/g", "g"),
///     ("http://a/b/c/", "./"),
///     ("http://a/b/g?y#s", "../g?y#s"),
///     ("http://a/g", "/g"),
///     ("http://a/b/c/g:h", "./g:h"),
///     ("http://g/x", "//g/x"),
///     ("https://a/b", "https://a/b"),
/// ] {
///     let target = Uri::parse(target)?;
///     let r = make_relative(&base, &target).unwrap();
///     assert_eq!(r.as_str(), reference);
///     assert_eq!(r.resolve_against(&base)?, target);
/// }
/// assert!(make_relative(&base, &Uri::parse("http://a/b/../c")?).is_none());
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub fn make_relative(base: &Uri<'_>, target: &Uri<'_>) -> Option<UriRef<'static>> {
    let candidate = candidate(base, target);
    if let Some(r) = resolves_to(&candidate, base, target) {
        return Some(r);
    }
    // The shortest form did not give the target back (a path the candidate rules do not cover); the
    // target itself is a reference too, and resolves to itself unless its path has dot-segments.
    resolves_to(target.as_str(), base, target)
}

/// `candidate` parsed and resolved against `base`, when that gives exactly `target`.
fn resolves_to(candidate: &str, base: &Uri<'_>, target: &Uri<'_>) -> Option<UriRef<'static>> {
    let reference = UriRef::parse(candidate).ok()?;
    let resolved = reference.resolve_against(base).ok()?;
    (resolved.as_str() == target.as_str()).then(|| reference.into_owned())
}

/// The shortest reference form that fits (see [`make_relative`]); not yet checked.
fn candidate(base: &Uri<'_>, target: &Uri<'_>) -> String {
    if target.scheme() != base.scheme() {
        return target.as_str().to_owned();
    }
    let mut out = String::new();
    if target.authority() != base.authority() {
        match target.authority() {
            Some(authority) => {
                out.push_str("//");
                out.push_str(authority.as_str());
                out.push_str(target.path());
                push_query_fragment(&mut out, target, true);
                return out;
            }
            // A reference without scheme and authority keeps the base's authority.
            None => return target.as_str().to_owned(),
        }
    }
    let (path, query) = (target.path(), target.query());
    if path == base.path() && (query.is_some() || base.query().is_none()) {
        if query != base.query() {
            push_query_fragment(&mut out, target, true);
        } else {
            push_query_fragment(&mut out, target, false);
        }
        return out;
    }
    out.push_str(&path_reference(base, path));
    push_query_fragment(&mut out, target, true);
    out
}

/// `?query` (when `with_query` and the target has one) and `#fragment` (when it has one).
fn push_query_fragment(out: &mut String, target: &Uri<'_>, with_query: bool) {
    if with_query {
        if let Some(query) = target.query() {
            out.push('?');
            out.push_str(query);
        }
    }
    if let Some(fragment) = target.fragment() {
        out.push('#');
        out.push_str(fragment);
    }
}

/// A path reference from `base`'s path to `path`: the shorter of the relative path and the absolute path
/// (a tie goes to the relative path). Both paths are those of a base and a target that share scheme and
/// authority.
fn path_reference(base: &Uri<'_>, path: &str) -> String {
    let base_path = base.path();
    // Relative paths need both paths to be absolute; a base with an authority and an empty path merges
    // as "/" (5.2.3).
    let base_path = if base.authority().is_some() && base_path.is_empty() {
        "/"
    } else {
        base_path
    };
    let relative = match (base_path.strip_prefix('/'), path.strip_prefix('/')) {
        (Some(base_rest), Some(target_rest)) => Some(relative_path(base_rest, target_rest)),
        _ => None,
    };
    // An absolute-path reference cannot begin with "//" (it would read as an authority) and must stay
    // what it is after dot-segment removal.
    let absolute =
        (path.starts_with('/') && !path.starts_with("//") && remove_dot_segments(path) == path)
            .then(|| path.to_owned());
    match (relative, absolute) {
        (Some(r), Some(a)) if a.len() < r.len() => a,
        (Some(r), _) => r,
        (None, Some(a)) => a,
        (None, None) => path.to_owned(),
    }
}

/// The relative path from the directory of `base` (without its leading `/`) to `target` (without its
/// leading `/`): `../` for each base directory segment not shared, then the rest of the target.
fn relative_path(base: &str, target: &str) -> String {
    // Directory segments of the base: everything before its last "/".
    let base_dirs: Vec<&str> = match base.rfind('/') {
        Some(i) => base[..i].split('/').collect(),
        None => Vec::new(),
    };
    let target_segments: Vec<&str> = target.split('/').collect();
    // Shared leading directories; the target's last segment is never a directory.
    let target_dirs = &target_segments[..target_segments.len() - 1];
    let common = base_dirs
        .iter()
        .zip(target_dirs)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = String::new();
    for _ in common..base_dirs.len() {
        out.push_str("../");
    }
    let rest = target_segments[common..].join("/");
    // "./" before a path that would otherwise read as a scheme (":" in the first segment, 4.2) or as an
    // absolute path (an empty first segment), or that would be empty (the base's own directory).
    let first = rest.split('/').next().unwrap_or("");
    if out.is_empty() && (rest.is_empty() || first.is_empty() || first.contains(':')) {
        out.push_str("./");
    }
    out.push_str(&rest);
    out
}

impl Uri<'_> {
    /// A reference that resolves against this URI (as the base) to exactly `target`; see
    /// [`make_relative`] for the forms it takes and when it is `None`.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let base = Uri::parse("http://example.com/docs/guide/intro.html")?;
    /// let target = Uri::parse("http://example.com/docs/api/index.html#top")?;
    /// assert_eq!(base.make_relative(&target).unwrap().as_str(), "../api/index.html#top");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn make_relative(&self, target: &Uri<'_>) -> Option<UriRef<'static>> {
        make_relative(self, target)
    }
}
