//! The one value type of a reference, generic over the specification that defines its syntax: a
//! [`RiRef`] (a reference: `URI-reference` of RFC 3986, `IRI-reference` of RFC 3987) and an [`Ri`] (one
//! whose scheme is defined: `URI`, `IRI`), each one string plus the byte offsets of its components. The
//! [`Spec`] parameter ([`UriSpec`], [`IriSpec`]) keeps the two kinds apart in the type system: a
//! [`UriRef`](crate::UriRef) is a `RiRef<UriSpec>`, an [`IriRef`](crate::iri::IriRef) a
//! `RiRef<IriSpec>`, and every accessor is written once, here. What depends on the specification
//! (parsing, mapping between the two, resolution's argument types) is in `uri.rs` and `iri/`.
//!
//! Also the parts of a value: [`Authority`], [`Host`], [`Segments`].

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::components::{HostKind, PathKind, RefParts, Slot};

mod sealed {
    /// Only this crate defines specifications.
    pub trait Sealed {}
}

/// The specification whose syntax a value follows: [`UriSpec`] (RFC 3986) or [`IriSpec`] (RFC 3987).
/// Sealed: only this crate implements it, so a value of either kind is always one its own grammar
/// accepted (or that this crate wrote by that grammar).
pub trait Spec:
    sealed::Sealed + Copy + fmt::Debug + Eq + Hash + Ord + Send + Sync + 'static
{
    /// The name of the reference type (`UriRef`, `IriRef`), for `Debug`.
    const REFERENCE_TYPE: &'static str;
    /// The name of the type with a scheme (`Uri`, `Iri`), for `Debug`.
    const ABSOLUTE_TYPE: &'static str;
    /// What a reference is called in messages (`a URI reference`).
    const REFERENCE_KIND: &'static str;
    /// The ABNF names of the rules whose matches are values of this specification (RFC 3986 4.1, 3,
    /// 4.2, 4.3; RFC 3987 2.2).
    const REFERENCE_RULES: &'static [&'static str];
}

/// The specification of URIs, RFC 3986: the parameter of [`UriRef`](crate::UriRef) and
/// [`Uri`](crate::Uri). A type only (it has no values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UriSpec {}

/// The specification of IRIs, RFC 3987: the parameter of [`IriRef`](crate::iri::IriRef) and
/// [`Iri`](crate::iri::Iri). A type only (it has no values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IriSpec {}

impl sealed::Sealed for UriSpec {}
impl sealed::Sealed for IriSpec {}

impl Spec for UriSpec {
    const REFERENCE_TYPE: &'static str = "UriRef";
    const ABSOLUTE_TYPE: &'static str = "Uri";
    const REFERENCE_KIND: &'static str = "a URI reference";
    const REFERENCE_RULES: &'static [&'static str] =
        &["URI-reference", "URI", "relative-ref", "absolute-URI"];
}

impl Spec for IriSpec {
    const REFERENCE_TYPE: &'static str = "IriRef";
    const ABSOLUTE_TYPE: &'static str = "Iri";
    const REFERENCE_KIND: &'static str = "an IRI reference";
    const REFERENCE_RULES: &'static [&'static str] =
        &["IRI-reference", "IRI", "irelative-ref", "absolute-IRI"];
}

/// A reference of the specification `S` (a URI reference, RFC 3986 4.1; an IRI reference, RFC 3987
/// 2.2), as one string (borrowed or owned) plus the offsets of its components. Used through its
/// aliases [`UriRef`](crate::UriRef) and [`IriRef`](crate::iri::IriRef), whose pages show the parsers.
///
/// ```text
/// URI-reference = URI / relative-ref
/// IRI-reference = IRI / irelative-ref
/// ```
///
/// Components keep the RFC's distinction between *undefined* (`None`) and *empty* (`Some("")`), which
/// recomposition (5.3) and resolution (5.2) depend on: `http://h?` has an empty query, `http://h` none.
/// The path is always defined, possibly empty.
///
/// `Display` and [`as_str`](Self::as_str) give the input back byte for byte. `Eq`, `Hash` and `Ord`
/// compare that text: the simple string comparison of RFC 3986 6.2.1, under which `http://a/%7e` and
/// `http://a/~` differ.
///
/// ```
/// use rfc3986::UriRef;
/// let r = UriRef::parse("//example.com:8042/over/there?name=ferret#nose")?;
/// assert_eq!(r.scheme(), None);
/// assert_eq!(r.authority().unwrap().as_str(), "example.com:8042");
/// assert_eq!(r.port_u16(), Some(8042));
/// assert_eq!(r.path(), "/over/there");
/// assert_eq!(r.path_segments().collect::<Vec<_>>(), ["over", "there"]);
/// assert_eq!(r.query(), Some("name=ferret"));
/// assert_eq!(r.fragment(), Some("nose"));
/// assert_eq!(r.to_string(), "//example.com:8042/over/there?name=ferret#nose");
/// # Ok::<(), rfc3986::Error>(())
/// ```
///
/// The two kinds do not mix: an IRI reference is not a URI reference until it is mapped
/// ([`IriRef::to_uri`](crate::iri::IriRef::to_uri), RFC 3987 3.1).
///
/// ```compile_fail
/// fn wants_a_uri(_: &rfc3986::UriRef<'_>) {}
/// let iri = rfc3986::iri::IriRef::parse("/caf\u{e9}").unwrap();
/// wants_a_uri(&iri);
/// ```
///
/// ```compile_fail
/// // Resolving a URI reference against an IRI base: map the base first (Iri::to_uri).
/// let base = rfc3986::iri::Iri::parse("http://\u{e9}.example/a").unwrap();
/// let _ = rfc3986::UriRef::parse("b").unwrap().resolve_against(&base);
/// ```
///
/// ```compile_fail
/// let uri = rfc3986::UriRef::parse("/a").unwrap();
/// let iri = rfc3986::iri::IriRef::parse("/a").unwrap();
/// let _ = uri == iri; // different kinds: compare the mapped values (IriRef::to_uri)
/// ```
pub struct RiRef<'a, S: Spec> {
    pub(crate) text: Cow<'a, str>,
    pub(crate) parts: RefParts,
    spec: PhantomData<S>,
}

/// A reference of the specification `S` whose scheme is defined (a URI, RFC 3986 3; an IRI, RFC 3987
/// 2.2). Used through its aliases [`Uri`](crate::Uri) and [`Iri`](crate::iri::Iri). Every accessor of
/// [`RiRef`] works on it (through `Deref`), except that [`scheme`](Self::scheme) is not optional.
///
/// ```text
/// URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
/// IRI = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]
/// ```
///
/// ```
/// use rfc3986::{Host, Uri};
/// let u = Uri::parse("foo://example.com:8042/over/there?name=ferret#nose")?;
/// assert_eq!(u.scheme(), "foo");
/// assert_eq!(u.host(), Some(Host::RegName("example.com")));
/// let u = Uri::parse("urn:example:animal:ferret:nose")?;
/// assert!(u.authority().is_none());
/// assert_eq!(u.path(), "example:animal:ferret:nose");
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub struct Ri<'a, S: Spec> {
    pub(crate) inner: RiRef<'a, S>,
}

/// The authority of a reference (RFC 3986 section 3.2; `iauthority`, RFC 3987 2.2), from
/// [`RiRef::authority`]: its text without the leading `//` and its components, borrowed from the
/// reference.
///
/// ```text
/// authority = [ userinfo "@" ] host [ ":" port ]
/// ```
///
/// `Eq` and `Hash` compare the text; `Display` writes it.
#[derive(Clone, Copy)]
pub struct Authority<'t> {
    text: &'t str,
    whole: &'t str,
    parts: &'t RefParts,
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
    /// `reg-name` (`ireg-name` in an IRI), as written (possibly empty, possibly percent-encoded, case
    /// kept).
    RegName(&'a str),
}

/// Iterator over the segments of a path, from [`RiRef::path_segments`].
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

impl<'a, S: Spec> RiRef<'a, S> {
    /// The value of `text` whose components are `parts`, which the caller has from `S`'s grammar (a
    /// parse, a match of one of `S::REFERENCE_RULES` in the order of RFC 3986 4.1, or a writer that
    /// records what it writes).
    pub(crate) fn from_parts(text: Cow<'a, str>, parts: RefParts) -> RiRef<'a, S> {
        RiRef {
            text,
            parts,
            spec: PhantomData,
        }
    }

    /// The components, as the parser or the writer recorded them.
    pub(crate) fn parts(&self) -> &RefParts {
        &self.parts
    }

    /// Makes an owned value, copying the text if it was borrowed.
    #[must_use]
    pub fn into_owned(self) -> RiRef<'static, S> {
        RiRef::from_parts(Cow::Owned(self.text.into_owned()), self.parts)
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
        self.slice(self.parts.scheme())
    }

    /// The authority ([RFC 3986 3.2](https://www.rfc-editor.org/rfc/rfc3986#section-3.2)) as a typed
    /// value ([`Authority`]: its text without the leading `//`, its userinfo, host and port): `None` when
    /// there is no `//`; an authority whose text is empty for `file:///x`.
    ///
    /// ```text
    /// authority = [ userinfo "@" ] host [ ":" port ]
    /// ```
    ///
    /// ```
    /// use rfc3986::{Host, UriRef};
    /// assert_eq!(UriRef::parse("file:///etc")?.authority().unwrap().as_str(), "");
    /// assert!(UriRef::parse("mailto:a@b")?.authority().is_none());
    /// let r = UriRef::parse("//u@h:1")?;
    /// let authority = r.authority().unwrap();
    /// assert_eq!(authority.as_str(), "u@h:1");
    /// assert_eq!((authority.userinfo(), authority.host(), authority.port_u16()),
    ///            (Some("u"), Host::RegName("h"), Some(1)));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn authority(&self) -> Option<Authority<'_>> {
        let (start, end) = self.parts.authority().get()?;
        Some(Authority {
            text: &self.text[start..end],
            whole: &self.text,
            parts: &self.parts,
        })
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
        self.slice(self.parts.userinfo())
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
        self.slice(self.parts.host())
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
        self.parts.has_authority().then_some(self.parts.host_kind())
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
        host_of(
            &self.text,
            self.parts.host_address(),
            self.parts.host_kind(),
        )
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
        self.slice(self.parts.port())
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
        let (start, end) = self.parts.path();
        &self.text[start..end]
    }

    /// Which of the five path rules the path matched (`path-abempty` after an authority, ...).
    pub fn path_kind(&self) -> PathKind {
        self.parts.path_kind()
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
        self.slice(self.parts.query())
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
        self.slice(self.parts.fragment())
    }

    /// Whether the scheme is defined (a URI or an IRI rather than a relative reference).
    pub(crate) fn has_scheme(&self) -> bool {
        self.parts.has_scheme()
    }

    /// The reference as an [`Ri`] when its scheme is defined, `None` for a relative reference.
    pub(crate) fn to_absolute(&self) -> Option<Ri<'a, S>> {
        self.has_scheme().then(|| Ri {
            inner: self.clone(),
        })
    }
}

impl<'a, S: Spec> Ri<'a, S> {
    /// The scheme ([RFC 3986 3.1](https://www.rfc-editor.org/rfc/rfc3986#section-3.1)) without its `:`,
    /// as written (case kept).
    pub fn scheme(&self) -> &str {
        self.inner.scheme().unwrap_or("")
    }

    /// Makes an owned value, copying the text if it was borrowed.
    #[must_use]
    pub fn into_owned(self) -> Ri<'static, S> {
        Ri {
            inner: self.inner.into_owned(),
        }
    }

    /// The text as an owned `String`, without copying when the value already owns it.
    pub fn into_string(self) -> String {
        self.inner.into_string()
    }

    /// The inner reference, for edits that keep the scheme (so the value keeps it).
    pub(crate) fn inner_mut(&mut self) -> &mut RiRef<'a, S> {
        &mut self.inner
    }
}

impl<'a, S: Spec> std::ops::Deref for Ri<'a, S> {
    type Target = RiRef<'a, S>;

    /// The same value as a reference: its accessors (`authority`, `host`, `path`, ...) work here.
    fn deref(&self) -> &RiRef<'a, S> {
        &self.inner
    }
}

impl<'t> Authority<'t> {
    fn slice(&self, slot: Slot) -> Option<&'t str> {
        slot.get().map(|(s, e)| &self.whole[s..e])
    }

    /// The authority as written, without the leading `//` (empty for `file:///x`).
    pub fn as_str(&self) -> &'t str {
        self.text
    }

    /// The userinfo ([RFC 3986 3.2.1](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1)) without its
    /// `@`: `None` without an `@`, `Some("")` for `//@host`.
    pub fn userinfo(&self) -> Option<&'t str> {
        self.slice(self.parts.userinfo())
    }

    /// The host ([RFC 3986 3.2.2](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2)) as written,
    /// brackets included for an IP-literal; empty for an empty reg-name. Every authority has one.
    pub fn host_str(&self) -> &'t str {
        self.slice(self.parts.host()).unwrap_or("")
    }

    /// Which alternative of `host = IP-literal / IPv4address / reg-name` matched.
    pub fn host_kind(&self) -> HostKind {
        self.parts.host_kind()
    }

    /// The host as a typed value (see [`RiRef::host`]).
    pub fn host(&self) -> Host<'t> {
        host_of(
            self.whole,
            self.parts.host_address(),
            self.parts.host_kind(),
        )
        .unwrap_or(Host::RegName(""))
    }

    /// The port ([RFC 3986 3.2.3](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.3)) as written,
    /// without its `:`: `None` without a `:`, `Some("")` for an empty port.
    pub fn port(&self) -> Option<&'t str> {
        self.slice(self.parts.port())
    }

    /// The port as a number, when it is non-empty and fits in `u16` (see [`RiRef::port_u16`]).
    pub fn port_u16(&self) -> Option<u16> {
        port_number(self.port()?)
    }
}

impl fmt::Display for Authority<'_> {
    /// The authority as written, without the `//`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl fmt::Debug for Authority<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authority")
            .field("text", &self.text)
            .field("userinfo", &self.userinfo())
            .field("host", &self.host())
            .field("port", &self.port())
            .finish()
    }
}

impl PartialEq for Authority<'_> {
    /// Compares the text.
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Authority<'_> {}

impl Hash for Authority<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl PartialEq<str> for Authority<'_> {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for Authority<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

/// The host whose address (inside an IP-literal's brackets) is at `address` in `text`, of the kind
/// `kind`, as a typed value (see [`RiRef::host`]); `None` when `address` is.
pub(crate) fn host_of(text: &str, address: Slot, kind: HostKind) -> Option<Host<'_>> {
    let (start, end) = address.get()?;
    let address = &text[start..end];
    Some(match kind {
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

impl<S: Spec> Clone for RiRef<'_, S> {
    fn clone(&self) -> Self {
        RiRef::from_parts(self.text.clone(), self.parts)
    }
}

impl<S: Spec> Clone for Ri<'_, S> {
    fn clone(&self) -> Self {
        Ri {
            inner: self.inner.clone(),
        }
    }
}

impl<S: Spec> fmt::Display for RiRef<'_, S> {
    /// The text exactly as parsed (RFC 3986 5.3: recomposing the components gives it back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<S: Spec> fmt::Display for Ri<'_, S> {
    /// The text exactly as parsed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<S: Spec> fmt::Debug for RiRef<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_components(S::REFERENCE_TYPE, self, f)
    }
}

impl<S: Spec> fmt::Debug for Ri<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_components(S::ABSOLUTE_TYPE, self, f)
    }
}

/// The `Debug` form of the value types: the text, then each component.
fn debug_components<S: Spec>(
    name: &str,
    r: &RiRef<'_, S>,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    f.debug_struct(name)
        .field("text", &r.as_str())
        .field("scheme", &r.scheme())
        .field("authority", &r.authority().map(|a| a.as_str()))
        .field("userinfo", &r.userinfo())
        .field("host", &r.host())
        .field("port", &r.port())
        .field("path", &r.path())
        .field("query", &r.query())
        .field("fragment", &r.fragment())
        .finish()
}

// ---------------------------------------------------------------------------------------------------------
// The traits Rust users expect. Equality, hashing, ordering and `Borrow<str>` all use the text (the simple
// string comparison of RFC 3986 6.2.1, RFC 3987 5.3.1), so a `HashSet<UriRef>` can be looked up with a
// `&str`. Values of different specifications are not comparable.

impl<S: Spec> PartialEq for RiRef<'_, S> {
    /// Simple string comparison (RFC 3986 6.2.1).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<S: Spec> Eq for RiRef<'_, S> {}

impl<S: Spec> Hash for RiRef<'_, S> {
    /// Hashes the text, consistent with `Eq`.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl<S: Spec> PartialEq for Ri<'_, S> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<S: Spec> Eq for Ri<'_, S> {}

impl<S: Spec> Hash for Ri<'_, S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl<S: Spec> PartialOrd for RiRef<'_, S> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<S: Spec> Ord for RiRef<'_, S> {
    /// By text, byte for byte (consistent with `Eq`).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl<S: Spec> PartialOrd for Ri<'_, S> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<S: Spec> Ord for Ri<'_, S> {
    /// By text, byte for byte (consistent with `Eq`).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.inner.cmp(&other.inner)
    }
}

impl<S: Spec> AsRef<str> for RiRef<'_, S> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<S: Spec> AsRef<str> for Ri<'_, S> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<S: Spec> std::borrow::Borrow<str> for RiRef<'_, S> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl<S: Spec> std::borrow::Borrow<str> for Ri<'_, S> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

/// `PartialEq` between a value type and text, both ways, and the conversion to `String`.
macro_rules! eq_text {
    ($($ty:ident),*) => {$(
        impl<S: Spec> PartialEq<str> for $ty<'_, S> {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }
        impl<S: Spec> PartialEq<&str> for $ty<'_, S> {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
        impl<S: Spec> PartialEq<String> for $ty<'_, S> {
            fn eq(&self, other: &String) -> bool {
                self.as_str() == other
            }
        }
        impl<S: Spec> PartialEq<$ty<'_, S>> for str {
            fn eq(&self, other: &$ty<'_, S>) -> bool {
                self == other.as_str()
            }
        }
        impl<S: Spec> PartialEq<$ty<'_, S>> for &str {
            fn eq(&self, other: &$ty<'_, S>) -> bool {
                *self == other.as_str()
            }
        }
        impl<S: Spec> PartialEq<$ty<'_, S>> for String {
            fn eq(&self, other: &$ty<'_, S>) -> bool {
                self == other.as_str()
            }
        }
        impl<S: Spec> From<$ty<'_, S>> for String {
            /// The text, without copying when the value owns it.
            fn from(value: $ty<'_, S>) -> String {
                value.into_string()
            }
        }
    )*};
}
eq_text!(RiRef, Ri);

impl<S: Spec> PartialEq<Ri<'_, S>> for RiRef<'_, S> {
    fn eq(&self, other: &Ri<'_, S>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<S: Spec> PartialEq<RiRef<'_, S>> for Ri<'_, S> {
    fn eq(&self, other: &RiRef<'_, S>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<'a, S: Spec> AsRef<RiRef<'a, S>> for RiRef<'a, S> {
    fn as_ref(&self) -> &RiRef<'a, S> {
        self
    }
}

impl<'a, S: Spec> AsRef<RiRef<'a, S>> for Ri<'a, S> {
    fn as_ref(&self) -> &RiRef<'a, S> {
        &self.inner
    }
}

impl<'a, S: Spec> From<Ri<'a, S>> for RiRef<'a, S> {
    fn from(value: Ri<'a, S>) -> RiRef<'a, S> {
        value.inner
    }
}

impl<'a, S: Spec> TryFrom<RiRef<'a, S>> for Ri<'a, S> {
    type Error = RiRef<'a, S>;

    /// A reference with a scheme becomes an `Ri`; a relative reference is given back as the error.
    fn try_from(r: RiRef<'a, S>) -> Result<Self, RiRef<'a, S>> {
        if r.has_scheme() {
            Ok(Ri { inner: r })
        } else {
            Err(r)
        }
    }
}
