//! Conversions behind the `serde`, `http` and `url` features.

#[cfg(feature = "serde")]
mod serde_feature {
    use rfc3986::{Uri, UriRef};
    use serde::Deserialize;

    #[test]
    fn serialize_as_text() {
        let r = UriRef::parse("../g?y#s").unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), r#""../g?y#s""#);
        let u = Uri::parse("http://a/b").unwrap();
        assert_eq!(serde_json::to_string(&u).unwrap(), r#""http://a/b""#);
    }

    #[test]
    fn deserialize_owned() {
        let r: UriRef<'static> = serde_json::from_str(r#""//h/p?q""#).unwrap();
        assert_eq!(r.host_str(), Some("h"));
        // DeserializeOwned: from a reader, and from a value.
        let r: UriRef<'static> = serde_json::from_reader(&br#""a/b""#[..]).unwrap();
        assert_eq!(r.path(), "a/b");
        let u: Uri<'static> =
            serde_json::from_value(serde_json::Value::String("urn:a:b".into())).unwrap();
        assert_eq!(u.scheme(), "urn");
        // An escape forces a copy; the result is the unescaped text.
        let r: UriRef<'static> = serde_json::from_str(r#""a\/b""#).unwrap();
        assert_eq!(r.as_str(), "a/b");
    }

    #[test]
    fn deserialize_round_trip() {
        for text in ["", "#", "foo://u@[::1]:/p?#", "mailto:a@b"] {
            let r = UriRef::parse(text).unwrap();
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<UriRef<'_>>(&json).unwrap(), r);
        }
    }

    #[test]
    fn deserialize_error_has_parse_error_message() {
        let e = serde_json::from_str::<UriRef<'_>>(r#""http://a/b c""#).unwrap_err();
        let message = e.to_string();
        assert!(
            message.contains("invalid URI-reference at byte 10"),
            "{message}"
        );
        assert!(message.contains("space not allowed here"), "{message}");
        // The position is said once (the error's own Display starts with "at byte N").
        assert_eq!(message.matches("at byte").count(), 1, "{message}");
        let e = serde_json::from_str::<Uri<'_>>(r#""/relative""#).unwrap_err();
        assert!(e.to_string().contains("invalid URI at byte"), "{e}");
        let e = serde_json::from_str::<UriRef<'_>>("42").unwrap_err();
        assert!(
            e.to_string()
                .contains("a string in the language of URI-reference"),
            "{e}"
        );
    }

    #[derive(Deserialize)]
    struct Link<'a> {
        #[serde(borrow, deserialize_with = "rfc3986::interop::serde_borrow::uri_ref")]
        href: UriRef<'a>,
        #[serde(borrow, deserialize_with = "rfc3986::interop::serde_borrow::uri")]
        base: Uri<'a>,
        owned: UriRef<'static>,
    }

    fn within(inner: &str, outer: &str) -> bool {
        let range = outer.as_bytes().as_ptr_range();
        range.contains(&inner.as_ptr())
    }

    #[test]
    fn deserialize_borrowed() {
        let json = String::from(r#"{"href": "../g", "base": "http://a/b/c/d;p?q", "owned": "x"}"#);
        let link: Link<'_> = serde_json::from_str(&json).unwrap();
        assert_eq!(link.href.as_str(), "../g");
        assert_eq!(link.base.scheme(), "http");
        assert!(within(link.href.as_str(), &json));
        assert!(within(link.base.as_str(), &json));
        assert!(!within(link.owned.as_str(), &json));
        // With an escape the text cannot be lent: it is copied.
        let json = String::from(r#"{"href": "a\/b", "base": "s:", "owned": ""}"#);
        let link: Link<'_> = serde_json::from_str(&json).unwrap();
        assert_eq!(link.href.as_str(), "a/b");
        assert!(!within(link.href.as_str(), &json));
        let json = r#"{"href": "a", "base": "/not-a-uri", "owned": ""}"#;
        assert!(serde_json::from_str::<Link<'_>>(json).is_err());
    }
}

#[cfg(feature = "http")]
mod http_feature {
    use rfc3986::{interop::ConvertError, Uri, UriRef};
    use rstest::rstest;

    /// The request-target forms of HTTP (RFC 9112 3.2), from `http::Uri`.
    #[rstest]
    #[case::absolute_form("http://example.com/a?b", "http://example.com/a?b")]
    #[case::absolute_form_empty_path("https://example.com", "https://example.com/")]
    #[case::absolute_form_userinfo_port(
        "http://u:p@example.com:8080/a",
        "http://u:p@example.com:8080/a"
    )]
    #[case::absolute_form_ipv6("http://[::1]:80/", "http://[::1]:80/")]
    #[case::scheme_lower_cased("HTTP://example.com/", "http://example.com/")]
    #[case::origin_form("/where?q=now", "/where?q=now")]
    #[case::asterisk_form("*", "*")]
    #[case::authority_form("www.example.com:80", "//www.example.com:80")]
    fn from_http(#[case] http_text: &str, #[case] expected: &str) {
        let h: http::Uri = http_text.parse().unwrap();
        let r = UriRef::try_from(&h).unwrap();
        assert_eq!(r.as_str(), expected);
        assert_eq!(UriRef::try_from(h.clone()).unwrap(), r);
        assert_eq!(Uri::try_from(&h).is_ok(), r.is_uri());
    }

    #[test]
    fn from_http_relative_is_not_a_uri() {
        let h: http::Uri = "/a".parse().unwrap();
        assert_eq!(
            Uri::try_from(h),
            Err(ConvertError::Unsupported {
                target: "rfc3986::Uri",
                what: "a relative reference"
            })
        );
    }

    /// `http::Uri` accepts characters that RFC 3986 does not.
    #[rstest]
    #[case::brace_in_path("/a{b}")]
    #[case::caret_in_query("/a?b^c")]
    #[case::backtick_in_query("/a?b`c")]
    #[case::brace_in_absolute_form_query("http://h/?a{b")]
    #[case::pipe_in_path("/a|b")]
    fn from_http_not_rfc3986(#[case] http_text: &str) {
        let h: http::Uri = http_text.parse().unwrap();
        assert!(
            matches!(UriRef::try_from(&h), Err(ConvertError::Parse(_))),
            "{h}"
        );
    }

    #[rstest]
    #[case::absolute("http://example.com/a?b", "http://example.com/a?b")]
    #[case::empty_path("http://example.com", "http://example.com/")]
    #[case::origin("/a/b?c", "/a/b?c")]
    #[case::asterisk("*", "*")]
    fn to_http(#[case] text: &str, #[case] expected: &str) {
        let r = UriRef::parse(text).unwrap();
        let h = http::Uri::try_from(&r).unwrap();
        assert_eq!(h.to_string(), expected);
        if let Some(u) = r.as_uri() {
            assert_eq!(http::Uri::try_from(&u).unwrap(), h);
        }
    }

    #[rstest]
    #[case::fragment("http://a/b#top", "a fragment")]
    #[case::no_authority("mailto:a@b", "a URI without an authority")]
    #[case::urn_read_as_authority("urn:123", "a URI without an authority")]
    #[case::network_path("//a/b", "a network-path reference")]
    #[case::relative_path("a/b", "a relative-path reference")]
    #[case::empty("", "a relative-path reference")]
    fn to_http_unsupported(#[case] text: &str, #[case] what: &'static str) {
        let r = UriRef::parse(text).unwrap();
        assert_eq!(
            http::Uri::try_from(&r),
            Err(ConvertError::Unsupported {
                target: "http::Uri",
                what
            })
        );
    }

    /// http 1.x takes what RFC 3986 allows in a port, and IPvFuture hosts.
    #[rstest]
    #[case::port_too_large("http://a:99999/")]
    #[case::empty_port("http://a:/")]
    #[case::ipvfuture("http://[v1.x]/")]
    #[case::userinfo("http://u:p@h/")]
    fn to_http_accepted(#[case] text: &str) {
        let r = UriRef::parse(text).unwrap();
        assert_eq!(http::Uri::try_from(&r).unwrap().to_string(), text);
    }

    #[rstest]
    #[case::empty_host("http:///p")]
    fn to_http_rejected(#[case] text: &str) {
        let r = UriRef::parse(text).unwrap();
        let e = http::Uri::try_from(&r).unwrap_err();
        assert!(
            matches!(
                e,
                ConvertError::Rejected {
                    target: "http::Uri",
                    ..
                }
            ),
            "{e:?}"
        );
        let any: rfc3986::Error = e.into();
        assert!(any.to_string().starts_with("http::Uri rejected"), "{any}");
    }
}

#[cfg(feature = "url")]
mod url_feature {
    use rfc3986::{interop::ConvertError, Uri, UriRef};
    use rstest::rstest;

    /// WHATWG parsing normalizes before the conversion sees the text.
    #[rstest]
    #[case::plain("http://example.com/a?b#c", "http://example.com/a?b#c")]
    #[case::case_and_default_port("HTTP://EXAMPLE.com:80", "http://example.com/")]
    #[case::dot_segments("http://a/b/../c/./d", "http://a/c/d")]
    #[case::space_encoded("http://a/b c", "http://a/b%20c")]
    #[case::backslash("http:\\\\a\\b", "http://a/b")]
    #[case::idna("http://bücher.example/", "http://xn--bcher-kva.example/")]
    #[case::opaque("mailto:John.Doe@example.com", "mailto:John.Doe@example.com")]
    fn from_url(#[case] url_text: &str, #[case] expected: &str) {
        let url = url::Url::parse(url_text).unwrap();
        let u = Uri::try_from(&url).unwrap();
        assert_eq!(u.as_str(), expected);
        assert_eq!(Uri::try_from(url.clone()).unwrap(), u);
        assert_eq!(UriRef::try_from(&url).unwrap(), *u.as_uri_ref());
        assert_eq!(UriRef::try_from(url).unwrap(), *u.as_uri_ref());
    }

    /// WHATWG leaves characters unencoded that RFC 3986 forbids.
    #[rstest]
    #[case::pipe_in_path("http://a/b|c")]
    #[case::caret_in_path("http://a/b^c")]
    #[case::brace_in_query("http://a/?{x}")]
    #[case::second_hash("http://a/#b#c")]
    fn from_url_not_rfc3986(#[case] url_text: &str) {
        let url = url::Url::parse(url_text).unwrap();
        assert!(
            matches!(Uri::try_from(&url), Err(ConvertError::Parse(_))),
            "{url}"
        );
    }

    #[rstest]
    #[case::plain("http://example.com/a?b#c", "http://example.com/a?b#c")]
    #[case::normalized("HTTP://Example.COM:80/a/../b", "http://example.com/b")]
    #[case::urn("urn:example:animal:ferret:nose", "urn:example:animal:ferret:nose")]
    #[case::ipv6(
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "ldap://[2001:db8::7]/c=GB?objectClass?one"
    )]
    fn to_url(#[case] text: &str, #[case] expected: &str) {
        let u = Uri::parse(text).unwrap();
        let url = url::Url::try_from(&u).unwrap();
        assert_eq!(url.as_str(), expected);
        assert_eq!(url::Url::try_from(u.as_uri_ref()).unwrap(), url);
    }

    #[test]
    fn to_url_relative_unsupported() {
        let r = UriRef::parse("../g").unwrap();
        assert_eq!(
            url::Url::try_from(&r),
            Err(ConvertError::Unsupported {
                target: "url::Url",
                what: "a relative reference"
            })
        );
    }

    #[rstest]
    #[case::port_too_large("http://a:99999/")]
    #[case::numeric_not_ipv4("http://1.2.3.256/")]
    #[case::ipvfuture("http://[v1.x]/")]
    fn to_url_rejected(#[case] text: &str) {
        let u = Uri::parse(text).unwrap();
        let e = url::Url::try_from(&u).unwrap_err();
        assert!(
            matches!(
                e,
                ConvertError::Rejected {
                    target: "url::Url",
                    ..
                }
            ),
            "{e:?}"
        );
    }
}
