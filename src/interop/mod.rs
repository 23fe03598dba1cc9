//! Fitting into the Rust ecosystem, each behind its own cargo feature:
//!
//! - `serde`: [`UriRef`] and [`Uri`] serialize as their text and deserialize by parsing it; `serde_borrow`
//!   deserializes without copying where the format lends its input.
//! - `http`: `TryFrom` between [`UriRef`] / [`Uri`] and `http::Uri` (http 1.x).
//! - `url`: `TryFrom` between [`UriRef`] / [`Uri`] and `url::Url` (url 2.x).
//!
//! Every conversion is fallible in both directions, because each side accepts text the other does not;
//! the differences are listed on each `impl`. Conversions into this crate always end with a parse by the
//! grammar, so a value obtained here is exactly as valid as one from [`UriRef::parse`].

#[allow(unused_imports)] // not every feature uses every import
use crate::{
    error::ParseError,
    rule::Rule,
    value::uri::{Uri, UriRef},
};

#[cfg(any(feature = "http", feature = "url"))]
pub use crate::error::ConvertError;

// ---------------------------------------------------------------------------------------------------------
// serde
// ---------------------------------------------------------------------------------------------------------

#[cfg(feature = "serde")]
mod serde_impls {
    use std::fmt;

    use serde::de::{self, Deserialize, Deserializer, Visitor};
    use serde::{Serialize, Serializer};

    use super::{ParseError, Rule, Uri, UriRef};

    impl Serialize for UriRef<'_> {
        /// Serializes the text exactly as parsed ([`UriRef::as_str`]), as a string.
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str(self.as_str())
        }
    }

    impl Serialize for Uri<'_> {
        /// Serializes the text exactly as parsed ([`UriRef::as_str`]), as a string.
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str(self.as_str())
        }
    }

    impl<'de> Deserialize<'de> for UriRef<'_> {
        /// Deserializes a string and parses it as a `URI-reference` (RFC 3986 4.1). The value owns its text
        /// (taking the deserializer's `String` without copying when it hands one over), so `UriRef<'static>`
        /// is `DeserializeOwned`; to borrow from the input instead, see `serde_borrow`.
        ///
        /// # Errors
        /// A custom error with the rule, the byte offset and the [`ParseError`] message when the string is
        /// not a URI reference; the usual type error for anything but a string.
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_string(Owned(Rule::URI_REFERENCE))
        }
    }

    impl<'de> Deserialize<'de> for Uri<'_> {
        /// Deserializes a string and parses it as a `URI` (RFC 3986 3); owns its text, as for [`UriRef`].
        ///
        /// # Errors
        /// As for [`UriRef`]; a relative reference such as `/a` is an error.
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let r = deserializer.deserialize_string(Owned(Rule::URI))?;
            into_uri(r)
        }
    }

    fn into_uri<'a, E: de::Error>(r: UriRef<'a>) -> Result<Uri<'a>, E> {
        Uri::try_from(r).map_err(|r| E::custom(format_args!("not a URI: {}", r.as_str())))
    }

    /// `invalid RULE at byte N: DETAIL`: the error's own `Display` already starts with `at byte N`.
    fn error<E: de::Error>(e: ParseError) -> E {
        E::custom(format_args!("invalid {} {e}", e.rule()))
    }

    /// Parses a string by `rule` into an owned value.
    struct Owned(Rule);

    impl<'de> Visitor<'de> for Owned {
        type Value = UriRef<'static>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a string in the language of {}", self.0)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<UriRef<'static>, E> {
            UriRef::parse_rule(self.0, v)
                .map(UriRef::into_owned)
                .map_err(error)
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<UriRef<'static>, E> {
            UriRef::parse_owned(self.0, v).map_err(error)
        }
    }

    /// Parses a string by `rule`, borrowing it when the deserializer lends it.
    struct Borrowed(Rule);

    impl<'de> Visitor<'de> for Borrowed {
        type Value = UriRef<'de>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            Owned(self.0).expecting(f)
        }

        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<UriRef<'de>, E> {
            UriRef::parse_rule(self.0, v).map_err(error)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<UriRef<'de>, E> {
            Owned(self.0).visit_str(v)
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<UriRef<'de>, E> {
            Owned(self.0).visit_string(v)
        }
    }

    /// Deserialize functions that borrow the text from the input when the format can lend it (a JSON string
    /// without escapes, for example), for `#[serde(borrow, deserialize_with = "...")]`:
    ///
    /// ```
    /// # #[cfg(feature = "serde")] {
    /// #[derive(serde::Deserialize)]
    /// struct Link<'a> {
    ///     #[serde(borrow, deserialize_with = "rfc3986::interop::serde_borrow::uri_ref")]
    ///     href: rfc3986::UriRef<'a>,
    /// }
    /// # }
    /// ```
    ///
    /// Where the format cannot lend (escapes, readers), the value owns a copy, as the plain `Deserialize`
    /// impls do. The plain impls never borrow, so that `UriRef<'static>` and `Uri<'static>` are
    /// `DeserializeOwned`.
    pub mod serde_borrow {
        use serde::Deserializer;

        use super::{into_uri, Borrowed};
        use crate::rule::Rule;
        use crate::value::uri::{Uri, UriRef};

        /// Deserializes a `URI-reference` (RFC 3986 4.1), borrowing its text from the input when it can.
        ///
        /// # Errors
        /// As `UriRef`'s `Deserialize`.
        pub fn uri_ref<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<UriRef<'de>, D::Error> {
            deserializer.deserialize_str(Borrowed(Rule::URI_REFERENCE))
        }

        /// Deserializes a `URI` (RFC 3986 3), borrowing its text from the input when it can.
        ///
        /// # Errors
        /// As `Uri`'s `Deserialize`.
        pub fn uri<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Uri<'de>, D::Error> {
            let r = deserializer.deserialize_str(Borrowed(Rule::URI))?;
            into_uri(r)
        }
    }
}

#[cfg(feature = "serde")]
pub use serde_impls::serde_borrow;

// ---------------------------------------------------------------------------------------------------------
// http
// ---------------------------------------------------------------------------------------------------------

#[cfg(feature = "http")]
mod http_impls {
    use super::{ConvertError, Rule, Uri, UriRef};

    const HTTP: &str = "http::Uri";

    /// The RFC 3986 text of an `http::Uri`, recomposed (RFC 3986 5.3) from its components.
    fn text(uri: &http::Uri) -> String {
        let mut s = String::new();
        if let Some(scheme) = uri.scheme_str() {
            s.push_str(scheme);
            s.push(':');
        }
        if let Some(authority) = uri.authority() {
            s.push_str("//");
            s.push_str(authority.as_str());
        }
        s.push_str(uri.path());
        if let Some(query) = uri.query() {
            s.push('?');
            s.push_str(query);
        }
        s
    }

    impl TryFrom<&http::Uri> for UriRef<'static> {
        type Error = ConvertError;

        /// Recomposes the components of an `http::Uri` (RFC 3986 5.3) and parses the result as a
        /// `URI-reference`.
        ///
        /// `http::Uri` holds the request-target forms of HTTP (RFC 9112 3.2), which map as follows:
        /// absolute-form `http://h/p?q` stays as it is, except that http 1.x gives an empty path as `/`
        /// (`http://h` becomes `http://h/`) and lower-cases the schemes `http` and `https`; origin-form
        /// `/p?q` is a relative reference; asterisk-form `*` is the relative reference `*`; authority-form
        /// `h:443` has no scheme and becomes the network-path reference `//h:443` (as plain text `h:443`
        /// would be read as the scheme `h`). `http::Uri` never has a fragment.
        ///
        /// # Errors
        /// [`ConvertError::Parse`] when the text is not a URI reference: `http::Uri` accepts some characters
        /// RFC 3986 does not, such as `{`, `}`, `|`, `^` and `` ` `` in the path and query.
        fn try_from(uri: &http::Uri) -> Result<Self, ConvertError> {
            UriRef::parse_owned(Rule::URI_REFERENCE, text(uri)).map_err(ConvertError::Parse)
        }
    }

    impl TryFrom<http::Uri> for UriRef<'static> {
        type Error = ConvertError;

        /// As for `&http::Uri`.
        fn try_from(uri: http::Uri) -> Result<Self, ConvertError> {
            UriRef::try_from(&uri)
        }
    }

    impl TryFrom<&http::Uri> for Uri<'static> {
        type Error = ConvertError;

        /// As for [`UriRef`]; only the absolute-form (with a scheme) is a URI.
        ///
        /// # Errors
        /// [`ConvertError::Unsupported`] (target `rfc3986::Uri`) for the origin-, asterisk- and
        /// authority-forms, which have no scheme; [`ConvertError::Parse`] as for [`UriRef`].
        fn try_from(uri: &http::Uri) -> Result<Self, ConvertError> {
            Uri::try_from(UriRef::try_from(uri)?).map_err(|_| ConvertError::Unsupported {
                target: "rfc3986::Uri",
                what: "a relative reference",
            })
        }
    }

    impl TryFrom<http::Uri> for Uri<'static> {
        type Error = ConvertError;

        /// As for `&http::Uri`.
        fn try_from(uri: http::Uri) -> Result<Self, ConvertError> {
            Uri::try_from(&uri)
        }
    }

    impl TryFrom<&UriRef<'_>> for http::Uri {
        type Error = ConvertError;

        /// Parses the reference's text with `http::Uri`, for the forms HTTP has: a URI with an authority
        /// (absolute-form), a path starting with `/` and an optional query (origin-form), and `*`.
        ///
        /// The result may differ in text: http 1.x adds the path `/` to `http://h` and lower-cases the
        /// schemes `http` and `https`.
        ///
        /// # Errors
        /// - [`ConvertError::Unsupported`] for a fragment (`http::Uri` has none: drop it first, RFC 9110
        ///   4.2.5 says it is not sent), for a URI without an authority (`mailto:a@b`, which http 1.x would
        ///   read as the authority `mailto:a@b`), for a network-path reference (`//h/p`, which it would
        ///   read as a path) and for a relative-path reference (`a/b`);
        /// - [`ConvertError::Rejected`] when `http::Uri` rejects the text (an empty host, `http:///p`) or
        ///   reads a component differently. http 1.x accepts what RFC 3986 allows in a port (`:99999`,
        ///   `:`) and an IPvFuture host; it is checked here to split the text as the grammar does.
        fn try_from(r: &UriRef<'_>) -> Result<Self, ConvertError> {
            let unsupported = |what| ConvertError::Unsupported { target: HTTP, what };
            if r.fragment().is_some() {
                return Err(unsupported("a fragment"));
            }
            match (r.scheme(), r.authority()) {
                (Some(_), None) => return Err(unsupported("a URI without an authority")),
                (None, Some(_)) => return Err(unsupported("a network-path reference")),
                (None, None) if r.path() == "*" && r.query().is_none() => {}
                (None, None) if !r.path().starts_with('/') => {
                    return Err(unsupported("a relative-path reference"))
                }
                _ => {}
            }
            let uri = http::Uri::try_from(r.as_str()).map_err(|e| ConvertError::Rejected {
                target: HTTP,
                message: e.to_string(),
            })?;
            // http::Uri has its own parser: make sure it split the text as the grammar did.
            let same = uri.scheme_str().map(str::to_ascii_lowercase)
                == r.scheme().map(str::to_ascii_lowercase)
                && uri.authority().map(|a| a.as_str()) == r.authority().map(|a| a.as_str())
                && (uri.path() == r.path() || (uri.path() == "/" && r.path().is_empty()))
                && uri.query() == r.query();
            if !same {
                return Err(ConvertError::Rejected {
                    target: HTTP,
                    message: format!("it reads {:?} as {uri:?}", r.as_str()),
                });
            }
            Ok(uri)
        }
    }

    impl TryFrom<&Uri<'_>> for http::Uri {
        type Error = ConvertError;

        /// As for `&UriRef`: a URI converts when it has an authority and no fragment.
        fn try_from(uri: &Uri<'_>) -> Result<Self, ConvertError> {
            http::Uri::try_from(uri.as_uri_ref())
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// url
// ---------------------------------------------------------------------------------------------------------

#[cfg(feature = "url")]
mod url_impls {
    use super::{ConvertError, Rule, Uri, UriRef};

    impl TryFrom<&url::Url> for Uri<'static> {
        type Error = ConvertError;

        /// Parses the serialization of a `url::Url` ([`url::Url::as_str`]) as a `URI`.
        ///
        /// A `url::Url` follows the WHATWG URL Standard, not RFC 3986: parsing it already normalized the
        /// text (lower-case scheme and host, IDNA to punycode, default port removed, dot-segments removed,
        /// `/` as the path of `http://h`, `\` read as `/`, spaces and some other characters
        /// percent-encoded), and that normalized text is what is converted.
        ///
        /// # Errors
        /// [`ConvertError::Parse`] when the serialization is not an RFC 3986 URI: WHATWG leaves some
        /// characters unencoded that RFC 3986 forbids, such as `|`, `^`, `[` and `]` in a path, `{`, `}`,
        /// `|` and `` ` `` in a query, and `#` in a fragment (`http://h/#a#b`).
        fn try_from(url: &url::Url) -> Result<Self, ConvertError> {
            Uri::parse(url.as_str())
                .map(Uri::into_owned)
                .map_err(ConvertError::Parse)
        }
    }

    impl TryFrom<url::Url> for Uri<'static> {
        type Error = ConvertError;

        /// As for `&url::Url`, taking over the `Url`'s string without copying it.
        fn try_from(url: url::Url) -> Result<Self, ConvertError> {
            let r =
                UriRef::parse_owned(Rule::URI, String::from(url)).map_err(ConvertError::Parse)?;
            Ok(Uri::try_from(r).unwrap_or_else(|_| unreachable!("the rule URI has a scheme")))
        }
    }

    impl TryFrom<&url::Url> for UriRef<'static> {
        type Error = ConvertError;

        /// As for [`Uri`]: a `url::Url` is always absolute.
        fn try_from(url: &url::Url) -> Result<Self, ConvertError> {
            Uri::try_from(url).map(UriRef::from)
        }
    }

    impl TryFrom<url::Url> for UriRef<'static> {
        type Error = ConvertError;

        /// As for [`Uri`], without copying the string.
        fn try_from(url: url::Url) -> Result<Self, ConvertError> {
            Uri::try_from(url).map(UriRef::from)
        }
    }

    impl TryFrom<&Uri<'_>> for url::Url {
        type Error = ConvertError;

        /// Parses the URI's text with [`url::Url::parse`].
        ///
        /// The `Url`'s text may differ: WHATWG parsing normalizes (lower-cases the scheme and a special
        /// scheme's host, converts IDNA, removes the default port and dot-segments, adds the path `/` to
        /// `http://h`, decodes `%41`-style encodings of unreserved characters in hosts), much as RFC 3986
        /// 6.2.2 and 6.2.3 normalization does, but by different rules.
        ///
        /// # Errors
        /// [`ConvertError::Rejected`] with url's message when WHATWG rejects a valid RFC 3986 URI: a port
        /// above 65535 (`http://h:99999/`), a host that ends in a number but is not an IPv4 address
        /// (`http://1.2.3.256/`), an IPvFuture host (`http://[v1.x]/`), or a percent-encoded host that
        /// decodes to forbidden characters. Also `Rejected` when WHATWG would find a host where RFC 3986 has
        /// none or an empty one: for the special schemes (`http`, `https`, `ws`, `wss`, `ftp`) it reads
        /// `http:/p`, `http:p` and `http:///p` all as `http://p/`. (`file:/p` becomes `file:///p`, with an
        /// empty host, which is accepted.)
        fn try_from(uri: &Uri<'_>) -> Result<Self, ConvertError> {
            let url = parse_url(uri.as_str())?;
            // WHATWG reads a special scheme's missing or empty host from the path: `http:/p`, `http:p` and
            // `http:///p` all become `http://p/`.
            let url_host = url.host_str().filter(|h| !h.is_empty());
            if url_host.is_some() && uri.host_str().is_none_or(str::is_empty) {
                return Err(ConvertError::Rejected {
                    target: "url::Url",
                    message: format!(
                        "it reads {:?}, which has no host, as {:?}",
                        uri.as_str(),
                        url.as_str()
                    ),
                });
            }
            Ok(url)
        }
    }

    fn parse_url(text: &str) -> Result<url::Url, ConvertError> {
        url::Url::parse(text).map_err(|e| ConvertError::Rejected {
            target: "url::Url",
            message: e.to_string(),
        })
    }

    impl TryFrom<&UriRef<'_>> for url::Url {
        type Error = ConvertError;

        /// As for [`Uri`].
        ///
        /// # Errors
        /// [`ConvertError::Unsupported`] for a relative reference (a `url::Url` is always absolute: resolve
        /// the reference against a base URI first, RFC 3986 5); otherwise as for [`Uri`].
        fn try_from(r: &UriRef<'_>) -> Result<Self, ConvertError> {
            if !r.is_uri() {
                return Err(ConvertError::Unsupported {
                    target: "url::Url",
                    what: "a relative reference",
                });
            }
            parse_url(r.as_str())
        }
    }
}
