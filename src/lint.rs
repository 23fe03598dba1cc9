//! The lint stage: SHOULD-level and security findings on a value the grammar already accepted.
//!
//! The grammar decides what is a URI; this module only reports what RFC 3986 says producers and
//! normalizers *should* (not) do, and what its Security Considerations (section 7) warn about: an
//! uppercase scheme, lowercase percent-encoding hex digits, a default port, a password in the userinfo,
//! a reg-name that some resolvers read as an IPv4 address, ... Each [`Finding`] carries a stable
//! [`Code`], the RFC section it comes from, a one-line message and the byte span of the offending text.
//!
//! Lints never re-check the grammar: every input they see is in the language of `URI-reference` (or of
//! the rule it was parsed with), and they only look at the components the builder recorded, through the
//! public accessors of [`UriRef`].
//!
//! ```
//! use rfc3986::{lint::Code, UriRef};
//! let uri = UriRef::parse("HTTP://example.com:80/%7e")?;
//! let codes: Vec<Code> = uri.lint().iter().map(|f| f.code()).collect();
//! assert_eq!(
//!     codes,
//!     [
//!         Code::SchemeNotLowercase,
//!         Code::PortDefault,
//!         Code::PctEncodedLowercaseHex,
//!         Code::PctEncodedUnreserved,
//!     ]
//! );
//! # Ok::<(), rfc3986::Error>(())
//! ```
//!
//! # Secrets
//!
//! A password in the userinfo ([`Code::UserinfoPassword`]) is reported by its span only: no message, no
//! `Display` or `Debug` output of a [`Finding`] contains any text of the input except a scheme name and
//! port digits. Callers that print [`Finding::span`]'s slice of the input print the password.

use std::borrow::Cow;
use std::fmt;

use crate::components::HostKind;
use crate::engine::classes;
use crate::rule::Rule;
use crate::value::rule_match::RuleMatch;
use crate::value::uri::{Uri, UriRef};

/// A byte range `(start, end)` into the linted input: `&input[start..end]` is the offending text.
type Span = (usize, usize);

/// What a [`Finding`] is about: a stable kebab-case name ([`Code::as_str`]) and the RFC 3986 section that
/// asks for it ([`Code::section`]).
///
/// Each variant names a minimal input (parsed as `URI-reference`) that triggers it. New codes may be added
/// in minor releases; the names of existing codes do not change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    /// `scheme-not-lowercase` (RFC 3986 3.1): the canonical form of a scheme is lowercase and producers
    /// should only produce lowercase scheme names: `HTTP://a/`. Span: the scheme.
    SchemeNotLowercase,
    /// `pct-encoded-lowercase-hex` (RFC 3986 2.1, 6.2.2.1): producers and normalizers should use
    /// uppercase hexadecimal digits in percent-encodings: `/%2f`. Span: the `%xx` triplet.
    PctEncodedLowercaseHex,
    /// `pct-encoded-unreserved` (RFC 3986 2.3, 6.2.2.2): percent-encoded unreserved characters (ALPHA,
    /// DIGIT, `-`, `.`, `_`, `~`) should not be created and should be decoded: `/%7E`. Span: the triplet.
    PctEncodedUnreserved,
    /// `pct-encoded-nul` (RFC 3986 7.3): `%00` may require special handling and should be rejected by an
    /// application that does not expect raw data: `/a%00`. Span: the triplet.
    PctEncodedNul,
    /// `userinfo-password` (RFC 3986 3.2.1, 7.5): the `user:password` form is deprecated. `user:@host`
    /// (an empty password, "indicating no password") does not trigger it: `//u:p@h`. Span: the text after
    /// the first `:` of the userinfo (the password itself, which no message repeats).
    UserinfoPassword,
    /// `userinfo-looks-like-host` (RFC 3986 7.6, semantic attacks): the userinfo contains a dotted name
    /// that looks like a host name or an IPv4 address, so a reader may take it for the host:
    /// `//www.example.com@evil.test/`. A heuristic, looking at each run of letters, digits, `-` and `.`
    /// in the userinfo: four dec-octets (`10.0.0.1`), three or more labels ending in an alphabetic one
    /// (`www.example.com`), or two labels ending in a two-letter (country code) or common generic TLD
    /// (`paypal.com`, `bank.de`); `john.doe` does not trigger it. Span: the first host-like run.
    UserinfoLooksLikeHost,
    /// `reg-name-not-lowercase` (RFC 3986 3.2.2, 6.2.2.1): producers and normalizers should use
    /// lowercase for registered names (percent-encoding hex digits excepted): `//Example.com`. Span: the
    /// reg-name.
    RegNameNotLowercase,
    /// `reg-name-not-dns` (RFC 3986 3.2.2): producers should use names that conform to the DNS syntax
    /// (RFC 1034 3.5, RFC 1123 2.1: labels of 1 to 63 letters, digits and hyphens, neither starting nor
    /// ending with a hyphen, separated by `.`, optionally one trailing `.`). Only a warning: reg-name is
    /// broader on purpose. An empty reg-name does not trigger it; its length has its own code
    /// ([`Code::RegNameTooLong`]): `//a_b.example`. Span: the reg-name.
    RegNameNotDns,
    /// `reg-name-too-long` (RFC 3986 3.2.2): producers should limit registered names to no more than 255
    /// characters (counted as written): `//aaa…a` with 256 `a`. Span: the reg-name.
    RegNameTooLong,
    /// `reg-name-not-utf8` (RFC 3986 3.2.2): percent-encoding in a reg-name must represent UTF-8
    /// octets, and these do not decode as UTF-8: `//%FF`. Span: the percent-encoded octets of one invalid
    /// sequence.
    RegNameNotUtf8,
    /// `reg-name-numeric` (RFC 3986 7.4, 3.2.2): a reg-name made only of numbers (decimal, `0x` hex or
    /// `0`-led octal, as in C) and dots, which `inet_aton()` and similar resolvers may read as an IPv4
    /// address although it is not the `IPv4address` form: `//127.1`, `//0x7f.1`, `//017700000001`,
    /// `//1.2.3.256`. Percent-encoded octets count as what they decode to (2.1, 6.2.2.2): `//%31%32%37.1`
    /// and `//%31.2.3.4`, which a decoding resolver reads as `127.1` and `1.2.3.4`. Span: the reg-name.
    RegNameNumeric,
    /// `ipv6-not-lowercase` (RFC 3986 3.2.2, 6.2.2.1): producers and normalizers should use lowercase for
    /// hexadecimal addresses: `//[2001:DB8::1]`. Span: the IPv6address (inside the brackets).
    Ipv6NotLowercase,
    /// `ipvfuture` (RFC 3986 3.2.2): an `IPvFuture` literal, whose version flag no specification defines
    /// yet; dereferencing it should fail with "address mechanism not supported": `//[v7.x]`. Span: the
    /// IP-literal, brackets included.
    IpvFuture,
    /// `port-empty` (RFC 3986 3.2, 3.2.3, 6.2.3): producers and normalizers should omit the `:` before an
    /// empty port: `//h:`. Span: the `:`.
    PortEmpty,
    /// `port-default` (RFC 3986 3.2.3, 6.2.3): producers and normalizers should omit a port (and its `:`)
    /// equal to the scheme's default, compared by value (`:0080` is 80). Known defaults: http 80,
    /// https 443, ws 80, wss 443, ftp 21: `http://h:80`. Span: the `:` and the port.
    PortDefault,
    /// `port-zero` (RFC 3986 3.2.3; RFC 6335 6): port 0 is reserved for TCP and UDP, so no service can be
    /// reached there; the grammar allows it (`port = *DIGIT`): `//h:0`, `//h:000`. Span: the `:` and the
    /// port.
    PortZero,
    /// `port-out-of-range` (RFC 3986 3.2.3; RFC 6335 6): the port's value (decimal, leading zeros
    /// ignored) is above 65535, the largest TCP and UDP port; the grammar allows any number of digits:
    /// `//h:65536`, `//h:123456`. Span: the `:` and the port.
    PortOutOfRange,
    /// `path-encoded-traversal` (RFC 3986 7.3, 2.2): a path segment holding a percent-encoded `/`
    /// (`%2F`) next to a dot-segment: `%2F` is data, not a delimiter, but a back end that decodes before
    /// splitting the path (7.3, "Back-End Transcoding") sees `..` segments there and can climb out of a
    /// directory: `http://a/b/..%2F..%2Fetc`, `/%2E%2E%2Fx`. A `%2F` between ordinary text (`/a%2Fb`,
    /// used by some APIs for names that contain `/`) does not trigger it. Span: the segment.
    PathEncodedTraversal,
    /// `path-dot-segments` (RFC 3986 6.2.2.3, 5.2.4): the complete segments `.` and `..` are meant only for
    /// relative references; in a URI (with a scheme) normalizers should remove them. A segment that
    /// becomes one after decoding `%2E` (6.2.2.2) counts too: `http://a/b/../c`. Span: the segment.
    PathDotSegments,
}

impl Code {
    /// The former spelling of [`Code::IpvFuture`], spelled as [`HostKind::IpvFuture`](crate::HostKind) is.
    #[deprecated(
        since = "0.1.0",
        note = "spelled `Code::IpvFuture`, as `HostKind::IpvFuture`"
    )]
    #[allow(non_upper_case_globals)]
    pub const Ipvfuture: Code = Code::IpvFuture;

    /// Every code, in declaration order.
    pub const ALL: &'static [Code] = &[
        Code::SchemeNotLowercase,
        Code::PctEncodedLowercaseHex,
        Code::PctEncodedUnreserved,
        Code::PctEncodedNul,
        Code::UserinfoPassword,
        Code::UserinfoLooksLikeHost,
        Code::RegNameNotLowercase,
        Code::RegNameNotDns,
        Code::RegNameTooLong,
        Code::RegNameNotUtf8,
        Code::RegNameNumeric,
        Code::Ipv6NotLowercase,
        Code::IpvFuture,
        Code::PortEmpty,
        Code::PortDefault,
        Code::PortZero,
        Code::PortOutOfRange,
        Code::PathEncodedTraversal,
        Code::PathDotSegments,
    ];

    /// The stable kebab-case name of the code, as in JSON output (`"scheme-not-lowercase"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::SchemeNotLowercase => "scheme-not-lowercase",
            Code::PctEncodedLowercaseHex => "pct-encoded-lowercase-hex",
            Code::PctEncodedUnreserved => "pct-encoded-unreserved",
            Code::PctEncodedNul => "pct-encoded-nul",
            Code::UserinfoPassword => "userinfo-password",
            Code::UserinfoLooksLikeHost => "userinfo-looks-like-host",
            Code::RegNameNotLowercase => "reg-name-not-lowercase",
            Code::RegNameNotDns => "reg-name-not-dns",
            Code::RegNameTooLong => "reg-name-too-long",
            Code::RegNameNotUtf8 => "reg-name-not-utf8",
            Code::RegNameNumeric => "reg-name-numeric",
            Code::Ipv6NotLowercase => "ipv6-not-lowercase",
            Code::IpvFuture => "ipvfuture",
            Code::PortEmpty => "port-empty",
            Code::PortDefault => "port-default",
            Code::PortZero => "port-zero",
            Code::PortOutOfRange => "port-out-of-range",
            Code::PathEncodedTraversal => "path-encoded-traversal",
            Code::PathDotSegments => "path-dot-segments",
        }
    }

    /// The code named `name` ([`Code::as_str`]), or `None`.
    ///
    /// ```
    /// use rfc3986::lint::Code;
    /// assert_eq!(Code::from_name("port-default"), Some(Code::PortDefault));
    /// assert_eq!(Code::from_name("nope"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == name)
    }

    /// The section of RFC 3986 that asks for what the code checks (`"3.1"`, `"6.2.2.3"`, ...): the one
    /// holding the "should", or for security findings the subsection of section 7.
    pub fn section(self) -> &'static str {
        match self {
            Code::SchemeNotLowercase => "3.1",
            Code::PctEncodedLowercaseHex => "2.1",
            Code::PctEncodedUnreserved => "2.3",
            Code::PctEncodedNul => "7.3",
            Code::UserinfoPassword => "3.2.1",
            Code::UserinfoLooksLikeHost => "7.6",
            Code::RegNameNotLowercase
            | Code::RegNameNotDns
            | Code::RegNameTooLong
            | Code::RegNameNotUtf8
            | Code::Ipv6NotLowercase
            | Code::IpvFuture => "3.2.2",
            Code::RegNameNumeric => "7.4",
            Code::PortEmpty | Code::PortDefault | Code::PortZero | Code::PortOutOfRange => "3.2.3",
            Code::PathEncodedTraversal => "7.3",
            Code::PathDotSegments => "6.2.2.3",
        }
    }

    /// The message of a finding with this code when there is nothing more specific to say.
    fn message(self) -> &'static str {
        match self {
            Code::SchemeNotLowercase => "scheme should be lowercase",
            Code::PctEncodedLowercaseHex => "percent-encoding should use uppercase hex digits",
            Code::PctEncodedUnreserved => "percent-encoded unreserved character should be decoded",
            Code::PctEncodedNul => "percent-encoded NUL octet (%00) should be rejected",
            Code::UserinfoPassword => "userinfo contains a password (user:password is deprecated)",
            Code::UserinfoLooksLikeHost => {
                "userinfo looks like a host name and may mislead a reader about the host"
            }
            Code::RegNameNotLowercase => "registered name should be lowercase",
            Code::RegNameNotDns => "registered name does not follow the DNS host name syntax",
            Code::RegNameTooLong => "registered name is longer than 255 characters",
            Code::RegNameNotUtf8 => "percent-encoded octets in registered name are not UTF-8",
            Code::RegNameNumeric => {
                "registered name may be read as an IPv4 address in a non-standard form"
            }
            Code::Ipv6NotLowercase => "IPv6 address should use lowercase hex digits",
            Code::IpvFuture => "IPvFuture literal has no defined meaning",
            Code::PortEmpty => "empty port: the \":\" should be omitted",
            Code::PortDefault => "port is the scheme's default and should be omitted",
            Code::PortZero => "port 0 is reserved: no service can be reached there",
            Code::PortOutOfRange => "port is above 65535, the largest TCP and UDP port",
            Code::PathEncodedTraversal => {
                "percent-encoded \"/\" makes a dot-segment for a back end that decodes before splitting the path"
            }
            Code::PathDotSegments => "dot-segment in the path of a URI should be removed",
        }
    }
}

impl fmt::Display for Code {
    /// The kebab-case name ([`Code::as_str`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One SHOULD-level or security finding: a [`Code`], its RFC 3986 section, a one-line message (lower
/// case, no period) and the byte span of the offending text in the linted input.
///
/// `Display` is one line, `CODE: MESSAGE (RFC 3986 SECTION)`, and never quotes the input (see the module
/// docs on secrets).
///
/// ```
/// use rfc3986::{lint::Code, UriRef};
/// let input = "ftp://ftp.example.com:21/";
/// let findings = UriRef::parse(input)?.lint();
/// let f = &findings[0];
/// assert_eq!(f.code(), Code::PortDefault);
/// assert_eq!(f.section(), "3.2.3");
/// assert_eq!(&input[f.start()..f.end()], ":21");
/// assert_eq!(f.to_string(), "port-default: port 21 is the default for ftp and should be omitted (RFC 3986 3.2.3)");
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    code: Code,
    span: Span,
    /// The code's fixed message (no allocation), or a message that names a scheme and port.
    message: Cow<'static, str>,
}

impl Finding {
    fn new(code: Code, span: Span) -> Finding {
        Finding {
            code,
            span,
            message: Cow::Borrowed(code.message()),
        }
    }

    /// What the finding is about.
    pub fn code(&self) -> Code {
        self.code
    }

    /// The RFC 3986 section of the code ([`Code::section`]).
    pub fn section(&self) -> &'static str {
        self.code.section()
    }

    /// One line, lower case, no period. It never contains input text other than a scheme name or port
    /// digits (in particular never a password).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The byte range `(start, end)` of the offending text in the linted input.
    pub fn span(&self) -> (usize, usize) {
        self.span
    }

    /// The byte offset where the offending text starts.
    pub fn start(&self) -> usize {
        self.span.0
    }

    /// The byte offset just past the offending text.
    pub fn end(&self) -> usize {
        self.span.1
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (RFC 3986 {})",
            self.code,
            self.message,
            self.section()
        )
    }
}

/// The SHOULD-level and security findings on `uri` (see [`Code`] for the list), ordered by span start,
/// then code name, then span end.
///
/// ```
/// use rfc3986::{lint::lint, UriRef};
/// assert!(lint(&UriRef::parse("http://example.com/a?b#c")?).is_empty());
/// assert_eq!(lint(&UriRef::parse("http://a/b/../c")?)[0].code().as_str(), "path-dot-segments");
/// assert!(lint(&UriRef::parse("../c")?).is_empty()); // dot-segments belong in relative references
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub fn lint(uri: &UriRef<'_>) -> Vec<Finding> {
    lint_match(&RuleMatch::of_reference(uri))
}

/// The findings on any match; the components the rule does not contain are not looked at.
fn lint_match(uri: &RuleMatch<'_>) -> Vec<Finding> {
    lint_match_capped(uri, usize::MAX).listed
}

/// The findings on any match, at most `per_code` of each code listed (the first ones in the input).
fn lint_match_capped(uri: &RuleMatch<'_>, per_code: usize) -> Findings {
    let text = uri.as_str();
    let bytes = text.as_bytes();
    let parts = uri.parts();
    let mut out = Out {
        findings: Findings::default(),
        per_code,
    };
    // Most inputs have no percent-encoding: one search of the whole input lets every lint that is
    // about `pct-encoded` triplets skip its part.
    let has_pct = memchr::memchr(b'%', bytes).is_some();
    // Each lint looks at its component's bytes only when the match has that component (most inputs have
    // no userinfo and no port), from the slots the parser filled (no slicing of the text).
    if let Some((start, end)) = parts.scheme.get() {
        lint_scheme(&bytes[start..end], start, &mut out);
    }
    if has_pct {
        lint_pct_encoded(text, &mut out);
    }
    if parts.userinfo.is_some() {
        lint_userinfo(uri, text, &mut out);
    }
    lint_host(uri, text, has_pct, &mut out);
    if parts.port.is_some() {
        lint_port(uri, text, &mut out);
    }
    lint_path(uri, text, has_pct, &mut out);
    if out.findings.listed.len() > 1 {
        out.findings.listed.sort_by(|a, b| {
            (a.span.0, a.code.as_str(), a.span.1).cmp(&(b.span.0, b.code.as_str(), b.span.1))
        });
    }
    out.findings
}

/// Where the lints put what they find: listed up to the cap for each code, counted beyond it.
struct Out {
    findings: Findings,
    per_code: usize,
}

impl Out {
    fn push(&mut self, finding: Finding) {
        self.findings.total += 1;
        let counts = (self.findings.counts).get_or_insert_with(|| Box::new([0; Code::ALL.len()]));
        let count = &mut counts[finding.code as usize];
        *count += 1;
        if *count <= self.per_code as u64 {
            self.findings.listed.push(finding);
        }
    }
}

/// The findings on one input when only the first few of each code are kept: memory bounded by the number
/// of codes times the cap, whatever the input's length (a path of a million `%2E` segments has two million
/// findings). From [`lint_capped`] and the `lint_capped` methods.
///
/// ```
/// use rfc3986::{lint::Code, UriRef};
/// let uri = UriRef::parse("http://a/%7e/%7e/%7e")?;
/// let findings = uri.lint_capped(2);
/// assert_eq!(findings.count(Code::PctEncodedUnreserved), 3);
/// assert_eq!(findings.listed().iter().filter(|f| f.code() == Code::PctEncodedUnreserved).count(), 2);
/// assert_eq!(findings.omitted(), 1 + 1); // one lowercase-hex and one unreserved finding not listed
/// assert_eq!(findings.total(), 6);
/// # Ok::<(), rfc3986::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// Ordered as [`lint`] orders them.
    listed: Vec<Finding>,
    /// Findings of each code, listed or not, indexed by the code's position in [`Code::ALL`].
    /// (Made at the first finding: most inputs have none, and their `Findings` stays small.)
    counts: Option<Box<[u64; Code::ALL.len()]>>,
    /// The sum of `counts`.
    total: u64,
}

impl Findings {
    /// The findings kept, at most the cap of each code (the first ones in the input), ordered by span
    /// start, then code name, then span end.
    pub fn listed(&self) -> &[Finding] {
        &self.listed
    }

    /// How many findings of `code` there are, listed or not.
    pub fn count(&self, code: Code) -> u64 {
        self.counts
            .as_ref()
            .map_or(0, |counts| counts[code as usize])
    }

    /// How many findings there are in all, listed or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How many findings were found but not listed (over the cap of their code).
    pub fn omitted(&self) -> u64 {
        self.total() - self.listed.len() as u64
    }

    /// The codes with findings that were not listed, with how many of each were left out, in the order
    /// of [`Code::ALL`].
    pub fn omitted_by_code(&self) -> impl Iterator<Item = (Code, u64)> + '_ {
        Code::ALL.iter().filter_map(|&code| {
            let listed = self.listed.iter().filter(|f| f.code == code).count() as u64;
            let left_out = self.count(code) - listed;
            (left_out > 0).then_some((code, left_out))
        })
    }
}

/// Like [`lint`], keeping at most `per_code` findings of each code (the first ones in the input) and
/// counting the others: memory bounded whatever the input's length. `per_code = usize::MAX` lists all.
///
/// ```
/// use rfc3986::{lint::{lint_capped, Code}, UriRef};
/// let long = format!("http://a{}", "/%2e".repeat(1000));
/// let findings = lint_capped(&UriRef::parse(&long)?, 5);
/// assert_eq!(findings.count(Code::PathDotSegments), 1000);
/// assert_eq!(findings.listed().len(), 5 + 5 + 5); // lowercase hex, unreserved, dot-segment
/// # Ok::<(), rfc3986::Error>(())
/// ```
pub fn lint_capped(uri: &UriRef<'_>, per_code: usize) -> Findings {
    lint_match_capped(&RuleMatch::of_reference(uri), per_code)
}

impl UriRef<'_> {
    /// The SHOULD-level and security findings on this reference; see [`lint`](crate::lint::lint()).
    pub fn lint(&self) -> Vec<Finding> {
        lint(self)
    }

    /// The findings, at most `per_code` of each code listed; see [`lint_capped`].
    pub fn lint_capped(&self, per_code: usize) -> Findings {
        lint_capped(self, per_code)
    }
}

impl Uri<'_> {
    /// The SHOULD-level and security findings on this URI; see [`lint`](crate::lint::lint()).
    pub fn lint(&self) -> Vec<Finding> {
        lint(self.as_uri_ref())
    }

    /// The findings, at most `per_code` of each code listed; see [`lint_capped`].
    pub fn lint_capped(&self, per_code: usize) -> Findings {
        lint_capped(self.as_uri_ref(), per_code)
    }
}

impl RuleMatch<'_> {
    /// The SHOULD-level and security findings on the components this match contains (a host matched by
    /// `--rule host` is checked as a host); see [`lint`](crate::lint::lint()).
    ///
    /// ```
    /// use rfc3986::{lint::Code, parse_as, Rule};
    /// let host = parse_as(Rule::HOST, "Example.COM")?;
    /// assert_eq!(host.lint()[0].code(), Code::RegNameNotLowercase);
    /// # Ok::<(), rfc3986::Error>(())
    /// ```
    pub fn lint(&self) -> Vec<Finding> {
        lint_match(self)
    }

    /// The findings, at most `per_code` of each code listed; see [`lint_capped`].
    pub fn lint_capped(&self, per_code: usize) -> Findings {
        lint_match_capped(self, per_code)
    }
}

/// The span of `part`, a slice of `whole` (as every accessor of [`UriRef`] returns), in `whole`.
fn span_of(whole: &str, part: &str) -> Span {
    let start = part.as_ptr() as usize - whole.as_ptr() as usize;
    debug_assert!(start + part.len() <= whole.len());
    (start, start + part.len())
}

/// The octet of a `pct-encoded` triplet the grammar accepted (its digits are `HEXDIG`).
fn octet(hi: u8, lo: u8) -> u8 {
    crate::util::triplet_octet(hi, lo).unwrap_or_default()
}

/// Whether `s` has an uppercase ASCII letter outside its `pct-encoded` triplets.
fn has_uppercase_outside_pct(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            i += 3;
            continue;
        }
        if bytes[i].is_ascii_uppercase() {
            return true;
        }
        i += 1;
    }
    false
}

// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )   (3.1: canonical form is lowercase)
/// `scheme`: the scheme's bytes, which start at byte `start` of the input.
fn lint_scheme(scheme: &[u8], start: usize, out: &mut Out) {
    if scheme.iter().any(u8::is_ascii_uppercase) {
        out.push(Finding::new(
            Code::SchemeNotLowercase,
            (start, start + scheme.len()),
        ));
    }
}

// pct-encoded = "%" HEXDIG HEXDIG   (2.1 uppercase, 2.3 unreserved, 7.3 %00)
//
// The grammar allows "%" only as the start of a pct-encoded triplet, so every "%" of the input is one,
// whatever component it is in.
fn lint_pct_encoded(text: &str, out: &mut Out) {
    let bytes = text.as_bytes();
    // Where the next triplet may start (a loaded grammar may allow a `%` that is not one).
    let mut next = 0;
    for i in memchr::memchr_iter(b'%', bytes) {
        if i < next {
            continue;
        }
        next = i + 3;
        let (Some(&hi), Some(&lo)) = (bytes.get(i + 1), bytes.get(i + 2)) else {
            return;
        };
        let span = (i, i + 3);
        if hi.is_ascii_lowercase() || lo.is_ascii_lowercase() {
            out.push(Finding::new(Code::PctEncodedLowercaseHex, span));
        }
        let octet = octet(hi, lo);
        if classes::is_unreserved(octet) {
            out.push(Finding::new(Code::PctEncodedUnreserved, span));
        }
        if octet == 0 {
            out.push(Finding::new(Code::PctEncodedNul, span));
        }
    }
}

// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )   (3.2.1, 7.5, 7.6)
fn lint_userinfo(uri: &RuleMatch<'_>, text: &str, out: &mut Out) {
    let Some(userinfo) = uri.userinfo() else {
        return;
    };
    // 3.2.1: "unless the data after the colon is the empty string (indicating no password)".
    if let Some((_, password)) = userinfo.split_once(':') {
        if !password.is_empty() {
            out.push(Finding::new(
                Code::UserinfoPassword,
                span_of(text, password),
            ));
        }
    }
    if let Some(name) = host_like_run(userinfo) {
        out.push(Finding::new(
            Code::UserinfoLooksLikeHost,
            span_of(text, name),
        ));
    }
}

/// The first run of `[A-Za-z0-9.-]` in `userinfo` that looks like a host (7.6): a dotted-decimal IPv4
/// address, or a dotted name whose last label looks like a top-level domain. A name looks like a host when
/// it has three or more labels (`www.example.com`), or two with a last label of two letters (a country
/// code: `example.de`) or one of the common generic TLDs (`example.com`). `john.doe` does not.
fn host_like_run(userinfo: &str) -> Option<&str> {
    const GENERIC_TLDS: &[&str] = &[
        "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "io", "app", "dev",
    ];
    userinfo
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .find(|run| {
            let name = run.strip_suffix('.').unwrap_or(run);
            let labels: Vec<&str> = name.split('.').collect();
            if labels.len() < 2 || labels.iter().any(|l| l.is_empty()) {
                return false;
            }
            if labels.len() == 4
                && labels
                    .iter()
                    .all(|l| crate::engine::matches(Rule::DEC_OCTET, l))
            {
                return true;
            }
            let tld = labels[labels.len() - 1];
            if tld.len() < 2 || !tld.bytes().all(|b| b.is_ascii_alphabetic()) {
                return false;
            }
            labels.len() >= 3
                || tld.len() == 2
                || GENERIC_TLDS.iter().any(|t| t.eq_ignore_ascii_case(tld))
        })
}

// host = IP-literal / IPv4address / reg-name   (3.2.2, 7.4)
fn lint_host(uri: &RuleMatch<'_>, text: &str, has_pct: bool, out: &mut Out) {
    let parts = uri.parts();
    let Some((start, end)) = parts.host.get() else {
        return;
    };
    let span = (start, end);
    match parts.host_kind {
        HostKind::RegName => lint_reg_name(text, span, has_pct, out),
        HostKind::Ipv6address => {
            // Inside the brackets (a value parsed by the rule `IPv6address` alone has none).
            let host = &text[start..end];
            let address = host
                .strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .unwrap_or(host);
            if address.bytes().any(|b| b.is_ascii_uppercase()) {
                out.push(Finding::new(Code::Ipv6NotLowercase, span_of(text, address)));
            }
        }
        HostKind::IpvFuture => out.push(Finding::new(Code::IpvFuture, span)),
        HostKind::Ipv4address => {}
    }
}

// reg-name = *( unreserved / pct-encoded / sub-delims )
/// The reg-name at `span` of `text`; `has_pct`: whether the whole input has a `%` (when not, nor has the
/// name).
fn lint_reg_name(text: &str, span: Span, has_pct: bool, out: &mut Out) {
    let (start, end) = span;
    if start == end {
        // An empty reg-name is the scheme's default host, if any (3.2.2); nothing to say.
        return;
    }
    let name = &text[start..end];
    let (upper, dns) = match letters_and_dns(name.as_bytes()) {
        Some(shape) => shape,
        // A "%" or a character outside DNS names: the exact (slower) checks.
        None => (has_uppercase_outside_pct(name), is_dns_name(name)),
    };
    if upper {
        out.push(Finding::new(Code::RegNameNotLowercase, span));
    }
    if !dns {
        out.push(Finding::new(Code::RegNameNotDns, span));
    }
    if name.len() > 255 {
        out.push(Finding::new(Code::RegNameTooLong, span));
    }
    if has_pct {
        lint_reg_name_utf8(name, start, out);
    }
    if is_numeric_host(name)
        || (has_pct
            && name.contains('%')
            && decoded_ascii(name).is_some_and(|d| {
                is_numeric_host(&d) || crate::engine::matches(Rule::IPV4ADDRESS, &d)
            }))
    {
        out.push(Finding::new(Code::RegNameNumeric, span));
    }
}

/// What each byte of a reg-name is to [`letters_and_dns`]. The low byte is the byte's class: bit 0 an
/// uppercase letter, bit 1 a `.`, bit 2 a `-`, bit 3 anything but an ASCII letter, digit, `-` or `.`. The
/// high byte holds the classes that break a DNS name when they come right after this byte: `.` and `-`
/// after a `.` (an empty label, a label starting with `-`), `.` after a `-` (a label ending with `-`).
const NAME_BYTE: [u16; 256] = {
    let mut table = [8u16; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            table[b] = 0;
        } else if c.is_ascii_uppercase() {
            table[b] = 1;
        }
        b += 1;
    }
    table[b'.' as usize] = 2 | (2 | 4) << 8;
    table[b'-' as usize] = 4 | 2 << 8;
    table
};

/// `(has an uppercase letter, is a DNS name as [`is_dns_name`] says)` for a reg-name of letters,
/// digits, `.` and `-` only whose labels cannot exceed 63 bytes (at most 63 bytes without a trailing
/// `.`): almost every host, in one pass without a branch per byte. `None` for any other name.
fn letters_and_dns(name: &[u8]) -> Option<(bool, bool)> {
    let labels = name.strip_suffix(b".").unwrap_or(name);
    if labels.len() > 63 {
        return None;
    }
    let mut all = 0u16;
    // The name starts as if after a "." (a first label that is empty or starts with "-" breaks it).
    let mut breaks_after = NAME_BYTE[b'.' as usize] >> 8;
    let mut bad = 0u16;
    for &b in labels {
        let byte = NAME_BYTE[b as usize];
        all |= byte;
        bad |= breaks_after & byte;
        breaks_after = byte >> 8;
    }
    if all & 8 != 0 {
        return None;
    }
    // The last label may not end with "-" nor be empty (an empty name is one empty label).
    let last = labels.last().map_or(2, |&b| NAME_BYTE[b as usize]);
    Some((all & 1 != 0, bad == 0 && last & 6 == 0))
}

/// The preferred name syntax of RFC 1034 3.5 as relaxed by RFC 1123 2.1 (a label may start with a
/// digit), without its length limit (that is [`Code::RegNameTooLong`]): labels of 1 to 63 letters, digits
/// and hyphens, not starting or ending with a hyphen, separated by "."; one trailing "." (a fully
/// qualified name, RFC 3986 3.2.2) is allowed.
fn is_dns_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    // One pass over the bytes: `label` counts the current label's length, `last` is its last byte.
    let mut label = 0;
    let mut last = b'.';
    for &b in name.as_bytes() {
        if b == b'.' {
            if label == 0 || last == b'-' {
                return false;
            }
            label = 0;
        } else if b.is_ascii_alphanumeric() || b == b'-' {
            if label == 0 && b == b'-' {
                return false;
            }
            label += 1;
            if label > 63 {
                return false;
            }
        } else {
            return false;
        }
        last = b;
    }
    label > 0 && last != b'-'
}

/// Reports each sequence of percent-encoded octets in a reg-name that is not UTF-8 (3.2.2). Characters
/// written as themselves are ASCII and thus UTF-8; only the decoded octets can be wrong.
fn lint_reg_name_utf8(name: &str, start: usize, out: &mut Out) {
    let bytes = name.as_bytes();
    if !bytes.contains(&b'%') {
        // The grammar let only ASCII through: UTF-8 already.
        return;
    }
    // The decoded octets, each with the span of the text it came from.
    let mut octets = Vec::with_capacity(bytes.len());
    let mut spans = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            octets.push(octet(bytes[i + 1], bytes[i + 2]));
            spans.push((start + i, start + i + 3));
            i += 3;
        } else {
            octets.push(bytes[i]);
            spans.push((start + i, start + i + 1));
            i += 1;
        }
    }
    let mut from = 0;
    while from < octets.len() {
        match std::str::from_utf8(&octets[from..]) {
            Ok(_) => break,
            Err(e) => {
                let bad = from + e.valid_up_to();
                let end = e.error_len().map_or(octets.len(), |n| bad + n);
                out.push(Finding::new(
                    Code::RegNameNotUtf8,
                    (spans[bad].0, spans[end - 1].1),
                ));
                from = end;
            }
        }
    }
}

/// `name` with its percent-encoded octets decoded, when they all decode to ASCII; `None` otherwise.
fn decoded_ascii(name: &str) -> Option<String> {
    let bytes = name.as_bytes();
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = if bytes[i] == b'%' && i + 2 < bytes.len() {
            let b = octet(bytes[i + 1], bytes[i + 2]);
            i += 3;
            b
        } else {
            i += 1;
            bytes[i - 1]
        };
        if !b.is_ascii() {
            return None;
        }
        out.push(char::from(b));
    }
    Some(out)
}

/// Whether a reg-name consists only of numbers as C's `strtoul` with base 0 reads them (`0x` hex, `0`-led
/// octal, decimal; `0x` alone is 0, as WHATWG URL has it) separated by "." with at most one trailing ".":
/// what `inet_aton()` and WHATWG URL's IPv4 parser try to read as an address (7.4). Any number of parts
/// and any values count: `1.2.3.256` and `1.2.3.4.5` are made only of digits and dots, and resolvers
/// differ on what they make of them.
fn is_numeric_host(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    // Every part starts with a digit (`0x` with a `0`): most names are out at the first byte.
    if !name.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    name.split('.').all(|part| {
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            hex.bytes().all(|b| b.is_ascii_hexdigit())
        } else {
            !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit())
        }
    })
}

// authority = [ userinfo "@" ] host [ ":" port ]   (3.2.3, 6.2.3)
fn lint_port(uri: &RuleMatch<'_>, text: &str, out: &mut Out) {
    let Some(port) = uri.port() else {
        return;
    };
    let (start, end) = span_of(text, port);
    // Both spans include the ":" delimiter, which the RFC says to omit with the port. A value parsed by
    // the rule `port` alone has no ":".
    let colon = start > 0 && text.as_bytes()[start - 1] == b':';
    let span = (start - usize::from(colon), end);
    if port.is_empty() {
        if colon {
            out.push(Finding::new(Code::PortEmpty, span));
        }
        return;
    }
    // The value in decimal, leading zeros ignored (3.2.3: "port ... in decimal").
    let digits = port.trim_start_matches('0');
    if digits.is_empty() {
        out.push(Finding::new(Code::PortZero, span));
        return;
    }
    if digits.len() > 5 || digits.parse::<u32>().is_ok_and(|n| n > 65535) {
        out.push(Finding::new(Code::PortOutOfRange, span));
        return;
    }
    let Some(scheme) = uri.scheme() else {
        return;
    };
    let Some(default) = crate::normalize::default_port(scheme) else {
        return;
    };
    if uri.port_u16() == Some(default) {
        let scheme = scheme.to_ascii_lowercase();
        out.push(Finding {
            code: Code::PortDefault,
            span,
            message: Cow::Owned(format!(
                "port {default} is the default for {scheme} and should be omitted"
            )),
        });
    }
}

// path segments   (6.2.2.3, 5.2.4: dot-segments only in relative references; 7.3: encoded "/")
fn lint_path(uri: &RuleMatch<'_>, text: &str, has_pct: bool, out: &mut Out) {
    let parts = uri.parts();
    let Some((path_start, path_end)) = parts.path.get().filter(|(s, e)| s < e) else {
        return;
    };
    let is_uri = parts.scheme.is_some();
    if !has_pct {
        // No "%": no encoded traversal, and a dot-segment is one or two "." between "/" (or the ends).
        // Only the dots that start a segment are looked at, from the first one on (most paths have
        // none).
        if !is_uri {
            return;
        }
        let bytes = &text.as_bytes()[path_start..path_end];
        let Some(first) = crate::resolve::path::first_dot_at_segment_start(bytes, true) else {
            return;
        };
        for dot in memchr::memchr_iter(b'.', &bytes[first..]).map(|dot| dot + first) {
            if dot > 0 && bytes[dot - 1] != b'/' {
                continue;
            }
            let end = match bytes.get(dot + 1) {
                Some(b'.') => dot + 2,
                _ => dot + 1,
            };
            if bytes.get(end).is_none_or(|&b| b == b'/') {
                let start = path_start + dot;
                out.push(Finding::new(
                    Code::PathDotSegments,
                    (start, start + end - dot),
                ));
            }
        }
        return;
    }
    let path = &text[path_start..path_end];
    // Split at "/" by bytes ("/" is ASCII, so every piece ends on a character boundary).
    let mut at = 0;
    for piece in path.as_bytes().split(|&b| b == b'/') {
        let segment = &path[at..at + piece.len()];
        let start = path_start + at;
        at += piece.len() + 1;
        if is_encoded_traversal(segment) {
            out.push(Finding::new(
                Code::PathEncodedTraversal,
                (start, start + segment.len()),
            ));
        }
        if is_uri && is_dot_segment(segment) {
            out.push(Finding::new(
                Code::PathDotSegments,
                (start, start + segment.len()),
            ));
        }
    }
}

/// Whether a segment, split at each `%2F` as a back end that decodes first would split it, has a part
/// that is a dot-segment (`..%2F`, `%2F.`, `%2E%2E%2Fx`).
fn is_encoded_traversal(segment: &str) -> bool {
    let bytes = segment.as_bytes();
    let mut part_start = 0;
    let mut saw_slash = false;
    let mut any_dot_part = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1..i + 3].eq_ignore_ascii_case(b"2f")
        {
            saw_slash = true;
            any_dot_part |= is_dot_segment(&segment[part_start..i]);
            i += 3;
            part_start = i;
        } else {
            i += 1;
        }
    }
    saw_slash && (any_dot_part || is_dot_segment(&segment[part_start..]))
}

/// `.` or `..`, also when a dot is written `%2E` (which 6.2.2.2 decodes before 6.2.2.3 applies).
fn is_dot_segment(segment: &str) -> bool {
    let mut dots = 0;
    let mut rest = segment;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else if rest.len() >= 3 && rest.as_bytes()[..3].eq_ignore_ascii_case(b"%2e") {
            rest = &rest[3..];
        } else {
            return false;
        }
        dots += 1;
    }
    matches!(dots, 1 | 2)
}

#[cfg(test)]
mod tests {
    use super::Code;

    /// A new variant fails to compile here until it is given a place, and the test then fails until
    /// [`Code::ALL`] lists it.
    fn position(code: Code) -> usize {
        match code {
            Code::SchemeNotLowercase => 0,
            Code::PctEncodedLowercaseHex => 1,
            Code::PctEncodedUnreserved => 2,
            Code::PctEncodedNul => 3,
            Code::UserinfoPassword => 4,
            Code::UserinfoLooksLikeHost => 5,
            Code::RegNameNotLowercase => 6,
            Code::RegNameNotDns => 7,
            Code::RegNameTooLong => 8,
            Code::RegNameNotUtf8 => 9,
            Code::RegNameNumeric => 10,
            Code::Ipv6NotLowercase => 11,
            Code::IpvFuture => 12,
            Code::PortEmpty => 13,
            Code::PortDefault => 14,
            Code::PortZero => 15,
            Code::PortOutOfRange => 16,
            Code::PathEncodedTraversal => 17,
            Code::PathDotSegments => 18,
        }
    }

    /// The one-pass shape of a reg-name agrees with the exact checks on every name of up to six bytes
    /// over letters of both cases, a digit, `.`, `-` and `_`, and at the 63-byte limit.
    #[test]
    fn letters_and_dns_agrees_with_the_exact_checks() {
        let alphabet = b"aZ1.-_";
        let mut names: Vec<Vec<u8>> = vec![Vec::new()];
        let mut layer = names.clone();
        for _ in 0..6 {
            layer = layer
                .iter()
                .flat_map(|n| alphabet.iter().map(move |&b| [n.as_slice(), &[b]].concat()))
                .collect();
            names.extend(layer.iter().cloned());
        }
        for len in 62..=65 {
            for tail in [&b""[..], b".", b"-", b"..", b".a"] {
                names.push([vec![b'a'; len], tail.to_vec()].concat());
            }
        }
        let mut fast = 0;
        for name in &names {
            let text = std::str::from_utf8(name).unwrap();
            if let Some(shape) = super::letters_and_dns(name) {
                fast += 1;
                let exact = (
                    super::has_uppercase_outside_pct(text),
                    super::is_dns_name(text),
                );
                assert_eq!(shape, exact, "{text:?}");
            }
        }
        // Every name without "_" and short enough takes the fast way.
        assert!(fast > 15_000, "{fast}");
    }

    #[test]
    fn all_lists_every_code_once_in_order() {
        for (i, &code) in Code::ALL.iter().enumerate() {
            assert_eq!(position(code), i, "{code:?}");
            assert_eq!(
                code as usize, i,
                "{code:?}: Findings indexes counts by discriminant"
            );
        }
        assert_eq!(Code::ALL.len(), 19);
    }
}
