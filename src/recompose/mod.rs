//! Recomposition (RFC 3986 section 5.3): [`UriBuilder`] puts a URI reference together from its components,
//! checking each with its own grammar rule and the result with the whole grammar.
//!
//! Every component is matched by [`validate`](crate::validate) against its rule (`scheme`, `userinfo`,
//! `host`, `port`, `path`, `query`, `fragment`); the builder itself only enforces how the components fit
//! together (section 3 and 4.2), and then writes one string and parses it as a `URI-reference`, so the
//! grammar has the final word on the value returned.
//!
//! Components are taken as they are written in a URI: percent-encode raw text first with
//! [`percent::encode`](crate::percent::encode).

use std::borrow::Cow;
use std::net::IpAddr;

use crate::components::PathKind;

pub(crate) mod edit;
pub(crate) mod query;

use crate::engine::Rule;
use crate::value::uri::{Uri, UriRef};

/// Builds a [`UriRef`] or [`Uri`] from components (RFC 3986 section 5.3, "Component Recomposition").
///
/// Each component starts *undefined*; a setter defines it, possibly as the empty string, and the result
/// keeps the difference (5.3): `query("")` gives `a?`, no query gives `a`. The path is always defined and
/// starts empty. The authority is defined exactly when a host is: `host("")` gives the empty authority of
/// `file:///etc`.
///
/// Components are text as written in a URI (already percent-encoded): `host` takes a reg-name, an
/// IPv4address or an IP-literal in brackets, `port` digits. Setters take `&str`, `String` or a `Cow` (what
/// [`percent::encode`](crate::percent::encode) returns) and borrow when they can.
///
/// ```
/// use rfc3986::percent::{encode, Component};
/// use rfc3986::UriBuilder;
///
/// let uri = UriBuilder::new()
///     .scheme("https")
///     .host("example.com")
///     .port_u16(8443)
///     .path(format!("/search/{}", encode("a b/c", Component::PathSegment)))
///     .query(encode("q=À", Component::Query))
///     .fragment("")
///     .build_uri()?;
/// assert_eq!(uri.as_str(), "https://example.com:8443/search/a%20b%2Fc?q=%C3%80#");
/// assert_eq!(uri.fragment(), Some(""));
///
/// let reference = UriBuilder::new().path("../g").query("y").build()?;
/// assert_eq!(reference.as_str(), "../g?y");
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[must_use = "a builder does nothing until build() or build_uri()"]
pub struct UriBuilder<'a> {
    scheme: Option<Cow<'a, str>>,
    userinfo: Option<Cow<'a, str>>,
    host: Option<Cow<'a, str>>,
    port: Option<Cow<'a, str>>,
    path: Cow<'a, str>,
    query: Option<Cow<'a, str>>,
    fragment: Option<Cow<'a, str>>,
}

pub use crate::error::BuildError;

impl<'a> UriBuilder<'a> {
    /// A builder with every component undefined and an empty path: it builds the empty relative
    /// reference (`""`, which RFC 3986 4.2 allows: resolved, it is the base without its fragment).
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// let empty = UriBuilder::new().build()?;
    /// assert_eq!(empty.as_str(), "");
    /// assert_eq!((empty.scheme(), empty.query()), (None, None));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn new() -> UriBuilder<'a> {
        UriBuilder::default()
    }

    /// Defines the scheme ([RFC 3986 3.1](https://www.rfc-editor.org/rfc/rfc3986#section-3.1)), without
    /// its `:`. Its case is kept (schemes compare case-insensitively, 6.2.2.1).
    ///
    /// ```text
    /// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// assert_eq!(UriBuilder::new().scheme("Web+Feed").path("x").build()?.as_str(), "Web+Feed:x");
    /// assert!(UriBuilder::new().scheme("").build().is_err()); // at least one ALPHA
    /// assert!(UriBuilder::new().scheme("1a").build().is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn scheme(mut self, scheme: impl Into<Cow<'a, str>>) -> Self {
        self.scheme = Some(scheme.into());
        self
    }

    /// Defines the userinfo ([RFC 3986 3.2.1](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1)),
    /// without its `@`; needs a [host](Self::host). An empty userinfo is defined (`//@h`).
    ///
    /// ```text
    /// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// let uri = UriBuilder::new().scheme("ftp").userinfo("").host("h").build()?;
    /// assert_eq!((uri.as_str(), uri.userinfo()), ("ftp://@h", Some("")));
    /// assert!(UriBuilder::new().scheme("ftp").userinfo("a@b").host("h").build().is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn userinfo(mut self, userinfo: impl Into<Cow<'a, str>>) -> Self {
        self.userinfo = Some(userinfo.into());
        self
    }

    /// Defines the host ([RFC 3986 3.2.2](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2)), and
    /// with it the authority: a reg-name (possibly empty), an IPv4address, or an IP-literal *with* its
    /// brackets (`[2001:db8::1]`, `[v7.x]`).
    ///
    /// ```text
    /// host       = IP-literal / IPv4address / reg-name
    /// IP-literal = "[" ( IPv6address / IPvFuture ) "]"
    /// IPvFuture  = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    /// ```
    ///
    /// ```
    /// use rfc3986::{HostKind, UriBuilder};
    /// let uri = UriBuilder::new().scheme("file").host("").path("/etc").build()?;
    /// assert_eq!((uri.as_str(), uri.host_str()), ("file:///etc", Some("")));
    /// let future = UriBuilder::new().scheme("x").host("[v7.a:b]").build()?;
    /// assert_eq!(future.host_kind(), Some(HostKind::IpvFuture));
    /// assert!(UriBuilder::new().scheme("x").host("[v7]").build().is_err()); // IPvFuture needs "." and text
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn host(mut self, host: impl Into<Cow<'a, str>>) -> Self {
        self.host = Some(host.into());
        self
    }

    /// Defines the host as an IP address: `IPv4address` in dotted-decimal, or an IP-literal holding the
    /// IPv6 address in brackets, in Rust's display form (RFC 5952 text: `[2001:db8::1]`).
    ///
    /// ```
    /// use std::net::{IpAddr, Ipv6Addr};
    /// use rfc3986::UriBuilder;
    /// let ip = IpAddr::V6(Ipv6Addr::LOCALHOST);
    /// assert_eq!(UriBuilder::new().scheme("http").host_ip(ip).build()?.as_str(), "http://[::1]");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn host_ip(self, ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => self.host(v4.to_string()),
            IpAddr::V6(v6) => self.host(format!("[{v6}]")),
        }
    }

    /// Defines the port ([RFC 3986 3.2.3](https://www.rfc-editor.org/rfc/rfc3986#section-3.2.3)) as text,
    /// without its `:`. Needs a [host](Self::host).
    ///
    /// ```text
    /// port = *DIGIT
    /// ```
    ///
    /// So `""` (an empty port, `http://h:/`) and numbers beyond 65535 are in the grammar:
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// let uri = UriBuilder::new().scheme("http").host("h").port("123456").build()?;
    /// assert_eq!((uri.port(), uri.port_u16()), (Some("123456"), None));
    /// let empty = UriBuilder::new().scheme("http").host("h").port("").build()?;
    /// assert_eq!((empty.as_str(), empty.port()), ("http://h:", Some("")));
    /// assert!(UriBuilder::new().scheme("http").host("h").port("-1").build().is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn port(mut self, port: impl Into<Cow<'a, str>>) -> Self {
        self.port = Some(port.into());
        self
    }

    /// Defines the port from a number, in decimal without leading zeros (`port_u16(0)` writes `:0`, which
    /// the grammar allows; no service listens there).
    pub fn port_u16(self, port: u16) -> Self {
        self.port(port.to_string())
    }

    /// Sets the path ([RFC 3986 3.3](https://www.rfc-editor.org/rfc/rfc3986#section-3.3)), empty until
    /// set. Which path rule it must match depends on the other components (see [`build`](Self::build)).
    ///
    /// ```text
    /// path = path-abempty / path-absolute / path-noscheme / path-rootless / path-empty
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriBuilder};
    /// assert_eq!(UriBuilder::new().scheme("mailto").path("a@b").build()?.as_str(), "mailto:a@b");
    /// let e = UriBuilder::new().scheme("x").path("//a").build().unwrap_err();
    /// assert_eq!(e, BuildError::PathStartsWithTwoSlashes);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn path(mut self, path: impl Into<Cow<'a, str>>) -> Self {
        self.path = path.into();
        self
    }

    /// Defines the query ([RFC 3986 3.4](https://www.rfc-editor.org/rfc/rfc3986#section-3.4)), without
    /// its `?`. An empty query is defined (`?` is written).
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// let uri = UriBuilder::new().path("/a").query("").build()?;
    /// assert_eq!((uri.as_str(), uri.query()), ("/a?", Some("")));
    /// assert!(UriBuilder::new().query("a#b").build().is_err()); // "#" starts a fragment
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn query(mut self, query: impl Into<Cow<'a, str>>) -> Self {
        self.query = Some(query.into());
        self
    }

    /// Defines the fragment ([RFC 3986 3.5](https://www.rfc-editor.org/rfc/rfc3986#section-3.5)), without
    /// its `#`. An empty fragment is defined (`#` is written).
    ///
    /// ```text
    /// fragment = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// let uri = UriBuilder::new().path("/a").fragment("s?x=/y").build()?;
    /// assert_eq!((uri.as_str(), uri.fragment()), ("/a#s?x=/y", Some("s?x=/y")));
    /// assert!(UriBuilder::new().fragment("a#b").build().is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn fragment(mut self, fragment: impl Into<Cow<'a, str>>) -> Self {
        self.fragment = Some(fragment.into());
        self
    }

    /// Makes the scheme undefined again: the builder then builds a relative reference (RFC 3986 4.2).
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let uri = UriRef::parse("http://h/a")?;
    /// assert_eq!(UriBuilder::from(&uri).without_scheme().build()?.as_str(), "//h/a");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn without_scheme(mut self) -> Self {
        self.scheme = None;
        self
    }

    /// Makes the userinfo undefined again (no `@`, RFC 3986 3.2.1).
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let uri = UriRef::parse("ftp://user:secret@h/f")?;
    /// assert_eq!(UriBuilder::from(&uri).without_userinfo().build()?.as_str(), "ftp://h/f");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn without_userinfo(mut self) -> Self {
        self.userinfo = None;
        self
    }

    /// Makes the whole authority undefined (RFC 3986 3.2): userinfo, host and port. The path must then not
    /// start with `//`.
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let uri = UriRef::parse("file://u@h:1/etc")?;
    /// assert_eq!(UriBuilder::from(&uri).without_authority().build()?.as_str(), "file:/etc");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn without_authority(mut self) -> Self {
        self.userinfo = None;
        self.host = None;
        self.port = None;
        self
    }

    /// Makes the port undefined again (no `:`, RFC 3986 3.2.3).
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let uri = UriRef::parse("http://h:8080/")?;
    /// assert_eq!(UriBuilder::from(&uri).without_port().build()?.as_str(), "http://h/");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn without_port(mut self) -> Self {
        self.port = None;
        self
    }

    /// Makes the query undefined again (no `?`, RFC 3986 3.4); [`query("")`](Self::query) is the empty
    /// query instead.
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let r = UriRef::parse("/a?q#f")?;
    /// assert_eq!(UriBuilder::from(&r).without_query().build()?.as_str(), "/a#f");
    /// assert_eq!(UriBuilder::from(&r).query("").build()?.as_str(), "/a?#f");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn without_query(mut self) -> Self {
        self.query = None;
        self
    }

    /// Makes the fragment undefined again (no `#`, RFC 3986 3.5).
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let r = UriRef::parse("/a?q#f")?;
    /// assert_eq!(UriBuilder::from(&r).without_fragment().build()?.as_str(), "/a?q");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn without_fragment(mut self) -> Self {
        self.fragment = None;
        self
    }

    /// Recomposes the components (RFC 3986 5.3) into a URI reference: a URI when the scheme is defined, a
    /// relative reference (4.2) otherwise.
    ///
    /// # Errors
    /// In this order:
    /// - [`BuildError::InvalidComponent`] for the first component, in URI order, that its rule rejects:
    ///   `scheme`, `userinfo`, `host`, `port`, `path` (matched against the rule `path`, any of the five
    ///   forms), `query`, `fragment`;
    /// - [`BuildError::MissingHost`] for a userinfo or port without a host;
    /// - the path's form does not fit the other components (section 3.3 and 4.2): with an authority it
    ///   must be `path-abempty` ([`BuildError::RelativePathWithAuthority`]); without one it cannot start
    ///   with `//` ([`BuildError::PathStartsWithTwoSlashes`]); without a scheme either, its first segment
    ///   cannot contain `:` ([`BuildError::ColonInFirstSegment`]).
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriBuilder};
    /// let e = UriBuilder::new().scheme("http").host("exa mple.com").build().unwrap_err();
    /// assert!(matches!(e, BuildError::InvalidComponent { component: "host", .. }));
    /// assert_eq!(UriBuilder::new().path("a:b").build(), Err(BuildError::ColonInFirstSegment));
    /// assert_eq!(UriBuilder::new().path("./a:b").build()?.as_str(), "./a:b");
    /// assert_eq!(UriBuilder::new().scheme("urn").path("a:b").build()?.as_str(), "urn:a:b");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn build(&self) -> Result<UriRef<'static>, BuildError> {
        check("scheme", Rule::SCHEME, self.scheme.as_deref())?;
        check("userinfo", Rule::USERINFO, self.userinfo.as_deref())?;
        check("host", Rule::HOST, self.host.as_deref())?;
        check("port", Rule::PORT, self.port.as_deref())?;
        let path = &*self.path;
        let path_kind = crate::value::rule_match::parse_as(Rule::PATH, path)
            .map_err(|error| BuildError::InvalidComponent {
                component: "path",
                error,
            })?
            .path_kind()
            .unwrap_or_default();
        check("query", Rule::QUERY, self.query.as_deref())?;
        check("fragment", Rule::FRAGMENT, self.fragment.as_deref())?;

        // authority = [ userinfo "@" ] host [ ":" port ]
        if self.host.is_none() {
            if self.userinfo.is_some() {
                return Err(BuildError::MissingHost {
                    component: "userinfo",
                });
            }
            if self.port.is_some() {
                return Err(BuildError::MissingHost { component: "port" });
            }
        }
        // The rule `path` reports the first form that matches the whole path, in the order
        // path-absolute, path-abempty, path-noscheme, path-rootless, path-empty; the empty path is
        // reported as path-abempty.
        if !path.is_empty() {
            match path_kind {
                // "//" authority path-abempty
                PathKind::Noscheme | PathKind::Rootless if self.host.is_some() => {
                    return Err(BuildError::RelativePathWithAuthority)
                }
                // path-absolute: "/" but not "//"
                PathKind::Abempty if self.host.is_none() => {
                    return Err(BuildError::PathStartsWithTwoSlashes)
                }
                // relative-part = ... / path-noscheme / ...
                PathKind::Rootless if self.scheme.is_none() => {
                    return Err(BuildError::ColonInFirstSegment)
                }
                _ => {}
            }
        }

        UriRef::parse_owned(Rule::URI_REFERENCE, self.recompose())
            .map_err(BuildError::Recomposition)
    }

    /// Like [`build`](Self::build), for a URI: the scheme must be defined.
    ///
    /// # Errors
    /// [`BuildError::MissingScheme`] without a scheme, and every error of [`build`](Self::build).
    ///
    /// ```
    /// use rfc3986::UriBuilder;
    /// let uri = UriBuilder::new().scheme("mailto").path("who@example.com").build_uri()?;
    /// assert_eq!(uri.scheme(), "mailto");
    /// assert_eq!(uri.authority(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn build_uri(&self) -> Result<Uri<'static>, BuildError> {
        if self.scheme.is_none() {
            return Err(BuildError::MissingScheme);
        }
        Uri::try_from(self.build()?).map_err(|_| BuildError::MissingScheme)
    }

    /// The string of RFC 3986 5.3, written once.
    fn recompose(&self) -> String {
        let len = [
            &self.scheme,
            &self.userinfo,
            &self.host,
            &self.port,
            &self.query,
            &self.fragment,
        ]
        .iter()
        .map(|c| c.as_ref().map_or(0, |c| c.len() + 2))
        .sum::<usize>()
            + self.path.len();
        let mut result = String::with_capacity(len);
        // if defined(scheme) then append scheme and ":"
        if let Some(scheme) = &self.scheme {
            result.push_str(scheme);
            result.push(':');
        }
        // if defined(authority) then append "//" and authority
        if let Some(host) = &self.host {
            result.push_str("//");
            if let Some(userinfo) = &self.userinfo {
                result.push_str(userinfo);
                result.push('@');
            }
            result.push_str(host);
            if let Some(port) = &self.port {
                result.push(':');
                result.push_str(port);
            }
        }
        // append path
        result.push_str(&self.path);
        // if defined(query) then append "?" and query
        if let Some(query) = &self.query {
            result.push('?');
            result.push_str(query);
        }
        // if defined(fragment) then append "#" and fragment
        if let Some(fragment) = &self.fragment {
            result.push('#');
            result.push_str(fragment);
        }
        result
    }
}

/// Matches a defined component against its rule.
fn check(component: &'static str, rule: Rule, text: Option<&str>) -> Result<(), BuildError> {
    match text {
        Some(text) => crate::engine::validate(rule, text)
            .map_err(|error| BuildError::InvalidComponent { component, error }),
        None => Ok(()),
    }
}

impl<'a> From<&'a UriRef<'_>> for UriBuilder<'a> {
    /// A builder holding the components of `reference`, borrowed: `build` gives the same text back.
    ///
    /// ```
    /// use rfc3986::{UriBuilder, UriRef};
    /// let r = UriRef::parse("//u@h:1/p?q#f")?;
    /// let changed = UriBuilder::from(&r).host("example.com").build()?;
    /// assert_eq!(changed.as_str(), "//u@example.com:1/p?q#f");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    fn from(reference: &'a UriRef<'_>) -> UriBuilder<'a> {
        UriBuilder {
            scheme: reference.scheme().map(Cow::Borrowed),
            userinfo: reference.userinfo().map(Cow::Borrowed),
            host: reference.host_str().map(Cow::Borrowed),
            port: reference.port().map(Cow::Borrowed),
            path: Cow::Borrowed(reference.path()),
            query: reference.query().map(Cow::Borrowed),
            fragment: reference.fragment().map(Cow::Borrowed),
        }
    }
}

impl<'a> From<&'a Uri<'_>> for UriBuilder<'a> {
    /// A builder holding the components of `uri`, borrowed.
    fn from(uri: &'a Uri<'_>) -> UriBuilder<'a> {
        UriBuilder::from(uri.as_uri_ref())
    }
}
