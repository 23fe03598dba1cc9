//! IRIs (RFC 3987) as text: [`iri_to_uri`] maps an IRI (reference) to the URI (reference) that it stands
//! for ([RFC 3987 3.1]), and [`uri_to_iri`] converts back, decoding only what is safe ([RFC 3987 3.2]).
//!
//! The values [`IriRef`] and [`Iri`] (the generic [`RiRef`](crate::RiRef) / [`Ri`](crate::Ri) at
//! [`IriSpec`], with the accessors of [`UriRef`](crate::UriRef)) are parsed by the IRI grammar of RFC
//! 3987 (`grammars/iri.pest`, compiled by pest_derive, its detail grammar explaining rejections; also
//! loadable at run time as `runtime::Grammar::builtin("iri")`) and map to and from
//! [`UriRef`](crate::UriRef) / [`Uri`](crate::Uri) component by component. They resolve
//! ([`IriRef::resolve_against`], RFC 3987 6.5) and normalize ([`IriRef::normalize`], 5.3.2, without the
//! character normalization that needs Unicode tables) with the algorithms of RFC 3986 on the IRI text;
//! mapping to a URI commutes with both (tested as a property).
//!
//! ```text
//! ucschar  = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ... / %xE1000-EFFFD
//! iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
//! ```
//!
//! ```
//! use rfc3986::iri::{iri_to_uri, uri_to_iri};
//! assert_eq!(iri_to_uri("http://r\u{e9}sum\u{e9}.example.org/D\u{fc}rst"),
//!            "http://r%C3%A9sum%C3%A9.example.org/D%C3%BCrst");
//! assert_eq!(uri_to_iri("http://www.example.org/D%C3%BCrst"), "http://www.example.org/D\u{fc}rst");
//! ```
//!
//! [RFC 3987 3.1]: https://datatracker.ietf.org/doc/html/rfc3987#section-3.1
//! [RFC 3987 3.2]: https://datatracker.ietf.org/doc/html/rfc3987#section-3.2

use std::borrow::Cow;

use crate::engine::classes;

mod reference;

pub use crate::value::reference::IriSpec;
pub use reference::{Iri, IriParseError, IriRef};

use crate::util::{is_pct_triplet, push_pct_triplet as push_octet};

/// Maps an IRI or IRI reference to a URI or URI reference ([RFC 3987 3.1](https://datatracker.ietf.org/doc/html/rfc3987#section-3.1),
/// step 2): every non-ASCII character is replaced by the percent-encoded octets of its UTF-8 form, with
/// upper-case hexadecimal digits; everything else is kept. Borrows `iri` when it is ASCII.
///
/// For an IRI (every non-ASCII character is then a `ucschar` or an `iprivate`), the result is a URI
/// that RFC 3986 accepts; on a URI the mapping is the identity, and it is idempotent. Step 1 (NFC
/// normalization of text that was not in a Unicode encoding) is the caller's: a Rust `str` is Unicode,
/// and 3.1 says not to normalize it. The reg-name is percent-encoded like the rest; RFC 3987 3.1 lets
/// systems use IDNA's ToASCII instead for schemes that need DNS names, which this crate does not do.
///
/// ```text
/// ucschar / iprivate  ->  1*( "%" HEXDIG HEXDIG )   ; the UTF-8 octets, RFC 3987 3.1 step 2
/// ```
///
/// ```
/// use rfc3986::iri::iri_to_uri;
/// assert_eq!(iri_to_uri("http://example.org/caf\u{e9}?q=\u{65e5}\u{672c}#\u{2014}"),
///            "http://example.org/caf%C3%A9?q=%E6%97%A5%E6%9C%AC#%E2%80%94");
/// assert_eq!(iri_to_uri("http://a/%c3%a9"), "http://a/%c3%a9"); // a URI is left as it is
/// assert!(rfc3986::UriRef::parse(&iri_to_uri("/\u{1F600}")).is_ok());
/// ```
pub fn iri_to_uri(iri: &str) -> Cow<'_, str> {
    if iri.is_ascii() {
        return Cow::Borrowed(iri);
    }
    let mut out = String::with_capacity(iri.len() * 2);
    for c in iri.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                push_octet(&mut out, b);
            }
        }
    }
    Cow::Owned(out)
}

/// Whether `c` may be written unencoded by [`uri_to_iri`]: a `ucschar` (RFC 3987 2.2) that is not a
/// bidirectional formatting character (4.1).
fn decodable(c: char) -> bool {
    let cp = u32::from(c);
    let ucschar = matches!(cp, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x10000..=0xDFFFD).contains(&cp) && cp & 0xFFFF <= 0xFFFD);
    // RFC 3987 4.1: LRM, RLM, LRE, RLE, PDF, LRO, RLO must not appear in IRIs; the isolates LRI, RLI,
    // FSI, PDI (Unicode 6.3, after RFC 3987) change the display order the same way and stay encoded too.
    let bidi =
        matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    ucschar && !bidi
}

/// Converts a URI or URI reference to an IRI or IRI reference ([RFC 3987 3.2](https://datatracker.ietf.org/doc/html/rfc3987#section-3.2)):
/// percent-encodings are decoded where the result means the same and is safe to show, and kept
/// otherwise. Borrows `uri` when nothing changes.
///
/// Runs of `pct-encoded` octets are decoded (step 2) and then:
/// - an octet of an unreserved ASCII character is written as that character (`%41` -> `A`, 2.3 of RFC
///   3986 says they are the same); `%`, reserved characters and ASCII characters not allowed in URIs stay
///   encoded as written (`%2F`, `%25`, `%20`), since decoding them would change the meaning or the syntax;
/// - octets that are not part of a well-formed UTF-8 sequence stay encoded (step 3: `%FC` in
///   `D%FCrst`, which may be Latin-1, is not guessed at);
/// - a character that is not a `ucschar` (RFC 3987 2.2; the private-use `iprivate`, allowed only in a
///   query, is kept encoded everywhere) or that is a bidirectional formatting character (4.1: U+200E,
///   U+200F, U+202A to U+202E; also the isolates U+2066 to U+2069) stays encoded (step 4).
///
/// Octets re-encoded by steps 3 and 4 are written with upper-case hexadecimal digits, as in the RFC's
/// examples. Section 6.1's advice (NFC, compatibility characters) is not applied: it needs Unicode
/// tables this crate does not carry. [`iri_to_uri`] of the result gives `uri` back, up to the case of
/// percent-encodings and decoded unreserved characters (RFC 3987 3.2), which is
/// [`normalize`](crate::UriRef::normalize)-equivalent.
///
/// ```text
/// pct-encoded = "%" HEXDIG HEXDIG
/// ```
///
/// ```
/// use rfc3986::iri::uri_to_iri;
/// // The three examples of RFC 3987 3.2.1:
/// assert_eq!(uri_to_iri("http://www.example.org/D%C3%BCrst"), "http://www.example.org/D\u{fc}rst");
/// assert_eq!(uri_to_iri("http://www.example.org/D%FCrst"), "http://www.example.org/D%FCrst");
/// assert_eq!(uri_to_iri("http://xn--99zt52a.example.org/%e2%80%ae"),
///            "http://xn--99zt52a.example.org/%E2%80%AE");
/// // Reserved characters and "%" stay encoded.
/// assert_eq!(uri_to_iri("/a%2Fb%25c%20d%7e"), "/a%2Fb%25c%20d~");
/// ```
pub fn uri_to_iri(uri: &str) -> Cow<'_, str> {
    let bytes = uri.as_bytes();
    let is_triplet = |i: usize| is_pct_triplet(bytes, i);
    let Some(first) = (0..bytes.len()).find(|&i| is_triplet(i)) else {
        return Cow::Borrowed(uri);
    };
    let mut out = String::with_capacity(uri.len());
    out.push_str(&uri[..first]);
    let mut i = first;
    let mut octets = Vec::new();
    while i < bytes.len() {
        if !is_triplet(i) {
            let c = uri[i..].chars().next().unwrap_or('\u{FFFD}');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        // A run of pct-encoded triplets, starting at `run`.
        let run = i;
        octets.clear();
        while i < bytes.len() && is_triplet(i) {
            let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            octets.push(hex(bytes[i + 1]) << 4 | hex(bytes[i + 2]));
            i += 3;
        }
        push_decoded_run(&mut out, &uri[run..i], &octets);
    }
    Cow::Owned(out)
}

/// Writes the octets of one run of triplets (`written` is the run as it was written, three bytes per
/// octet) as [`uri_to_iri`] says.
fn push_decoded_run(out: &mut String, written: &str, octets: &[u8]) {
    let mut k = 0;
    for chunk in octets.utf8_chunks() {
        for c in chunk.valid().chars() {
            let n = c.len_utf8();
            if c.is_ascii() {
                // Step 2: only unreserved characters are decoded; the rest stays as written.
                if classes::contains(classes::UNRESERVED, c as u8) {
                    out.push(c);
                } else {
                    out.push_str(&written[3 * k..3 * k + 3]);
                }
            } else if decodable(c) {
                out.push(c);
            } else {
                // Step 4: re-percent-encoded.
                for &b in &octets[k..k + n] {
                    push_octet(out, b);
                }
            }
            k += n;
        }
        // Step 3: octets that are not well-formed UTF-8.
        for &b in chunk.invalid() {
            push_octet(out, b);
            k += 1;
        }
    }
}
