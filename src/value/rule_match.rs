//! [`RuleMatch`]: the match of any rule of a grammar against a whole input, with the components it
//! contains. Only the rules whose language is a URI reference give a [`UriRef`]; a host, a scheme or a
//! path matched alone stays a `RuleMatch`, which cannot be resolved, normalized or taken for a URI.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use crate::components::{HostKind, Parts, PathKind, RefParts, Slot};
use crate::engine;
use crate::engine::Rule;
use crate::value::iri::IriRef;
use crate::value::reference::{host_of, port_number, Host, IriSpec, RiRef, Spec, UriSpec};
use crate::value::uri::UriRef;

/// Whether `a` and the ABNF name `abnf_name` name the same rule: rule names compare ignoring case (RFC
/// 5234 2.1), and `_` stands for `-` (the pest spelling of a rule without an ABNF name,
/// `uri_reference`).
fn same_rule(a: &str, abnf_name: &str) -> bool {
    a.len() == abnf_name.len()
        && a.bytes()
            .zip(abnf_name.bytes())
            .all(|(x, y)| x.eq_ignore_ascii_case(&y) || (x == b'-' && y == b'_'))
}

/// Whether matches of the rule named `abnf_name` are references of the specification `S`
/// ([`Spec::REFERENCE_RULES`]: `URI-reference`, `URI`, `relative-ref`, `absolute-URI` for URIs;
/// `IRI-reference`, `IRI`, `irelative-ref`, `absolute-IRI` for IRIs).
pub(crate) fn yields<S: Spec>(abnf_name: &str) -> bool {
    S::REFERENCE_RULES.iter().any(|r| same_rule(r, abnf_name))
}

/// The error for a match of `rule` asked to become a reference of the specification `S`.
pub(crate) fn not_a<S: Spec>(rule: String) -> NotAReference {
    NotAReference::new(rule, S::REFERENCE_KIND, S::REFERENCE_RULES)
}

/// Whether matches of the rule named `abnf_name` are references of either specification (URI or IRI).
pub(crate) fn yields_reference(abnf_name: &str) -> bool {
    yields::<UriSpec>(abnf_name) || yields::<IriSpec>(abnf_name)
}

/// A whole input matched by one rule of the grammar ([`parse_as`](crate::parse_as), or a rule of a
/// grammar loaded at run time), with the byte spans of the components the rule contains.
///
/// A component the rule does not contain is `None`: `parse_as(Rule::AUTHORITY, "h:80")` has a host and a
/// port but no scheme and no path. A component the rule contains but the input leaves empty is
/// `Some("")`.
///
/// Only a match of `URI-reference`, `URI`, `relative-ref` or `absolute-URI` becomes a [`UriRef`]
/// ([`into_uri_ref`](Self::into_uri_ref)), and only a match of `IRI-reference`, `IRI`, `irelative-ref`
/// or `absolute-IRI` (in the IRI grammar loaded at run time) an [`IriRef`]
/// ([`into_iri_ref`](Self::into_iri_ref)); resolution, normalization and `as_uri` belong to those.
///
/// ```
/// use rfc3986::{parse_as, HostKind, Rule};
/// let m = parse_as(Rule::AUTHORITY, "user@[::1]:8080")?;
/// assert_eq!(m.rule_name(), "authority");
/// assert_eq!((m.userinfo(), m.host_str(), m.port()), (Some("user"), Some("[::1]"), Some("8080")));
/// assert_eq!(m.host_kind(), Some(HostKind::Ipv6address));
/// assert_eq!((m.scheme(), m.path(), m.query()), (None, None, None));
/// assert_eq!(m.spans().host, Some(5..10));
/// assert!(m.into_uri_ref().is_err()); // an authority is not a URI reference
///
/// let r = parse_as(Rule::URI, "http://a/b?")?.into_uri_ref()?;
/// assert_eq!(r.query(), Some(""));
/// # Ok::<(), rfc3986::Error>(())
/// ```
///
/// These do not compile: a match has no resolution, normalization or `as_uri`.
///
/// ```compile_fail
/// let base = rfc3986::Uri::parse("http://a/b").unwrap();
/// let host = rfc3986::parse_as(rfc3986::Rule::HOST, "x").unwrap();
/// let _ = host.resolve_against(&base);
/// ```
///
/// ```compile_fail
/// let host = rfc3986::parse_as(rfc3986::Rule::HOST, "X").unwrap();
/// let _ = host.normalize();
/// ```
///
/// ```compile_fail
/// let scheme = rfc3986::parse_as(rfc3986::Rule::SCHEME, "http").unwrap();
/// let _ = scheme.as_uri();
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RuleMatch<'a> {
    text: &'a str,
    parts: Parts,
    /// The built-in rule, when the grammar's rule has one of the same name.
    rule: Option<Rule>,
    name: Cow<'static, str>,
}

/// The byte ranges of the components of a [`RuleMatch`], into its input; `None` for a component the rule
/// does not contain or the input does not have.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ComponentSpans {
    /// `scheme` (RFC 3986 3.1), without the `:`.
    pub scheme: Option<Range<usize>>,
    /// `authority` (3.2), without the `//`.
    pub authority: Option<Range<usize>>,
    /// `userinfo` (3.2.1), without the `@`.
    pub userinfo: Option<Range<usize>>,
    /// `host` (3.2.2), brackets included for an IP-literal.
    pub host: Option<Range<usize>>,
    /// `port` (3.2.3), without the `:`.
    pub port: Option<Range<usize>>,
    /// The path (3.3), whichever of the five path rules matched.
    pub path: Option<Range<usize>>,
    /// `query` (3.4), without the `?`.
    pub query: Option<Range<usize>>,
    /// `fragment` (3.5), without the `#`.
    pub fragment: Option<Range<usize>>,
}

pub use crate::error::NotAReference;

impl<'a> RuleMatch<'a> {
    /// A match of the built-in `rule`.
    pub(crate) fn builtin(rule: Rule, text: &'a str, parts: Parts) -> RuleMatch<'a> {
        RuleMatch {
            text,
            parts,
            rule: Some(rule),
            name: Cow::Borrowed(rule.abnf_name()),
        }
    }

    /// A match of the rule named `abnf_name` of a grammar loaded at run time.
    #[cfg(feature = "runtime-grammar")]
    pub(crate) fn loaded(abnf_name: &str, text: &'a str, parts: Parts) -> RuleMatch<'a> {
        RuleMatch {
            text,
            parts,
            rule: Rule::from_abnf_name(abnf_name).filter(|r| r.abnf_name() == abnf_name),
            name: Cow::Owned(abnf_name.to_owned()),
        }
    }

    /// The view of a reference as a match of `URI-reference`, for the stages that work on components.
    pub(crate) fn of_reference(r: &'a UriRef<'_>) -> RuleMatch<'a> {
        RuleMatch::builtin(Rule::URI_REFERENCE, r.as_str(), r.parts().to_parts())
    }

    /// The built-in rule that matched; `None` for a rule of a grammar loaded at run time that the built-in
    /// grammar does not have (`IRI-reference`).
    pub fn rule(&self) -> Option<Rule> {
        self.rule
    }

    /// The ABNF name of the rule that matched (`authority`, `IPv6address`, `IRI-reference`).
    pub fn rule_name(&self) -> &str {
        &self.name
    }

    /// Whether the rule's matches are URI references or IRI references, which
    /// [`into_uri_ref`](Self::into_uri_ref) turns into a [`UriRef`] (a rule of RFC 3986) and
    /// [`into_iri_ref`](Self::into_iri_ref) into an [`IriRef`] (a rule of RFC 3987).
    pub fn is_reference(&self) -> bool {
        yields_reference(&self.name)
    }

    /// The whole input, which the rule matched.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The byte range of the match: always the whole input, `0..len`.
    pub fn span(&self) -> Range<usize> {
        0..self.text.len()
    }

    /// The byte ranges of the components (see [`ComponentSpans`]).
    ///
    /// ```
    /// use rfc3986::{parse_as, Rule};
    /// let m = parse_as(Rule::URI, "http://h:/p?")?;
    /// let spans = m.spans();
    /// assert_eq!((spans.host, spans.port, spans.path), (Some(7..8), Some(9..9), Some(9..11)));
    /// assert_eq!((spans.query, spans.fragment), (Some(12..12), None)); // empty, and absent
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn spans(&self) -> ComponentSpans {
        let r = |slot: Slot| slot.get().map(|(s, e)| s..e);
        ComponentSpans {
            scheme: r(self.parts.scheme),
            authority: r(self.parts.authority),
            userinfo: r(self.parts.userinfo),
            host: r(self.parts.host),
            port: r(self.parts.port),
            path: r(self.parts.path),
            query: r(self.parts.query),
            fragment: r(self.parts.fragment),
        }
    }

    /// The components' byte ranges, for the stages that read them without slicing the text.
    #[inline]
    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }

    fn slice(&self, slot: Slot) -> Option<&'a str> {
        slot.get().map(|(s, e)| &self.text[s..e])
    }

    /// The scheme (RFC 3986 3.1) without its `:`, or `None`.
    pub fn scheme(&self) -> Option<&'a str> {
        self.slice(self.parts.scheme)
    }

    /// The authority (RFC 3986 3.2) without the leading `//`, or `None`.
    pub fn authority(&self) -> Option<&'a str> {
        self.slice(self.parts.authority)
    }

    /// The userinfo (RFC 3986 3.2.1) without its `@`, or `None`.
    pub fn userinfo(&self) -> Option<&'a str> {
        self.slice(self.parts.userinfo)
    }

    /// The host (RFC 3986 3.2.2) as written, brackets included for an IP-literal, or `None`.
    pub fn host_str(&self) -> Option<&'a str> {
        self.slice(self.parts.host)
    }

    /// Which alternative of `host = IP-literal / IPv4address / reg-name` matched, or `None`.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.parts.host.is_some().then_some(self.parts.host_kind)
    }

    /// The host as a typed value (see [`UriRef::host`]), or `None`.
    pub fn host(&self) -> Option<Host<'a>> {
        host_of(self.text, self.parts.host_address, self.parts.host_kind)
    }

    /// The port (RFC 3986 3.2.3) as written, without its `:`, or `None`.
    pub fn port(&self) -> Option<&'a str> {
        self.slice(self.parts.port)
    }

    /// The port as a number when it is non-empty and fits in `u16` (see [`UriRef::port_u16`]).
    pub fn port_u16(&self) -> Option<u16> {
        port_number(self.port()?)
    }

    /// The path (RFC 3986 3.3), or `None` for a rule that contains no path (`host`, `scheme`, ...).
    pub fn path(&self) -> Option<&'a str> {
        self.slice(self.parts.path)
    }

    /// Which of the five path rules the path matched, or `None` without a path.
    pub fn path_kind(&self) -> Option<PathKind> {
        self.parts.path.is_some().then_some(self.parts.path_kind)
    }

    /// The query (RFC 3986 3.4) without its `?`, or `None`.
    pub fn query(&self) -> Option<&'a str> {
        self.slice(self.parts.query)
    }

    /// The fragment (RFC 3986 3.5) without its `#`, or `None`.
    pub fn fragment(&self) -> Option<&'a str> {
        self.slice(self.parts.fragment)
    }

    /// The match as a [`UriRef`], borrowing the same input.
    ///
    /// # Errors
    /// [`NotAReference`] unless the rule is `URI-reference`, `URI`, `relative-ref` or `absolute-URI`
    /// (a match of `IRI-reference` of the IRI grammar is refused: its value is an [`IriRef`], see
    /// [`into_iri_ref`](Self::into_iri_ref)), and also when the components are not where RFC 3986 4.1
    /// writes them (`scheme ":" ["//" authority] path ["?" query] ["#" fragment]`, nothing after; a
    /// host in every authority, written `[ userinfo "@" ] host [ ":" port ]`): a grammar loaded at run
    /// time can match its component rules in another order, a fragment before the path, and such a
    /// match is not a reference.
    pub fn into_uri_ref(self) -> Result<UriRef<'a>, NotAReference> {
        self.into_reference()
    }

    /// The match as an [`IriRef`], borrowing the same input: for the rules `IRI-reference`, `IRI`,
    /// `irelative-ref` and `absolute-IRI` (RFC 3987 2.2) of the IRI grammar loaded at run time.
    ///
    /// # Errors
    /// [`NotAReference`] for any other rule (`URI-reference` included: map a [`UriRef`] with
    /// [`IriRef::from_uri`]) and when the components are out of the order of RFC 3986 4.1, as
    /// [`into_uri_ref`](Self::into_uri_ref) says.
    pub fn into_iri_ref(self) -> Result<IriRef<'a>, NotAReference> {
        self.into_reference()
    }

    /// The match as a reference of the specification `S`, when the rule is one of its reference rules
    /// and the components are where RFC 3986 4.1 writes them ([`RefParts::of_match`]).
    fn into_reference<S: Spec>(self) -> Result<RiRef<'a, S>, NotAReference> {
        let parts = if yields::<S>(&self.name) {
            RefParts::of_match(&self.parts, self.text)
        } else {
            None
        };
        if let Some(parts) = parts {
            Ok(RiRef::from_parts(Cow::Borrowed(self.text), parts))
        } else {
            Err(not_a::<S>(self.name.into_owned()))
        }
    }
}

impl<'a, S: Spec> TryFrom<RuleMatch<'a>> for RiRef<'a, S> {
    type Error = NotAReference;

    /// Same as [`RuleMatch::into_uri_ref`] (for a [`UriRef`]) and [`RuleMatch::into_iri_ref`] (for an
    /// [`IriRef`]).
    fn try_from(m: RuleMatch<'a>) -> Result<RiRef<'a, S>, NotAReference> {
        m.into_reference()
    }
}

impl fmt::Display for RuleMatch<'_> {
    /// The matched input.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl fmt::Debug for RuleMatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuleMatch")
            .field("rule", &self.rule_name())
            .field("text", &self.text)
            .field("spans", &self.spans())
            .finish()
    }
}

/// [`crate::parse_as`]: the components straight from the recognizer when it accepts (no intermediate
/// value to copy), else the explained rejection.
pub(crate) fn parse_as(rule: Rule, input: &str) -> Result<RuleMatch<'_>, crate::error::ParseError> {
    let parts = match engine::parse_parts_fast(rule, input) {
        Some(parts) => parts,
        None => engine::parse_parts_without_fast_path(rule, input)?,
    };
    Ok(RuleMatch::builtin(rule, input, parts))
}

/// [`crate::match_as`].
pub(crate) fn match_as(rule: Rule, input: &str) -> Option<RuleMatch<'_>> {
    match engine::parse_parts_fast(rule, input) {
        Some(parts) => Some(RuleMatch::builtin(rule, input, parts)),
        // The recognizer declined: a rejection, or a match whose components it could not record (a
        // component rule matched twice; uri.pest has none), which the full parse records.
        None if engine::matches(rule, input) => parse_as(rule, input).ok(),
        None => None,
    }
}
