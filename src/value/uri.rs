//! The values: [`UriRef`] (`URI-reference`) and [`Uri`] (`URI`), one string plus the offsets of its
//! components, and [`Host`].

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use crate::components::{HostKind, Parts, PathKind, Slot};
use crate::engine::{self, Rule};
use crate::error::ParseError;

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
#[non_exhaustive]
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
    ///
    /// # Errors
    /// [`ParseError`] when `input` as a whole is not in the rule's language.
    #[inline]
    pub(crate) fn parse_rule(rule: Rule, input: &'a str) -> Result<UriRef<'a>, ParseError> {
        // The compiled fast path's answer is made in place (no intermediate `Result` to copy).
        if let Some(parts) = engine::parse_parts_fast(rule, input) {
            return Ok(UriRef {
                text: Cow::Borrowed(input),
                parts,
            });
        }
        let parts = engine::parse_parts_without_fast_path(rule, input)?;
        Ok(UriRef {
            text: Cow::Borrowed(input),
            parts,
        })
    }

    /// Parses an owned string by `rule` without copying it (for values built from strings: conversions,
    /// [`UriBuilder`](crate::UriBuilder)).
    pub(crate) fn parse_owned(rule: Rule, text: String) -> Result<UriRef<'static>, ParseError> {
        let parts = engine::parse_parts(rule, &text)?;
        Ok(UriRef {
            text: Cow::Owned(text),
            parts,
        })
    }

    /// The value for `text`, written by this crate, whose components are `parts` (see [`Parts::written`]).
    /// Debug builds check them against the grammar: `text` must parse by `rule` to exactly these parts.
    pub(crate) fn from_written(rule: Rule, text: String, parts: Parts) -> UriRef<'static> {
        debug_assert_eq!(
            engine::parse_parts(rule, &text).as_ref().ok(),
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

    /// The value of a [`RuleMatch`](crate::RuleMatch) of a URI-reference-like rule, whose components are
    /// in the order of RFC 3986 4.1 (checked in debug builds, so by the test suite).
    pub(crate) fn from_match(text: &'a str, parts: Parts) -> UriRef<'a> {
        debug_assert!(parts.in_reference_order(text), "{text:?}: {parts:?}");
        UriRef {
            text: Cow::Borrowed(text),
            parts,
        }
    }

    /// Makes an owned value, copying the text if it was borrowed.
    #[must_use]
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

    /// The scheme ([RFC 3986 3.1](https://www.rfc-editor.org/rfc/rfc3986#section-3.1)) without its `:`, as written (case kept), or `None` for a
    /// relative reference.
    ///
    /// ```text
    /// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("HTTP://a")?.scheme(), Some("HTTP"));
    /// assert_eq!(UriRef::parse("//a")?.scheme(), None);
    /// assert_eq!(UriRef::parse("./a:b")?.scheme(), None); // a relative path with a colon
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn scheme(&self) -> Option<&str> {
        self.slice(self.parts.scheme)
    }

    /// The authority ([RFC 3986 3.2](https://www.rfc-editor.org/rfc/rfc3986#section-3.2)) without the leading `//`: `None` when there is no `//`,
    /// `Some("")` for `file:///x`.
    ///
    /// ```text
    /// authority = [ userinfo "@" ] host [ ":" port ]
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("file:///etc")?.authority(), Some(""));
    /// assert_eq!(UriRef::parse("mailto:a@b")?.authority(), None);
    /// assert_eq!(UriRef::parse("//u@h:1")?.authority(), Some("u@h:1"));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn authority(&self) -> Option<&str> {
        self.slice(self.parts.authority)
    }

    /// The userinfo ([RFC 3986 3.2.1](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1)) without its `@`: `None` without an `@`, `Some("")`
    /// for `//@host`.
    ///
    /// ```text
    /// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("//@h")?.userinfo(), Some(""));
    /// assert_eq!(UriRef::parse("//h")?.userinfo(), None);
    /// assert_eq!(UriRef::parse("//a:b:c@h")?.userinfo(), Some("a:b:c"));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn userinfo(&self) -> Option<&str> {
        self.slice(self.parts.userinfo)
    }

    /// The host ([RFC 3986 3.2.2](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2)) as written, brackets included for an IP-literal: `None`
    /// without an authority, `Some("")` for an empty reg-name (`file:///x`).
    ///
    /// ```text
    /// host = IP-literal / IPv4address / reg-name
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("http://[v7.a:b]/")?.host_str(), Some("[v7.a:b]"));
    /// assert_eq!(UriRef::parse("file:///x")?.host_str(), Some(""));
    /// assert_eq!(UriRef::parse("/x")?.host_str(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn host_str(&self) -> Option<&str> {
        self.slice(self.parts.host)
    }

    /// Which alternative of `host` matched, or `None` without an authority. First match wins (3.2.2):
    /// `1.2.3.4` is an `IPv4address`, `1.2.3.256` a `reg-name`.
    ///
    /// ```
    /// use rfc3986::{HostKind, UriRef};
    /// assert_eq!(UriRef::parse("//1.2.3.4")?.host_kind(), Some(HostKind::Ipv4address));
    /// assert_eq!(UriRef::parse("//1.2.3.256")?.host_kind(), Some(HostKind::RegName));
    /// assert_eq!(UriRef::parse("//[v1.x]")?.host_kind(), Some(HostKind::IpvFuture));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn host_kind(&self) -> Option<HostKind> {
        self.parts.host.is_some().then_some(self.parts.host_kind)
    }

    /// The host as a typed value ([RFC 3986 3.2.2](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2)), or `None` without an authority. IPv4
    /// and IPv6 addresses are converted to [`std::net`] values; an IPvFuture is split at its first `.`;
    /// a reg-name is given as written.
    ///
    /// ```text
    /// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    /// ```
    ///
    /// ```
    /// use rfc3986::{Host, UriRef};
    /// let r = UriRef::parse("//[v7.fe80::a+en1]/")?;
    /// assert_eq!(r.host(), Some(Host::IpvFuture { version: "7", address: "fe80::a+en1" }));
    /// let r = UriRef::parse("//[::ffff:192.0.2.1]")?;
    /// assert_eq!(r.host(), Some(Host::Ipv6("::ffff:192.0.2.1".parse().unwrap())));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn host(&self) -> Option<Host<'_>> {
        host_of(&self.text, &self.parts)
    }

    /// The port ([RFC 3986 3.2.3](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.3)) as written, without its `:`: `None` without a `:`,
    /// `Some("")` for `http://h:/` (an empty port, which RFC 3986 allows).
    ///
    /// ```text
    /// port = *DIGIT
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("http://h:/")?.port(), Some(""));
    /// assert_eq!(UriRef::parse("http://h:123456/")?.port(), Some("123456"));
    /// assert_eq!(UriRef::parse("http://h/")?.port(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn port(&self) -> Option<&str> {
        self.slice(self.parts.port)
    }

    /// The port as a number, when it is non-empty and fits in `u16` (RFC 3986 allows any number of
    /// digits: `http://h:99999/` is valid and gives `None` here; so does an empty port). Leading zeros are
    /// allowed: `:0080` gives 80.
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("http://h:0080")?.port_u16(), Some(80));
    /// assert_eq!(UriRef::parse("http://h:123456")?.port_u16(), None);
    /// assert_eq!(UriRef::parse("http://h:")?.port_u16(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn port_u16(&self) -> Option<u16> {
        port_number(self.port()?)
    }

    /// The path ([RFC 3986 3.3](https://www.rfc-editor.org/rfc/rfc3986#section-3.3)), always defined, possibly empty.
    ///
    /// ```text
    /// path = path-abempty / path-absolute / path-noscheme / path-rootless / path-empty
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("http://h")?.path(), "");
    /// assert_eq!(UriRef::parse("http://h/")?.path(), "/");
    /// assert_eq!(UriRef::parse("urn:a:b")?.path(), "a:b");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
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
        Segments::of_path(self.path())
    }

    /// The query ([RFC 3986 3.4](https://www.rfc-editor.org/rfc/rfc3986#section-3.4)) without its `?`: `None` without a `?`, `Some("")` for `a?`.
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("a?")?.query(), Some(""));
    /// assert_eq!(UriRef::parse("a")?.query(), None);
    /// assert_eq!(UriRef::parse("?x=/?y#f")?.query(), Some("x=/?y"));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn query(&self) -> Option<&str> {
        self.slice(self.parts.query)
    }

    /// The fragment ([RFC 3986 3.5](https://www.rfc-editor.org/rfc/rfc3986#section-3.5)) without its `#`: `None` without a `#`, `Some("")` for
    /// `a#`.
    ///
    /// ```text
    /// fragment = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("a#")?.fragment(), Some(""));
    /// assert_eq!(UriRef::parse("a")?.fragment(), None);
    /// assert!(UriRef::parse("a#b#c").is_err()); // "#" is not in the fragment's alphabet
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
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

    /// The inner reference, for edits that keep the scheme (so the value stays a URI).
    pub(crate) fn inner_mut(&mut self) -> &mut UriRef<'a> {
        &mut self.inner
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

    /// The scheme (RFC 3986 3.1) without its `:`, as written (case kept).
    pub fn scheme(&self) -> &str {
        self.inner.scheme().unwrap_or("")
    }

    /// Makes an owned value, copying the text if it was borrowed.
    #[must_use]
    pub fn into_owned(self) -> Uri<'static> {
        Uri {
            inner: self.inner.into_owned(),
        }
    }

    /// The same value as a [`UriRef`] (also what `Deref` gives: every accessor of [`UriRef`] works on a
    /// `Uri`).
    pub fn as_uri_ref(&self) -> &UriRef<'a> {
        &self.inner
    }

    /// The text as an owned `String`, without copying when the value already owns it.
    pub fn into_string(self) -> String {
        self.inner.into_string()
    }
}

impl<'a> std::ops::Deref for Uri<'a> {
    type Target = UriRef<'a>;

    /// The same value as a [`UriRef`]: its accessors (`authority`, `host`, `path`, ...) work on a `Uri`.
    fn deref(&self) -> &UriRef<'a> {
        &self.inner
    }
}

/// The host of `parts` as a typed value (see [`UriRef::host`]).
impl<'a> Segments<'a> {
    /// The segments of a path (RFC 3986 3.3): split at every `/`, after the one a rooted path begins with;
    /// none for the empty path. The one reading of segments behind every `path_segments`.
    pub(crate) fn of_path(path: &'a str) -> Segments<'a> {
        let rest = match path.strip_prefix('/') {
            Some(rest) => Some(rest),
            None if path.is_empty() => None,
            None => Some(path),
        };
        Segments { rest }
    }
}

pub(crate) fn host_of<'t>(text: &'t str, parts: &Parts) -> Option<Host<'t>> {
    let (start, end) = parts.host_address.get()?;
    let address = &text[start..end];
    Some(match parts.host_kind {
        HostKind::Ipv4address => Host::Ipv4(ipv4_from_text(address)),
        HostKind::Ipv6address => Host::Ipv6(ipv6_from_text(address)),
        HostKind::IpvFuture => {
            let (version, address) = address[1..].split_once('.').unwrap_or((&address[1..], ""));
            Host::IpvFuture { version, address }
        }
        HostKind::RegName => Host::RegName(address),
    })
}

/// The value of a `port = *DIGIT` when non-empty and at most 65535 (leading zeros allowed).
pub(crate) fn port_number(port: &str) -> Option<u16> {
    let digits = port.trim_start_matches('0');
    if port.is_empty() {
        None
    } else if digits.is_empty() {
        Some(0)
    } else {
        digits.parse().ok()
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
        debug_components("UriRef", self, f)
    }
}

impl fmt::Debug for Uri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_components("Uri", self, f)
    }
}

/// The `Debug` form of both value types: the text, then each component.
fn debug_components(name: &str, r: &UriRef<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.debug_struct(name)
        .field("text", &r.as_str())
        .field("scheme", &r.scheme())
        .field("authority", &r.authority())
        .field("userinfo", &r.userinfo())
        .field("host", &r.host())
        .field("port", &r.port())
        .field("path", &r.path())
        .field("query", &r.query())
        .field("fragment", &r.fragment())
        .finish()
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

// ---------------------------------------------------------------------------------------------------------
// The traits Rust users expect. Equality, hashing, ordering and `Borrow<str>` all use the text (the simple
// string comparison of RFC 3986 6.2.1), so a `HashSet<UriRef>` can be looked up with a `&str`.

impl std::borrow::Borrow<str> for UriRef<'_> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Uri<'_> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialOrd for UriRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UriRef<'_> {
    /// By text, byte for byte (consistent with `Eq`).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Uri<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Uri<'_> {
    /// By text, byte for byte (consistent with `Eq`).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.inner.cmp(&other.inner)
    }
}

/// `PartialEq` between a value type and text, both ways.
macro_rules! eq_text {
    ($($ty:ident),*) => {$(
        impl PartialEq<str> for $ty<'_> {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }
        impl PartialEq<&str> for $ty<'_> {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
        impl PartialEq<String> for $ty<'_> {
            fn eq(&self, other: &String) -> bool {
                self.as_str() == other
            }
        }
        impl PartialEq<$ty<'_>> for str {
            fn eq(&self, other: &$ty<'_>) -> bool {
                self == other.as_str()
            }
        }
        impl PartialEq<$ty<'_>> for &str {
            fn eq(&self, other: &$ty<'_>) -> bool {
                *self == other.as_str()
            }
        }
        impl PartialEq<$ty<'_>> for String {
            fn eq(&self, other: &$ty<'_>) -> bool {
                self == other.as_str()
            }
        }
        impl From<$ty<'_>> for String {
            /// The text, without copying when the value owns it.
            fn from(value: $ty<'_>) -> String {
                value.into_string()
            }
        }
    )*};
}
eq_text!(UriRef, Uri);

impl PartialEq<Uri<'_>> for UriRef<'_> {
    fn eq(&self, other: &Uri<'_>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<UriRef<'_>> for Uri<'_> {
    fn eq(&self, other: &UriRef<'_>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<'a> AsRef<UriRef<'a>> for UriRef<'a> {
    fn as_ref(&self) -> &UriRef<'a> {
        self
    }
}

impl<'a> AsRef<UriRef<'a>> for Uri<'a> {
    fn as_ref(&self) -> &UriRef<'a> {
        &self.inner
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
