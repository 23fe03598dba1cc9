//! Percent-encoding (RFC 3986 sections 2.1, 2.4, 2.5): [`encode`] text for one component so that the result
//! is in that component's grammar rule, and [`decode`] / [`decode_utf8`] a component back to octets or text.
//!
//! ```text
//! pct-encoded = "%" HEXDIG HEXDIG
//! ```
//!
//! A URI is ASCII. Any octet a component's rule does not allow is written as `%` and two upper-case hex
//! digits (2.1); text is first turned into octets as UTF-8 (2.5), so `À` becomes `%C3%80`. Unreserved
//! characters are never encoded (2.3), and `%` itself always is, as `%25` (2.4).
//!
//! ```
//! use rfc3986::percent::{self, Component};
//!
//! assert_eq!(percent::encode("a b/c?", Component::PathSegment), "a%20b%2Fc%3F");
//! assert_eq!(percent::encode("a b/c?", Component::Query), "a%20b/c?");
//! assert_eq!(percent::encode("À", Component::Fragment), "%C3%80");
//! assert_eq!(percent::decode_utf8("%C3%80%20x")?, "À x");
//! # Ok::<(), rfc3986::Error>(())
//! ```
//!
//! The character sets below are transcribed from the RFC's text; the crate's tests prove each one equal,
//! byte for byte, to what the grammar in `uri.pest` accepts for [`Component::rule`], so an encoded component
//! always passes [`validate`](crate::validate).
//!
//! [2.1]: https://datatracker.ietf.org/doc/html/rfc3986#section-2.1

use std::borrow::Cow;
use std::fmt;

use crate::engine::classes;

use crate::engine::Rule;

/// A component that text can be percent-encoded for, with the set of characters its rule allows unencoded.
///
/// The scheme (3.1) and the port (3.2.3) are not here: their rules have no `pct-encoded`, so no text can be
/// encoded into them. An IP-literal or IPv4address host is not encoded either; [`Component::Host`] encodes
/// a `reg-name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )` (RFC 3986 3.2.1). `:` is kept, since
    /// the RFC allows it, though the `user:password` form is deprecated (3.2.1). To keep `:` as the only
    /// separator, encode the user name with [`Component::Host`] (unreserved and sub-delims: `:` becomes
    /// `%3A`) and join it to the rest.
    Userinfo,
    /// `reg-name = *( unreserved / pct-encoded / sub-delims )` (RFC 3986 3.2.2). Non-ASCII names are
    /// encoded as UTF-8 octets as 3.2.2 asks; a DNS name should rather be converted to its IDNA (punycode)
    /// form before building a URI, which this crate does not do.
    Host,
    /// A whole path: `*( pchar / "/" )`, which always matches the rule `path` (RFC 3986 3.3); `/` separates
    /// segments and is kept. Whether the result can follow an authority (it must then be empty or start with
    /// `/`), stand without one (it must not start with `//`) or start a relative reference (no `:` in the
    /// first segment, 4.2) is decided when the URI is put together, by
    /// [`UriBuilder`](crate::UriBuilder).
    Path,
    /// One path segment: `segment = *pchar` (RFC 3986 3.3), with
    /// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`; `/` is encoded as `%2F`, so the text
    /// stays one segment.
    PathSegment,
    /// `query = *( pchar / "/" / "?" )` (RFC 3986 3.4). `&`, `=` and `+` are sub-delims and are kept: the
    /// generic syntax cannot know which delimiters a scheme gives meaning to inside the query. To put
    /// arbitrary text into one `key=value` pair, percent-encode `&`, `=` and `+` in it yourself or use an
    /// `application/x-www-form-urlencoded` library.
    Query,
    /// `fragment = *( pchar / "/" / "?" )` (RFC 3986 3.5); `#` is encoded as `%23`.
    Fragment,
}

/// `path` as `*( pchar / "/" )`: the bytes of `pchar` and `/` (the classes come from uri.pest, see
/// `classes.rs`).
const PATH: u128 = classes::PCHAR | 1 << b'/';

impl Component {
    /// Every component, in URI order.
    pub const ALL: [Component; 6] = [
        Component::Userinfo,
        Component::Host,
        Component::Path,
        Component::PathSegment,
        Component::Query,
        Component::Fragment,
    ];

    /// The grammar rule that [`encode`] output for this component always matches: `userinfo`, `reg-name`,
    /// `path`, `segment`, `query`, `fragment`.
    ///
    /// ```
    /// use rfc3986::percent::{encode, Component};
    /// for c in Component::ALL {
    ///     rfc3986::validate(c.rule(), &encode("a/b c:d@e?f#g%h[i]", c))?;
    /// }
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn rule(self) -> Rule {
        match self {
            Component::Userinfo => Rule::USERINFO,
            Component::Host => Rule::REG_NAME,
            Component::Path => Rule::PATH,
            Component::PathSegment => Rule::SEGMENT,
            Component::Query => Rule::QUERY,
            Component::Fragment => Rule::FRAGMENT,
        }
    }

    /// The component's name as the RFC writes it (`userinfo`, `host`, `path`, `segment`, `query`,
    /// `fragment`).
    pub fn name(self) -> &'static str {
        match self {
            Component::Userinfo => "userinfo",
            Component::Host => "host",
            Component::Path => "path",
            Component::PathSegment => "segment",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }

    /// Whether `byte` may appear unencoded in this component: the characters of the rule other than
    /// `pct-encoded`. `%` and every non-ASCII byte give `false`.
    ///
    /// ```
    /// use rfc3986::percent::Component;
    /// assert!(Component::Query.allows(b'?'));
    /// assert!(!Component::PathSegment.allows(b'/'));
    /// assert!(!Component::Fragment.allows(b'%'));
    /// ```
    pub fn allows(self, byte: u8) -> bool {
        let set = match self {
            Component::Userinfo => classes::USERINFO,
            Component::Host => classes::REG_NAME,
            Component::Path => PATH,
            Component::PathSegment => classes::PCHAR,
            Component::Query => classes::QUERY,
            Component::Fragment => classes::FRAGMENT,
        };
        classes::contains(set, byte)
    }
}

impl fmt::Display for Component {
    /// [`Component::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Percent-encodes `text` for `component` (RFC 3986 2.1, 2.4, 2.5): every UTF-8 octet that the component's
/// rule does not allow becomes `%` and two upper-case hex digits; everything else, unreserved characters
/// in particular, is kept. `%` is always encoded (`%25`), so text that is already encoded is encoded again
/// (`%41` becomes `%2541`): encode raw text, once.
///
/// The result always matches [`component.rule()`](Component::rule). It borrows `text` when nothing needed
/// encoding and allocates once otherwise.
///
/// ```
/// use std::borrow::Cow;
/// use rfc3986::percent::{encode, Component};
///
/// assert!(matches!(encode("~user", Component::Userinfo), Cow::Borrowed("~user")));
/// assert_eq!(encode("a b", Component::PathSegment), "a%20b"); // 2.1
/// assert_eq!(encode("100%", Component::Query), "100%25"); // 2.4
/// assert_eq!(encode("À", Component::Host), "%C3%80"); // 2.5
/// assert_eq!(encode("a/b", Component::Path), "a/b");
/// assert_eq!(encode("a/b", Component::PathSegment), "a%2Fb");
/// ```
#[must_use]
pub fn encode(text: &str, component: Component) -> Cow<'_, str> {
    match encode_octets(text.as_bytes(), component) {
        Some(encoded) => Cow::Owned(encoded),
        None => Cow::Borrowed(text),
    }
}

/// Percent-encodes arbitrary octets for `component`, for data that is not text or not UTF-8 (RFC 3986 2.1:
/// a URI may carry any octets). Same rules and result as [`encode`]; borrows `bytes` when every byte is
/// allowed unencoded (they are then ASCII).
///
/// ```
/// use rfc3986::percent::{encode_bytes, Component};
/// assert_eq!(encode_bytes(b"\xff\x00a", Component::Query), "%FF%00a");
/// ```
#[must_use]
pub fn encode_bytes(bytes: &[u8], component: Component) -> Cow<'_, str> {
    match encode_octets(bytes, component) {
        Some(encoded) => Cow::Owned(encoded),
        // Every byte is allowed, so ASCII.
        None => Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default()),
    }
}

/// The encoded text, or `None` if every byte is allowed unencoded.
fn encode_octets(bytes: &[u8], component: Component) -> Option<String> {
    let first = bytes.iter().position(|&b| !component.allows(b))?;
    let mut out = Vec::with_capacity(bytes.len() + 2 * (bytes.len() - first) + 8);
    out.extend_from_slice(&bytes[..first]);
    for &b in &bytes[first..] {
        if component.allows(b) {
            out.push(b);
        } else {
            out.extend_from_slice(&crate::util::pct_triplet(b));
        }
    }
    // Only ASCII was pushed.
    Some(String::from_utf8(out).unwrap_or_default())
}

pub use crate::error::{DecodeError, DecodeErrorKind};

use crate::util::hex_value;

/// Decodes every `pct-encoded` triplet of `text` into its octet (RFC 3986 2.1; hex digits in either case)
/// and keeps every other byte as it is. Works on any component (or a whole URI): no character is treated
/// specially besides `%`; in particular `+` stays `+` (turning `+` into a space is a rule of
/// `application/x-www-form-urlencoded`, not of RFC 3986).
///
/// Borrows `text` when it has no `%`.
///
/// # Errors
/// [`DecodeErrorKind::InvalidPercentEncoding`] at the offset of the first `%` not followed by two hex
/// digits. This crate rejects rather than keeps such a `%`: no URI contains one, so the input is not a
/// component of a URI, and guessing would make `decode` and [`encode`] disagree.
///
/// ```
/// use rfc3986::percent::decode;
/// assert_eq!(decode("%7e%7E~")?, b"~~~".as_slice()); // 2.3: %7E is ~
/// assert_eq!(decode("%41")?, b"A".as_slice()); // 2.1
/// assert_eq!(decode("%FF")?, b"\xff".as_slice());
/// assert!(decode("a%").is_err());
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub fn decode(text: &str) -> Result<Cow<'_, [u8]>, DecodeError> {
    let bytes = text.as_bytes();
    let Some(first) = bytes.iter().position(|&b| b == b'%') else {
        return Ok(Cow::Borrowed(bytes));
    };
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..first]);
    let mut i = first;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = bytes.get(i + 1).copied().and_then(hex_value);
            let lo = bytes.get(i + 2).copied().and_then(hex_value);
            match (hi, lo) {
                (Some(hi), Some(lo)) => out.push(hi << 4 | lo),
                _ => {
                    return Err(DecodeError {
                        kind: DecodeErrorKind::InvalidPercentEncoding,
                        offset: i,
                    })
                }
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(Cow::Owned(out))
}

/// Decodes like [`decode`] and reads the octets as UTF-8 (RFC 3986 2.5 recommends UTF-8 for text in
/// URIs). Borrows `text` when it has no `%`.
///
/// # Errors
/// [`DecodeErrorKind::InvalidPercentEncoding`] as for [`decode`]; [`DecodeErrorKind::InvalidUtf8`] at
/// the offset in `text` of the first octet that does not start or continue a UTF-8 sequence.
///
/// ```
/// use rfc3986::percent::decode_utf8;
/// assert_eq!(decode_utf8("%C3%80")?, "À"); // 2.5
/// assert_eq!(decode_utf8("a%20b")?, "a b");
/// assert_eq!(decode_utf8("x%FF").unwrap_err().offset(), 1);
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub fn decode_utf8(text: &str) -> Result<Cow<'_, str>, DecodeError> {
    match decode(text)? {
        Cow::Borrowed(_) => Ok(Cow::Borrowed(text)),
        Cow::Owned(octets) => String::from_utf8(octets).map(Cow::Owned).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            // Walk `text` to the start of decoded octet number `valid`.
            let bytes = text.as_bytes();
            let mut offset = 0;
            for _ in 0..valid {
                offset += if bytes[offset] == b'%' { 3 } else { 1 };
            }
            DecodeError {
                kind: DecodeErrorKind::InvalidUtf8,
                offset,
            }
        }),
    }
}
