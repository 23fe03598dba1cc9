//! The URI values of RFC 3986: [`UriRef`] (`URI-reference`) and [`Uri`] (`URI`), the generic
//! [`RiRef`] / [`Ri`] of `reference.rs` at [`UriSpec`]: what only URIs have (their parsers, which run
//! the compiled recognizer of `uri.pest`, and the conversions from text).

use std::borrow::Cow;
use std::str::FromStr;

use crate::components::RefParts;
use crate::engine::{self, Rule};
use crate::error::ParseError;
use crate::value::reference::{Ri, RiRef, UriSpec};

/// A URI reference (RFC 3986 section 4.1): a [`Uri`] or a relative reference, as one string (borrowed or
/// owned) plus the offsets of its components. The accessors are those of [`RiRef`], shared with
/// [`IriRef`](crate::iri::IriRef).
///
/// ```text
/// URI-reference = URI / relative-ref
/// ```
///
/// ```
/// use rfc3986::UriRef;
/// let r = UriRef::parse("//example.com:8042/over/there?name=ferret#nose")?;
/// assert_eq!((r.host_str(), r.port_u16(), r.path()), (Some("example.com"), Some(8042), "/over/there"));
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub type UriRef<'a> = RiRef<'a, UriSpec>;

/// A URI (RFC 3986 section 3): a [`UriRef`] whose scheme is defined.
///
/// ```text
/// URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
/// ```
///
/// [`Uri::parse`] accepts the rule `URI`, [`Uri::parse_absolute`] the rule `absolute-URI` (no fragment,
/// what section 5.1 requires of a base URI). Accessors are those of [`UriRef`] (through `Deref`), except
/// that [`scheme`](Ri::scheme) is not optional.
///
/// ```
/// use rfc3986::{Host, Uri};
/// let u = Uri::parse("foo://example.com:8042/over/there?name=ferret#nose")?;
/// assert_eq!(u.scheme(), "foo");
/// assert_eq!(u.host(), Some(Host::RegName("example.com")));
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub type Uri<'a> = Ri<'a, UriSpec>;

impl<'a> UriRef<'a> {
    /// Parses a URI reference (rule `URI-reference`, [RFC 3986 4.1](https://www.rfc-editor.org/rfc/rfc3986#section-4.1)), borrowing `input`.
    ///
    /// ```text
    /// URI-reference = URI / relative-ref
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert!(UriRef::parse("").is_ok()); // the empty reference: the current document
    /// assert_eq!(UriRef::parse("http://a b").unwrap_err().offset(), 8);
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] with the byte offset where `input` stops being a URI-reference and what was expected
    /// there.
    #[inline]
    pub fn parse(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        Self::parse_rule(Rule::URI_REFERENCE, input)
    }

    /// Parses a relative reference (rule `relative-ref`, [RFC 3986 4.2](https://www.rfc-editor.org/rfc/rfc3986#section-4.2)): no scheme.
    ///
    /// ```text
    /// relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
    /// relative-part = "//" authority path-abempty / path-absolute / path-noscheme / path-empty
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert!(UriRef::parse_relative("../g").is_ok());
    /// assert!(UriRef::parse_relative("a:b").is_err()); // a URI, not a relative reference
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not a relative-ref (for example `a:b`, which is a URI).
    pub fn parse_relative(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        Self::parse_rule(Rule::RELATIVE_REF, input)
    }

    /// Matches `input` against `rule` and returns its components (see [`crate::parse_as`]); a `UriRef`
    /// only for `URI-reference`, `URI`, `relative-ref` and `absolute-URI`, which callers ensure.
    /// `#[inline]`, as [`UriRef::parse`] and [`Uri::parse`] are: their callers get the recognizer of their
    /// rule compiled in place with the rule known (the generated `recognize` is `#[inline]`), which saves
    /// about 15% of the instructions of a parse (a call per component, the dispatch on the rule).
    ///
    /// # Errors
    /// [`ParseError`] when `input` as a whole is not in the rule's language.
    #[inline]
    pub(crate) fn parse_rule(rule: Rule, input: &'a str) -> Result<UriRef<'a>, ParseError> {
        // The compiled fast path's answer is made in place (no intermediate `Result` to copy).
        if let Some(parts) = engine::parse_reference_fast(rule, input) {
            return Ok(UriRef::from_parts(Cow::Borrowed(input), parts));
        }
        let parts = engine::parse_parts_without_fast_path(rule, input)?;
        Ok(UriRef::from_parts(
            Cow::Borrowed(input),
            RefParts::of(&parts),
        ))
    }

    /// Parses an owned string by `rule` without copying it (for values built from strings: conversions,
    /// [`UriBuilder`](crate::UriBuilder)).
    pub(crate) fn parse_owned(rule: Rule, text: String) -> Result<UriRef<'static>, ParseError> {
        let parts = engine::parse_parts(rule, &text)?;
        Ok(UriRef::from_parts(Cow::Owned(text), RefParts::of(&parts)))
    }

    /// The value for `text`, written by this crate, whose components are `parts` (see
    /// [`RefParts::written`]). Debug builds check them against the grammar: `text` must parse by `rule`
    /// to exactly these parts.
    pub(crate) fn from_written(rule: Rule, text: String, parts: RefParts) -> UriRef<'static> {
        debug_assert_eq!(
            engine::parse_parts(rule, &text)
                .as_ref()
                .ok()
                .map(RefParts::of),
            Some(parts),
            "components of the written {text:?}"
        );
        UriRef::from_parts(Cow::Owned(text), parts)
    }

    /// Whether this is a URI (the scheme is defined) rather than a relative reference.
    pub fn is_uri(&self) -> bool {
        self.has_scheme()
    }

    /// The reference as a [`Uri`] when its scheme is defined, `None` for a relative reference.
    pub fn as_uri(&self) -> Option<Uri<'a>> {
        self.to_absolute()
    }
}

impl<'a> Uri<'a> {
    /// The URI `text`, written by this crate, whose components are `parts` (see [`UriRef::from_written`]).
    pub(crate) fn from_written(text: String, parts: RefParts) -> Uri<'static> {
        debug_assert!(parts.has_scheme());
        Uri {
            inner: UriRef::from_written(Rule::URI, text, parts),
        }
    }

    /// Parses a URI (rule `URI`, [RFC 3986 3](https://www.rfc-editor.org/rfc/rfc3986#section-3)): scheme required, fragment allowed.
    ///
    /// ```text
    /// URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
    /// ```
    ///
    /// ```
    /// use rfc3986::Uri;
    /// assert_eq!(Uri::parse("x:")?.path(), ""); // the shortest URI
    /// assert!(Uri::parse("/a").is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not a URI (for example a relative reference such as `/a`).
    #[inline]
    pub fn parse(input: &'a str) -> Result<Uri<'a>, ParseError> {
        Ok(Uri {
            inner: UriRef::parse_rule(Rule::URI, input)?,
        })
    }

    /// Parses an absolute URI (rule `absolute-URI`, [RFC 3986 4.3](https://www.rfc-editor.org/rfc/rfc3986#section-4.3)): scheme required, no
    /// fragment.
    ///
    /// ```text
    /// absolute-URI = scheme ":" hier-part [ "?" query ]
    /// ```
    ///
    /// ```
    /// use rfc3986::Uri;
    /// assert!(Uri::parse_absolute("http://a/b?q").is_ok());
    /// assert!(Uri::parse_absolute("http://a/b#f").is_err());
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not an absolute-URI (for example it has a fragment).
    pub fn parse_absolute(input: &'a str) -> Result<Uri<'a>, ParseError> {
        Ok(Uri {
            inner: UriRef::parse_rule(Rule::ABSOLUTE_URI, input)?,
        })
    }

    /// The same value as a [`UriRef`] (also what `Deref` gives: every accessor of [`UriRef`] works on a
    /// `Uri`).
    pub fn as_uri_ref(&self) -> &UriRef<'a> {
        &self.inner
    }
}

impl FromStr for UriRef<'static> {
    type Err = ParseError;

    /// Parses a `URI-reference` and copies it into an owned value.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        UriRef::parse(s).map(UriRef::into_owned)
    }
}

impl FromStr for Uri<'static> {
    type Err = ParseError;

    /// Parses a `URI` and copies it into an owned value.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Uri::parse(s).map(Uri::into_owned)
    }
}

impl<'a> TryFrom<&'a str> for UriRef<'a> {
    type Error = ParseError;

    /// Same as [`UriRef::parse`].
    fn try_from(s: &'a str) -> Result<Self, ParseError> {
        UriRef::parse(s)
    }
}

impl<'a> TryFrom<&'a str> for Uri<'a> {
    type Error = ParseError;

    /// Same as [`Uri::parse`].
    fn try_from(s: &'a str) -> Result<Self, ParseError> {
        Uri::parse(s)
    }
}

impl TryFrom<String> for UriRef<'static> {
    type Error = ParseError;

    /// Parses a `URI-reference`, keeping the `String` as the value's text (no copy).
    fn try_from(text: String) -> Result<Self, ParseError> {
        UriRef::parse_owned(Rule::URI_REFERENCE, text)
    }
}

impl TryFrom<String> for Uri<'static> {
    type Error = ParseError;

    /// Parses a `URI`, keeping the `String` as the value's text (no copy).
    fn try_from(text: String) -> Result<Self, ParseError> {
        Ok(Uri {
            inner: UriRef::parse_owned(Rule::URI, text)?,
        })
    }
}
