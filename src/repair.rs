//! Repairing a near-URI: [`fix`] turns text that is almost a URI reference into one, where the repair is
//! unambiguous, and says what it changed.
//!
//! # What is repaired
//!
//! Every repair percent-encodes one character as the `%XX` triplets of its UTF-8 octets (RFC 3986 2.1,
//! 2.5; RFC 3987 3.1 step 2 for characters outside ASCII), so that decoding the result gives back the
//! input's characters. Nothing is removed, added or reordered.
//!
//! ```text
//! pct-encoded = "%" HEXDIG HEXDIG
//! ```
//!
//! | found | becomes | why ([`Reason`]) |
//! |---|---|---|
//! | a space inside the text | `%20` | no rule has a space (RFC 3986 2.1, Appendix A) |
//! | `"` `<` `>` `\` `^` `` ` `` `{` `\|` `}`, controls other than tab, CR, LF | `%22` ... | no rule has them (RFC 3986 2, Appendix A) |
//! | a character outside ASCII | its UTF-8 octets, `é` -> `%C3%A9` | a URI is ASCII (RFC 3986 2.5, RFC 3987 3.1) |
//! | `%` not followed by two `HEXDIG` | `%25` | `%` stands for itself only as `%25` (RFC 3986 2.4) |
//! | a `#` after the first | `%23` | the first `#` starts the fragment, and `fragment` has no `#` (3.5) |
//! | `[` `]` in the path, query or fragment | `%5B` `%5D` | brackets only enclose an IP-literal (3.2.2) |
//!
//! The first four never appear unencoded anywhere in a URI, whatever the context: they are encoded in one
//! pass. The last two depend on where they are; the grammar decides: the input is parsed, and a
//! [`ParseErrorKind::SecondHash`] or [`ParseErrorKind::Bracket`] error past the authority has every `#`
//! (or every bracket) from there to the end encoded at once, since none can be a delimiter there. So the
//! work is linear in the input: one encoding pass and at most a few parses, whatever the input.
//!
//! # What is not
//!
//! Anything else the grammar rejects stops the repair with an [`Unrepairable`] error and its [`Cause`]:
//! a port with letters (`http://host:port/`, 3.2.3), a bracketed host that is no IP-literal
//! (`gs://[BUCKET]/`), a bracket in the authority, a scheme-less reference with a colon in its first segment
//! (`git@github.com:a/b`, 4.2), a character in the host that no host name contains (`http://exa mple.com/`:
//! encoding the space would give a reg-name that names no host, 3.2.2, [`Cause::Host`]; non-ASCII
//! characters in a host are repaired, as 3.2.2 asks), and text that is not a URI with a few mistakes but
//! something else:
//!
//! - a URI template (RFC 6570: `https://{region}.example.com/`) or a placeholder like one (`{}`,
//!   `[OBJECT_NAME]`): expand it first, encoding its braces would give a URI nobody meant
//!   ([`Cause::Template`]);
//! - a printf-style format string (`http://%s:%d/`, [`Cause::FormatPlaceholder`]);
//! - a regular expression or glob (`s3://([^/]+)/.*`, [`Cause::RegularExpression`]), Markdown link syntax
//!   around a URI (`https://a.example/x)][y`, [`Cause::Markup`]);
//! - whitespace at either end, or a tab, CR or LF anywhere: RFC 3986 Appendix C says whitespace around or
//!   inside a URI written in text is not part of it ([`Cause::Whitespace`]); trim it, do not encode it;
//! - a URI inside the delimiters `<...>` or `"..."` of Appendix C ([`Cause::Delimiters`]).
//!
//! # Guarantees
//!
//! - `fix(s)` is `Ok` only if the result is in the language of `URI-reference` (it was parsed).
//! - A valid URI reference is returned unchanged with no repairs, so `fix` is idempotent.
//! - Each [`Repair`] replaces exactly the character it found by the `%XX` triplets of its UTF-8 octets.
//! - Offsets are byte offsets into the *original* input.
//!
//! ```
//! use rfc3986::repair::{fix, Cause, Reason};
//!
//! // RFC 3987 3.1: an IRI with é becomes a URI with its UTF-8 octets percent-encoded.
//! let fixed = fix("http://r\u{E9}sum\u{E9}.example.org").unwrap();
//! assert_eq!(fixed.as_str(), "http://r%C3%A9sum%C3%A9.example.org");
//! assert_eq!(fixed.repairs()[0].offset(), 8);
//! assert_eq!(fixed.repairs()[0].reason(), Reason::NonAscii);
//!
//! let fixed = fix("capi3ref.html#SQLITE_DBSTATUS options").unwrap();
//! assert_eq!(fixed.as_str(), "capi3ref.html#SQLITE_DBSTATUS%20options");
//!
//! let err = fix("https://{bucket}.example.com/").unwrap_err();
//! assert_eq!(err.cause(), Cause::Template);
//! assert_eq!(err.offset(), 8);
//! ```
//!
//! [2.1]: https://datatracker.ietf.org/doc/html/rfc3986#section-2.1

use std::fmt;

use crate::engine::Rule;
use crate::engine::{classes, validate};
use crate::error::{ParseError, ParseErrorKind};
use crate::util::{is_pct_triplet, push_pct_triplet as push_triplet};
use crate::value::rule_match::parse_as;

/// Why a character was percent-encoded, with the RFC section that asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// A space, which no rule allows (RFC 3986 2.1, Appendix A): `a b` -> `a%20b`.
    Space,
    /// An ASCII character that no rule allows anywhere: `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`
    /// and control characters other than tab, CR and LF (RFC 3986 2, Appendix A): `a|b` -> `a%7Cb`.
    NotAllowed,
    /// A character outside ASCII, written as its UTF-8 octets (RFC 3986 2.5, RFC 3987 3.1):
    /// `é` -> `%C3%A9`.
    NonAscii,
    /// A `%` not followed by two hex digits stands for itself and is written `%25` (RFC 3986 2.4):
    /// `100%` -> `100%25`.
    PercentSign,
    /// A `#` after the one that starts the fragment (RFC 3986 3.5): `a#b#c` -> `a#b%23c`.
    SecondHash,
    /// A `[` or `]` in the path, query or fragment: brackets only enclose an IP-literal host (RFC 3986
    /// 3.2.2, 2.2): `/a[1]` -> `/a%5B1%5D`.
    Bracket,
}

impl Reason {
    /// The RFC section that asks for the repair: `RFC 3986 2.1`, `RFC 3986 2.5, RFC 3987 3.1`.
    pub fn section(self) -> &'static str {
        match self {
            Reason::Space | Reason::NotAllowed => "RFC 3986 2.1",
            Reason::NonAscii => "RFC 3986 2.5, RFC 3987 3.1",
            Reason::PercentSign => "RFC 3986 2.4",
            Reason::SecondHash => "RFC 3986 3.5",
            Reason::Bracket => "RFC 3986 3.2.2",
        }
    }

    /// A stable kebab-case name, as in JSON output: `space`, `not-allowed`, `non-ascii`, `percent-sign`,
    /// `second-hash`, `bracket`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Space => "space",
            Reason::NotAllowed => "not-allowed",
            Reason::NonAscii => "non-ascii",
            Reason::PercentSign => "percent-sign",
            Reason::SecondHash => "second-hash",
            Reason::Bracket => "bracket",
        }
    }

    /// A short description without the section: `no URI contains a space`.
    pub fn description(self) -> &'static str {
        match self {
            Reason::Space => "no URI contains a space",
            Reason::NotAllowed => "no URI contains this character",
            Reason::NonAscii => "a URI is ASCII: the character's UTF-8 octets are percent-encoded",
            Reason::PercentSign => "a \"%\" that does not start pct-encoded stands for itself",
            Reason::SecondHash => "a fragment cannot contain \"#\"",
            Reason::Bracket => "brackets only enclose an IP-literal host",
        }
    }
}

impl fmt::Display for Reason {
    /// `DESCRIPTION (SECTION)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.description(), self.section())
    }
}

/// One character percent-encoded by [`fix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repair {
    offset: usize,
    found: char,
    reason: Reason,
}

impl Repair {
    /// The 0-based byte offset of the character in the original input.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The byte range of the character in the original input (1 to 4 bytes).
    pub fn span(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.found.len_utf8()
    }

    /// The character that was encoded.
    pub fn found(&self) -> char {
        self.found
    }

    /// What it became: `%` and two upper-case hex digits for each of its UTF-8 octets (`%20`, `%C3%A9`).
    ///
    /// ```
    /// let fixed = rfc3986::repair::fix("/a\u{1F600}")?;
    /// assert_eq!(fixed.repairs()[0].replacement(), "%F0%9F%98%80");
    /// # Ok::<(), rfc3986::repair::Unrepairable>(())
    /// ```
    pub fn replacement(&self) -> String {
        let mut buf = [0; 4];
        let mut out = String::with_capacity(12);
        for &b in self.found.encode_utf8(&mut buf).as_bytes() {
            push_triplet(&mut out, b);
        }
        out
    }

    /// Why.
    pub fn reason(&self) -> Reason {
        self.reason
    }
}

/// A URI reference made out of a near-URI by [`fix`], with the repairs that made it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fixed {
    text: String,
    repairs: Vec<Repair>,
}

impl Fixed {
    /// The repaired text: always in the language of `URI-reference`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The repaired text, owned.
    pub fn into_string(self) -> String {
        self.text
    }

    /// The repairs, in the order of their offsets; empty when the input was already a URI reference.
    pub fn repairs(&self) -> &[Repair] {
        &self.repairs
    }
}

impl fmt::Display for Fixed {
    /// The repaired text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl AsRef<str> for Fixed {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// Why [`fix`] stopped: the kind of text it found, judged at the error that stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cause {
    /// The grammar rejects the input in a way no encoding can repair: a port with letters
    /// (`http://host:port/`), a bracketed host that is no IP-literal (`gs://[BUCKET]/`), a colon in the
    /// first segment of a relative reference (`git@github.com:a/b`): [`Unrepairable::error`] says what.
    Syntax,
    /// A URI template (RFC 6570), or a placeholder like it: `https://{region}.example.com/`, Python's
    /// `{}`, an upper-case `[NAME]` in the path (`gs://b/[OBJECT_NAME]`). Expand the template first.
    Template,
    /// A printf-style placeholder: `http://%s:%d/`.
    FormatPlaceholder,
    /// A regular expression or glob pattern: `s3://([^/]+)/.*`, `gs://b/[a-m]??.jpg`.
    RegularExpression,
    /// Markdown link syntax next to the URI: `https://a.example/badge.svg)][docs`.
    Markup,
    /// Whitespace at the start or end, or a tab, CR or LF anywhere: not part of the URI (RFC 3986
    /// Appendix C).
    Whitespace,
    /// The URI is inside the delimiters `<...>` or `"..."` of RFC 3986 Appendix C: remove them.
    Delimiters,
    /// A character in the host that no host name contains (a space, `"`, `|`, a lone `%`, ...):
    /// percent-encoding it would give a `reg-name` that names no host (RFC 3986 3.2.2), so
    /// `http://exa mple.com/` is refused. Non-ASCII characters in a host are repaired (3.2.2 asks for
    /// their UTF-8 octets percent-encoded).
    Host,
}

impl Cause {
    /// A stable kebab-case name, as in JSON output: `syntax`, `template`, `format-placeholder`,
    /// `regular-expression`, `markup`, `whitespace`, `delimiters`, `host`.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Syntax => "syntax",
            Cause::Template => "template",
            Cause::FormatPlaceholder => "format-placeholder",
            Cause::RegularExpression => "regular-expression",
            Cause::Markup => "markup",
            Cause::Whitespace => "whitespace",
            Cause::Delimiters => "delimiters",
            Cause::Host => "host",
        }
    }

    /// What to do about it, one line, or `None` for [`Cause::Syntax`] (the error's hint says it).
    pub fn advice(self) -> Option<&'static str> {
        Some(match self {
            Cause::Syntax => return None,
            Cause::Template => "a URI template (RFC 6570): expand it, encoding its braces would not help",
            Cause::FormatPlaceholder => "a printf-style placeholder: fill it in first",
            Cause::RegularExpression => "a regular expression or glob pattern, not a URI",
            Cause::Markup => "Markdown link syntax around the URI: extract the URI first",
            Cause::Whitespace => {
                "whitespace around or inside a URI in text is not part of it (RFC 3986 Appendix C): \
                 remove it"
            }
            Cause::Delimiters => {
                "the URI is inside delimiters (RFC 3986 Appendix C): remove them"
            }
            Cause::Host => {
                "no host name contains this character: percent-encoding it would give a reg-name \
                 that names no host (RFC 3986 3.2.2)"
            }
        })
    }
}

impl fmt::Display for Cause {
    /// [`Cause::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// [`fix`] could not make a URI reference of its input: the error that stopped it, its [`Cause`], and
/// the repairs made before it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrepairable(Box<Stop>);

/// The fields of [`Unrepairable`], boxed so that `Result<Fixed, Unrepairable>` stays small.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stop {
    cause: Cause,
    offset: usize,
    error: ParseError,
    partial: String,
    repairs: Vec<Repair>,
}

impl fmt::Display for Unrepairable {
    /// `cannot repair at byte N: ADVICE; MESSAGE`, one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot repair at byte {}: {}",
            self.0.offset,
            self.describe()
        )
    }
}

impl std::error::Error for Unrepairable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0.error)
    }
}

impl Unrepairable {
    /// What kind of text stopped the repair.
    pub fn cause(&self) -> Cause {
        self.0.cause
    }

    /// The 0-based byte offset, in the original input, of the character that stopped the repair (the
    /// input's length if it ended too early).
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The grammar's error on [`partial`](Self::partial): its offsets are into the partly repaired text,
    /// not into the original input ([`offset`](Self::offset) is).
    pub fn error(&self) -> &ParseError {
        &self.0.error
    }

    /// The text with the repairs made before the stop: not a URI reference.
    pub fn partial(&self) -> &str {
        &self.0.partial
    }

    /// The repairs made before the stop, in the order of their offsets.
    pub fn repairs(&self) -> &[Repair] {
        &self.0.repairs
    }

    /// What to do, one line: the cause's [advice](Cause::advice), or for [`Cause::Syntax`] the grammar
    /// error's [hint](ParseError::hint) (`None` when it has none). The grammar's hint is not given for the
    /// other causes: it would say to percent-encode what no encoding repairs.
    ///
    /// ```
    /// use rfc3986::repair::{fix, Cause};
    /// let e = fix("http://exa mple.com/").unwrap_err();
    /// assert_eq!(e.cause(), Cause::Host);
    /// assert!(e.hint().unwrap().starts_with("no host name contains this character"));
    /// let e = fix("https://{region}.example.com/").unwrap_err();
    /// assert_eq!(e.hint().as_deref(), Cause::Template.advice());
    /// ```
    pub fn hint(&self) -> Option<String> {
        match self.0.cause.advice() {
            Some(advice) => Some(advice.to_owned()),
            None => self.0.error.hint(),
        }
    }

    /// The cause's advice, then the grammar's message and hint.
    pub fn describe(&self) -> String {
        match self.0.cause.advice() {
            Some(advice) => format!("{advice}; {}", self.0.error.message()),
            None => self.0.error.detail(),
        }
    }
}

/// Repairs `input` into a URI reference (`URI-reference`, RFC 3986 4.1) where the repair is unambiguous:
/// percent-encoding the characters no URI can contain at their place (see the [module docs](self)).
///
/// An input that is already a URI reference is returned unchanged, without repairs.
///
/// # Grammar
///
/// The result matches ([RFC 3986 4.1], [2.1]):
///
/// ```text
/// URI-reference = URI / relative-ref
/// pct-encoded   = "%" HEXDIG HEXDIG
/// ```
///
/// [RFC 3986 4.1]: https://datatracker.ietf.org/doc/html/rfc3986#section-4.1
/// [2.1]: https://datatracker.ietf.org/doc/html/rfc3986#section-2.1
///
/// # Examples
///
/// ```
/// use rfc3986::repair::{fix, Reason};
///
/// // RFC 3986 2.4: a lone "%" is data; RFC 3986 3.5: the fragment has no "#".
/// let fixed = fix("/100%#a#b")?;
/// assert_eq!(fixed.as_str(), "/100%25#a%23b");
/// let reasons: Vec<_> = fixed.repairs().iter().map(|r| (r.offset(), r.reason())).collect();
/// assert_eq!(reasons, [(4, Reason::PercentSign), (7, Reason::SecondHash)]);
///
/// // Edge case: "%41" is already pct-encoded and stays; the empty string is a URI reference.
/// assert!(fix("/%41")?.repairs().is_empty());
/// assert_eq!(fix("")?.as_str(), "");
/// # Ok::<(), rfc3986::repair::Unrepairable>(())
/// ```
///
/// # Errors
/// [`Unrepairable`] when the grammar rejects something encoding cannot repair, or the text is another
/// kind of text (a template, a format string, a pattern, markup, whitespace or delimiters around a URI):
/// see [`Cause`].
pub fn fix(input: &str) -> Result<Fixed, Unrepairable> {
    let first_error = match validate(Rule::URI_REFERENCE, input) {
        Ok(()) => {
            return Ok(Fixed {
                text: input.to_string(),
                repairs: Vec::new(),
            })
        }
        Err(e) => e,
    };
    // Text that is something other than a near-URI is left as it is: the first error stops it.
    if let Some(cause) = not_a_uri(input) {
        return Err(Unrepairable(Box::new(Stop {
            cause,
            offset: first_error.offset(),
            error: first_error,
            partial: input.to_string(),
            repairs: Vec::new(),
        })));
    }
    let mut plan = Plan::new(input);
    plan.encode_context_free();
    // Each round either returns or encodes every character of one class from the error to the end, so
    // that class cannot stop a later round: a few rounds at most.
    let mut last_offset = None;
    loop {
        let text = plan.text();
        let error = match validate(Rule::URI_REFERENCE, &text) {
            Ok(()) => {
                if let Some(offset) = plan.encoded_in_host(&text) {
                    return Err(Unrepairable(Box::new(Stop {
                        cause: Cause::Host,
                        offset,
                        error: first_error,
                        partial: input.to_string(),
                        repairs: Vec::new(),
                    })));
                }
                return Ok(Fixed {
                    text,
                    repairs: plan.repairs(),
                });
            }
            Err(e) => e,
        };
        let offset = plan.original_offset(error.offset());
        let progressed = last_offset.is_none_or(|last| offset > last);
        let repaired = progressed
            && match error.kind() {
                ParseErrorKind::SecondHash => plan.encode_from(offset, b"#", Reason::SecondHash),
                ParseErrorKind::Bracket
                    if past_authority(&text, error.offset())
                        && !bracket_placeholder(input, offset) =>
                {
                    plan.encode_from(offset, b"[]", Reason::Bracket)
                }
                _ => false,
            };
        if !repaired {
            // "%zz" is rejected at the "z": the "%" tells what it is.
            let offset = match error.kind() {
                ParseErrorKind::InvalidPercentEncoding => input[..offset]
                    .rfind('%')
                    .filter(|&p| offset - p <= 2)
                    .unwrap_or(offset),
                _ => offset,
            };
            return Err(Unrepairable(Box::new(Stop {
                cause: plan.cause_at(offset),
                offset,
                error,
                partial: text,
                repairs: plan.repairs(),
            })));
        }
        last_offset = Some(offset);
    }
}

/// Whether byte `offset` of `text` (a bracket the grammar rejected) lies in the path, query or fragment:
/// the text before it is a URI reference whose authority, if any, ends before it.
fn past_authority(text: &str, offset: usize) -> bool {
    match parse_as(Rule::URI_REFERENCE, &text[..offset]) {
        Ok(prefix) => prefix
            .spans()
            .authority
            .is_none_or(|authority| authority.end < offset),
        Err(_) => false,
    }
}

/// The repairs decided so far: for each byte of the input that starts a character to encode, why.
struct Plan<'a> {
    input: &'a str,
    marks: Vec<Option<Reason>>,
}

impl<'a> Plan<'a> {
    fn new(input: &'a str) -> Plan<'a> {
        Plan {
            input,
            marks: vec![None; input.len()],
        }
    }

    /// Marks every character that no URI contains unencoded anywhere, except those that tell the input
    /// is something else (template braces, printf placeholders, whitespace that Appendix C says is not
    /// part of a URI, delimiters): those stay, and stop the repair when the grammar reaches them.
    fn encode_context_free(&mut self) {
        let input = self.input;
        let bytes = input.as_bytes();
        let (start, end) = trimmed(input);
        let delimited = delimiters(input);
        let mut in_template_until = 0;
        for (i, c) in input.char_indices() {
            let reason = match c {
                '{' if i >= in_template_until => match template_end(input, i) {
                    Some(end) => {
                        in_template_until = end;
                        None
                    }
                    None => Some(Reason::NotAllowed),
                },
                _ if i < in_template_until => None,
                ' ' if i >= start && i < end => Some(Reason::Space),
                ' ' | '\t' | '\n' | '\r' => None,
                '<' | '"' if delimited && i == 0 => None,
                '>' | '"' if delimited && i + 1 == input.len() => None,
                '%' if is_pct_triplet(bytes, i) || printf_placeholder(bytes, i) => None,
                '%' => Some(Reason::PercentSign),
                _ if !c.is_ascii() => Some(Reason::NonAscii),
                _ if !classes::in_any_uri(c as u8) => Some(Reason::NotAllowed),
                _ => None,
            };
            self.marks[i] = reason;
        }
    }

    /// Marks every unmarked occurrence of one of `chars` from byte `offset` of the input to its end;
    /// whether the character at `offset` was one of them.
    fn encode_from(&mut self, offset: usize, chars: &[u8], reason: Reason) -> bool {
        let bytes = self.input.as_bytes();
        if !bytes.get(offset).is_some_and(|b| chars.contains(b)) {
            return false;
        }
        for (mark, b) in self.marks[offset..].iter_mut().zip(&bytes[offset..]) {
            if chars.contains(b) && mark.is_none() {
                *mark = Some(reason);
            }
        }
        true
    }

    /// The input with the marked characters encoded.
    fn text(&self) -> String {
        let mut out = String::with_capacity(self.input.len() + 16);
        let mut copied = 0;
        for repair in self.iter() {
            out.push_str(&self.input[copied..repair.offset]);
            let mut buf = [0; 4];
            for &b in repair.found.encode_utf8(&mut buf).as_bytes() {
                push_triplet(&mut out, b);
            }
            copied = repair.offset + repair.found.len_utf8();
        }
        out.push_str(&self.input[copied..]);
        out
    }

    fn iter(&self) -> impl Iterator<Item = Repair> + '_ {
        self.input.char_indices().filter_map(|(offset, found)| {
            self.marks[offset].map(|reason| Repair {
                offset,
                found,
                reason,
            })
        })
    }

    fn repairs(&self) -> Vec<Repair> {
        self.iter().collect()
    }

    /// The input offset of the first repair other than [`Reason::NonAscii`] that lands in the host of
    /// `text` (the repaired text, a URI reference): a host name never contains a space, a `"`, a `|` or
    /// a lone `%`, so encoding one gives a `reg-name` that names no host. Non-ASCII characters are the
    /// exception: RFC 3986 3.2.2 asks for them as percent-encoded UTF-8 octets.
    fn encoded_in_host(&self, text: &str) -> Option<usize> {
        let host = parse_as(Rule::URI_REFERENCE, text).ok()?.spans().host?;
        let mut grown = 0;
        for repair in self.iter() {
            let written = repair.offset + grown;
            if written >= host.end {
                break;
            }
            if written >= host.start && repair.reason != Reason::NonAscii {
                return Some(repair.offset);
            }
            grown += 2 * repair.found.len_utf8();
        }
        None
    }

    /// The offset in the input of byte `offset` of [`text`](Self::text) (of the encoded character when
    /// it falls inside a triplet).
    fn original_offset(&self, offset: usize) -> usize {
        let mut grown = 0;
        for repair in self.iter() {
            let written = repair.offset + grown;
            if offset < written {
                break;
            }
            let len = repair.found.len_utf8();
            if offset < written + 3 * len {
                return repair.offset;
            }
            grown += 2 * len;
        }
        offset - grown
    }

    /// Why the character at byte `offset` of the input, which the grammar rejected, cannot be repaired.
    fn cause_at(&self, offset: usize) -> Cause {
        let input = self.input;
        let bytes = input.as_bytes();
        let (start, end) = trimmed(input);
        match bytes.get(offset) {
            Some(b'{') if template_end(input, offset).is_some() => Cause::Template,
            Some(b'%') if printf_placeholder(bytes, offset) => Cause::FormatPlaceholder,
            Some(b'[') if bracket_placeholder(input, offset) => Cause::Template,
            Some(b'\t' | b'\n' | b'\r') => Cause::Whitespace,
            Some(b' ') if offset < start || offset >= end => Cause::Whitespace,
            Some(b'<' | b'"') if offset == 0 && delimiters(input) => Cause::Delimiters,
            Some(b'>' | b'"') if offset + 1 == input.len() && delimiters(input) => {
                Cause::Delimiters
            }
            _ => Cause::Syntax,
        }
    }
}

/// Whether the `%` at byte `i` (not a `pct-encoded`) starts a printf-style placeholder: `%s`, `%d`, `%i`,
/// `%r`, `%(name)s`, `%1$s`, or the `%%` that a format string writes for `%`.
fn printf_placeholder(bytes: &[u8], i: usize) -> bool {
    let rest = &bytes[i + 1..];
    let rest = match rest.first() {
        Some(b'%') => return true,
        Some(b'(') => match rest.iter().position(|&b| b == b')') {
            Some(close) => &rest[close + 1..],
            None => return false,
        },
        Some(b'1'..=b'9') if rest.get(1) == Some(&b'$') => &rest[2..],
        _ => rest,
    };
    matches!(rest.first(), Some(b's' | b'd' | b'i' | b'r'))
}

/// The end (past the `}`) of a brace placeholder starting at the `{` at byte `i`: an RFC 6570
/// expression, or a placeholder shaped like one (`{Region}`, `{PartitionResult#dnsSuffix}`, `${HOME}`,
/// Python's `{}` and `{f()}`): a name, maybe empty, of letters, digits and
/// `_ . - $ # : * , + / ; ? & = ! @ | % ( )` up to a `}`. A `{` followed by
/// such a name up to the end of the input (a template cut short) counts too.
fn template_end(input: &str, i: usize) -> Option<usize> {
    let bytes = input.as_bytes();
    let name = |b: &u8| b.is_ascii_alphanumeric() || b"_.-$#:*,+/;?&=!@|%()".contains(b);
    let len = bytes[i + 1..].iter().take_while(|b| name(b)).count();
    let after = i + 1 + len;
    match bytes.get(after) {
        Some(b'}') => Some(after + 1),
        None if len > 0 => Some(after),
        _ => None,
    }
}

/// Whether a `[NAME]` placeholder of upper-case letters, digits and `_` (at least one letter), as
/// documentation writes them (`gs://b/[OBJECT_NAME]`), starts at or after byte `offset`.
fn bracket_placeholder(input: &str, offset: usize) -> bool {
    input[offset..].split('[').skip(1).any(|rest| {
        rest.split_once(']').is_some_and(|(name, _)| {
            name.len() >= 2
                && name.bytes().any(|b| b.is_ascii_uppercase())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
    })
}

/// The byte range of `input` without leading and trailing whitespace (space, tab, CR, LF).
fn trimmed(input: &str) -> (usize, usize) {
    let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let start = input.len() - input.trim_start_matches(ws).len();
    let end = input.trim_end_matches(ws).len().max(start);
    (start, end)
}

/// Whether `input` is enclosed in `<...>` or `"..."` (RFC 3986 Appendix C).
fn delimiters(input: &str) -> bool {
    input.len() >= 2
        && ((input.starts_with('<') && input.ends_with('>'))
            || (input.starts_with('"') && input.ends_with('"')))
}

/// Whether an input the grammar rejects is another kind of text whose characters must not be encoded one
/// by one: a regular expression or glob, or Markdown link syntax.
fn not_a_uri(input: &str) -> Option<Cause> {
    const PATTERN: &[&str] = &[
        "[^", "(?:", "(?i", ".*", ".+", "\\.", "\\d", "\\w", "\\s", "\\/", "]*", "]+", "]{", ")$",
        "]$", "+$", "*$", "]??",
    ];
    const MARKUP: &[&str] = &["](", "][", "[![", ")]"];
    if PATTERN.iter().any(|p| input.contains(p)) {
        Some(Cause::RegularExpression)
    } else if MARKUP.iter().any(|p| input.contains(p)) {
        Some(Cause::Markup)
    } else {
        None
    }
}
