//! Parse, validate, resolve and normalize URIs exactly as RFC 3986 (STD 66) defines them, with the grammar
//! kept as data.
//!
//! # The pipeline
//!
//! One module per stage, in the order data flows:
//!
//! 1. `uri.pest` (at the crate root) transcribes the whole ABNF of RFC 3986 Appendix A, rule for rule. It is
//!    the only place where URI syntax is written. The build script compiles it with the crate's generator
//!    (`rfc3986-peg`) into a byte-level recognizer, which answers, and an explainer, which says why a
//!    rejected input fails as pest's attempt tracking would; `pest_derive` compiles it into the
//!    reference parser both are tested against (differential tests over every rule).
//! 2. Any rule can be matched against a whole input: [`validate`], [`parse_as`] (a match of the
//!    rule's name in [`Rule`]). A rejected input becomes a [`ParseError`]: the byte offset, the kind, the
//!    character found and the ABNF names of what was expected there.
//! 3. [`UriRef`] / [`Uri`]: the input text plus the byte offsets of its components, only ever from the
//!    rules `URI-reference`, `URI`, `relative-ref` and `absolute-URI` (of `uri.pest` or of a grammar
//!    loaded at run time), with the components in the order of section 4.1. They are the generic
//!    [`RiRef`] / [`Ri`] at [`UriSpec`]; the IRI values are the same types at [`IriSpec`], so every
//!    accessor exists once and the two kinds do not mix. Accessors keep the RFC's distinction
//!    between an undefined (`None`) and an empty (`Some("")`) component.
//! 4. [`resolve`] (section 5: [`UriRef::resolve_against`], [`resolve::Resolver`], [`resolve::merge`],
//!    [`resolve::remove_dot_segments`]) and [`normalize`] (section 6: [`Uri::normalize`],
//!    [`normalize::Level`], [`normalize::equivalent`]) write one new string each and record the components
//!    as they write them; the result is in the grammar by construction (property tests parse every result
//!    again and compare).
//! 5. [`recompose`] (section 5.3): [`UriBuilder`] puts a reference together from components, each checked
//!    against its own rule.
//! 6. [`percent`] (sections 2.1, 2.4): encoding text for one component and decoding it back.
//! 7. [`lint`] (sections 2 to 7): SHOULD-level and security findings on a parsed value, each a
//!    [`lint::Finding`] with a stable [`lint::Code`], its RFC section and the byte span it is about;
//!    semantic checks that the ABNF cannot express live there, never in the grammar;
//!    [`lint::lint_capped`] keeps at most a few findings of each code (memory bounded on any input).
//! 8. [`repair`] (sections 2.1, 2.4, 2.5; RFC 3987 3.1): a near-URI made a URI reference where
//!    percent-encoding repairs it unambiguously, each repair reported; the grammar decides what is
//!    left to repair.
//! 9. [`iri`] (RFC 3987): [`iri::IriRef`] / [`iri::Iri`] parsed by `grammars/iri.pest` (rejections
//!    explained by its detail grammar, which the build script compiles), mapped to [`UriRef`] / [`Uri`]
//!    and back (3.1, 3.2), also as plain text.
//! 10. [`template`] (RFC 6570): URI Templates, checked by their own grammar
//!     (`grammars/uri-template.pest`, rejections explained by its detail grammar) and expanded into URI
//!     references.
//!
//! # Terminology
//!
//! The names are the RFC's: a *URI* has a scheme (section 3); a *relative reference* does not (4.2); a
//! *URI reference* is either (4.1). `reg-name`, `IP-literal`, `IPv4address`, `pct-encoded` and the other
//! rule names are those of Appendix A; errors and the command line spell them that way.
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
//! None is on by default; the library's normal dependencies are pest, pest_derive, thiserror and memchr
//! (which pest already depends on), and the compiled recognizer is always used.
//!
//! | feature | adds | extra dependencies |
//! |---|---|---|
//! | `serde` | `Serialize`/`Deserialize` for [`UriRef`] and [`Uri`] as their text (`interop::serde_borrow` to borrow) | serde |
//! | `http` | `TryFrom` between [`UriRef`]/[`Uri`] and `http::Uri` (http 1.x) | http |
//! | `url` | `TryFrom` between [`UriRef`]/[`Uri`] and `url::Url` (url 2.x, WHATWG) | url |
//! | `runtime-grammar` | `runtime::Grammar`: a `.pest` file loaded at run time (an edited `uri.pest`, the IRI grammar of RFC 3987), compiled into the built-in recognizer's program, with the same typed values and errors; `runtime::SchemeGrammars` for per-scheme grammars | pest_meta, pest_vm (the reference engine), pest_stack_guard |
//!
//! The command-line tool is the separate package `rfc3986-cli` (binary `rfc3986`).

#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![deny(rustdoc::broken_intra_doc_links)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

// The stages, lowest first: each imports only those above it in this list (docs/INTERNALS.md).
mod components;
mod engine;
mod error;
#[cfg(any(feature = "serde", feature = "http", feature = "url"))]
#[cfg_attr(
    docsrs,
    doc(cfg(any(feature = "serde", feature = "http", feature = "url")))
)]
pub mod interop;
pub mod lint;
pub mod normalize;
pub mod percent;
pub mod recompose;
pub mod repair;
pub mod resolve;
mod rule;
#[cfg(feature = "runtime-grammar")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime-grammar")))]
pub mod runtime;
pub mod template;
mod util;
mod value;

pub use components::{HostKind, PathKind};
pub use error::{Annotated, Error, Expected, ParseError, ParseErrorKind};
pub use recompose::query::QueryPairs;
pub use recompose::UriBuilder;
pub use rule::Rule;
#[cfg(feature = "runtime-grammar")]
#[doc(inline)]
pub use runtime::limits as runtime_limits;
pub use util::{escape_echoed, password_span};
#[doc(inline)]
pub use value::iri;
pub use value::reference::{Authority, Host, IriSpec, Ri, RiRef, Segments, Spec, UriSpec};
pub use value::rule_match::{ComponentSpans, NotAReference, RuleMatch};
pub use value::uri::{Uri, UriRef};

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
    engine::validate(rule, input)
}

/// Whether `input` as a whole is in the language of `rule`: the verdict of [`validate`] without the
/// explanation of a rejection, which is most of the time a rejected input costs (the compiled recognizer
/// decides alone; differential tests hold it equal to the pest_derive reference parser on every rule).
///
/// ```
/// use rfc3986::{is_valid, Rule};
/// assert!(is_valid(Rule::URI_REFERENCE, "../g;x?y#s"));
/// assert!(!is_valid(Rule::URI_REFERENCE, "http://a/b c")); // a space (RFC 3986 2.1)
/// assert!(!is_valid(Rule::URI, "//example.com/")); // no scheme: a relative reference (4.2)
/// ```
pub fn is_valid(rule: Rule, input: &str) -> bool {
    engine::matches(rule, input)
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

/// Matches `input` as a whole against any rule of the grammar: a [`RuleMatch`] with the rule and the byte
/// spans of the components the rule contains (`None` for those it does not contain). Only a match of
/// `URI-reference`, `URI`, `relative-ref` or `absolute-URI` becomes a [`UriRef`]
/// ([`RuleMatch::into_uri_ref`]).
///
/// ```
/// use rfc3986::{parse_as, Rule};
/// let authority = parse_as(Rule::AUTHORITY, "user@[::1]:8080")?;
/// assert_eq!(authority.userinfo(), Some("user"));
/// assert_eq!(authority.host_str(), Some("[::1]"));
/// assert_eq!(authority.port(), Some("8080"));
/// assert_eq!(authority.path(), None); // an authority has no path
/// let port = parse_as(Rule::PORT, "123456")?; // port = *DIGIT: any number of digits
/// assert_eq!((port.port(), port.port_u16()), (Some("123456"), None));
/// # Ok::<(), rfc3986::Error>(())
/// ```
///
/// # Errors
/// [`ParseError`] when `input` as a whole is not in the rule's language.
pub fn parse_as(rule: Rule, input: &str) -> Result<RuleMatch<'_>, ParseError> {
    value::rule_match::parse_as(rule, input)
}

/// The match of [`parse_as`] without the explanation of a rejection: `None` when `input` is not in the
/// language of `rule`, or is longer than the 4 GiB - 2 bytes a match can record ([`parse_as`] says which,
/// and where). For a checker that only counts rejections: a rejected input costs about what an accepted
/// one does here, where explaining it (the furthest position and the expected items, RFC 3986 Appendix A)
/// costs ten times more.
///
/// ```
/// use rfc3986::{match_as, Rule};
/// let uri = match_as(Rule::URI_REFERENCE, "http://a/b?c").unwrap();
/// assert_eq!((uri.host_str(), uri.query()), (Some("a"), Some("c")));
/// assert!(match_as(Rule::URI_REFERENCE, "http://a/b c").is_none()); // a space (RFC 3986 2.1)
/// ```
pub fn match_as(rule: Rule, input: &str) -> Option<RuleMatch<'_>> {
    value::rule_match::match_as(rule, input)
}

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
