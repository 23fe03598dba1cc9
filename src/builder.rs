//! The builder stage: component events `(rule, byte span)` in input order -> the offsets of a [`UriRef`].
//!
//! The builder listens for the rule names of the grammar's components and nothing else, so any engine
//! that reports those names with their spans (the derived parser today; a grammar loaded at run time
//! tomorrow) feeds it. It is infallible and never re-checks what the grammar decided: it only records where
//! each component is.
//!
//! [`UriRef`]: crate::UriRef

/// A byte range `start..end` of the input.
pub(crate) type Span = (usize, usize);

/// The component rules the builder listens for, by their pest names in `uri.pest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Component {
    Scheme,
    Authority,
    Userinfo,
    Host,
    IpLiteral,
    Ipv4address,
    Ipv6address,
    IpvFuture,
    RegName,
    Port,
    Path(PathKind),
    Query,
    Fragment,
}

impl Component {
    /// The component a rule stands for, by the rule's name in `uri.pest`; `None` for structural rules
    /// (`uri`, `hier_part`, ...) and character classes.
    pub(crate) fn from_rule_name(name: &str) -> Option<Component> {
        Some(match name {
            "scheme" => Component::Scheme,
            "authority" => Component::Authority,
            "userinfo" => Component::Userinfo,
            "host" => Component::Host,
            "ip_literal" => Component::IpLiteral,
            "ipv4address" => Component::Ipv4address,
            "ipv6address" => Component::Ipv6address,
            "ipvfuture" => Component::IpvFuture,
            "reg_name" => Component::RegName,
            "port" => Component::Port,
            "path_abempty" => Component::Path(PathKind::Abempty),
            "path_absolute" => Component::Path(PathKind::Absolute),
            "path_noscheme" => Component::Path(PathKind::Noscheme),
            "path_rootless" => Component::Path(PathKind::Rootless),
            "path_empty" => Component::Path(PathKind::Empty),
            "query" => Component::Query,
            "fragment" => Component::Fragment,
            _ => return None,
        })
    }
}

/// Which of the five path rules of RFC 3986 section 3.3 the path matched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// `path-abempty = *( "/" segment )`: after an authority; begins with "/" or is empty.
    Abempty,
    /// `path-absolute = "/" [ segment-nz *( "/" segment ) ]`: begins with "/" but not "//".
    Absolute,
    /// `path-noscheme = segment-nz-nc *( "/" segment )`: a relative-path reference; no ":" in the first
    /// segment.
    Noscheme,
    /// `path-rootless = segment-nz *( "/" segment )`: begins with a segment.
    Rootless,
    /// `path-empty = 0<pchar>`: zero characters.
    #[default]
    Empty,
}

/// Which alternative of `host = IP-literal / IPv4address / reg-name` matched (RFC 3986 section 3.2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `IPv4address`: four dec-octets.
    Ipv4address,
    /// `IP-literal` holding an `IPv6address`.
    Ipv6address,
    /// `IP-literal` holding an `IPvFuture`.
    IpvFuture,
    /// `reg-name`, possibly empty.
    #[default]
    RegName,
}

impl HostKind {
    /// The ABNF name of the rule: `IPv4address`, `IPv6address`, `IPvFuture` or `reg-name`.
    pub fn abnf_name(self) -> &'static str {
        match self {
            HostKind::Ipv4address => "IPv4address",
            HostKind::Ipv6address => "IPv6address",
            HostKind::IpvFuture => "IPvFuture",
            HostKind::RegName => "reg-name",
        }
    }
}

/// Where each component of a parsed input is, as byte spans into it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Parts {
    pub(crate) scheme: Option<Span>,
    pub(crate) authority: Option<Span>,
    pub(crate) userinfo: Option<Span>,
    /// The host as written (brackets included for an IP-literal).
    pub(crate) host: Option<Span>,
    /// The address inside an IP-literal's brackets; the host itself otherwise.
    pub(crate) host_address: Option<Span>,
    pub(crate) host_kind: HostKind,
    pub(crate) port: Option<Span>,
    /// `None` only for rules that contain no path (`host`, `scheme`, ...).
    pub(crate) path: Option<Span>,
    pub(crate) path_kind: PathKind,
    pub(crate) query: Option<Span>,
    pub(crate) fragment: Option<Span>,
}

/// Records the spans of the component events, which arrive in input order with an enclosing rule before
/// the rules inside it (pre-order).
pub(crate) fn build(events: impl Iterator<Item = (Component, usize, usize)>) -> Parts {
    let mut parts = Parts::default();
    for (component, start, end) in events {
        let span = Some((start, end));
        match component {
            Component::Scheme => parts.scheme = span,
            Component::Authority => parts.authority = span,
            Component::Userinfo => parts.userinfo = span,
            Component::Host => parts.host = span,
            Component::IpLiteral => {
                parts.host.get_or_insert((start, end));
            }
            Component::Ipv4address
            | Component::RegName
            | Component::Ipv6address
            | Component::IpvFuture => {
                parts.host_kind = match component {
                    Component::Ipv4address => HostKind::Ipv4address,
                    Component::Ipv6address => HostKind::Ipv6address,
                    Component::IpvFuture => HostKind::IpvFuture,
                    _ => HostKind::RegName,
                };
                parts.host.get_or_insert((start, end));
                parts.host_address = span;
            }
            Component::Port => parts.port = span,
            Component::Path(kind) => {
                parts.path = span;
                parts.path_kind = kind;
            }
            Component::Query => parts.query = span,
            Component::Fragment => parts.fragment = span,
        }
    }
    parts
}
