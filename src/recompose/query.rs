//! `key=value` pairs in a query: [`UriRef::query_pairs`] reads them as HTML forms and the `url` crate
//! do (`+` is a space, then percent-decoding), [`UriRef::query_pairs_keep_plus`] reads them as RFC 3986
//! alone (`+` stays `+`), and [`UriRef::append_query_pairs`] / [`UriRef::append_form_pairs`] add
//! encoded ones that both readings give back.
//!
//! RFC 3986 gives the query no inner structure: `query = *( pchar / "/" / "?" )` ([3.4]), and `&`, `=`,
//! `+` and `;` are sub-delims whose meaning "is defined by each scheme's specification" (2.2). The pairs
//! here follow the convention that HTML forms made popular (`application/x-www-form-urlencoded`): pairs
//! separated by `&`, a key and a value separated by the first `=`, every part percent-decoded as RFC 3986
//! 2.1 says; the two readings differ only in what `+` means.
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
use crate::value::uri::{Uri, UriRef};

/// Iterator over the `key=value` pairs of a query, decoded, from [`UriRef::query_pairs`] or
/// [`UriRef::query_pairs_keep_plus`].
///
/// Pieces between `&` are pairs; empty pieces (`a=1&&b=2`, a trailing `&`) are skipped; a piece without `=`
/// is a key with the empty value. In the form reading ([`QueryPairs::new`]) every `+` is first read as a
/// space; then keys and values are percent-decoded (RFC 3986 2.1) and read as UTF-8 (2.5), with U+FFFD for
/// octets that are not UTF-8, so `%2B` is always a `+`. Borrows the query where nothing needs decoding.
#[derive(Clone, Debug)]
pub struct QueryPairs<'a> {
    rest: Option<&'a str>,
    plus_is_space: bool,
}

impl<'a> QueryPairs<'a> {
    /// The pairs of `query`, the text of a query component as written (without its `?`), read as HTML
    /// forms and the `url` crate read them: `+` is a space.
    ///
    /// ```
    /// use rfc3986::QueryPairs;
    /// let pairs: Vec<_> = QueryPairs::new("a=1&b=x%20y+z&c").collect();
    /// assert_eq!(pairs, [("a".into(), "1".into()), ("b".into(), "x y z".into()), ("c".into(), "".into())]);
    /// ```
    pub fn new(query: &'a str) -> QueryPairs<'a> {
        QueryPairs {
            rest: Some(query),
            plus_is_space: true,
        }
    }

    /// The pairs of `query` read by RFC 3986 alone: `+` stays `+` (2.2 gives it no meaning).
    ///
    /// ```
    /// use rfc3986::QueryPairs;
    /// let pairs: Vec<_> = QueryPairs::keep_plus("q=a+b%20c").collect();
    /// assert_eq!(pairs, [("q".into(), "a+b c".into())]);
    /// ```
    pub fn keep_plus(query: &'a str) -> QueryPairs<'a> {
        QueryPairs {
            rest: Some(query),
            plus_is_space: false,
        }
    }

    fn decode<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.plus_is_space && text.contains('+') {
            Cow::Owned(decode_lossy(&text.replace('+', " ")).into_owned())
        } else {
            decode_lossy(text)
        }
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
            return Some((self.decode(key), self.decode(value)));
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

/// How a space is written by [`encode_pairs`].
#[derive(Clone, Copy)]
enum Space {
    /// `%20`, which every reading gives back as a space.
    Percent,
    /// `+`, as HTML forms write it (only the form reading gives it back as a space).
    Plus,
}

/// `key=value` pairs joined by `&`. Each key and value is percent-encoded for the query
/// ([`Component::Query`]) with the pair delimiters `&`, `=`, `;` and `+` encoded too, so that it stays one
/// part and reads back the same under both readings; a space is written as `space` says.
fn encode_pairs<K, V>(pairs: impl IntoIterator<Item = (K, V)>, space: Space) -> String
where
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    let part = |text: &str, out: &mut String| {
        for c in percent::encode(text, Component::Query).chars() {
            match c {
                '&' => out.push_str("%26"),
                '=' => out.push_str("%3D"),
                ';' => out.push_str("%3B"),
                '+' => out.push_str("%2B"),
                c => out.push(c),
            }
        }
    };
    for (key, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        part(key.as_ref(), &mut out);
        out.push('=');
        part(value.as_ref(), &mut out);
    }
    match space {
        Space::Percent => out,
        // `%20` is the only way the encoding above writes a space, and no other `%20` can occur in it
        // (a `%` of the text is written `%25`).
        Space::Plus => out.replace("%20", "+"),
    }
}

impl UriRef<'_> {
    /// The `key=value` pairs of the query ([RFC 3986 3.4](https://datatracker.ietf.org/doc/html/rfc3986#section-3.4))
    /// read as HTML forms and the `url` crate read them: **`+` is a space**, then every part is
    /// percent-decoded (2.1) as UTF-8 (2.5, lossy). [`query_pairs_keep_plus`](Self::query_pairs_keep_plus)
    /// is the same reading with `+` left as `+`. See [`QueryPairs`] for the exact reading. No query and an
    /// empty query both give no pairs; `?=` gives one pair of empty strings.
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// pairs = [ pair ] *( "&" [ pair ] )   ; pair = key [ "=" value ]
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let r = UriRef::parse("/search?q=caf%C3%A9+au+lait&lang=fr&&flag&x=a=b&plus=%2B")?;
    /// let pairs: Vec<(String, String)> =
    ///     r.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    /// assert_eq!(pairs, [
    ///     ("q".to_owned(), "café au lait".to_owned()),
    ///     ("lang".to_owned(), "fr".to_owned()),
    ///     ("flag".to_owned(), "".to_owned()),
    ///     ("x".to_owned(), "a=b".to_owned()),
    ///     ("plus".to_owned(), "+".to_owned()),
    /// ]);
    /// assert_eq!(UriRef::parse("/a?")?.query_pairs().count(), 0);
    /// assert_eq!(UriRef::parse("/a")?.query_pairs().count(), 0);
    /// assert_eq!(UriRef::parse("/a?=")?.query_pairs().next(), Some(("".into(), "".into())));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn query_pairs(&self) -> QueryPairs<'_> {
        QueryPairs {
            rest: self.query(),
            plus_is_space: true,
        }
    }

    /// The `key=value` pairs of the query read by RFC 3986 alone: like [`query_pairs`](Self::query_pairs)
    /// but **`+` stays `+`** (RFC 3986 2.2 leaves its meaning to the scheme), for queries that are not form
    /// data (`?expr=1+1`).
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let r = UriRef::parse("/calc?expr=1+1&t=a%20b")?;
    /// let pairs: Vec<_> = r.query_pairs_keep_plus().collect();
    /// assert_eq!(pairs, [("expr".into(), "1+1".into()), ("t".into(), "a b".into())]);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn query_pairs_keep_plus(&self) -> QueryPairs<'_> {
        QueryPairs {
            rest: self.query(),
            plus_is_space: false,
        }
    }

    /// Appends `pairs` to the query, each key and value percent-encoded (RFC 3986 2.1) for the query with
    /// `&`, `=`, `;` and `+` encoded too and a space written `%20`, so that both
    /// [`query_pairs`](Self::query_pairs) and [`query_pairs_keep_plus`](Self::query_pairs_keep_plus) give
    /// them back exactly. Pairs are joined with `&`, and to an existing non-empty query with one `&`. No
    /// pairs leave the value as it was (an undefined query stays undefined); the fragment is kept.
    ///
    /// Like the setters ([`set_query`](Self::set_query), ...) it changes the value in place; it cannot
    /// fail, since what it writes is in the rule `query` by construction.
    ///
    /// ```text
    /// query = *( pchar / "/" / "?" )
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let mut r = UriRef::parse("/search?lang=fr#top")?;
    /// r.append_query_pairs([("q", "a&b=c d"), ("é", "+")]);
    /// assert_eq!(r.as_str(), "/search?lang=fr&q=a%26b%3Dc%20d&%C3%A9=%2B#top");
    /// assert_eq!(r.query_pairs().nth(1), Some(("q".into(), "a&b=c d".into())));
    /// // No pairs: an undefined query stays undefined.
    /// let mut r = UriRef::parse("/a")?;
    /// r.append_query_pairs([("", ""); 0]);
    /// assert_eq!(r.query(), None);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn append_query_pairs<K, V>(&mut self, pairs: impl IntoIterator<Item = (K, V)>)
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        self.append_encoded_pairs(&encode_pairs(pairs, Space::Percent));
    }

    /// Appends `pairs` to the query as `application/x-www-form-urlencoded` writes them: like
    /// [`append_query_pairs`](Self::append_query_pairs), but a space is written `+`. Only
    /// [`query_pairs`](Self::query_pairs) (not `query_pairs_keep_plus`) gives them back exactly.
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let mut r = UriRef::parse("/s?a=1")?;
    /// r.append_form_pairs([("q", "café au lait"), ("x", "1+1")]);
    /// assert_eq!(r.as_str(), "/s?a=1&q=caf%C3%A9+au+lait&x=1%2B1");
    /// assert_eq!(r.query_pairs().nth(1), Some(("q".into(), "café au lait".into())));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn append_form_pairs<K, V>(&mut self, pairs: impl IntoIterator<Item = (K, V)>)
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        self.append_encoded_pairs(&encode_pairs(pairs, Space::Plus));
    }

    /// Appends `encoded` (pairs already percent-encoded and joined by `&`) to the query through
    /// [`set_query`](Self::set_query), which checks it against the rule `query` and recomposes.
    fn append_encoded_pairs(&mut self, encoded: &str) {
        if encoded.is_empty() {
            return;
        }
        let query = match self.query() {
            None | Some("") => encoded.to_owned(),
            Some(q) if q.ends_with('&') => format!("{q}{encoded}"),
            Some(q) => format!("{q}&{encoded}"),
        };
        // `encode_pairs` writes only unreserved characters, sub-delims and `%HH` triplets, and the query
        // there was a query: the result is in the rule `query`, so this cannot fail.
        if let Err(e) = self.set_query(Some(&query)) {
            unreachable!("encoded pairs are in the rule query: {e}");
        }
    }
}

impl Uri<'_> {
    /// [`UriRef::append_query_pairs`] on a URI.
    ///
    /// ```
    /// use rfc3986::Uri;
    /// let mut uri = Uri::parse("http://example.com")?;
    /// uri.append_query_pairs([("a b", "1")]);
    /// assert_eq!(uri.as_str(), "http://example.com?a%20b=1");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn append_query_pairs<K, V>(&mut self, pairs: impl IntoIterator<Item = (K, V)>)
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        self.inner_mut().append_query_pairs(pairs);
    }

    /// [`UriRef::append_form_pairs`] on a URI.
    pub fn append_form_pairs<K, V>(&mut self, pairs: impl IntoIterator<Item = (K, V)>)
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        self.inner_mut().append_form_pairs(pairs);
    }
}
