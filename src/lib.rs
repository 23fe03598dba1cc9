//! Parse and validate URIs exactly as RFC 3986 (STD 66) defines them, with the grammar kept as data.
//!
//! # The pipeline
//!
//! One module per stage, in the order data flows:
//!
//! 1. `uri.pest` (at the crate root) transcribes the whole ABNF of RFC 3986 Appendix A, rule for rule. It is
//!    the only place where URI syntax is written.
//! 2. [`grammar`](crate::Rule): `pest_derive` compiles it; every rule can be matched against a whole input
//!    ([`Rule`], [`validate`]). A rejected input becomes a [`ParseError`] with the byte offset and the ABNF
//!    names of what was expected there.
//! 3. `builder`: the spans of the component rules (scheme, authority, userinfo, host, port, the five path
//!    rules, query, fragment) become offsets, without re-checking anything the grammar decided.
//! 4. [`UriRef`] / [`Uri`]: the input string plus those offsets, with accessors that keep the RFC's
//!    distinction between an undefined (`None`) and an empty (`Some("")`) component.
//! 5. [`resolve`](UriRef::resolve_against) (section 5: [`Resolver`], [`merge`], [`remove_dot_segments`]) and
//!    [`normalize`](Uri::normalize) (section 6: [`Level`], [`equivalent`]) write one new string each and
//!    parse it again, so their results are always in the grammar.
//! 6. [`lint`](crate::lint()): SHOULD-level and security findings (RFC 3986 sections 2 to 7) on a parsed
//!    value, each a [`Finding`] with a stable [`Code`], its RFC section and the byte span it is about;
//!    semantic checks that the ABNF cannot express live there, never in the grammar.
//!
//! # Terminology
//!
//! The names are the RFC's: a *URI* has a scheme (section 3); a *relative reference* does not (4.2); a
//! *URI reference* is either (4.1). `reg-name`, `IP-literal`, `IPv4address`, `pct-encoded` and the other
//! rule names are those of Appendix A; the command line and error messages spell them that way.
//!
//! # Examples
//!
//! ```
//! use rfc3986::{Host, Uri, UriRef};
//!
//! let uri = Uri::parse("http://[2001:db8::7]:8080/c=GB?objectClass?one")?;
//! assert_eq!(uri.scheme(), "http");
//! assert_eq!(uri.host(), Some(Host::Ipv6("2001:db8::7".parse().unwrap())));
//! assert_eq!(uri.port_u16(), Some(8080));
//! assert_eq!(uri.query(), Some("objectClass?one"));
//!
//! let reference = UriRef::parse("../g;x?y#s")?;
//! assert!(!reference.is_uri());
//! assert_eq!(reference.path(), "../g;x");
//!
//! let err = UriRef::parse("http://example.com/a b").unwrap_err();
//! assert_eq!(err.offset(), 20);
//! println!("{}", err.render("http://example.com/a b"));
//! # Ok::<(), rfc3986::Error>(())
//! ```
//!
//! # How strict
//!
//! Exactly the language of RFC 3986 Appendix A, nothing more: no WHATWG leniency (no backslashes, no
//! spaces, no stripping of tabs or newlines), no IRI characters (RFC 3987: non-ASCII text must be
//! percent-encoded as UTF-8 octets, RFC 3986 2.5), no IPv6 zone identifiers (RFC 6874, obsoleted by
//! RFC 9844), no limits on lengths or port numbers beyond what the ABNF says (`port = *DIGIT`).
//! Where RFC 3986 adds a rule outside the ABNF, we follow the text: section 3.2.2 makes a host that matches
//! `IPv4address` an IPv4 address and anything else a `reg-name` (`1.2.3.4` is IPv4, `1.2.3.256` a reg-name).
//!
//! # Crate features
//!
//! - `cli` (default): the `rfc3986` command-line tool and its dependencies (clap, serde_json). Library
//!   users can turn it off with `default-features = false`; the library itself needs only pest,
//!   pest_derive and thiserror.
//! - `serde`: `Serialize` and `Deserialize` for [`UriRef`] and [`Uri`], as their text; deserializing
//!   parses, and `serde_borrow` borrows from the input where the format allows.
//! - `http`: `TryFrom` conversions between [`UriRef`] / [`Uri`] and `http::Uri` (http 1.x), with
//!   `ConvertError`.
//! - `url`: `TryFrom` conversions between [`UriRef`] / [`Uri`] and `url::Url` (url 2.x, WHATWG URL
//!   Standard), with `ConvertError`.
//! - `runtime-grammar` (part of `cli`): grammars loaded at run time ([`Grammar`], with pest_meta and
//!   pest_vm) that give the same typed values as the built-in one, such as `grammars/iri.pest` (RFC 3987)
//!   or an edited `uri.pest`, and checks against scheme grammars ([`SchemeGrammars`], `schemes/*.pest`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod builder;
mod error;
mod grammar;
mod interop;
mod lint;
mod normalize;
pub mod percent;
mod recognizer;
mod recompose;
mod resolve;
#[cfg(feature = "runtime-grammar")]
mod runtime;
mod uri;

pub use builder::{HostKind, PathKind};
pub use error::{Error, ParseError, ParseErrorKind};
pub use grammar::{Expected, Rule};
#[cfg(feature = "serde")]
pub use interop::serde_borrow;
#[cfg(any(feature = "http", feature = "url"))]
pub use interop::ConvertError;
pub use lint::{lint, Code, Finding};
pub use normalize::{default_port, equivalent, Level};
pub use percent::DecodeError;
pub use recompose::{BuildError, UriBuilder};
pub use resolve::{merge, remove_dot_segments, ResolveError, Resolver};
#[cfg(feature = "runtime-grammar")]
pub use runtime::{
    Entry, Grammar, GrammarError, GrammarIssue, RuntimeParseError, SchemeError, SchemeGrammars,
    UnknownRule, SCHEME_ENTRY_RULE,
};
pub use uri::{Host, Segments, Uri, UriRef};

/// Whether `input` as a whole is in the language of `rule`.
///
/// ```
/// use rfc3986::{validate, Rule};
/// assert!(validate(Rule::IPV4ADDRESS, "192.0.2.16").is_ok());
/// assert!(validate(Rule::IPV4ADDRESS, "192.0.2.256").is_err());
/// assert!(validate(Rule::HOST, "192.0.2.256").is_ok()); // a reg-name (RFC 3986 3.2.2)
/// ```
///
/// # Errors
/// [`ParseError`] at the first byte the rule cannot accept.
pub fn validate(rule: Rule, input: &str) -> Result<(), ParseError> {
    grammar::validate(rule, input)
}

/// Like [`validate`], for bytes that may not be UTF-8 (a line read from a file, say).
///
/// # Errors
/// [`ParseError`] of kind [`ParseErrorKind::InvalidUtf8`] at the first byte that is not part of a UTF-8
/// sequence, or whatever [`validate`] returns for the text.
pub fn validate_bytes(rule: Rule, input: &[u8]) -> Result<(), ParseError> {
    match std::str::from_utf8(input) {
        Ok(text) => validate(rule, text),
        Err(e) => {
            // Report a grammar error before the bad byte if there is one: it comes first in the input.
            let valid = &input[..e.valid_up_to()];
            let text = std::str::from_utf8(valid).unwrap_or_default();
            match validate(rule, text) {
                Err(inner) if inner.offset() < text.len() => Err(inner),
                _ => Err(ParseError::invalid_utf8(rule, e.valid_up_to())),
            }
        }
    }
}

/// Matches `input` against any rule of the grammar and returns the components it contains, as
/// [`UriRef::parse_rule`] does.
///
/// ```
/// use rfc3986::{parse_as, Rule};
/// let authority = parse_as(Rule::AUTHORITY, "user@[::1]:8080")?;
/// assert_eq!(authority.userinfo(), Some("user"));
/// assert_eq!(authority.host_str(), Some("[::1]"));
/// assert_eq!(authority.port(), Some("8080"));
/// # Ok::<(), rfc3986::Error>(())
/// ```
///
/// # Errors
/// [`ParseError`] when `input` as a whole is not in the rule's language.
pub fn parse_as(rule: Rule, input: &str) -> Result<UriRef<'_>, ParseError> {
    UriRef::parse_rule(rule, input)
}

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
