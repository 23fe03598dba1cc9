//! The values: [`UriRef`] (`URI-reference`) and [`Uri`] (`URI`), one string plus the offsets of its
//! components, and [`Host`].

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use crate::builder::{HostKind, Parts, PathKind, Slot};
use crate::error::ParseError;
use crate::grammar::{self, Rule};

/// A URI reference (RFC 3986 section 4.1): a [`Uri`] or a relative reference, as one string (borrowed or
/// owned) plus the offsets of its components.
///
/// ```text
/// URI-reference = URI / relative-ref
/// ```
///
/// Components keep the RFC's distinction between *undefined* (`None`) and *empty* (`Some("")`), which
/// recomposition (5.3) and resolution (5.2) depend on: `http://h?` has an empty query, `http://h` none.
/// The path is always defined, possibly empty.
///
/// `Display` and [`as_str`](Self::as_str) give the input back byte for byte. `Eq` and `Hash` compare that
/// text: the simple string comparison of RFC 3986 6.2.1, under which `http://a/%7e` and `http://a/~` differ.
///
/// ```
/// use rfc3986::UriRef;
/// let r = UriRef::parse("//example.com:8042/over/there?name=ferret#nose")?;
/// assert_eq!(r.scheme(), None);
/// assert_eq!(r.authority(), Some("example.com:8042"));
/// assert_eq!(r.port_u16(), Some(8042));
/// assert_eq!(r.path(), "/over/there");
/// assert_eq!(r.path_segments().collect::<Vec<_>>(), ["over", "there"]);
/// assert_eq!(r.query(), Some("name=ferret"));
/// assert_eq!(r.fragment(), Some("nose"));
/// assert_eq!(r.to_string(), "//example.com:8042/over/there?name=ferret#nose");
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[derive(Clone)]
pub struct UriRef<'a> {
    text: Cow<'a, str>,
    parts: Parts,
}

/// A URI (RFC 3986 section 3): a [`UriRef`] whose scheme is defined.
///
/// ```text
/// URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
/// ```
///
/// [`Uri::parse`] accepts the rule `URI`, [`Uri::parse_absolute`] the rule `absolute-URI` (no fragment,
/// what section 5.1 requires of a base URI). Accessors are those of [`UriRef`], except that
/// [`scheme`](Self::scheme) is not optional.
///
/// ```
/// use rfc3986::{Host, Uri};
/// let u = Uri::parse("foo://example.com:8042/over/there?name=ferret#nose")?;
/// assert_eq!(u.scheme(), "foo");
/// assert_eq!(u.host(), Some(Host::RegName("example.com")));
/// let u = Uri::parse("urn:example:animal:ferret:nose")?;
/// assert_eq!(u.authority(), None);
/// assert_eq!(u.path(), "example:animal:ferret:nose");
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Uri<'a> {
    inner: UriRef<'a>,
}

/// The host of an authority (RFC 3986 section 3.2.2), by the alternative of
/// `host = IP-literal / IPv4address / reg-name` that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// `IPv4address`: dotted-decimal, exactly four dec-octets (`192.0.2.16`).
    Ipv4(Ipv4Addr),
    /// `IP-literal` holding an `IPv6address` (`[2001:db8::7]`).
    Ipv6(Ipv6Addr),
    /// `IP-literal` holding an `IPvFuture`: `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    IpvFuture {
        /// The hexadecimal version after the `v` (`7` in `[v7.fe80::a+en1]`).
        version: &'a str,
        /// The text after the `.` (`fe80::a+en1`).
        address: &'a str,
    },
    /// `reg-name`, as written (possibly empty, possibly percent-encoded, case kept).
    RegName(&'a str),
}

/// Iterator over the segments of a path, from [`UriRef::path_segments`].
#[derive(Clone, Debug)]
pub struct Segments<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Segments<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.find('/') {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

impl<'a> UriRef<'a> {
    /// Parses a URI reference (rule `URI-reference`, RFC 3986 section 4.1), borrowing `input`.
    ///
    /// # Errors
    /// [`ParseError`] with the byte offset where `input` stops being a URI-reference and what was expected
    /// there.
    pub fn parse(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        Self::parse_rule(Rule::URI_REFERENCE, input)
    }

    /// Parses a relative reference (rule `relative-ref`, RFC 3986 section 4.2): no scheme.
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not a relative-ref (for example `a:b`, which is a URI).
    pub fn parse_relative(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        Self::parse_rule(Rule::RELATIVE_REF, input)
    }

    /// Matches `input` against any rule of the grammar and returns the components it contains. Components
    /// the rule does not contain are `None`; so is [`path`](Self::path)'s text for rules without a path
    /// (it is then `""`). Used for `rfc3986 parse --rule`.
    ///
    /// # Errors
    /// [`ParseError`] when `input` as a whole is not in the rule's language.
    #[inline]
    pub fn parse_rule(rule: Rule, input: &'a str) -> Result<UriRef<'a>, ParseError> {
        // The compiled fast path's answer is made in place (no intermediate `Result` to copy).
        if let Some(parts) = grammar::parse_parts_fast(rule, input) {
            return Ok(UriRef {
                text: Cow::Borrowed(input),
                parts,
            });
        }
        let parts = grammar::parse_parts_without_fast_path(rule, input)?;
        Ok(UriRef {
            text: Cow::Borrowed(input),
            parts,
        })
    }

    /// Parses an owned string by `rule` without copying it (for values built from strings: conversions,
    /// [`UriBuilder`](crate::UriBuilder)).
    pub(crate) fn parse_owned(rule: Rule, text: String) -> Result<UriRef<'static>, ParseError> {
        let parts = grammar::parse_parts(rule, &text)?;
        Ok(UriRef {
            text: Cow::Owned(text),
            parts,
        })
    }

    /// The value for `text`, written by this crate, whose components are `parts` (see [`Parts::written`]).
    /// Debug builds check them against the grammar: `text` must parse by `rule` to exactly these parts.
    pub(crate) fn from_written(rule: Rule, text: String, parts: Parts) -> UriRef<'static> {
        debug_assert_eq!(
            grammar::parse_parts(rule, &text).as_ref().ok(),
            Some(&parts),
            "components of the written {text:?}"
        );
        UriRef {
            text: Cow::Owned(text),
            parts,
        }
    }

    /// The components, as the builder recorded them.
    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }

    /// The value for `text` whose components another engine (a grammar loaded at run time) found.
    #[cfg(feature = "runtime-grammar")]
    pub(crate) fn from_parts(text: &'a str, parts: Parts) -> UriRef<'a> {
        UriRef {
            text: Cow::Borrowed(text),
            parts,
        }
    }

    /// Makes an owned value, copying the text if it was borrowed.
    pub fn into_owned(self) -> UriRef<'static> {
        UriRef {
            text: Cow::Owned(self.text.into_owned()),
            parts: self.parts,
        }
    }

    /// The whole reference as text, exactly as parsed.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text as an owned `String`, without copying when the value already owns it.
    pub fn into_string(self) -> String {
        self.text.into_owned()
    }

    fn slice(&self, slot: Slot) -> Option<&str> {
        slot.get().map(|(s, e)| &self.text[s..e])
    }

    /// The scheme (RFC 3986 3.1) without its `:`, as written (case kept), or `None` for a relative
    /// reference.
    pub fn scheme(&self) -> Option<&str> {
        self.slice(self.parts.scheme)
    }

    /// The authority (RFC 3986 3.2) without the leading `//`: `None` when there is no `//`, `Some("")` for
    /// `file:///x`.
    pub fn authority(&self) -> Option<&str> {
        self.slice(self.parts.authority)
    }

    /// The userinfo (RFC 3986 3.2.1) without its `@`: `None` without an `@`, `Some("")` for `//@host`.
    pub fn userinfo(&self) -> Option<&str> {
        self.slice(self.parts.userinfo)
    }

    /// The host (RFC 3986 3.2.2) as written, brackets included for an IP-literal: `None` without an
    /// authority, `Some("")` for an empty reg-name (`file:///x`).
    pub fn host_str(&self) -> Option<&str> {
        self.slice(self.parts.host)
    }

    /// Which alternative of `host` matched, or `None` without an authority.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.parts.host.is_some().then_some(self.parts.host_kind)
    }

    /// The host as a typed value (RFC 3986 3.2.2), or `None` without an authority. IPv4 and IPv6 addresses
    /// are converted to [`std::net`] values; a reg-name is given as written.
    pub fn host(&self) -> Option<Host<'_>> {
        let address = self.slice(self.parts.host_address)?;
        Some(match self.parts.host_kind {
            HostKind::Ipv4address => Host::Ipv4(ipv4_from_text(address)),
            HostKind::Ipv6address => Host::Ipv6(ipv6_from_text(address)),
            HostKind::IpvFuture => {
                let (version, address) =
                    address[1..].split_once('.').unwrap_or((&address[1..], ""));
                Host::IpvFuture { version, address }
            }
            HostKind::RegName => Host::RegName(address),
        })
    }

    /// The port (RFC 3986 3.2.3) as written, without its `:`: `None` without a `:`, `Some("")` for
    /// `http://h:/` (an empty port, which RFC 3986 allows).
    pub fn port(&self) -> Option<&str> {
        self.slice(self.parts.port)
    }

    /// The port as a number, when it is non-empty and fits in `u16` (RFC 3986 allows any number of
    /// digits: `http://h:99999/` is valid and gives `None` here; so does an empty port). Leading zeros are
    /// allowed: `:0080` gives 80.
    pub fn port_u16(&self) -> Option<u16> {
        let port = self.port()?;
        let digits = port.trim_start_matches('0');
        if port.is_empty() {
            None
        } else if digits.is_empty() {
            Some(0)
        } else {
            digits.parse().ok()
        }
    }

    /// The path (RFC 3986 3.3), always defined, possibly empty.
    pub fn path(&self) -> &str {
        self.slice(self.parts.path).unwrap_or("")
    }

    /// Which of the five path rules the path matched (`path-abempty` after an authority, ...).
    pub fn path_kind(&self) -> PathKind {
        self.parts.path_kind
    }

    /// The segments of the path, split at each `/`, after dropping one leading `/`: `/a/b` and `a/b` give
    /// `a`, `b`; `/` gives one empty segment; the empty path gives none; `a//b/` gives `a`, ``, `b`, ``.
    /// Segments are as written (percent-encoded, dot-segments kept).
    pub fn path_segments(&self) -> Segments<'_> {
        let path = self.path();
        let rest = match path.strip_prefix('/') {
            Some(rest) => Some(rest),
            None if path.is_empty() => None,
            None => Some(path),
        };
        Segments { rest }
    }

    /// The query (RFC 3986 3.4) without its `?`: `None` without a `?`, `Some("")` for `a?`.
    pub fn query(&self) -> Option<&str> {
        self.slice(self.parts.query)
    }

    /// The fragment (RFC 3986 3.5) without its `#`: `None` without a `#`, `Some("")` for `a#`.
    pub fn fragment(&self) -> Option<&str> {
        self.slice(self.parts.fragment)
    }

    /// Whether this is a URI (the scheme is defined) rather than a relative reference.
    pub fn is_uri(&self) -> bool {
        self.parts.scheme.is_some()
    }

    /// The reference as a [`Uri`] when its scheme is defined, `None` for a relative reference.
    pub fn as_uri(&self) -> Option<Uri<'a>> {
        self.is_uri().then(|| Uri {
            inner: self.clone(),
        })
    }
}

impl<'a> Uri<'a> {
    /// The URI `text`, written by this crate, whose components are `parts` (see [`UriRef::from_written`]).
    pub(crate) fn from_written(text: String, parts: Parts) -> Uri<'static> {
        debug_assert!(parts.scheme.is_some());
        Uri {
            inner: UriRef::from_written(Rule::URI, text, parts),
        }
    }

    /// Parses a URI (rule `URI`, RFC 3986 section 3): scheme required, fragment allowed.
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not a URI (for example a relative reference such as `/a`).
    pub fn parse(input: &'a str) -> Result<Uri<'a>, ParseError> {
        Ok(Uri {
            inner: UriRef::parse_rule(Rule::URI, input)?,
        })
    }

    /// Parses an absolute URI (rule `absolute-URI`, RFC 3986 section 4.3): scheme required, no fragment.
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not an absolute-URI (for example it has a fragment).
    pub fn parse_absolute(input: &'a str) -> Result<Uri<'a>, ParseError> {
        Ok(Uri {
            inner: UriRef::parse_rule(Rule::ABSOLUTE_URI, input)?,
        })
    }

    /// The scheme (RFC 3986 3.1) without its `:`, as written (case kept).
    pub fn scheme(&self) -> &str {
        self.inner.scheme().unwrap_or("")
    }

    /// Makes an owned value, copying the text if it was borrowed.
    pub fn into_owned(self) -> Uri<'static> {
        Uri {
            inner: self.inner.into_owned(),
        }
    }

    /// The same value as a [`UriRef`].
    pub fn as_uri_ref(&self) -> &UriRef<'a> {
        &self.inner
    }

    /// The whole URI as text, exactly as parsed.
    pub fn as_str(&self) -> &str {
        self.inner.as_str()
    }

    /// The text as an owned `String`, without copying when the value already owns it.
    pub fn into_string(self) -> String {
        self.inner.into_string()
    }

    /// See [`UriRef::authority`].
    pub fn authority(&self) -> Option<&str> {
        self.inner.authority()
    }

    /// See [`UriRef::userinfo`].
    pub fn userinfo(&self) -> Option<&str> {
        self.inner.userinfo()
    }

    /// See [`UriRef::host_str`].
    pub fn host_str(&self) -> Option<&str> {
        self.inner.host_str()
    }

    /// See [`UriRef::host_kind`].
    pub fn host_kind(&self) -> Option<HostKind> {
        self.inner.host_kind()
    }

    /// See [`UriRef::host`].
    pub fn host(&self) -> Option<Host<'_>> {
        self.inner.host()
    }

    /// See [`UriRef::port`].
    pub fn port(&self) -> Option<&str> {
        self.inner.port()
    }

    /// See [`UriRef::port_u16`].
    pub fn port_u16(&self) -> Option<u16> {
        self.inner.port_u16()
    }

    /// See [`UriRef::path`].
    pub fn path(&self) -> &str {
        self.inner.path()
    }

    /// See [`UriRef::path_kind`].
    pub fn path_kind(&self) -> PathKind {
        self.inner.path_kind()
    }

    /// See [`UriRef::path_segments`].
    pub fn path_segments(&self) -> Segments<'_> {
        self.inner.path_segments()
    }

    /// See [`UriRef::query`].
    pub fn query(&self) -> Option<&str> {
        self.inner.query()
    }

    /// See [`UriRef::fragment`].
    pub fn fragment(&self) -> Option<&str> {
        self.inner.fragment()
    }
}

/// The address of an `IPv4address` the grammar accepted: four dec-octets.
fn ipv4_from_text(text: &str) -> Ipv4Addr {
    let mut octets = [0u8; 4];
    for (slot, part) in octets.iter_mut().zip(text.split('.')) {
        // dec-octet is at most "255": no overflow.
        *slot = part.bytes().fold(0u16, |n, b| n * 10 + u16::from(b - b'0')) as u8;
    }
    Ipv4Addr::from(octets)
}

/// The address of an `IPv6address` the grammar accepted: h16 groups, at most one "::", possibly an
/// IPv4address in the last 32 bits.
fn ipv6_from_text(text: &str) -> Ipv6Addr {
    fn groups(part: &str, out: &mut Vec<u16>) {
        for piece in part.split(':').filter(|p| !p.is_empty()) {
            if piece.contains('.') {
                let v4 = ipv4_from_text(piece).octets();
                out.push(u16::from_be_bytes([v4[0], v4[1]]));
                out.push(u16::from_be_bytes([v4[2], v4[3]]));
            } else {
                // h16 is 1 to 4 hex digits: no overflow.
                out.push(piece.bytes().fold(0u16, |n, b| {
                    (n << 4) | (b as char).to_digit(16).unwrap_or(0) as u16
                }));
            }
        }
    }
    let mut head = Vec::with_capacity(8);
    let mut tail = Vec::with_capacity(8);
    match text.split_once("::") {
        Some((h, t)) => {
            groups(h, &mut head);
            groups(t, &mut tail);
        }
        None => groups(text, &mut head),
    }
    let mut segments = [0u16; 8];
    for (slot, g) in segments.iter_mut().zip(&head) {
        *slot = *g;
    }
    let tail_start = 8usize.saturating_sub(tail.len());
    for (slot, g) in segments[tail_start..].iter_mut().zip(&tail) {
        *slot = *g;
    }
    Ipv6Addr::from(segments)
}

impl fmt::Display for UriRef<'_> {
    /// The text exactly as parsed (RFC 3986 5.3: recomposing the components gives it back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Display for Uri<'_> {
    /// The text exactly as parsed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for UriRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UriRef")
            .field("text", &self.as_str())
            .field("scheme", &self.scheme())
            .field("authority", &self.authority())
            .field("userinfo", &self.userinfo())
            .field("host", &self.host())
            .field("port", &self.port())
            .field("path", &self.path())
            .field("query", &self.query())
            .field("fragment", &self.fragment())
            .finish()
    }
}

impl fmt::Debug for Uri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Uri")
            .field("text", &self.as_str())
            .field("scheme", &self.scheme())
            .field("authority", &self.authority())
            .field("userinfo", &self.userinfo())
            .field("host", &self.host())
            .field("port", &self.port())
            .field("path", &self.path())
            .field("query", &self.query())
            .field("fragment", &self.fragment())
            .finish()
    }
}

impl PartialEq for UriRef<'_> {
    /// Simple string comparison (RFC 3986 6.2.1).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for UriRef<'_> {}

impl Hash for UriRef<'_> {
    /// Hashes the text, consistent with `Eq`.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl AsRef<str> for UriRef<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Uri<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
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

impl<'a> From<Uri<'a>> for UriRef<'a> {
    fn from(uri: Uri<'a>) -> UriRef<'a> {
        uri.inner
    }
}

impl<'a> TryFrom<UriRef<'a>> for Uri<'a> {
    type Error = UriRef<'a>;

    /// A reference with a scheme becomes a `Uri`; a relative reference is given back as the error.
    fn try_from(r: UriRef<'a>) -> Result<Self, UriRef<'a>> {
        if r.is_uri() {
            Ok(Uri { inner: r })
        } else {
            Err(r)
        }
    }
}
