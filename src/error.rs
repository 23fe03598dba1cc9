//! [`ParseError`]: an input is not in a rule's language (the umbrella [`Error`](crate::Error) of all
//! stages is in `umbrella.rs`, so that this module imports no stage).

use std::fmt::{self, Write as _};
use std::sync::Arc;

use crate::grammar::{Expected, Rule};

/// Why an input was rejected, judged by the byte at the error's offset.
///
/// Each variant names a minimal input that triggers it (parsed as `URI-reference` unless said otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input ended where the grammar needed more: `http://[::1`.
    UnexpectedEnd,
    /// A space, which no rule allows; percent-encode it as `%20` (RFC 3986 2.1): `http://a/b c`.
    Space,
    /// A `%` not followed by two hex digits (`pct-encoded`, RFC 3986 2.1): `/a%2`, `http://%s/`.
    InvalidPercentEncoding,
    /// `{` or `}`, which no rule allows; usually an unexpanded URI template: `https://{bucket}.example/`.
    Brace,
    /// `[` or `]` outside the host of an authority (RFC 3986 3.2.2): `/a[1]`.
    Bracket,
    /// A host in brackets that is neither an `IPv6address` nor an `IPvFuture` (RFC 3986 3.2.2):
    /// `gs://[PROJECT]/`, `http://[fe80::1%25eth0]/` (a zone identifier, RFC 6874, not part of RFC 3986).
    InvalidIpLiteral,
    /// A port with something other than digits (`port = *DIGIT`, RFC 3986 3.2.3): `http://host:port/`.
    InvalidPort,
    /// A second `#`: the fragment may not contain `#` (RFC 3986 3.5): `a#b#c`.
    SecondHash,
    /// A character outside ASCII. URIs are ASCII; other characters must be percent-encoded as UTF-8
    /// octets (RFC 3986 2.1, 2.5): `#también`.
    NonAscii,
    /// Bytes that are not UTF-8 (from [`validate_bytes`](crate::validate_bytes)): `b"/a\xff"`.
    InvalidUtf8,
    /// An ASCII character that no rule of the grammar allows anywhere: `<`, `>`, `"`, `\`, `^`, `` ` ``,
    /// `|` and control characters: `a|b`.
    InvalidCharacter,
    /// A character the grammar allows elsewhere but not here: `:a` (a relative-path reference cannot
    /// start with a segment that contains ":", RFC 3986 4.2), `//a@b@c`.
    Unexpected,
    /// The parser gave up on a resource limit (pest's call limit, or an input over 4 GiB - 2 bytes, the
    /// most 32-bit component offsets can address); the input may be valid.
    LimitReached,
}

impl ParseErrorKind {
    /// A stable kebab-case name, as in JSON output: `unexpected-end`, `space`, `invalid-percent-encoding`,
    /// `brace`, `bracket`, `invalid-ip-literal`, `invalid-port`, `second-hash`, `non-ascii`,
    /// `invalid-utf8`, `invalid-character`, `unexpected`, `limit-reached`.
    pub fn name(self) -> &'static str {
        match self {
            ParseErrorKind::UnexpectedEnd => "unexpected-end",
            ParseErrorKind::Space => "space",
            ParseErrorKind::InvalidPercentEncoding => "invalid-percent-encoding",
            ParseErrorKind::Brace => "brace",
            ParseErrorKind::Bracket => "bracket",
            ParseErrorKind::InvalidIpLiteral => "invalid-ip-literal",
            ParseErrorKind::InvalidPort => "invalid-port",
            ParseErrorKind::SecondHash => "second-hash",
            ParseErrorKind::NonAscii => "non-ascii",
            ParseErrorKind::InvalidUtf8 => "invalid-utf8",
            ParseErrorKind::InvalidCharacter => "invalid-character",
            ParseErrorKind::Unexpected => "unexpected",
            ParseErrorKind::LimitReached => "limit-reached",
        }
    }
}

/// An input is not in the language of a grammar rule.
///
/// It carries the 0-based byte offset of the first byte the grammar could not accept (equal to the
/// input's length when the input ended too early), the ABNF names of what the grammar would have accepted
/// there (folded: an item that a listed character class contains is left out), a
/// [kind](ParseErrorKind) judged from that byte, the character found there, a separate
/// [hint](Self::hint), and the rule that was being matched. `Display` is one line with the position
/// (`at byte 10: space not allowed here; ...`); [`ParseError::annotate`] draws the input with a caret.
///
/// ```
/// let e = rfc3986::UriRef::parse("http://a/b c").unwrap_err();
/// assert_eq!(e.offset(), 10);
/// assert_eq!(e.kind(), rfc3986::ParseErrorKind::Space);
/// assert!(e.expected().iter().any(|x| x.to_string() == "\"/\""));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {}", self.detail())]
pub struct ParseError {
    rule: Rule,
    /// The ABNF name of the rule of a grammar loaded at run time (`runtime-grammar` feature), which
    /// `rule` cannot name; `None` for the built-in grammar.
    loaded_rule: Option<String>,
    offset: usize,
    kind: ParseErrorKind,
    found: Option<char>,
    /// Shared: the errors of one grammar with the same items (most rejections of a file) point at one list.
    expected: Arc<[Expected]>,
    detail: Option<String>,
    /// A hint from the rule and the input around the error, for mistakes the character alone does not
    /// tell (a relative reference given where a URI is needed, a dec-octet above 255).
    context: Option<Context>,
}

/// The mistakes [`context_hint`] recognizes (one byte in the error, the text in [`Context::hint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Context {
    NoScheme,
    FragmentInAbsoluteUri,
    DecOctetAbove255,
}

impl Context {
    fn hint(self) -> &'static str {
        match self {
            Context::NoScheme => {
                "a URI begins with a scheme and \":\" (RFC 3986 3); without one this is a relative \
                 reference (4.2), a URI-reference but not a URI"
            }
            Context::FragmentInAbsoluteUri => {
                "an absolute-URI has no fragment (RFC 3986 4.3); a base URI must not have one either (5.1)"
            }
            Context::DecOctetAbove255 => {
                "a dec-octet is a number from 0 to 255 (IPv4address, RFC 3986 3.2.2)"
            }
        }
    }
}

impl ParseError {
    /// The 0-based byte offset into the input of the first byte the grammar could not accept; the input's
    /// length if the input ended too early.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What kind of mistake the byte at [`offset`](Self::offset) is.
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The rule the input was matched against (`URI-reference` for [`UriRef::parse`](crate::UriRef::parse)).
    ///
    /// For an error from a grammar loaded at run time, this is the built-in rule of the same ABNF name,
    /// or `URI-reference` when the built-in grammar has none; [`rule_name`](Self::rule_name) names the
    /// loaded grammar's rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The ABNF name of the rule the input was matched against (`URI-reference`): the name of
    /// [`rule`](Self::rule), or for a grammar loaded at run time the name of that grammar's rule (from the
    /// first `///` doc line of the rule, else its pest name).
    pub fn rule_name(&self) -> &str {
        self.loaded_rule.as_deref().unwrap_or(self.rule.abnf_name())
    }

    /// The same error, for the rule `name` of a grammar loaded at run time.
    #[cfg(feature = "runtime-grammar")]
    pub(crate) fn for_loaded_rule(mut self, name: &str) -> ParseError {
        self.loaded_rule = Some(name.to_string());
        self
    }

    /// The character at the offset, or `None` at the end of the input (or on bytes that are not UTF-8).
    pub fn found(&self) -> Option<char> {
        self.found
    }

    /// What the grammar would have accepted at the offset, in ABNF spelling when displayed: rules
    /// (`pchar`), quoted strings (`"/"`) and `end of input`. Rules first, in the order of `uri.pest`.
    pub fn expected(&self) -> &[Expected] {
        &self.expected
    }

    /// The list behind [`expected`](Self::expected), to tell whether two errors share it.
    #[cfg(test)]
    pub(crate) fn expected_shared(&self) -> Arc<[Expected]> {
        Arc::clone(&self.expected)
    }

    /// The byte range of what was found at the offset: the character there (1 to 4 bytes), or an empty
    /// range at the end of the input. For [`ParseErrorKind::InvalidUtf8`], the first byte that is not
    /// part of a UTF-8 sequence.
    pub fn span(&self) -> std::ops::Range<usize> {
        let len = match (self.kind, self.found) {
            (ParseErrorKind::InvalidUtf8, _) => 1,
            (_, Some(c)) => c.len_utf8(),
            (_, None) => 0,
        };
        self.offset..self.offset + len
    }

    /// A short message without position, hint or expected items: `space not allowed here`,
    /// `unexpected end of input`.
    pub fn message(&self) -> String {
        match (self.kind, self.found) {
            (ParseErrorKind::UnexpectedEnd, _) => "unexpected end of input".to_string(),
            (ParseErrorKind::InvalidPercentEncoding, None) => {
                "input ends inside a percent-encoding".to_string()
            }
            (ParseErrorKind::InvalidUtf8, _) => "invalid UTF-8".to_string(),
            (ParseErrorKind::LimitReached, _) => format!(
                "parser limit reached: {}",
                self.detail.as_deref().unwrap_or("")
            ),
            (_, Some(c)) => format!("{} not allowed here", describe(c)),
            (_, None) => "unexpected input".to_string(),
        }
    }

    /// What to do about the common mistakes, with the RFC section to read: `percent-encode a space as
    /// %20 (RFC 3986 2.1)`; `None` when there is nothing more to say than the expected items.
    pub fn hint(&self) -> Option<String> {
        // A rule of a grammar loaded at run time that RFC 3986 does not name (`IRI-reference`): say what
        // holds for every grammar, not what holds for URIs. A loaded rule with an RFC 3986 name (an
        // edited uri.pest, an overlay) gets RFC 3986's hints, as the built-in grammar does.
        let loaded = self
            .loaded_rule
            .as_deref()
            .is_some_and(|name| Rule::from_abnf_name(name).is_none());
        let zone_id_expected = self
            .expected
            .iter()
            .any(|e| matches!(e, Expected::Literal(l) if l.eq_ignore_ascii_case("%25")));
        let hint = match (self.kind, self.found) {
            // A grammar that has zone identifiers (RFC 6874 2) expects "%25" where "%" alone was found.
            (ParseErrorKind::InvalidIpLiteral | ParseErrorKind::InvalidPercentEncoding, Some('%'))
                if zone_id_expected =>
            {
                "a zone identifier is introduced by \"%25\", the percent-encoded \"%\" (RFC 6874 2)"
                    .to_string()
            }
            // Under a grammar loaded at run time (an IRI grammar allows some non-ASCII characters), say
            // what holds for every grammar.
            (ParseErrorKind::NonAscii, Some(c)) if loaded => format!(
                "the grammar does not allow this character here; in a URI, percent-encode its UTF-8 \
                 octets as {} (RFC 3986 2.1, 2.5)",
                pct(c)
            ),
            (ParseErrorKind::InvalidIpLiteral, Some('%')) if loaded => "an IP-literal holds what the \
                 grammar's IP-literal rule allows (RFC 3986 3.2.2: an IPv6address or IPvFuture)"
                .to_string(),
            (ParseErrorKind::InvalidPercentEncoding, _) => {
                "\"%\" must be followed by two hex digits (pct-encoded, RFC 3986 2.1)".to_string()
            }
            (ParseErrorKind::InvalidUtf8, _) if loaded => {
                "the line is not UTF-8 text: percent-encode each octet that is not part of a \
                 character (RFC 3986 2.1)"
                    .to_string()
            }
            (ParseErrorKind::InvalidUtf8, _) => {
                "a URI is ASCII: percent-encode each octet of other characters (RFC 3986 2.1)"
                    .to_string()
            }
            (ParseErrorKind::Space, _) => "percent-encode a space as %20 (RFC 3986 2.1)".to_string(),
            (ParseErrorKind::Brace, Some(c)) => format!(
                "no URI contains braces: expand the template or percent-encode as {} (RFC 3986 2.1)",
                pct(c)
            ),
            (ParseErrorKind::Bracket, _) => "brackets only enclose an IP-literal host (RFC 3986 \
                 3.2.2), elsewhere percent-encode them as %5B and %5D"
                .to_string(),
            (ParseErrorKind::InvalidIpLiteral, Some('%')) => "zone identifiers (RFC 6874, \
                 obsoleted by RFC 9844) are not part of RFC 3986: an IP-literal holds an IPv6address \
                 or IPvFuture (RFC 3986 3.2.2)"
                .to_string(),
            (ParseErrorKind::InvalidIpLiteral, _) => "a host in brackets must be an IPv6address or \
                 IPvFuture (IP-literal, RFC 3986 3.2.2); elsewhere percent-encode brackets as %5B and \
                 %5D"
                .to_string(),
            (ParseErrorKind::InvalidPort, _) => {
                "a port is digits only (port = *DIGIT, RFC 3986 3.2.3)".to_string()
            }
            (ParseErrorKind::SecondHash, _) => {
                "a fragment cannot contain \"#\" (RFC 3986 3.5): percent-encode it as %23".to_string()
            }
            (ParseErrorKind::NonAscii, Some(c)) => format!(
                "a URI is ASCII: percent-encode the character's UTF-8 octets as {} (RFC 3986 2.1, 2.5)",
                pct(c)
            ),
            (ParseErrorKind::InvalidCharacter, Some(c)) => format!(
                "no URI contains it: percent-encode it as {} (RFC 3986 2.1)",
                pct(c)
            ),
            _ => return self.context.map(|c| c.hint().to_string()),
        };
        Some(hint)
    }

    /// The message, the hint and the expected items on one line, separated by `; `, without position:
    /// what the command line prints after `FILE:LINE:COL: error: `.
    pub fn detail(&self) -> String {
        let mut m = self.message();
        if let Some(hint) = self.hint() {
            m.push_str("; ");
            m.push_str(&hint);
        }
        if !self.expected.is_empty() {
            m.push_str("; ");
            m.push_str(&self.expected_list());
        }
        m
    }

    /// `expected A, B or C`, in ABNF spelling; `""` when nothing is expected (a limit, bad UTF-8).
    pub fn expected_list(&self) -> String {
        if self.expected.is_empty() {
            return String::new();
        }
        // One allocation: each item, its quotes and its separator (at most 4 bytes: " or ").
        let items: usize = (self.expected.iter())
            .map(|x| match x {
                Expected::Rule(name) => name.len(),
                Expected::Literal(text) => text.len() + 2,
                Expected::EndOfInput => "end of input".len(),
            })
            .sum();
        let mut m = String::with_capacity("expected ".len() + items + 4 * self.expected.len());
        m.push_str("expected ");
        for (i, x) in self.expected.iter().enumerate() {
            if i > 0 {
                m.push_str(if i + 1 == self.expected.len() {
                    " or "
                } else {
                    ", "
                });
            }
            // As `Display` writes it, without the formatting machinery (an error lists ~8 items).
            match x {
                Expected::Rule(name) => m.push_str(name),
                Expected::Literal(text) => {
                    m.push('"');
                    m.push_str(text);
                    m.push('"');
                }
                Expected::EndOfInput => m.push_str("end of input"),
            }
        }
        m
    }

    /// The input drawn with a caret under the error, as a `Display` adaptor (nothing is built until it
    /// is written): see [`Annotated`].
    ///
    /// ```
    /// let input = "http://a/b c";
    /// let e = rfc3986::UriRef::parse(input).unwrap_err();
    /// assert_eq!(
    ///     e.annotate(input).to_string(),
    ///     "http://a/b c\n          ^ space not allowed here"
    /// );
    /// ```
    pub fn annotate<'e>(&'e self, input: &'e str) -> Annotated<'e> {
        Annotated {
            error: self,
            input,
            message: true,
        }
    }

    pub(crate) fn limit(rule: Rule, input: &str, offset: usize, message: String) -> ParseError {
        ParseError {
            rule,
            loaded_rule: None,
            offset,
            kind: ParseErrorKind::LimitReached,
            found: input.get(offset..).and_then(|s| s.chars().next()),
            expected: Arc::from([]),
            detail: Some(message),
            context: None,
        }
    }

    /// An input longer than the builder can record offsets for (4 GiB - 2 bytes): refused whole, at the
    /// first byte past the limit.
    pub(crate) fn too_long(rule: Rule, input: &str) -> ParseError {
        let offset = crate::builder::MAX_LEN;
        let mut e = ParseError::limit(
            rule,
            input,
            offset,
            format!(
                "the input is {} bytes long; at most {offset} bytes can be parsed",
                input.len()
            ),
        );
        e.found = None;
        e
    }

    pub(crate) fn invalid_utf8(rule: Rule, offset: usize) -> ParseError {
        ParseError {
            rule,
            loaded_rule: None,
            offset,
            kind: ParseErrorKind::InvalidUtf8,
            found: None,
            expected: Arc::from([]),
            detail: None,
            context: None,
        }
    }
}

/// A [`ParseError`] drawn under its input, from [`ParseError::annotate`]: the input on one line and a
/// caret under the character at the offset, then (unless [`without_message`](Self::without_message))
/// the short message after the caret.
///
/// Inputs longer than 120 characters are cut around the offset and marked with `...`. Control
/// characters, bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F) and line or
/// paragraph separators are written as `\u{..}` escapes, so the echoed input cannot move the cursor or
/// reorder the line on a terminal; the caret counts the escapes' width.
#[derive(Clone, Copy, Debug)]
pub struct Annotated<'e> {
    error: &'e ParseError,
    input: &'e str,
    message: bool,
}

impl Annotated<'_> {
    /// The two lines only, without the message after the caret.
    #[must_use]
    pub fn without_message(mut self) -> Self {
        self.message = false;
        self
    }

    /// The visible line and the caret's column (0-based, in characters of the visible line).
    fn parts(&self) -> (String, usize) {
        let input = self.input;
        let offset = self.error.offset.min(input.len());
        let floor = |mut i: usize| {
            while !input.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let mut end = (offset + 60).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        let start = floor(offset.saturating_sub(60));
        let offset_char = floor(offset);
        let mut line = String::new();
        if start > 0 {
            line.push_str("...");
        }
        push_escaped(&mut line, &input[start..offset_char]);
        let column = line.chars().count();
        push_escaped(&mut line, &input[offset_char..end]);
        if end < input.len() {
            line.push_str("...");
        }
        (line, column)
    }
}

impl fmt::Display for Annotated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, column) = self.parts();
        write!(f, "{line}\n{:column$}^", "")?;
        if self.message {
            write!(f, " {}", self.error.message())?;
        }
        Ok(())
    }
}

/// Appends `text` with the characters that would act on a terminal written as `\u{..}` escapes.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if needs_escape(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
}

/// Control characters (C0, DEL, C1), bidirectional controls and line or paragraph separators.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `'x'`, or a name for characters that are hard to see.
fn describe(c: char) -> String {
    match c {
        ' ' => "space".to_string(),
        '\t' => "tab".to_string(),
        '\u{feff}' => "byte order mark U+FEFF".to_string(),
        c if c.is_control() => format!("control character U+{:04X}", c as u32),
        // Not quoted raw: a bidirectional control would reorder the message on a terminal.
        c if needs_escape(c) => format!("invisible formatting character U+{:04X}", c as u32),
        c if !c.is_ascii() => format!("'{c}' (U+{:04X})", c as u32),
        c => format!("'{c}'"),
    }
}

fn pct(c: char) -> String {
    let mut buf = [0; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect()
}

/// Characters that some rule of RFC 3986 allows: unreserved, reserved (gen-delims and sub-delims) and
/// "%" (the classes come from uri.pest).
fn allowed_somewhere(c: char) -> bool {
    use crate::classes::{contains, GEN_DELIMS, SUB_DELIMS, UNRESERVED};
    let Ok(b) = u8::try_from(c) else {
        return false;
    };
    b == b'%' || contains(UNRESERVED | GEN_DELIMS | SUB_DELIMS, b)
}

/// Judges the kind of error from the byte at `offset` and its surroundings.
///
/// pest reports the furthest byte any alternative reached, which is right by the grammar but can be late
/// for one common mistake: in `http://host:port/`, `host:port` is also a prefix of a userinfo
/// (`host:port@...`), so the furthest byte is the `/` where an `@` could have come. When the authority has
/// no `@`, the text after the host's `:` can only be a port, and the error is moved to its first non-digit.
pub(crate) fn classify(
    rule: Rule,
    input: &str,
    offset: usize,
    expected: impl Into<Arc<[Expected]>>,
) -> ParseError {
    // The authority as Appendix B splits it, for the port and IP-literal hints (one pass).
    let authority = authority_shape(input);
    if let Some(error) = port_error(rule, input, offset, authority) {
        return error;
    }
    let found = input.get(offset..).and_then(|s| s.chars().next());
    let before = &input[..offset.min(input.len())];
    let context = context_hint(rule, input, offset, found);
    let kind = match found {
        None if follows_bad_percent(before) => ParseErrorKind::InvalidPercentEncoding,
        None => ParseErrorKind::UnexpectedEnd,
        Some(' ') => ParseErrorKind::Space,
        Some(c) if !c.is_ascii() => ParseErrorKind::NonAscii,
        Some('{' | '}') => ParseErrorKind::Brace,
        Some(_) if follows_bad_percent(before) => ParseErrorKind::InvalidPercentEncoding,
        Some(_) if in_ip_literal(input, offset, authority) => ParseErrorKind::InvalidIpLiteral,
        Some('[' | ']') => ParseErrorKind::Bracket,
        Some('#') if before.contains('#') => ParseErrorKind::SecondHash,
        Some(c) if !allowed_somewhere(c) => ParseErrorKind::InvalidCharacter,
        Some(_) => ParseErrorKind::Unexpected,
    };
    ParseError {
        rule,
        loaded_rule: None,
        offset,
        kind,
        found,
        expected: expected.into(),
        detail: None,
        context,
    }
}

/// The hint for mistakes that the rule and the input around the error tell, not the character found.
fn context_hint(rule: Rule, input: &str, offset: usize, found: Option<char>) -> Option<Context> {
    let head_has_colon = || {
        input
            .bytes()
            .take_while(|c| !matches!(c, b'/' | b'?' | b'#'))
            .any(|c| c == b':')
    };
    if (rule == Rule::URI || rule == Rule::ABSOLUTE_URI) && !head_has_colon() {
        return Some(Context::NoScheme);
    }
    if rule == Rule::ABSOLUTE_URI && found == Some('#') {
        return Some(Context::FragmentInAbsoluteUri);
    }
    if rule == Rule::IPV4ADDRESS || rule == Rule::DEC_OCTET {
        // The digits of the dec-octet the error is in.
        let start = input[..offset.min(input.len())]
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |i| i + 1);
        let end = input[start..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(input.len(), |i| start + i);
        if input[start..end]
            .parse::<u64>()
            .map_or(end - start > 3, |n| n > 255)
        {
            return Some(Context::DecOctetAbove255);
        }
    }
    None
}

/// Whether the text before the failing byte ends in `%` or `%` + one hex digit: a `pct-encoded` that the
/// failing byte does not complete.
fn follows_bad_percent(before: &str) -> bool {
    let b = before.as_bytes();
    matches!(b, [.., b'%']) || matches!(b, [.., b'%', h] if h.is_ascii_hexdigit())
}

/// The authority as RFC 3986 Appendix B splits it (`^(([^:/?#]+):)?(//([^/?#]*))?`), and what the port
/// and IP-literal hints need of it, found in one pass over its bytes (the delimiters are ASCII, so a
/// byte finds them where a character search would).
#[derive(Clone, Copy, Debug)]
struct AuthorityShape {
    /// Byte offset just past the authority: its first `/`, `?` or `#`, or the end of the input.
    end: usize,
    /// Where the host begins: after the authority's first `@`, else at the authority's first byte (after
    /// `//`).
    host_start: usize,
    /// The first `:` in `host_start..end`, if any.
    colon: Option<usize>,
    /// The first `]` in `host_start..end`, if any.
    close: Option<usize>,
}

/// The authority of `input` as [`AuthorityShape`] describes it; `None` when there is no `//` where
/// Appendix B looks for it.
fn authority_shape(input: &str) -> Option<AuthorityShape> {
    let b = input.as_bytes();
    // The scheme's ":" is the first of ":", "/", "?" and "#" when it is not the first byte.
    let mut i = 0;
    let after_scheme = loop {
        match b.get(i) {
            Some(b':') if i > 0 => break i + 1,
            Some(b':' | b'/' | b'?' | b'#') | None => break 0,
            Some(_) => i += 1,
        }
    };
    let start = after_scheme + 2;
    if b.get(after_scheme..start) != Some(b"//") {
        return None;
    }
    let mut shape = AuthorityShape {
        end: b.len(),
        host_start: start,
        colon: None,
        close: None,
    };
    let mut seen_at = false;
    for (i, &c) in b.iter().enumerate().skip(start) {
        match c {
            b'/' | b'?' | b'#' => {
                shape.end = i;
                break;
            }
            b'@' if !seen_at => {
                seen_at = true;
                shape.host_start = i + 1;
                shape.colon = None;
                shape.close = None;
            }
            b':' if shape.colon.is_none() => shape.colon = Some(i),
            b']' if shape.close.is_none() => shape.close = Some(i),
            _ => {}
        }
    }
    Some(shape)
}

/// Whether `offset` falls inside the brackets of a host that starts with `[` (`authority`: what
/// [`authority_shape`] found).
fn in_ip_literal(input: &str, offset: usize, authority: Option<AuthorityShape>) -> bool {
    let Some(shape) = authority else {
        return false;
    };
    if input.as_bytes().get(shape.host_start) != Some(&b'[') {
        return false;
    }
    let close = shape.close.unwrap_or(shape.end);
    offset >= shape.host_start && offset <= close
}

/// The error for a port with a non-digit, after the host of the authority (what [`authority_shape`]
/// found; see [`classify`]).
fn port_error(
    rule: Rule,
    input: &str,
    offset: usize,
    authority: Option<AuthorityShape>,
) -> Option<ParseError> {
    let shape = authority?;
    let b = input.as_bytes();
    // A `[` at `host_start` is inside the authority (the byte at its end is a delimiter or none).
    let host_end = if b.get(shape.host_start) == Some(&b'[') {
        shape.close? + 1
    } else {
        shape.colon?
    };
    let port = b[host_end..shape.end].strip_prefix(b":")?;
    let bad = port.iter().position(|c| !c.is_ascii_digit())?;
    let bad_offset = host_end + 1 + bad;
    if bad_offset > offset {
        return None;
    }
    let found = input[bad_offset..].chars().next();
    let mut expected = vec![Expected::Rule("DIGIT".into())];
    if rule != Rule::AUTHORITY {
        expected.push(Expected::Literal("/".into()));
        expected.push(Expected::Literal("?".into()));
        if rule != Rule::ABSOLUTE_URI {
            expected.push(Expected::Literal("#".into()));
        }
    }
    expected.push(Expected::EndOfInput);
    let kind = match found {
        Some(' ') => ParseErrorKind::Space,
        Some(c) if !c.is_ascii() => ParseErrorKind::NonAscii,
        Some('{' | '}') => ParseErrorKind::Brace,
        _ => ParseErrorKind::InvalidPort,
    };
    Some(ParseError {
        rule,
        loaded_rule: None,
        offset: bad_offset,
        kind,
        found,
        expected: expected.into(),
        detail: None,
        context: None,
    })
}
