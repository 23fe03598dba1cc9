//! Normalization and comparison (RFC 3986 section 6): the comparison ladder of 6.2 as a [`Level`],
//! [`UriRef::normalize_with`] / [`Uri::normalize_with`] to compute a normal form, and [`equivalent`].
//!
//! A normal form is written into one `String`, with its components recorded as they are written, like a
//! resolved target (see [`crate::resolve`]): the grammar is not run again, except to tell whether a
//! reg-name whose percent-encodings were decoded has become an IPv4address (`%31.2.3.4`). Debug builds
//! check every normal form against the grammar.

use std::borrow::Cow;

use crate::components::HostKind;
use crate::components::{RefParts, WrittenAuthority};
use crate::engine::{self, Rule};
use crate::resolve::path::{may_have_dot_segment, remove_dot_segments_at};
use crate::value::iri::{Iri, IriRef};
use crate::value::uri::{Uri, UriRef};

/// A rung of the comparison ladder (RFC 3986 section [6.2]): how much normalization is applied before two
/// references are compared. Each level includes the ones before it.
///
/// [6.2]: https://datatracker.ietf.org/doc/html/rfc3986#section-6.2
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Level {
    /// Simple string comparison (6.2.1): the text as written, character for character.
    Simple,
    /// Syntax-based normalization (6.2.2), the first rung of [`Scheme`](Level::Scheme):
    ///
    /// - case (6.2.2.1): the scheme and the host to lower case (a `reg-name`, and the hexadecimal digits
    ///   of an `IPv6address` or an `IPvFuture`; 3.2.2 asks normalizers to use lower case for registered
    ///   names and hexadecimal addresses); the hexadecimal digits of every percent-encoding to upper case
    ///   (`%3a` -> `%3A`), in every component;
    /// - percent-encoding (6.2.2.2): a percent-encoded octet of an unreserved character (2.3: `ALPHA`,
    ///   `DIGIT`, `-`, `.`, `_`, `~`) is decoded (`%7e` -> `~`, and `%41` in a host -> `a`), and no other
    ///   (`%2F`, `%25`, `%20` and non-ASCII octets stay encoded: decoding them would change the meaning
    ///   or the syntax, 2.4);
    /// - path segments (6.2.2.3): [`remove_dot_segments`](crate::resolve::remove_dot_segments) on the path, after
    ///   decoding, so `%2E` counts as `.` here (it is the same character, 2.3), unlike in resolution,
    ///   which only knows the literal `.` and `..` (5.2.4): `http://h/a/%2E%2E/../b` normalizes to
    ///   `http://h/b`, while resolving it gives `http://h/a/b`. Comparison follows section 6; to compare
    ///   what a server receives, resolve first and compare the targets. A relative-path reference keeps
    ///   the dot-segments that depend on the base (see [`UriRef::normalize_with`]);
    /// - an empty port is removed with its `:` (3.2.3: "URI producers and normalizers should omit the port
    ///   component and its ":" delimiter if port is empty").
    ///
    /// Delimiters of empty components are kept (`http://h/?` keeps its `?`, 6.2.3), and so is a `/.`
    /// before a path that would otherwise begin with `//` without an authority (see
    /// [`Resolver::dot_prefix`](crate::resolve::Resolver::dot_prefix)). Decoding can turn a `reg-name` into an
    /// `IPv4address` (`%31.2.3.4` -> `1.2.3.4`); 2.3 says they are the same URI.
    ///
    /// One call away: [`Uri::normalize_with(Level::Syntax)`](Uri::normalize_with), for a normal form that
    /// depends on no scheme table.
    Syntax,
    /// Scheme-based normalization (6.2.3) on top of [`Syntax`](Level::Syntax), for the schemes below; the
    /// default level, what [`Uri::normalize`] does (the `url` and `fluent-uri` crates also drop a default
    /// port, so `http://h:80/` and `http://h/` are the same URL to their users):
    ///
    /// - a port equal to the scheme's default is removed with its `:` (6.2.3, 3.2.3; see
    ///   [`default_port`]); the value counts, so `:080` is port 80;
    /// - `http` and `https`: an empty path with an authority becomes `/` (RFC 9110 section 4.2.3: "an
    ///   empty path component is equivalent to an absolute path of "/", so the normal form is to provide a
    ///   path of "/" instead"); so does `ws` and `wss` (RFC 6455 section 3: the resource name is "/" when
    ///   the path component is empty).
    ///
    /// Schemes without rules here are normalized as at [`Syntax`](Level::Syntax).
    #[default]
    Scheme,
}

/// A rung of the ladder plus the normalizations outside RFC 3986 that a user can ask for; what
/// [`UriRef::normalize_with_options`], [`Uri::normalize_with_options`] and [`equivalent_with`] take.
/// `Options::from(level)` is the rung alone, as [`UriRef::normalize_with`] does.
///
/// ```
/// use rfc3986::normalize::{equivalent_with, Level, Options};
/// use rfc3986::Uri;
/// let a = Uri::parse("http://[2001:DB8:0:0::1]/")?;
/// let b = Uri::parse("http://[2001:db8::1]/")?;
/// let rfc5952 = Options::from(Level::Syntax).ipv6_rfc5952(true);
/// assert_eq!(a.normalize_with_options(rfc5952.clone()).as_str(), "http://[2001:db8::1]/");
/// assert!(equivalent_with(&a, &b, rfc5952));
/// // RFC 3986 alone: only the case changes.
/// assert!(!equivalent_with(&a, &b, Level::Syntax.into()));
/// # Ok::<(), rfc3986::Error>(())
/// ```
///
/// It is `Clone` rather than `Copy`: it holds a [`DefaultPorts`] table, which users can extend.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    level: Level,
    ipv6_rfc5952: bool,
    ports: DefaultPorts,
}

impl Options {
    /// The rung of the comparison ladder ([`Level`]).
    pub fn level(&self) -> Level {
        self.level
    }

    /// The default ports that scheme-based normalization ([`Level::Scheme`], RFC 3986 6.2.3) removes:
    /// [`DefaultPorts::new`] unless set, the table of [`default_port`].
    ///
    /// ```
    /// use rfc3986::normalize::{DefaultPorts, Level, Options};
    /// use rfc3986::Uri;
    /// let gopher = Options::from(Level::Scheme).default_ports(DefaultPorts::new().with("gopher", 70));
    /// let uri = Uri::parse("gopher://example.com:70/1")?;
    /// assert_eq!(uri.normalize_with_options(gopher).as_str(), "gopher://example.com/1");
    /// assert_eq!(uri.normalize_with(Level::Scheme).as_str(), "gopher://example.com:70/1");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn default_ports(mut self, ports: DefaultPorts) -> Options {
        self.ports = ports;
        self
    }

    /// The default-port table in use (see [`default_ports`](Self::default_ports)).
    pub fn ports(&self) -> &DefaultPorts {
        &self.ports
    }

    /// Whether an `IPv6address` host is written in the canonical text of RFC 5952 section 4 (lower case,
    /// no leading zeros in a group, the longest run of two or more zero groups written `::`, the first
    /// such run on a tie; an IPv4-mapped address as `::ffff:192.0.2.1`, section 5).
    ///
    /// Which rung it belongs to: it changes only how one address is written, for every scheme, like the
    /// case normalization of 6.2.2.1, so it is syntax-based (it applies at [`Level::Syntax`] and
    /// [`Level::Scheme`], not at [`Level::Simple`]). RFC 3986 predates RFC 5952 and its `IPv6address` rule
    /// allows every form (3.2.2), so it is an option, off by default: without it the normal forms are
    /// exactly those of RFC 3986 section 6.
    ///
    /// ```text
    /// IPv6address =                            6( h16 ":" ) ls32
    ///             /                       "::" 5( h16 ":" ) ls32
    ///             / ...
    ///             / [ *6( h16 ":" ) h16 ] "::"
    /// ```
    #[must_use]
    pub fn ipv6_rfc5952(mut self, on: bool) -> Options {
        self.ipv6_rfc5952 = on;
        self
    }

    /// Whether [`ipv6_rfc5952`](Self::ipv6_rfc5952) is on.
    pub fn is_ipv6_rfc5952(&self) -> bool {
        self.ipv6_rfc5952
    }
}

impl From<Level> for Options {
    fn from(level: Level) -> Options {
        Options {
            level,
            ipv6_rfc5952: false,
            ports: DefaultPorts::new(),
        }
    }
}

/// The default ports this crate knows, each from its scheme's specification; the one table behind
/// [`default_port`] and [`DefaultPorts::new`].
const REGISTERED_PORTS: [(&str, u16); 5] = [
    ("http", 80),
    ("https", 443),
    ("ws", 80),
    ("wss", 443),
    ("ftp", 21),
];

/// The default port of a scheme, for scheme-based normalization (RFC 3986 6.2.3), or `None` when this
/// crate knows none. The scheme is compared ignoring ASCII case.
///
/// | scheme  | port | source |
/// |---------|-----:|--------|
/// | `http`  | 80   | RFC 9110 section 4.2.1 ("TCP port 80 ... is the default") |
/// | `https` | 443  | RFC 9110 section 4.2.2 ("TCP port 443 ... is the default") |
/// | `ws`    | 80   | RFC 6455 section 3 ("the default for "ws" is port 80") |
/// | `wss`   | 443  | RFC 6455 section 3 ("the default for "wss" is port 443") |
/// | `ftp`   | 21   | RFC 1738 section 3.2 ("If `:<port>` is omitted, the port defaults to 21") |
///
/// Other schemes have default ports too (RFC 3986 3.2.3 leaves them to each scheme's specification); only
/// those whose specification is cited above are listed, so that no normal form rests on a guess. Add
/// your own with [`DefaultPorts::with`] and [`Options::default_ports`].
///
/// ```
/// assert_eq!(rfc3986::normalize::default_port("HTTPS"), Some(443));
/// assert_eq!(rfc3986::normalize::default_port("urn"), None);
/// ```
pub fn default_port(scheme: &str) -> Option<u16> {
    REGISTERED_PORTS
        .iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(scheme))
        .map(|&(_, port)| port)
}

/// A default-port table (RFC 3986 3.2.3: "the default port for the URI scheme", which each scheme's
/// specification defines): the entries of [`default_port`], plus or overriding those added with
/// [`with`](Self::with). Scheme-based normalization ([`Options::default_ports`]) and
/// [`UriRef::port_or_default_with`] read it.
///
/// ```
/// use rfc3986::normalize::DefaultPorts;
/// let ports = DefaultPorts::new().with("Gopher", 70).with("http", 8080);
/// assert_eq!(ports.get("GOPHER"), Some(70)); // schemes compare ignoring ASCII case (3.1)
/// assert_eq!(ports.get("http"), Some(8080)); // an added entry overrides the built-in one
/// assert_eq!(ports.get("https"), Some(443));
/// assert_eq!(ports.get("urn"), None);
/// assert_eq!(DefaultPorts::empty().get("http"), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DefaultPorts {
    /// Whether the built-in entries ([`REGISTERED_PORTS`]) count.
    registered: bool,
    /// Added entries, scheme in lower case, latest last.
    added: Vec<(String, u16)>,
}

impl Default for DefaultPorts {
    fn default() -> DefaultPorts {
        DefaultPorts::new()
    }
}

impl DefaultPorts {
    /// The table of [`default_port`]: http 80, https 443, ws 80, wss 443, ftp 21.
    pub fn new() -> DefaultPorts {
        DefaultPorts {
            registered: true,
            added: Vec::new(),
        }
    }

    /// A table without any entry: scheme-based normalization then removes no port.
    pub fn empty() -> DefaultPorts {
        DefaultPorts {
            registered: false,
            added: Vec::new(),
        }
    }

    /// The table with `scheme`'s default port set to `port` (replacing an entry for the same scheme,
    /// ignoring ASCII case). `scheme` is written without its `:`.
    #[must_use]
    pub fn with(mut self, scheme: &str, port: u16) -> DefaultPorts {
        let scheme = scheme.to_ascii_lowercase();
        self.added.retain(|(s, _)| *s != scheme);
        self.added.push((scheme, port));
        self
    }

    /// The default port of `scheme` (compared ignoring ASCII case), or `None`.
    pub fn get(&self, scheme: &str) -> Option<u16> {
        self.added
            .iter()
            .find(|(s, _)| s.eq_ignore_ascii_case(scheme))
            .map(|&(_, port)| port)
            .or_else(|| self.registered.then(|| default_port(scheme)).flatten())
    }
}

/// Whether a scheme makes an empty path with an authority equal to `/`: http and https (RFC 9110 section
/// 4.2.3), ws and wss (RFC 6455 section 3).
fn empty_path_is_root(scheme: &str) -> bool {
    ["http", "https", "ws", "wss"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

/// Removes the dot-segments of a relative-path reference (`path-noscheme`, after percent-encoding
/// normalization) whose effect is the same against every base (RFC 3986 5.2.3, 5.2.4).
///
/// Resolution merges the path with the base's directory (5.2.3): `/`-rooted (`/x/`, the hierarchical case
/// of 1.2.3), rootless (`b/`) or empty (a base path without `/`, like `mailto:x`), and then removes
/// dot-segments (5.2.4), which acts as a stack of segments: a `.` goes, a `..` removes the segment before
/// it or climbs above the base directory. Against every base:
///
/// - a `.` segment goes (`./a` -> `a`, `a/./b` -> `a/b`, `a/.` -> `a/`);
/// - `s/..` goes when another segment that is not `..` comes before `s` (`a/b/../c` -> `a/c`);
/// - the first such segment and its `..` stay (`a/../b`): against an empty base directory 5.2.4 turns
///   `a/../b` into `/b` but `b` into `b`, and a leading `../` is dropped there;
/// - `..` segments that pop nothing stay (`../g` is not `g`).
///
/// The result gets `./` in front when it would be empty, begin with `/` or have a `:` in its first segment
/// (4.2), and a trailing `/` when the path ended in a dot-segment (`a/.` -> `a/`, `..` -> `../`).
///
/// `out[start..]` is the path; it is rewritten in place, in one pass (no allocation unless `./` or a
/// trailing `/` makes it longer).
fn reduce_relative_path_at(out: &mut String, start: usize) {
    if !is_reducible(&out[start..]) {
        return;
    }
    // One pass over the path with a read cursor `r` and a write cursor `w <= r`, in the same buffer:
    // the written part is the stack of kept segments, joined by "/".
    let mut bytes = std::mem::take(out).into_bytes();
    let end = bytes.len();
    let (mut r, mut w) = (start, start);
    // Segments on the stack, and how many of them are not ".." (those are always at the bottom).
    let (mut written, mut plain) = (0usize, 0usize);
    let mut directory;
    loop {
        let seg_end = bytes[r..end]
            .iter()
            .position(|&b| b == b'/')
            .map_or(end, |i| r + i);
        let segment_len = seg_end - r;
        let is_dot = segment_len == 1 && bytes[r] == b'.';
        let is_dot_dot = segment_len == 2 && bytes[r] == b'.' && bytes[r + 1] == b'.';
        directory = false;
        if is_dot {
            directory = true;
        } else if is_dot_dot && plain > 1 {
            // Pop the top segment: back to the "/" before it, or to the start.
            w = bytes[start..w]
                .iter()
                .rposition(|&b| b == b'/')
                .map_or(start, |i| start + i);
            written -= 1;
            plain -= 1;
            directory = true;
        } else {
            if written > 0 {
                bytes[w] = b'/';
                w += 1;
            }
            bytes.copy_within(r..seg_end, w);
            w += segment_len;
            written += 1;
            plain += usize::from(!is_dot_dot);
        }
        if seg_end == end {
            break;
        }
        r = seg_end + 1;
    }
    bytes.truncate(w);
    // A path that ends in a dot-segment names a directory: `a/.` is `a/`, and `..` is `../`.
    if written > 0 && (directory || plain == 0) {
        bytes.push(b'/');
    }
    let first_end = bytes[start..]
        .iter()
        .position(|&b| b == b'/')
        .map_or(bytes.len(), |i| start + i);
    let first = &bytes[start..first_end];
    if bytes.len() == start || first.is_empty() || first.contains(&b':') {
        bytes.splice(start..start, *b"./");
    }
    *out = String::from_utf8(bytes).unwrap_or_default();
}

/// Whether [`reduce_relative_path_at`] changes `path`: it has a `.` segment, a `..` after two segments
/// that are not `..`, or ends in `..`.
fn is_reducible(path: &str) -> bool {
    let mut plain = 0;
    let mut last_dot_dot = false;
    for segment in path.split('/') {
        last_dot_dot = segment == "..";
        match segment {
            "." => return true,
            ".." if plain > 1 => return true,
            ".." => {}
            _ => plain += 1,
        }
    }
    last_dot_dot
}

/// Whether two references are equivalent at `level` of the comparison ladder (RFC 3986 section 6.2): their
/// normal forms at that level are the same text. At [`Level::Simple`] this is `a == b`.
///
/// RFC 3986 6.1 advises against comparing relative references: resolve them first
/// ([`UriRef::resolve_against`]). Two relative references are compared here by their normal forms, which
/// says whether they resolve to equivalent targets against every base. Fragments are compared too; leave
/// them out beforehand when comparing for a retrieval (6.1).
///
/// ```
/// use rfc3986::{normalize::equivalent, normalize::Level, UriRef};
/// let a = UriRef::parse("example://a/b/c/%7Bfoo%7D")?;
/// let b = UriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d")?;
/// assert!(equivalent(&a, &b, Level::Syntax));
/// assert!(!equivalent(&a, &b, Level::Simple));
/// let c = UriRef::parse("http://example.com")?;
/// let d = UriRef::parse("http://example.com:80/")?;
/// assert!(equivalent(&c, &d, Level::Scheme));
/// assert!(!equivalent(&c, &d, Level::Syntax));
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[must_use]
pub fn equivalent<'a, 'b>(
    a: &impl AsRef<UriRef<'a>>,
    b: &impl AsRef<UriRef<'b>>,
    level: Level,
) -> bool {
    equivalent_with(a, b, level.into())
}

/// Whether two references are equivalent with `options`: their normal forms (see [`Options`]) are the
/// same text. As [`equivalent`] when `options` is a [`Level`] alone.
#[must_use]
pub fn equivalent_with<'a, 'b>(
    a: &impl AsRef<UriRef<'a>>,
    b: &impl AsRef<UriRef<'b>>,
    options: Options,
) -> bool {
    let (a, b) = (a.as_ref(), b.as_ref());
    match options.level {
        Level::Simple => a.as_str() == b.as_str(),
        _ => normalized(a, &options).0 == normalized(b, &options).0,
    }
}

impl UriRef<'_> {
    /// The normal form at the default level, [`Level::Scheme`]: syntax-based normalization (RFC 3986
    /// 6.2.2) and, for the schemes of the default-port table ([`default_port`]), scheme-based
    /// normalization (6.2.3: the default port goes, an empty `http` path becomes `/`). As
    /// [`normalize_with(Level::Scheme)`](Self::normalize_with); `normalize_with(Level::Syntax)` is 6.2.2
    /// alone.
    ///
    /// ```
    /// use rfc3986::{normalize::Level, UriRef};
    /// assert_eq!(UriRef::parse("HTTP://Example.COM/a/./b/../%7euser")?.normalize().to_string(), "http://example.com/a/~user");
    /// assert_eq!(UriRef::parse("HTTP://Example.com:80")?.normalize().as_str(), "http://example.com/");
    /// assert_eq!(UriRef::parse("HTTP://Example.com:80")?.normalize_with(Level::Syntax).as_str(), "http://example.com:80");
    /// assert_eq!(UriRef::parse("../a/./%62")?.normalize().to_string(), "../a/b");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn normalize(&self) -> UriRef<'static> {
        self.normalize_with(Level::default())
    }

    /// The normal form at `level` (see [`Level`] for what each level does), owned.
    ///
    /// A relative reference is normalized like a URI (it has no scheme, so nothing is scheme-based), with
    /// one difference: in a *relative-path* reference (no authority, a path that does not begin with `/`,
    /// like `../g`) only the dot-segments whose effect does not depend on the base go: `.` segments, and a
    /// segment followed by `..` when it is not the first segment (`././/my:sharona` -> `.//my:sharona`,
    /// `a/b/../c` -> `a/c`); a leading `..` stays (`../g` is not `g`), and so does a first segment popped
    /// by `..` (`a/../b`: against a base path without `/`, 5.2.4 gives `/b` for it and `b` for `b`). So the
    /// normal form resolves to an equivalent target against every base, and two relative references whose
    /// first segment is not popped are equivalent exactly when they resolve to equivalent targets against
    /// every base (tested as properties).
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("././/my:sharona")?.normalize().as_str(), ".//my:sharona");
    /// assert_eq!(UriRef::parse("../a/./b/..")?.normalize().as_str(), "../a/");
    /// assert_eq!(UriRef::parse("x/a/..")?.normalize().as_str(), "x/");
    /// assert_eq!(UriRef::parse("a/../b")?.normalize().as_str(), "a/../b");
    /// assert_eq!(UriRef::parse("")?.normalize().as_str(), ""); // the same document, not "./"
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    ///
    /// An input whose normal form would be over 4 GiB - 2 bytes long (the most a value holds) is returned
    /// as it is.
    #[must_use]
    pub fn normalize_with(&self, level: Level) -> UriRef<'static> {
        self.normalize_with_options(level.into())
    }

    /// Whether this reference is already in its normal form at the default level (RFC 3986
    /// [6.2.2](https://datatracker.ietf.org/doc/html/rfc3986#section-6.2.2) and
    /// [6.2.3](https://datatracker.ietf.org/doc/html/rfc3986#section-6.2.3), [`Level::Scheme`]):
    /// [`normalize`](Self::normalize) would give the same text back. Works on a [`Uri`] too (through
    /// `Deref`).
    ///
    /// ```text
    /// pct-encoded = "%" HEXDIG HEXDIG   ; normal: upper-case HEXDIG, no unreserved character encoded
    /// ```
    ///
    /// ```
    /// use rfc3986::{normalize::Level, UriRef};
    /// assert!(UriRef::parse("http://example.com/a/~b?%C3%A9")?.is_normalized());
    /// assert!(!UriRef::parse("HTTP://example.com/")?.is_normalized()); // 6.2.2.1 case
    /// assert!(!UriRef::parse("http://example.com/%7e")?.is_normalized()); // 6.2.2.2 %7E is ~
    /// assert!(!UriRef::parse("http://example.com/a/./b")?.is_normalized()); // 6.2.2.3
    /// assert!(!UriRef::parse("http://example.com:/")?.is_normalized()); // 3.2.3 empty port
    /// assert!(!UriRef::parse("http://example.com:80/")?.is_normalized()); // 6.2.3 default port
    /// assert!(UriRef::parse("http://example.com:80/")?.is_normalized_with(Level::Syntax));
    /// assert!(UriRef::parse("")?.is_normalized());
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn is_normalized(&self) -> bool {
        self.is_normalized_with(Level::default())
    }

    /// Whether this reference is its own normal form at a [`Level`] or with [`Options`] (see
    /// [`normalize_with_options`](Self::normalize_with_options)); always `true` at [`Level::Simple`].
    ///
    /// ```
    /// use rfc3986::normalize::{DefaultPorts, Level, Options};
    /// use rfc3986::UriRef;
    /// let r = UriRef::parse("http://example.com:80/")?;
    /// assert!(r.is_normalized_with(Level::Syntax));
    /// assert!(!r.is_normalized_with(Level::Scheme)); // 6.2.3: the default port goes
    /// assert!(!UriRef::parse("http://example.com")?.is_normalized_with(Level::Scheme)); // "/" for http
    /// let no_ports = Options::from(Level::Scheme).default_ports(DefaultPorts::empty());
    /// assert!(r.is_normalized_with(no_ports));
    /// assert!(!UriRef::parse("http://[::A]/")?.is_normalized_with(Options::from(Level::Syntax).ipv6_rfc5952(true)));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn is_normalized_with(&self, options: impl Into<Options>) -> bool {
        let options = options.into();
        match options.level {
            Level::Simple => true,
            _ => normalized(self, &options).0 == self.as_str(),
        }
    }

    /// The port as a number (RFC 3986 [3.2.3](https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.3)),
    /// or the scheme's default port ([`default_port`]) when the authority has no port or an empty one
    /// ("URI producers and normalizers should omit the port component and its ":" delimiter if port is
    /// empty or if its value would be the same as that of the scheme's default", 3.2.3).
    ///
    /// `None` when there is no authority (no server to connect to), when the port is written but is not a
    /// number up to 65535 (`port = *DIGIT` allows `99999`; that is not replaced by the default), and when
    /// the scheme has no known default (a relative reference has no scheme).
    ///
    /// ```text
    /// authority = [ userinfo "@" ] host [ ":" port ]
    /// port      = *DIGIT
    /// ```
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// assert_eq!(UriRef::parse("https://h/")?.port_or_default(), Some(443));
    /// assert_eq!(UriRef::parse("https://h:/")?.port_or_default(), Some(443)); // empty port
    /// assert_eq!(UriRef::parse("https://h:8443/")?.port_or_default(), Some(8443));
    /// assert_eq!(UriRef::parse("https://h:99999/")?.port_or_default(), None);
    /// assert_eq!(UriRef::parse("urn://h/")?.port_or_default(), None);
    /// assert_eq!(UriRef::parse("//h/")?.port_or_default(), None);
    /// assert_eq!(UriRef::parse("http:/a")?.port_or_default(), None); // no authority
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn port_or_default(&self) -> Option<u16> {
        self.port_or_default_with(&DefaultPorts::new())
    }

    /// [`port_or_default`](Self::port_or_default) with your own default-port table.
    ///
    /// ```
    /// use rfc3986::{normalize::DefaultPorts, UriRef};
    /// let ports = DefaultPorts::new().with("gopher", 70);
    /// assert_eq!(UriRef::parse("gopher://h/")?.port_or_default_with(&ports), Some(70));
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn port_or_default_with(&self, ports: &DefaultPorts) -> Option<u16> {
        self.authority()?;
        match self.port() {
            Some(port) if !port.is_empty() => self.port_u16(),
            _ => self.scheme().and_then(|scheme| ports.get(scheme)),
        }
    }

    /// The normal form with `options` (a rung of the ladder and the options outside RFC 3986, see
    /// [`Options`]), owned.
    #[must_use]
    pub fn normalize_with_options(&self, options: Options) -> UriRef<'static> {
        if options.level == Level::Simple {
            return self.clone().into_owned();
        }
        match normalized(self, &options) {
            (text, Some(parts)) => UriRef::from_written(Rule::URI_REFERENCE, text, parts),
            // Over 4 GiB - 2 bytes (a value cannot hold it): the input as it is.
            (_, None) => self.clone().into_owned(),
        }
    }
}

impl Uri<'_> {
    /// The normal form at the default level, [`Level::Scheme`] (RFC 3986 6.2.2, then 6.2.3 for the schemes
    /// of the default-port table), as [`UriRef::normalize`]; `normalize_with(Level::Syntax)` is 6.2.2 alone.
    ///
    /// ```
    /// use rfc3986::{normalize::Level, Uri};
    /// assert_eq!(Uri::parse("HTTP://a/./b/%7e")?.normalize().to_string(), "http://a/b/~");
    /// let u = Uri::parse("HTTP://Example.com:80/a/./b")?;
    /// assert_eq!(u.normalize().as_str(), "http://example.com/a/b");
    /// assert_eq!(u.normalize_with(Level::Syntax).as_str(), "http://example.com:80/a/b");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn normalize(&self) -> Uri<'static> {
        self.normalize_with(Level::default())
    }

    /// The normal form at `level` (see [`Level`] for what each level does), owned.
    ///
    /// ```
    /// use rfc3986::{normalize::Level, Uri};
    /// let u = Uri::parse("HTTP://www.EXAMPLE.com:80")?;
    /// assert_eq!(u.normalize_with(Level::Syntax).to_string(), "http://www.example.com:80");
    /// assert_eq!(u.normalize_with(Level::Scheme).to_string(), "http://www.example.com/");
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    #[must_use]
    pub fn normalize_with(&self, level: Level) -> Uri<'static> {
        self.normalize_with_options(level.into())
    }

    /// The normal form with `options` (see [`Options`]), owned.
    #[must_use]
    pub fn normalize_with_options(&self, options: Options) -> Uri<'static> {
        if options.level == Level::Simple {
            return self.clone().into_owned();
        }
        match normalized(self.as_uri_ref(), &options) {
            (text, Some(parts)) => Uri::from_written(text, parts),
            (_, None) => self.clone().into_owned(),
        }
    }
}

/// Writes the normal form of `r` at `level` (not [`Level::Simple`]) in the order of 5.3, into one string,
/// and says where its components are (`None` when it is longer than a value can hold: 4 GiB - 2 bytes; the
/// normal form can be up to 2 bytes longer than the input).
pub(crate) fn normalized(r: &UriRef<'_>, options: &Options) -> (String, Option<RefParts>) {
    let level = options.level;
    // Most inputs have no percent-encoding: one search of the whole input, then the components are
    // copied as they are.
    let has_pct = memchr::memchr(b'%', r.as_str().as_bytes()).is_some();
    let scheme_based = level >= Level::Scheme;
    // Most real URIs are their own syntax-based normal form: that is found without writing them, and the
    // text and its components are copied.
    if !has_pct
        && is_own_syntax_normal_form(r, options)
        && !(scheme_based && changes_scheme_based(r, options))
    {
        return (r.as_str().to_owned(), Some(*r.parts()));
    }
    let mut out = String::with_capacity(r.as_str().len() + 1);
    // A component, percent-encodings normalized (and lower-cased with `lower`).
    let push_part = |out: &mut String, text: &str, lower: bool| {
        if has_pct {
            push_pct_normalized(out, text, lower);
        } else {
            let start = out.len();
            out.push_str(text);
            if lower {
                out[start..].make_ascii_lowercase();
            }
        }
    };
    // scheme: lower case (6.2.2.1)
    let scheme_end = r.scheme().map(|scheme| {
        out.push_str(scheme);
        out.make_ascii_lowercase();
        let end = out.len();
        out.push(':');
        end
    });
    let authority = r.authority();
    let mut written_authority = None;
    if authority.is_some() {
        out.push_str("//");
        let start = out.len();
        // userinfo: percent-encodings only; case is significant (6.2.2.1)
        let userinfo = r.userinfo().map(|userinfo| {
            push_part(&mut out, userinfo, false);
            let end = out.len();
            out.push('@');
            (start, end)
        });
        // host: lower case (6.2.2.1, 3.2.2)
        let host_start = out.len();
        let host = r.host_str().unwrap_or("");
        let mut host_kind = r.host_kind().unwrap_or_default();
        match host_kind {
            HostKind::RegName => {
                push_part(&mut out, host, true);
                // Decoding (the only change of length) can turn a reg-name into an IPv4address
                // (`%31.2.3.4`), which `host` prefers; the grammar decides.
                let written = &out[host_start..];
                if written.len() != host.len() && engine::matches(Rule::IPV4ADDRESS, written) {
                    host_kind = HostKind::Ipv4address;
                }
            }
            HostKind::Ipv6address if options.ipv6_rfc5952 => {
                // RFC 5952 section 4, as `Ipv6Addr`'s `Display` writes it; every `IPv6address` parses.
                let inner = host.trim_start_matches('[').trim_end_matches(']');
                match inner.parse::<std::net::Ipv6Addr>() {
                    Ok(address) => {
                        use std::fmt::Write as _;
                        let _ = write!(out, "[{address}]");
                    }
                    Err(_) => {
                        out.push_str(host);
                        out[host_start..].make_ascii_lowercase();
                    }
                }
            }
            _ => {
                out.push_str(host);
                out[host_start..].make_ascii_lowercase();
            }
        }
        let host_end = out.len();
        // port: drop an empty one (3.2.3) and, scheme-based, the default (6.2.3)
        let mut port_span = None;
        if let Some(port) = r.port() {
            let default = scheme_based && is_default_port(r, port, options);
            if !port.is_empty() && !default {
                out.push(':');
                out.push_str(port);
                port_span = Some((host_end + 1, out.len()));
            }
        }
        written_authority = Some(WrittenAuthority {
            authority: (start, out.len()),
            userinfo,
            host: (host_start, host_end),
            host_kind,
            port: port_span,
        });
    }
    // path: percent-encodings (6.2.2.2) and dot-segments (6.2.2.3)
    let path = r.path();
    let path_start = out.len();
    if r.is_uri() || authority.is_some() || path.starts_with('/') {
        // Percent-encodings first, so a "%2E" is a "." when dot-segments are removed (6.2.2.3).
        push_part(&mut out, path, false);
        remove_dot_segments_at(&mut out, path_start);
        // 3.3: without an authority, a path cannot begin with "//" (see Resolver::dot_prefix).
        if authority.is_none() && out[path_start..].starts_with("//") {
            out.insert_str(path_start, "/.");
        }
    } else {
        // A relative-path reference: its dot-segments depend on the base, so only the reductions that
        // give the same target against every base are made (see `reduce_relative_path`).
        push_part(&mut out, path, false);
        reduce_relative_path_at(&mut out, path_start);
    }
    if scheme_based
        && authority.is_some()
        && path.is_empty()
        && r.scheme().is_some_and(empty_path_is_root)
    {
        out.push('/');
    }
    let path = (path_start, out.len());
    let query = r.query().map(|query| {
        out.push('?');
        push_part(&mut out, query, false);
        (path.1 + 1, out.len())
    });
    let fragment = r.fragment().map(|fragment| {
        out.push('#');
        let start = out.len();
        push_part(&mut out, fragment, false);
        (start, out.len())
    });
    if out.len() > crate::components::MAX_LEN {
        return (out, None);
    }
    let parts = RefParts::written(&out, scheme_end, written_authority, path, query, fragment);
    (out, Some(parts))
}

/// Whether `port` (the digits of `r`'s port, `port = *DIGIT`) is the default port of `r`'s scheme in the
/// table of `options` (6.2.3); the value counts, so `080` is port 80.
fn is_default_port(r: &UriRef<'_>, port: &str, options: &Options) -> bool {
    let digits = port.trim_start_matches('0');
    r.scheme()
        .and_then(|scheme| options.ports.get(scheme))
        .is_some_and(|d| digits.len() <= 5 && digits.parse::<u32>() == Ok(u32::from(d)))
}

/// Whether scheme-based normalization (6.2.3) changes `r`, a syntax-based normal form: it has a default
/// port to drop, or it is an `http`-like URI with an authority and an empty path, which becomes `/`.
fn changes_scheme_based(r: &UriRef<'_>, options: &Options) -> bool {
    r.authority().is_some()
        && (r
            .port()
            .is_some_and(|port| is_default_port(r, port, options))
            || (r.path().is_empty() && r.scheme().is_some_and(empty_path_is_root)))
}

/// Whether `r`, which has no percent-encoding, is its own syntax-based normal form (RFC 3986 6.2.2): no
/// upper-case letter in the scheme or the host (6.2.2.1), no empty port (3.2.3), no dot-segment to remove
/// (6.2.2.3; for a relative-path reference, nothing that [`reduce_relative_path_at`] reduces), and no
/// IPv6address to rewrite when `options` ask for RFC 5952.
fn is_own_syntax_normal_form(r: &UriRef<'_>, options: &Options) -> bool {
    let has_upper = |s: &str| s.bytes().any(|b| b.is_ascii_uppercase());
    if r.scheme().is_some_and(has_upper) {
        return false;
    }
    let has_authority = r.authority().is_some();
    if has_authority
        && (r.host_str().is_some_and(has_upper)
            || r.port().is_some_and(str::is_empty)
            || (options.ipv6_rfc5952 && r.host_kind() == Some(HostKind::Ipv6address)))
    {
        return false;
    }
    let path = r.path();
    if r.is_uri() || has_authority || path.starts_with('/') {
        !may_have_dot_segment(path)
    } else {
        !is_reducible(path)
    }
}

/// Appends `text` to `out` with its percent-encodings normalized (RFC 3986 6.2.2.1, 6.2.2.2): an octet of
/// an unreserved character decoded, every other one written with upper-case hexadecimal digits. With
/// `lower`, letters (also decoded ones) are written in lower case, for a case-insensitive host.
pub(crate) fn push_pct_normalized(out: &mut String, text: &str, lower: bool) {
    use crate::engine::classes::is_unreserved;
    use crate::util::hex_value;
    let bytes = text.as_bytes();
    out.reserve(bytes.len());
    // `text[copied..at]` is to be copied as it is (lower-cased with `lower`), triplets already in normal
    // form included; `at` is a "%" or the end.
    let mut copied = 0;
    let mut at = memchr::memchr(b'%', bytes).unwrap_or(bytes.len());
    while at < bytes.len() {
        let triplet = match bytes.get(at..at + 3) {
            Some(&[_, hi, lo]) => hex_value(hi).zip(hex_value(lo)).map(|(h, l)| {
                (
                    h << 4 | l,
                    hi.is_ascii_lowercase() || lo.is_ascii_lowercase(),
                )
            }),
            _ => None,
        };
        match triplet {
            Some((b, _)) if is_unreserved(b) => {
                push_lowered(out, &text[copied..at], lower);
                out.push(char::from(if lower { b.to_ascii_lowercase() } else { b }));
                copied = at + 3;
            }
            // Lower-case hex digits, or a host whose other letters are lower-cased (not these).
            Some((_, lowercase_hex)) if lowercase_hex || lower => {
                push_lowered(out, &text[copied..at], lower);
                out.push('%');
                out.push(char::from(bytes[at + 1].to_ascii_uppercase()));
                out.push(char::from(bytes[at + 2].to_ascii_uppercase()));
                copied = at + 3;
            }
            // Already normal: it stays in the text copied as it is.
            Some(_) => {}
            // Not a pct-encoded triplet (the grammar never lets one through): the "%" is copied as it
            // is, and what follows it is read as text.
            None => {
                at += 1;
                at = memchr::memchr(b'%', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                continue;
            }
        }
        at += 3;
        // Triplets often follow each other (percent-encoded UTF-8): look at the next byte first.
        if bytes.get(at) != Some(&b'%') {
            at = memchr::memchr(b'%', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        }
    }
    push_lowered(out, &text[copied..], lower);
}

/// Appends `s` to `out`, in lower case with `lower`.
fn push_lowered(out: &mut String, s: &str, lower: bool) {
    let start = out.len();
    out.push_str(s);
    if lower {
        out[start..].make_ascii_lowercase();
    }
}

impl IriRef<'_> {
    /// The normal form of an IRI reference at the default level, [`Level::Scheme`]: syntax-based
    /// ([RFC 3987 5.3.2](https://datatracker.ietf.org/doc/html/rfc3987#section-5.3.2)) and scheme-based
    /// (5.3.3) for the schemes of the default-port table, as [`UriRef::normalize`] does; as
    /// [`normalize_with_options`](Self::normalize_with_options) at [`Level::Scheme`].
    ///
    /// ```text
    /// pct-encoded = "%" HEXDIG HEXDIG   ; upper-case HEXDIG, no unreserved character encoded
    /// ```
    ///
    /// ```
    /// use rfc3986::iri::IriRef;
    /// // RFC 3987 5.3.2's example: equivalent once each is mapped to a URI (3.1).
    /// let a = IriRef::parse("example://a/b/c/%7Bfoo%7D/ros\u{e9}")?;
    /// let b = IriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9")?;
    /// assert_eq!(a.normalize().as_str(), "example://a/b/c/%7Bfoo%7D/ros\u{e9}");
    /// assert_eq!(b.normalize().as_str(), "example://a/b/c/%7Bfoo%7D/ros%C3%A9");
    /// assert_eq!(a.normalize().to_uri(), b.normalize().to_uri());
    /// assert!(a.is_normalized() && !b.is_normalized());
    /// # Ok::<(), rfc3986::iri::IriParseError>(())
    /// ```
    #[must_use]
    pub fn normalize(&self) -> IriRef<'static> {
        self.normalize_with_options(Level::default().into())
    }

    /// The normal form with `options` (RFC 3987 5.3.2, and 5.3.3 at [`Level::Scheme`]): what
    /// [`UriRef::normalize_with_options`] does, on the IRI text. Case normalization (5.3.2.1) lowers the
    /// scheme and the ASCII letters of a reg-name and upper-cases percent-encoding hex digits;
    /// percent-encoding normalization (5.3.2.3) decodes only octets of unreserved ASCII characters
    /// (percent-encoded UTF-8 stays encoded: the conversion of RFC 3987 3.2 is
    /// [`from_uri`](Self::from_uri)); dot-segments are removed (5.3.2.4). Character normalization
    /// (5.3.2.2, NFC) is not applied: equivalence "MUST rely on the assumption that IRIs are
    /// appropriately pre-character-normalized".
    #[must_use]
    pub fn normalize_with_options(&self, options: Options) -> IriRef<'static> {
        if options.level() == Level::Simple {
            return self.clone().into_owned();
        }
        // The normalizer reads components through a `UriRef` view of the same text and offsets (it only
        // slices them); its output is read back here as an IRI, never as a URI.
        let view = UriRef::from_parts(Cow::Borrowed(self.as_str()), self.parts);
        match crate::normalize::normalized(&view, &options) {
            (text, Some(parts)) => IriRef::from_parts(Cow::Owned(text), parts),
            (_, None) => self.clone().into_owned(),
        }
    }

    /// Whether this IRI reference is its own normal form at the default level (see
    /// [`normalize`](Self::normalize)).
    #[must_use]
    pub fn is_normalized(&self) -> bool {
        self.normalize().as_str() == self.as_str()
    }
}

impl Iri<'_> {
    /// [`IriRef::normalize`] for an IRI: the result is an IRI.
    #[must_use]
    pub fn normalize(&self) -> Iri<'static> {
        Iri {
            inner: self.inner.normalize(),
        }
    }
}
