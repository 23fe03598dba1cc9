//! Editing a value: one setter per component, [`UriRef::set_scheme`], [`UriRef::set_userinfo`],
//! [`UriRef::set_host`], [`UriRef::set_port`] (and [`UriRef::set_port_u16`]), [`UriRef::set_path`],
//! [`UriRef::set_query`], [`UriRef::set_fragment`], [`UriRef::push_segment`] and
//! [`UriRef::append_query_pairs`], change one component in place (`&mut self`; `None` makes a component
//! undefined): every edit of a value has this one style. [`UriRef::without_query`] and
//! [`UriRef::without_fragment`] are not edits but derived values, like [`normalize`](UriRef::normalize):
//! they give a copy and leave the value as it is. The same methods exist on [`Uri`], whose
//! [`set_scheme`](Uri::set_scheme) takes a scheme, not an `Option`: a URI always has one.
//!
//! Every edit goes through [`UriBuilder`]: the new component is matched against its own rule
//! (`query`, `fragment`, `path`, `segment`), the structure against RFC 3986 3.3 and 4.2 (a path after an
//! authority is empty or starts with `/`; without an authority it does not start with `//`; in a
//! relative-path reference its first segment has no `:`), and the recomposed text against
//! `URI-reference`. A rejected edit leaves the value unchanged and says why as a [`BuildError`].
//!
//! Components are text as written in a URI: percent-encode raw text first with
//! [`percent::encode`](crate::percent::encode).

use crate::engine::Rule;
use crate::recompose::BuildError;
use crate::recompose::UriBuilder;
use crate::value::uri::{Uri, UriRef};

impl UriRef<'_> {
    /// Replaces the scheme ([RFC 3986 3.1](https://datatracker.ietf.org/doc/html/rfc3986#section-3.1)),
    /// given without its `:`; `None` makes the reference relative (4.2).
    ///
    /// ```text
    /// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriRef};
    /// let mut r = UriRef::parse("http://h/a")?;
    /// r.set_scheme(Some("https"))?;
    /// assert_eq!(r.as_str(), "https://h/a");
    /// r.set_scheme(None)?;
    /// assert_eq!((r.as_str(), r.scheme()), ("//h/a", None));
    /// assert!(matches!(r.set_scheme(Some("1a")), Err(BuildError::InvalidComponent { component: "scheme", .. })));
    /// // Without a scheme, "a:b" would start with a scheme (4.2).
    /// assert_eq!(UriRef::parse("urn:a:b")?.set_scheme(None), Err(BuildError::ColonInFirstSegment));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `scheme`) when `scheme` is not in the rule `scheme`
    /// (`"1a"`, `"a b"`, `""`); [`BuildError::ColonInFirstSegment`] when removing it leaves a first path
    /// segment with a `:`. The value is unchanged on error.
    pub fn set_scheme(&mut self, scheme: Option<&str>) -> Result<(), BuildError> {
        let builder = UriBuilder::from(&*self);
        let builder = match scheme {
            Some(s) => builder.scheme(s),
            None => builder.without_scheme(),
        };
        *self = builder.build()?;
        Ok(())
    }

    /// Replaces the userinfo ([RFC 3986 3.2.1](https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.1)),
    /// given without its `@`; `None` removes it with its `@`, `Some("")` leaves an empty one (`//@h`).
    /// Percent-encode raw text first ([`Component::Userinfo`](crate::percent::Component::Userinfo)).
    ///
    /// ```text
    /// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriRef};
    /// let mut r = UriRef::parse("ftp://h/f")?;
    /// r.set_userinfo(Some("anonymous"))?;
    /// assert_eq!(r.as_str(), "ftp://anonymous@h/f");
    /// r.set_userinfo(None)?;
    /// assert_eq!(r.as_str(), "ftp://h/f");
    /// assert!(r.set_userinfo(Some("a@b")).is_err());
    /// assert_eq!(UriRef::parse("/f")?.set_userinfo(Some("u")), Err(BuildError::MissingHost { component: "userinfo" }));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `userinfo`) when `userinfo` is not in the rule
    /// `userinfo` (`"a@b"`, `"a b"`); [`BuildError::MissingHost`] when the reference has no authority.
    pub fn set_userinfo(&mut self, userinfo: Option<&str>) -> Result<(), BuildError> {
        let builder = UriBuilder::from(&*self);
        let builder = match userinfo {
            Some(u) => builder.userinfo(u),
            None => builder.without_userinfo(),
        };
        *self = builder.build()?;
        Ok(())
    }

    /// Replaces the host ([RFC 3986 3.2.2](https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.2)):
    /// a reg-name (possibly empty), an IPv4address, or an IP-literal with its brackets. A reference
    /// without an authority gets one (`//` and the host). `None` removes the whole authority (userinfo,
    /// host and port: there is no authority without a host, 3.2).
    ///
    /// ```text
    /// host       = IP-literal / IPv4address / reg-name
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, Host, UriRef};
    /// let mut r = UriRef::parse("http://u@example.com:8080/a")?;
    /// r.set_host(Some("[2001:db8::1]"))?;
    /// assert_eq!(r.as_str(), "http://u@[2001:db8::1]:8080/a");
    /// assert!(matches!(r.host(), Some(Host::Ipv6(_))));
    /// r.set_host(None)?;
    /// assert_eq!(r.as_str(), "http:/a");
    /// assert!(matches!(r.set_host(Some("exa mple.com")), Err(BuildError::InvalidComponent { component: "host", .. })));
    /// // A host needs a path that is empty or starts with "/" (3.3).
    /// assert_eq!(UriRef::parse("a")?.set_host(Some("h")), Err(BuildError::RelativePathWithAuthority));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `host`) when `host` is not in the rule `host`
    /// (`"a b"`, `"[::1"`); [`BuildError::RelativePathWithAuthority`] when the path does not fit after an
    /// authority; [`BuildError::PathStartsWithTwoSlashes`] when removing the authority leaves a path
    /// starting with `//`.
    pub fn set_host(&mut self, host: Option<&str>) -> Result<(), BuildError> {
        let builder = UriBuilder::from(&*self);
        let builder = match host {
            Some(h) => builder.host(h),
            None => builder.without_authority(),
        };
        *self = builder.build()?;
        Ok(())
    }

    /// Replaces the port ([RFC 3986 3.2.3](https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.3)) as
    /// text, without its `:`; `None` removes it with its `:`. `port = *DIGIT`, so `Some("")` (an empty
    /// port) and numbers over 65535 are in the grammar; [`set_port_u16`](Self::set_port_u16) takes a number.
    ///
    /// ```text
    /// port = *DIGIT
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriRef};
    /// let mut r = UriRef::parse("http://h/")?;
    /// r.set_port(Some("8080"))?;
    /// assert_eq!((r.as_str(), r.port_u16()), ("http://h:8080/", Some(8080)));
    /// r.set_port(None)?;
    /// assert_eq!(r.as_str(), "http://h/");
    /// assert!(matches!(r.set_port(Some("80a")), Err(BuildError::InvalidComponent { component: "port", .. })));
    /// assert_eq!(UriRef::parse("/a")?.set_port(Some("80")), Err(BuildError::MissingHost { component: "port" }));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `port`) when `port` is not digits;
    /// [`BuildError::MissingHost`] when the reference has no authority.
    pub fn set_port(&mut self, port: Option<&str>) -> Result<(), BuildError> {
        let builder = UriBuilder::from(&*self);
        let builder = match port {
            Some(p) => builder.port(p),
            None => builder.without_port(),
        };
        *self = builder.build()?;
        Ok(())
    }

    /// [`set_port`](Self::set_port) with a number, written in decimal without leading zeros; `None`
    /// removes the port.
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let mut r = UriRef::parse("https://h/")?;
    /// r.set_port_u16(Some(8443))?;
    /// assert_eq!(r.as_str(), "https://h:8443/");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::MissingHost`] when the reference has no authority.
    pub fn set_port_u16(&mut self, port: Option<u16>) -> Result<(), BuildError> {
        self.set_port(port.map(|p| p.to_string()).as_deref())
    }

    /// Replaces the query ([RFC 3986 3.4](https://datatracker.ietf.org/doc/html/rfc3986#section-3.4)),
    /// given without its `?`: `None` removes it with its `?`, `Some("")` leaves an empty query (`a?`).
    /// The fragment is kept.
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriRef};
    /// let mut r = UriRef::parse("/a?x#f")?;
    /// r.set_query(Some(""))?;
    /// assert_eq!((r.as_str(), r.query()), ("/a?#f", Some("")));
    /// r.set_query(None)?;
    /// assert_eq!((r.as_str(), r.query()), ("/a#f", None));
    /// let e = r.set_query(Some("a b")).unwrap_err();
    /// assert!(matches!(&e, BuildError::InvalidComponent { component: "query", error } if error.offset() == 1));
    /// assert_eq!(r.as_str(), "/a#f"); // unchanged
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `query`) when `query` is not in the rule `query`
    /// (`"a b"`, `"a#b"`).
    pub fn set_query(&mut self, query: Option<&str>) -> Result<(), BuildError> {
        let builder = UriBuilder::from(&*self);
        let builder = match query {
            Some(q) => builder.query(q),
            None => builder.without_query(),
        };
        *self = builder.build()?;
        Ok(())
    }

    /// Replaces the fragment ([RFC 3986 3.5](https://datatracker.ietf.org/doc/html/rfc3986#section-3.5)),
    /// given without its `#`: `None` removes it with its `#`, `Some("")` leaves an empty fragment (`a#`).
    ///
    /// ```text
    /// fragment = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let mut r = UriRef::parse("http://h/a")?;
    /// r.set_fragment(Some("s?x=/y"))?;
    /// assert_eq!(r.as_str(), "http://h/a#s?x=/y");
    /// r.set_fragment(Some(""))?;
    /// assert_eq!((r.as_str(), r.fragment()), ("http://h/a#", Some("")));
    /// assert!(r.set_fragment(Some("a#b")).is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `fragment`) when `fragment` is not in the rule
    /// `fragment` (`"a#b"`).
    pub fn set_fragment(&mut self, fragment: Option<&str>) -> Result<(), BuildError> {
        let builder = UriBuilder::from(&*self);
        let builder = match fragment {
            Some(f) => builder.fragment(f),
            None => builder.without_fragment(),
        };
        *self = builder.build()?;
        Ok(())
    }

    /// Replaces the path ([RFC 3986 3.3](https://datatracker.ietf.org/doc/html/rfc3986#section-3.3)).
    /// Which form it may take depends on the rest: after an authority it must be empty or start with `/`;
    /// without an authority it must not start with `//`; in a relative reference without an authority its
    /// first segment must not contain `:` (4.2; write `./a:b`).
    ///
    /// ```text
    /// path-abempty  = *( "/" segment )                    ; with an authority
    /// path-absolute = "/" [ segment-nz *( "/" segment ) ] ; without one
    /// path-noscheme = segment-nz-nc *( "/" segment )      ; relative reference
    /// path-rootless = segment-nz *( "/" segment )         ; URI
    /// path-empty    = 0<pchar>
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriRef};
    /// let mut r = UriRef::parse("http://h/a?q")?;
    /// r.set_path("")?;
    /// assert_eq!(r.as_str(), "http://h?q");
    /// assert_eq!(r.set_path("b"), Err(BuildError::RelativePathWithAuthority));
    /// let mut rel = UriRef::parse("a")?;
    /// assert_eq!(rel.set_path("a:b"), Err(BuildError::ColonInFirstSegment));
    /// assert_eq!(rel.set_path("//b"), Err(BuildError::PathStartsWithTwoSlashes));
    /// rel.set_path("./a:b")?;
    /// assert_eq!(rel.as_str(), "./a:b");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `path`) when `path` is not in the rule `path`
    /// (`"a b"`); [`BuildError::RelativePathWithAuthority`], [`BuildError::PathStartsWithTwoSlashes`],
    /// [`BuildError::ColonInFirstSegment`] when its form does not fit the other components.
    pub fn set_path(&mut self, path: &str) -> Result<(), BuildError> {
        *self = UriBuilder::from(&*self).path(path).build()?;
        Ok(())
    }

    /// Appends one segment to the path ([RFC 3986 3.3](https://datatracker.ietf.org/doc/html/rfc3986#section-3.3)),
    /// as written (percent-encode raw text with
    /// [`Component::PathSegment`](crate::percent::Component::PathSegment), which encodes `/`).
    ///
    /// The segment goes after a `/`: a path ending in `/` (its last segment is empty) gets the segment in
    /// that place (`/a/` + `b` = `/a/b`), any other non-empty path gets `/` and the segment (`/a` + `b` =
    /// `/a/b`), and an empty path becomes `/b` after an authority and `b` without one. Pushing `""` adds a
    /// trailing `/` (`/a` -> `/a/`; after an authority, an empty path becomes `/`).
    ///
    /// ```text
    /// segment = *pchar
    /// ```
    ///
    /// ```
    /// use rfc3986::{recompose::BuildError, UriRef};
    /// let mut r = UriRef::parse("http://h?q")?;
    /// r.push_segment("a")?;
    /// r.push_segment("b%2Fc")?;
    /// assert_eq!(r.as_str(), "http://h/a/b%2Fc?q");
    /// r.push_segment("")?;
    /// assert_eq!(r.as_str(), "http://h/a/b%2Fc/?q");
    /// r.push_segment("d")?;
    /// assert_eq!(r.as_str(), "http://h/a/b%2Fc/d?q");
    /// assert!(matches!(r.push_segment("e/f"), Err(BuildError::InvalidComponent { component: "segment", .. })));
    /// // A relative reference's first segment cannot hold ":" (4.2).
    /// assert_eq!(UriRef::parse("")?.push_segment("a:b"), Err(BuildError::ColonInFirstSegment));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `segment`) when `segment` is not in the rule
    /// `segment` (`"a/b"`, `"a b"`); the errors of [`set_path`](Self::set_path) for the new path.
    pub fn push_segment(&mut self, segment: &str) -> Result<(), BuildError> {
        crate::engine::validate(Rule::SEGMENT, segment).map_err(|error| {
            BuildError::InvalidComponent {
                component: "segment",
                error,
            }
        })?;
        let path = self.path();
        let new_path = if path.is_empty() {
            if self.authority().is_some() {
                format!("/{segment}")
            } else {
                segment.to_owned()
            }
        } else if path.ends_with('/') {
            format!("{path}{segment}")
        } else {
            format!("{path}/{segment}")
        };
        self.set_path(&new_path)
    }

    /// A copy without the query and its `?` ([RFC 3986 3.4](https://datatracker.ietf.org/doc/html/rfc3986#section-3.4));
    /// the fragment is kept. Removing a query never makes a value invalid, so this cannot fail.
    ///
    /// ```text
    /// URI-reference = scheme ":" hier-part [ "?" query ] [ "#" fragment ] / relative-ref
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("/a?#f")?.without_query().as_str(), "/a#f");
    /// assert_eq!(UriRef::parse("/a?q")?.without_query().query(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn without_query(&self) -> UriRef<'static> {
        let parts = self.parts();
        let Some((start, end)) = parts.query().get() else {
            return self.clone().into_owned();
        };
        let text = self.as_str();
        let mut out = String::with_capacity(text.len() - (end - start) - 1);
        out.push_str(&text[..start - 1]);
        out.push_str(&text[end..]);
        UriRef::from_written(Rule::URI_REFERENCE, out, parts.without_query())
    }

    /// A copy without the fragment and its `#` ([RFC 3986 3.5](https://datatracker.ietf.org/doc/html/rfc3986#section-3.5)):
    /// what resolution (5.1) and most comparisons want. Cannot fail.
    ///
    /// ```text
    /// URI-reference = scheme ":" hier-part [ "?" query ] [ "#" fragment ] / relative-ref
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("http://h/a?q#")?.without_fragment().as_str(), "http://h/a?q");
    /// assert_eq!(UriRef::parse("#f")?.without_fragment().as_str(), "");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn without_fragment(&self) -> UriRef<'static> {
        let parts = self.parts().without_fragment();
        let Some((start, _)) = self.parts().fragment().get() else {
            return self.clone().into_owned();
        };
        UriRef::from_written(
            Rule::URI_REFERENCE,
            self.as_str()[..start - 1].to_owned(),
            parts,
        )
    }
}

impl Uri<'_> {
    /// Replaces the scheme ([RFC 3986 3.1](https://datatracker.ietf.org/doc/html/rfc3986#section-3.1)),
    /// given without its `:`. A URI always has a scheme, so there is no `None`.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let mut uri = Uri::parse("http://h/a")?;
    /// uri.set_scheme("https")?;
    /// assert_eq!(uri.as_str(), "https://h/a");
    /// assert!(uri.set_scheme("").is_err());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::InvalidComponent`] (component `scheme`) when `scheme` is not in the rule `scheme`.
    pub fn set_scheme(&mut self, scheme: &str) -> Result<(), BuildError> {
        self.inner_mut().set_scheme(Some(scheme))
    }

    /// [`UriRef::set_userinfo`] on a URI.
    ///
    /// # Errors
    /// As [`UriRef::set_userinfo`].
    pub fn set_userinfo(&mut self, userinfo: Option<&str>) -> Result<(), BuildError> {
        self.inner_mut().set_userinfo(userinfo)
    }

    /// [`UriRef::set_host`] on a URI.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let mut uri = Uri::parse("http://example.com/a")?;
    /// uri.set_host(Some("example.org"))?;
    /// assert_eq!(uri.as_str(), "http://example.org/a");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`UriRef::set_host`].
    pub fn set_host(&mut self, host: Option<&str>) -> Result<(), BuildError> {
        self.inner_mut().set_host(host)
    }

    /// [`UriRef::set_port`] on a URI.
    ///
    /// # Errors
    /// As [`UriRef::set_port`].
    pub fn set_port(&mut self, port: Option<&str>) -> Result<(), BuildError> {
        self.inner_mut().set_port(port)
    }

    /// [`UriRef::set_port_u16`] on a URI.
    ///
    /// # Errors
    /// As [`UriRef::set_port_u16`].
    pub fn set_port_u16(&mut self, port: Option<u16>) -> Result<(), BuildError> {
        self.inner_mut().set_port_u16(port)
    }

    /// [`UriRef::set_query`] on a URI.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let mut uri = Uri::parse("http://h/a?x")?;
    /// uri.set_query(Some("y=1"))?;
    /// assert_eq!(uri.as_str(), "http://h/a?y=1");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`UriRef::set_query`].
    pub fn set_query(&mut self, query: Option<&str>) -> Result<(), BuildError> {
        self.inner_mut().set_query(query)
    }

    /// [`UriRef::set_fragment`] on a URI.
    ///
    /// # Errors
    /// As [`UriRef::set_fragment`].
    pub fn set_fragment(&mut self, fragment: Option<&str>) -> Result<(), BuildError> {
        self.inner_mut().set_fragment(fragment)
    }

    /// [`UriRef::set_path`] on a URI (the scheme is defined, so a first segment may hold `:`).
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let mut uri = Uri::parse("urn:a")?;
    /// uri.set_path("example:animal:ferret")?;
    /// assert_eq!(uri.as_str(), "urn:example:animal:ferret");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`UriRef::set_path`].
    pub fn set_path(&mut self, path: &str) -> Result<(), BuildError> {
        self.inner_mut().set_path(path)
    }

    /// [`UriRef::push_segment`] on a URI.
    ///
    /// # Errors
    /// As [`UriRef::push_segment`].
    pub fn push_segment(&mut self, segment: &str) -> Result<(), BuildError> {
        self.inner_mut().push_segment(segment)
    }

    /// [`UriRef::without_query`] on a URI.
    #[must_use]
    pub fn without_query(&self) -> Uri<'static> {
        let r = self.as_uri_ref().without_query();
        let parts = *r.parts();
        Uri::from_written(r.into_string(), parts)
    }

    /// [`UriRef::without_fragment`] on a URI: an absolute-URI (4.3), as a base URI must be (5.1).
    ///
    /// ```
    /// use rfc3986::Uri;
    /// assert_eq!(Uri::parse("http://h/a#f")?.without_fragment().as_str(), "http://h/a");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn without_fragment(&self) -> Uri<'static> {
        let r = self.as_uri_ref().without_fragment();
        let parts = *r.parts();
        Uri::from_written(r.into_string(), parts)
    }
}
