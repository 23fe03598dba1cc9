//! `key=value` pairs in a query: [`UriRef::query_pairs`] to read them decoded, [`UriRef::append_query_pairs`]
//! to add encoded ones, and with the `form` feature the `application/x-www-form-urlencoded` variants
//! ([`UriRef::form_pairs`], [`UriRef::append_form_pairs`]), where `+` is a space.
//!
//! RFC 3986 gives the query no inner structure: `query = *( pchar / "/" / "?" )` ([3.4]), and `&`, `=`,
//! `+` and `;` are sub-delims whose meaning "is defined by each scheme's specification" (2.2). The pairs
//! here follow the common convention that HTML forms made popular: pairs separated by `&`, a key and a
//! value separated by the first `=`. Without the `form` feature nothing else changes meaning: every
//! component is percent-decoded as RFC 3986 2.1 says, and `+` stays `+`.
//!
//! ```text
//! query = *( pchar / "/" / "?" )
//! pairs = [ pair ] *( "&" [ pair ] )        ; this module's reading of a query
//! pair  = key [ "=" value ]                 ; key: no "&" or "="; value: no "&"
//! ```
//!
//! [3.4]: https://datatracker.ietf.org/doc/html/rfc3986#section-3.4

use std::borrow::Cow;

use crate::percent::{self, Component};
use crate::recompose::BuildError;
use crate::value::uri::{Uri, UriRef};

/// Iterator over the `key=value` pairs of a query, decoded, from [`UriRef::query_pairs`].
///
/// Pieces between `&` are pairs; empty pieces (`a=1&&b=2`, a trailing `&`) are skipped; a piece without `=`
/// is a key with the empty value. Keys and values are percent-decoded (RFC 3986 2.1) and read as UTF-8
/// (2.5), with U+FFFD for octets that are not UTF-8; `+` stays `+` (RFC 3986 gives it no meaning).
/// Borrows the query where nothing needs decoding.
#[derive(Clone, Debug)]
pub struct QueryPairs<'a> {
    rest: Option<&'a str>,
}

impl<'a> QueryPairs<'a> {
    /// The pairs of `query`, the text of a query component as written (without its `?`).
    ///
    /// ```
    /// use rfc3986::QueryPairs;
    /// let pairs: Vec<_> = QueryPairs::new("a=1&b=x%20y&c").collect();
    /// assert_eq!(pairs, [("a".into(), "1".into()), ("b".into(), "x y".into()), ("c".into(), "".into())]);
    /// ```
    pub fn new(query: &'a str) -> QueryPairs<'a> {
        QueryPairs { rest: Some(query) }
    }
}

impl<'a> Iterator for QueryPairs<'a> {
    type Item = (Cow<'a, str>, Cow<'a, str>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let rest = self.rest?;
            let piece = match rest.find('&') {
                Some(i) => {
                    self.rest = Some(&rest[i + 1..]);
                    &rest[..i]
                }
                None => {
                    self.rest = None;
                    rest
                }
            };
            if piece.is_empty() {
                continue;
            }
            let (key, value) = piece.split_once('=').unwrap_or((piece, ""));
            return Some((decode_lossy(key), decode_lossy(value)));
        }
    }
}

/// Percent-decodes `text` (RFC 3986 2.1) and reads the octets as UTF-8, replacing what is not UTF-8 with
/// U+FFFD. Text with a `%` not followed by two hex digits is kept as it is (a parsed query has none).
fn decode_lossy(text: &str) -> Cow<'_, str> {
    match percent::decode(text) {
        Ok(Cow::Borrowed(_)) | Err(_) => Cow::Borrowed(text),
        Ok(Cow::Owned(octets)) => match String::from_utf8(octets) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
        },
    }
}

/// Percent-encodes one key or value so that it stays one: the characters that [`Component::Query`]
/// encodes, and also the pair delimiters `&`, `=`, `;` and `+` (the last so that form decoders do not read
/// it as a space).
pub(crate) fn encode_pair_part(text: &str, out: &mut String) {
    for c in percent::encode(text, Component::Query).chars() {
        match c {
            '&' => out.push_str("%26"),
            '=' => out.push_str("%3D"),
            ';' => out.push_str("%3B"),
            '+' => out.push_str("%2B"),
            c => out.push(c),
        }
    }
}

/// `uri` with `encoded` (pairs already percent-encoded and joined by `&`) appended to its query, checked by
/// the rule `query` and recomposed; `uri` itself when there is nothing to append.
fn with_pairs_appended(uri: &UriRef<'_>, encoded: &str) -> Result<UriRef<'static>, BuildError> {
    let mut out = uri.clone().into_owned();
    if encoded.is_empty() {
        return Ok(out);
    }
    let query = match uri.query() {
        None | Some("") => encoded.to_owned(),
        Some(q) if q.ends_with('&') => format!("{q}{encoded}"),
        Some(q) => format!("{q}&{encoded}"),
    };
    out.set_query(Some(&query))?;
    Ok(out)
}

/// `key=value` pairs joined by `&`, each part percent-encoded by [`encode_pair_part`].
fn encode_pairs<K, V>(pairs: impl IntoIterator<Item = (K, V)>) -> String
where
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    for (key, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        encode_pair_part(key.as_ref(), &mut out);
        out.push('=');
        encode_pair_part(value.as_ref(), &mut out);
    }
    out
}

impl UriRef<'_> {
    /// The `key=value` pairs of the query ([RFC 3986 3.4](https://datatracker.ietf.org/doc/html/rfc3986#section-3.4)),
    /// percent-decoded (2.1) as UTF-8 (2.5, lossy); see [`QueryPairs`] for the exact reading. No query and
    /// an empty query both give no pairs; `?=` gives one pair of empty strings. `+` is not a space here
    /// (RFC 3986 gives it no meaning); the `form` feature's `form_pairs` reads it as
    /// one.
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// pairs = [ pair ] *( "&" [ pair ] )   ; pair = key [ "=" value ]
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let r = UriRef::parse("/search?q=caf%C3%A9+au+lait&lang=fr&&flag&x=a=b")?;
    /// let pairs: Vec<(String, String)> =
    ///     r.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    /// assert_eq!(pairs, [
    ///     ("q".to_owned(), "café+au+lait".to_owned()),
    ///     ("lang".to_owned(), "fr".to_owned()),
    ///     ("flag".to_owned(), "".to_owned()),
    ///     ("x".to_owned(), "a=b".to_owned()),
    /// ]);
    /// assert_eq!(UriRef::parse("/a?")?.query_pairs().count(), 0);
    /// assert_eq!(UriRef::parse("/a")?.query_pairs().count(), 0);
    /// assert_eq!(UriRef::parse("/a?=")?.query_pairs().next(), Some(("".into(), "".into())));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn query_pairs(&self) -> QueryPairs<'_> {
        QueryPairs { rest: self.query() }
    }

    /// A copy of this reference with `pairs` appended to its query, each key and value percent-encoded
    /// (RFC 3986 2.1) for the query with `&`, `=`, `;` and `+` encoded too, so that
    /// [`query_pairs`](Self::query_pairs) gives them back exactly. Pairs are joined with `&`, and to an
    /// existing non-empty query with one `&`. No pairs leave the value as it was, except that an undefined
    /// query stays undefined; the fragment is kept.
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let r = UriRef::parse("/search?lang=fr#top")?;
    /// let r = r.append_query_pairs([("q", "a&b=c d"), ("é", "+")])?;
    /// assert_eq!(r.as_str(), "/search?lang=fr&q=a%26b%3Dc%20d&%C3%A9=%2B#top");
    /// assert_eq!(r.query_pairs().nth(1), Some(("q".into(), "a&b=c d".into())));
    /// // No pairs: an undefined query stays undefined.
    /// assert_eq!(UriRef::parse("/a")?.append_query_pairs([("", ""); 0])?.query(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// None in practice: the query written is in the grammar by construction; the result is still matched
    /// against the rule `query` and recomposed by [`UriBuilder`](crate::UriBuilder), which reports a
    /// [`BuildError`] if it were not.
    pub fn append_query_pairs<K, V>(
        &self,
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<UriRef<'static>, BuildError>
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        with_pairs_appended(self, &encode_pairs(pairs))
    }
}

impl Uri<'_> {
    /// [`UriRef::append_query_pairs`] for a URI: the result is a URI.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let uri = Uri::parse("http://example.com")?.append_query_pairs([("a b", "1")])?;
    /// assert_eq!(uri.as_str(), "http://example.com?a%20b=1");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`UriRef::append_query_pairs`].
    pub fn append_query_pairs<K, V>(
        &self,
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Uri<'static>, BuildError>
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let r = self.as_uri_ref().append_query_pairs(pairs)?;
        Uri::try_from(r).map_err(|_| BuildError::MissingScheme)
    }
}

#[cfg(feature = "form")]
mod form {
    use super::with_pairs_appended;
    use crate::recompose::BuildError;
    use crate::value::uri::{Uri, UriRef};

    impl UriRef<'_> {
        /// The pairs of the query read as `application/x-www-form-urlencoded` (the WHATWG URL
        /// Standard's parser, through the `form_urlencoded` crate): like
        /// [`query_pairs`](Self::query_pairs), and `+` is a space. No query gives no pairs.
        ///
        /// ```text
        /// query = *( pchar / "/" / "?" )   ; RFC 3986 3.4; "+" as space is the form convention
        /// ```
        ///
        /// ```
        /// use rfc3986::UriRef;
        /// let r = UriRef::parse("/s?q=caf%C3%A9+au+lait&plus=%2B")?;
        /// let pairs: Vec<_> = r.form_pairs().collect();
        /// assert_eq!(pairs, [("q".into(), "café au lait".into()), ("plus".into(), "+".into())]);
        /// assert_eq!(UriRef::parse("/s")?.form_pairs().count(), 0);
        /// # Ok::<(), rfc3986::Error>(())
        /// ```
        #[cfg_attr(docsrs, doc(cfg(feature = "form")))]
        pub fn form_pairs(&self) -> form_urlencoded::Parse<'_> {
            form_urlencoded::parse(self.query().unwrap_or("").as_bytes())
        }

        /// A copy with `pairs` appended to the query as `application/x-www-form-urlencoded` (through the
        /// `form_urlencoded` crate): a space is written `+`, every octet other than ASCII letters, digits
        /// and `*-._` is percent-encoded. What it writes is always in the rule `query`; the result is
        /// checked by it and recomposed like [`append_query_pairs`](Self::append_query_pairs).
        ///
        /// ```
        /// use rfc3986::UriRef;
        /// let r = UriRef::parse("/s?a=1")?.append_form_pairs([("q", "café au lait"), ("x", "1+1")])?;
        /// assert_eq!(r.as_str(), "/s?a=1&q=caf%C3%A9+au+lait&x=1%2B1");
        /// assert_eq!(r.form_pairs().nth(1), Some(("q".into(), "café au lait".into())));
        /// # Ok::<(), rfc3986::Error>(())
        /// ```
        ///
        /// # Errors
        /// As [`append_query_pairs`](Self::append_query_pairs).
        #[cfg_attr(docsrs, doc(cfg(feature = "form")))]
        pub fn append_form_pairs<K, V>(
            &self,
            pairs: impl IntoIterator<Item = (K, V)>,
        ) -> Result<UriRef<'static>, BuildError>
        where
            K: AsRef<str>,
            V: AsRef<str>,
        {
            let mut serializer = form_urlencoded::Serializer::new(String::new());
            serializer.extend_pairs(pairs);
            with_pairs_appended(self, &serializer.finish())
        }
    }

    impl Uri<'_> {
        /// [`UriRef::append_form_pairs`] for a URI: the result is a URI.
        ///
        /// # Errors
        /// As [`UriRef::append_query_pairs`].
        #[cfg_attr(docsrs, doc(cfg(feature = "form")))]
        pub fn append_form_pairs<K, V>(
            &self,
            pairs: impl IntoIterator<Item = (K, V)>,
        ) -> Result<Uri<'static>, BuildError>
        where
            K: AsRef<str>,
            V: AsRef<str>,
        {
            let r = self.as_uri_ref().append_form_pairs(pairs)?;
            Uri::try_from(r).map_err(|_| BuildError::MissingScheme)
        }
    }
}
