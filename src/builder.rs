//! The builder stage: component events `(rule, byte span)` in input order -> the offsets of a [`UriRef`].
//!
//! The builder listens for the rule names of the grammar's components and nothing else, so any engine
//! that reports those names with their spans (the derived parser today; a grammar loaded at run time
//! tomorrow) feeds it. It is infallible and never re-checks what the grammar decided: it only records where
//! each component is.
//!
//! [`UriRef`]: crate::UriRef

/// The longest input a value can be built for: 4 GiB - 2 bytes (offsets are 32-bit, and `u32::MAX` marks
/// an absent component). Longer inputs are refused before they reach the builder.
pub(crate) const MAX_LEN: usize = u32::MAX as usize - 1;

/// Where a component is: a byte range `start..end` of the input, or nowhere (the component is absent).
/// Eight bytes, so that a parsed value stays small: `u32` offsets, and a start of `u32::MAX` for "absent".
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Slot(u32, u32);

impl Slot {
    /// No such component.
    pub(crate) const NONE: Slot = Slot(u32::MAX, u32::MAX);

    /// The component at `start..end` (both at most [`MAX_LEN`]).
    #[inline]
    pub(crate) fn new(start: usize, end: usize) -> Slot {
        debug_assert!(start <= end && end <= MAX_LEN);
        Slot(start as u32, end as u32)
    }

    /// The byte range, or `None` when the component is absent.
    #[inline]
    pub(crate) fn get(self) -> Option<(usize, usize)> {
        (self.0 != u32::MAX).then_some((self.0 as usize, self.1 as usize))
    }

    /// The same component copied from offset `from` of a text to offset `to` of another (`from` at most
    /// its start); `NONE` stays `NONE`.
    #[inline]
    pub(crate) fn moved(self, from: usize, to: usize) -> Slot {
        match self.get() {
            Some((start, end)) => Slot::new(start - from + to, end - from + to),
            None => Slot::NONE,
        }
    }

    /// The start offset (`u32::MAX` when absent).
    #[inline]
    pub(crate) fn start(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub(crate) fn is_some(self) -> bool {
        self.0 != u32::MAX
    }
}

impl Default for Slot {
    fn default() -> Slot {
        Slot::NONE
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

include!("component_rules.rs");

/// The position in [`COMPONENT_RULES`] of the rule with this pest name; `None` for structural rules
/// (`uri`, `hier_part`, ...) and character classes, which the builder ignores.
pub(crate) fn component_index(name: &str) -> Option<usize> {
    COMPONENT_RULES.iter().position(|&r| r == name)
}

/// Which of the five path rules of RFC 3986 section 3.3 the path matched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
#[non_exhaustive]
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
#[repr(align(8))]
pub(crate) struct Parts {
    pub(crate) scheme: Slot,
    pub(crate) authority: Slot,
    pub(crate) userinfo: Slot,
    /// The host as written (brackets included for an IP-literal).
    pub(crate) host: Slot,
    /// The address inside an IP-literal's brackets; the host itself otherwise.
    pub(crate) host_address: Slot,
    pub(crate) host_kind: HostKind,
    pub(crate) port: Slot,
    /// `None` only for rules that contain no path (`host`, `scheme`, ...).
    pub(crate) path: Slot,
    pub(crate) path_kind: PathKind,
    pub(crate) query: Slot,
    pub(crate) fragment: Slot,
}

/// Records the spans of the component events `(position in COMPONENT_RULES, start, end)`, which arrive in
/// input order with an enclosing rule before the rules inside it (pre-order), from any engine: the compiled
/// fast path, the pest_derive parser, a grammar loaded at run time. Each span goes to its component's slot
/// by index (no branch per event), then the slots are combined: the host is the `host` rule's span, else
/// the IP-literal's, else the address's (for the rules below `host`); the host kind and the path kind are
/// those of the address and path rule that matched. The input is at most [`MAX_LEN`] bytes long.
#[inline(always)]
pub(crate) fn build(events: impl IntoIterator<Item = (usize, usize, usize)>) -> Parts {
    let mut slots = [Slot::NONE; COMPONENT_RULES.len()];
    for (c, start, end) in events {
        if let Some(slot) = slots.get_mut(c) {
            *slot = Slot::new(start, end);
        }
    }
    let matched = (slots.iter().enumerate())
        .filter(|(_, s)| s.is_some())
        .fold(0, |set, (i, _)| set | 1 << i);
    combine(matched, |i| slots[i])
}

/// The components from the span of each component rule (by position in [`COMPONENT_RULES`]; `Slot::NONE`
/// where it did not match), as [`build`] describes.
#[inline(always)]
pub(crate) fn combine(matched: u32, slot: impl Fn(usize) -> Slot) -> Parts {
    // Positions in COMPONENT_RULES: the host (3), IP-literal (4), the four address rules in the order of
    // HostKind (5..=8), the five path rules in the order of PathKind (10..=14). `matched` has bit `i` set
    // when rule `i` matched, so the address and path rules that matched are found by counting zeros, and
    // every field is computed before the value is made (written once, where it is returned).
    const HOST_KINDS: [HostKind; 4] = [
        HostKind::Ipv4address,
        HostKind::Ipv6address,
        HostKind::IpvFuture,
        HostKind::RegName,
    ];
    const PATH_KINDS: [PathKind; 5] = [
        PathKind::Abempty,
        PathKind::Absolute,
        PathKind::Noscheme,
        PathKind::Rootless,
        PathKind::Empty,
    ];
    let addresses = (matched >> 5) & 0b1111;
    let (host_address, host_kind) = match addresses.trailing_zeros() as usize {
        i @ 0..4 => (slot(5 + i), HOST_KINDS[i]),
        _ => (Slot::NONE, HostKind::default()),
    };
    let host = if matched & (1 << 3) != 0 {
        slot(3)
    } else if matched & (1 << 4) != 0 {
        slot(4)
    } else {
        host_address
    };
    let paths = (matched >> 10) & 0b11111;
    let (path, path_kind) = match paths.trailing_zeros() as usize {
        i @ 0..5 => (slot(10 + i), PATH_KINDS[i]),
        _ => (Slot::NONE, PathKind::default()),
    };
    Parts {
        scheme: slot(0),
        authority: slot(1),
        userinfo: slot(2),
        host,
        host_address,
        host_kind,
        port: slot(9),
        path,
        path_kind,
        query: slot(15),
        fragment: slot(16),
    }
}
