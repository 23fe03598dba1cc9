//! The IRI values: [`IriRef`] (`IRI-reference`) and [`Iri`] (`IRI`) of RFC 3987, parsed by
//! `grammars/iri.pest` compiled with `pest_derive`, stored like [`UriRef`]: the text plus the offsets of
//! its components. [`IriRef::to_uri`] maps one to the [`UriRef`] it stands for (RFC 3987 3.1) and
//! [`IriRef::from_uri`] converts back (3.2), component by component.

use std::borrow::Cow;

use pest::Parser as _;

use crate::components::HostKind;
use crate::components::WrittenAuthority;
use crate::components::{self, Parts};
use crate::engine::{self, Rule as UriRule};
use crate::value::iri::{iri_to_uri, uri_to_iri};
use crate::value::reference::{IriSpec, Ri, RiRef, Spec};
use crate::value::uri::{Uri, UriRef};

mod parser {
    /// The pest_derive parser of `grammars/iri.pest`, with whole-input entry rules.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/iri.pest"]
    #[grammar_inline = "iri_reference_entry = _{ SOI ~ uri_reference ~ EOI }\niri_entry = _{ SOI ~ uri ~ EOI }"]
    pub(super) struct IriParser;
}

use parser::{IriParser, Rule};

/// The position of a component rule in `COMPONENT_RULES` (the slots of `components`), by the pest names that
/// `grammars/iri.pest` shares with `uri.pest`.
fn component(rule: Rule) -> Option<usize> {
    let name = match rule {
        Rule::scheme => "scheme",
        Rule::authority => "authority",
        Rule::userinfo => "userinfo",
        Rule::host => "host",
        Rule::ip_literal => "ip_literal",
        Rule::ipv4address => "ipv4address",
        Rule::ipv6address => "ipv6address",
        Rule::ipvfuture => "ipvfuture",
        Rule::reg_name => "reg_name",
        Rule::port => "port",
        Rule::path_abempty => "path_abempty",
        Rule::path_absolute => "path_absolute",
        Rule::path_noscheme => "path_noscheme",
        Rule::path_rootless => "path_rootless",
        Rule::path_empty => "path_empty",
        Rule::query => "query",
        Rule::fragment => "fragment",
        _ => return None,
    };
    components::component_index(name)
}

/// Why a text is not an IRI reference (RFC 3987 2.2), or is longer than a value can hold once mapped
/// to a URI (a third of 4 GiB): `a b`, `http://[::1`, `/\u{E000}` (private use outside the query).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: not an {rule} (RFC 3987 section 2.2)")]
pub struct IriParseError {
    offset: usize,
    rule: &'static str,
}

impl IriParseError {
    /// The byte offset where the grammar stopped (pest's furthest position).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rule the text was matched against: `IRI-reference` or `IRI`.
    pub fn rule(&self) -> &'static str {
        self.rule
    }
}

/// An IRI reference (RFC 3987 section 2.2): an [`Iri`] or a relative IRI reference, as one string plus
/// the offsets of its components: the generic [`RiRef`] at [`IriSpec`], whose accessors (`host`,
/// `port_u16`, `path_segments`, `authority`, ...) are those of [`UriRef`], undefined (`None`) and empty
/// (`Some("")`) components kept apart the same way.
///
/// ```text
/// IRI-reference = IRI / irelative-ref
/// ```
///
/// `Eq` and `Hash` compare the text (simple string comparison, RFC 3987 5.3.1).
///
/// ```
/// use rfc3986::iri::IriRef;
/// let r = IriRef::parse("//r\u{e9}sum\u{e9}.example.org/caf\u{e9}?q=\u{65e5}#\u{2014}")?;
/// assert_eq!(r.host_str(), Some("r\u{e9}sum\u{e9}.example.org"));
/// assert_eq!(r.path(), "/caf\u{e9}");
/// assert_eq!(r.to_uri().as_str(), "//r%C3%A9sum%C3%A9.example.org/caf%C3%A9?q=%E6%97%A5#%E2%80%94");
/// assert!(IriRef::parse("a b").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type IriRef<'a> = RiRef<'a, IriSpec>;

/// An IRI (RFC 3987 section 2.2): an [`IriRef`] whose scheme is defined (the generic [`Ri`] at
/// [`IriSpec`]).
///
/// ```text
/// IRI = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]
/// ```
///
/// ```
/// use rfc3986::iri::Iri;
/// let iri = Iri::parse("http://example.org/D\u{fc}rst")?;
/// assert_eq!(iri.scheme(), "http");
/// assert_eq!(iri.to_uri().as_str(), "http://example.org/D%C3%BCrst");
/// assert!(Iri::parse("/D\u{fc}rst").is_err()); // no scheme
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Iri<'a> = Ri<'a, IriSpec>;

fn parse_parts(entry: Rule, rule: &'static str, input: &str) -> Result<Parts, IriParseError> {
    // The URI of an IRI is at most three times as long (one octet becomes "%HH"), and must fit a value.
    if input.len() > components::MAX_LEN / 3 {
        return Err(IriParseError {
            offset: components::MAX_LEN / 3,
            rule,
        });
    }
    let pairs = IriParser::parse(entry, input).map_err(|e| IriParseError {
        offset: match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        },
        rule,
    })?;
    let events = pairs.flatten().filter_map(|pair| {
        let span = pair.as_span();
        component(pair.as_rule()).map(|c| (c, span.start(), span.end()))
    });
    Ok(components::build(events))
}

impl<'a> IriRef<'a> {
    /// Parses an IRI reference (rule `IRI-reference`, [RFC 3987 2.2](https://datatracker.ietf.org/doc/html/rfc3987#section-2.2)),
    /// borrowing `input`.
    ///
    /// ```text
    /// IRI-reference = IRI / irelative-ref
    /// ```
    ///
    /// ```
    /// use rfc3986::iri::IriRef;
    /// assert!(IriRef::parse("").is_ok());
    /// assert_eq!(IriRef::parse("?\u{E000}")?.query(), Some("\u{E000}")); // iprivate: query only
    /// assert!(IriRef::parse("/\u{E000}").is_err());
    /// # Ok::<(), rfc3986::iri::IriParseError>(())
    /// ```
    ///
    /// # Errors
    /// [`IriParseError`] when `input` is not an IRI reference.
    pub fn parse(input: &'a str) -> Result<IriRef<'a>, IriParseError> {
        let parts = parse_parts(Rule::iri_reference_entry, "IRI-reference", input)?;
        Ok(IriRef::from_parts(Cow::Borrowed(input), parts))
    }

    /// Whether this is an IRI (the scheme is defined).
    pub fn is_iri(&self) -> bool {
        self.has_scheme()
    }

    /// The reference as an [`Iri`] when its scheme is defined, `None` for a relative reference.
    pub fn as_iri(&self) -> Option<Iri<'a>> {
        self.to_absolute()
    }

    /// The URI reference this IRI reference maps to ([RFC 3987 3.1](https://datatracker.ietf.org/doc/html/rfc3987#section-3.1)):
    /// each component with [`iri_to_uri`] (non-ASCII characters as percent-encoded UTF-8), the
    /// components where they were. Infallible: the mapping of an IRI reference is a URI reference.
    ///
    /// ```text
    /// ucschar / iprivate  ->  1*pct-encoded
    /// ```
    ///
    /// ```
    /// use rfc3986::iri::IriRef;
    /// let uri = IriRef::parse("/caf\u{e9}?\u{E000}#")?.to_uri();
    /// assert_eq!((uri.path(), uri.query(), uri.fragment()), ("/caf%C3%A9", Some("%EE%80%80"), Some("")));
    /// # Ok::<(), rfc3986::iri::IriParseError>(())
    /// ```
    pub fn to_uri(&self) -> UriRef<'static> {
        // At most three times the IRI's length, which parsing keeps under the most a value holds.
        let (text, parts) = rewrite(&Components::of(self), |s| iri_to_uri(s).into_owned(), false);
        UriRef::from_written(UriRule::URI_REFERENCE, text, parts)
    }

    /// The IRI reference a URI reference converts to ([RFC 3987 3.2](https://datatracker.ietf.org/doc/html/rfc3987#section-3.2)):
    /// each component with [`uri_to_iri`] (percent-encoded UTF-8 decoded where safe), the components
    /// where they were. Infallible.
    ///
    /// ```text
    /// pct-encoded  ->  ucschar (when safe)
    /// ```
    ///
    /// ```
    /// use rfc3986::{iri::IriRef, UriRef};
    /// let uri = UriRef::parse("http://example.org/D%C3%BCrst/%E2%80%AE?a%2Fb")?;
    /// let iri = IriRef::from_uri(&uri);
    /// assert_eq!(iri.as_str(), "http://example.org/D\u{fc}rst/%E2%80%AE?a%2Fb");
    /// assert_eq!(iri.to_uri().normalize(), uri.normalize());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn from_uri(uri: &UriRef<'_>) -> IriRef<'static> {
        // Never longer than the URI: decoding only shortens.
        let (text, parts) = rewrite(&Components::of(uri), |s| uri_to_iri(s).into_owned(), true);
        IriRef::from_parts(Cow::Owned(text), parts)
    }
}

/// The components of a value, borrowed, with the host kind.
struct Components<'t> {
    scheme: Option<&'t str>,
    userinfo: Option<&'t str>,
    host: Option<&'t str>,
    host_kind: HostKind,
    port: Option<&'t str>,
    path: &'t str,
    query: Option<&'t str>,
    fragment: Option<&'t str>,
}

impl<'t> Components<'t> {
    fn of<S: Spec>(r: &'t RiRef<'_, S>) -> Components<'t> {
        Components {
            scheme: r.scheme(),
            userinfo: r.userinfo(),
            host: r.host_str(),
            host_kind: r.host_kind().unwrap_or_default(),
            port: r.port(),
            path: r.path(),
            query: r.query(),
            fragment: r.fragment(),
        }
    }
}

/// Writes the components (RFC 3986 5.3) with `map` applied to userinfo, reg-name, path, query and
/// fragment, and records where each one went. With `may_become_ipv4`, a reg-name that the mapping turned
/// into an IPv4address (`%31.2.3.4` decoded) is reported as one, as `host` prefers it (RFC 3986 3.2.2).
fn rewrite(
    c: &Components<'_>,
    map: impl Fn(&str) -> String,
    may_become_ipv4: bool,
) -> (String, Parts) {
    let mut out = String::new();
    let scheme_end = c.scheme.map(|s| {
        out.push_str(s);
        let end = out.len();
        out.push(':');
        end
    });
    let authority = c.host.map(|host| {
        out.push_str("//");
        let start = out.len();
        let userinfo = c.userinfo.map(|u| {
            let s = out.len();
            out.push_str(&map(u));
            let e = out.len();
            out.push('@');
            (s, e)
        });
        let host_start = out.len();
        let mut host_kind = c.host_kind;
        if host_kind == HostKind::RegName {
            out.push_str(&map(host));
            if may_become_ipv4 && engine::matches(UriRule::IPV4ADDRESS, &out[host_start..]) {
                host_kind = HostKind::Ipv4address;
            }
        } else {
            out.push_str(host);
        }
        let host_end = out.len();
        let port = c.port.map(|p| {
            out.push(':');
            let s = out.len();
            out.push_str(p);
            (s, out.len())
        });
        WrittenAuthority {
            authority: (start, out.len()),
            userinfo,
            host: (host_start, host_end),
            host_kind,
            port,
        }
    });
    let path_start = out.len();
    out.push_str(&map(c.path));
    let path = (path_start, out.len());
    let query = c.query.map(|q| {
        out.push('?');
        let s = out.len();
        out.push_str(&map(q));
        (s, out.len())
    });
    let fragment = c.fragment.map(|f| {
        out.push('#');
        let s = out.len();
        out.push_str(&map(f));
        (s, out.len())
    });
    let parts = Parts::written(&out, scheme_end, authority, path, query, fragment);
    (out, parts)
}

impl<'a> Iri<'a> {
    /// Parses an IRI (rule `IRI`, [RFC 3987 2.2](https://datatracker.ietf.org/doc/html/rfc3987#section-2.2)):
    /// scheme required, fragment allowed.
    ///
    /// ```text
    /// IRI = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]
    /// ```
    ///
    /// # Errors
    /// [`IriParseError`] when `input` is not an IRI.
    pub fn parse(input: &'a str) -> Result<Iri<'a>, IriParseError> {
        let parts = parse_parts(Rule::iri_entry, "IRI", input)?;
        Ok(Iri {
            inner: IriRef::from_parts(Cow::Borrowed(input), parts),
        })
    }

    /// The same value as an [`IriRef`] (also what `Deref` gives).
    pub fn as_iri_ref(&self) -> &IriRef<'a> {
        &self.inner
    }

    /// The URI this IRI maps to (RFC 3987 3.1), see [`IriRef::to_uri`].
    pub fn to_uri(&self) -> Uri<'static> {
        let r = self.inner.to_uri();
        let parts = *r.parts();
        Uri::from_written(r.into_string(), parts)
    }

    /// The IRI a URI converts to (RFC 3987 3.2), see [`IriRef::from_uri`].
    pub fn from_uri(uri: &Uri<'_>) -> Iri<'static> {
        Iri {
            inner: IriRef::from_uri(uri.as_uri_ref()),
        }
    }
}
