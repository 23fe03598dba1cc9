//! The errors of every stage, as data: [`ParseError`] (an input is not in a rule's language) with its
//! [kind](ParseErrorKind) and [expected items](Expected), the error of each operation
//! ([`ResolveError`], [`DecodeError`], [`BuildError`], [`TemplateError`], [`NotAReference`],
//! [`ConvertError`]), and the crate's [`Error`], which any of them converts into for `?`.
//!
//! The operations' modules re-export their errors (`rfc3986::resolve::ResolveError`, ...). This module
//! imports [`Rule`] and the small facts of `util` and nothing else of the crate: judging a rejection's kind
//! from the input is the engine's work (`engine::classify`).

use std::fmt;
use std::sync::Arc;

use std::borrow::Cow;

use crate::rule::Rule;

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
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {}", DetailText(self))]
pub struct ParseError {
    pub(crate) rule: Rule,
    pub(crate) offset: usize,
    /// Shared: the errors of one grammar with the same items (most rejections of a file) point at one list.
    pub(crate) expected: ExpectedList,
    pub(crate) found: Option<char>,
    pub(crate) kind: ParseErrorKind,
    /// A hint from the rule and the input around the error, for mistakes the character alone does not
    /// tell (a relative reference given where a URI is needed, a dec-octet above 255).
    pub(crate) context: Option<Context>,
    /// What few errors carry (a loaded grammar's rule name, a limit's message), out of line: `None`
    /// for the errors of the built-in grammar, which stay small (they are moved up through every
    /// parse function's `Result`). Never `Some` with both fields `None`.
    extra: Option<Box<ErrorExtra>>,
}

/// The fields of a [`ParseError`] that few errors have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct ErrorExtra {
    /// The ABNF name of the rule of a grammar loaded at run time (`runtime-grammar` feature), which
    /// `rule` cannot name.
    loaded_rule: Option<String>,
    /// A limit's message ([`ParseErrorKind::LimitReached`]).
    detail: Option<String>,
}

impl fmt::Debug for ParseError {
    /// The fields as a derived `Debug` writes them, with `loaded_rule` and `detail` (kept out of line)
    /// in their places: `ParseError { rule: URI-reference, loaded_rule: None, offset: 10, ... }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParseError")
            .field("rule", &self.rule)
            .field("loaded_rule", &self.loaded_rule())
            .field("offset", &self.offset)
            .field("kind", &self.kind)
            .field("found", &self.found)
            .field("expected", &self.expected)
            .field("detail", &self.limit_message())
            .field("context", &self.context)
            .finish()
    }
}

/// The mistakes `engine::classify` recognizes (one byte in the error, the text in [`Context::hint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
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
    /// An error of the built-in grammar at `offset` (see the fields).
    pub(crate) fn new(
        rule: Rule,
        offset: usize,
        kind: ParseErrorKind,
        found: Option<char>,
        expected: ExpectedList,
        context: Option<Context>,
    ) -> ParseError {
        ParseError {
            rule,
            offset,
            expected,
            found,
            kind,
            context,
            extra: None,
        }
    }

    /// The ABNF name of the rule of a grammar loaded at run time, `None` for the built-in grammar.
    fn loaded_rule(&self) -> Option<&String> {
        self.extra.as_ref()?.loaded_rule.as_ref()
    }

    /// A limit's message, `None` for other errors.
    fn limit_message(&self) -> Option<&String> {
        self.extra.as_ref()?.detail.as_ref()
    }

    /// The 0-based byte offset into the input of the first byte the grammar could not accept; the input's
    /// length if the input ended too early.
    ///
    /// ```
    /// use rfc3986::{ParseErrorKind, Uri};
    /// let e = Uri::parse("http://a/b c").unwrap_err();
    /// assert_eq!((e.offset(), e.found(), e.span()), (10, Some(' '), 10..11));
    /// // An input that ends too early: the offset is its length, nothing is found there.
    /// let e = Uri::parse("http://a/%4").unwrap_err();
    /// assert_eq!((e.offset(), e.found(), e.span()), (11, None, 11..11));
    /// assert_eq!(e.kind(), ParseErrorKind::InvalidPercentEncoding);
    /// ```
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
        self.loaded_rule()
            .map_or(self.rule.abnf_name(), String::as_str)
    }

    /// The same error, for the rule `name` of another grammar (loaded at run time, or the IRI grammar).
    pub(crate) fn for_loaded_rule(mut self, name: &str) -> ParseError {
        self.extra.get_or_insert_with(Box::default).loaded_rule = Some(name.to_string());
        self
    }

    /// The character at the offset, or `None` at the end of the input (or on bytes that are not UTF-8).
    pub fn found(&self) -> Option<char> {
        self.found
    }

    /// What the grammar would have accepted at the offset, in ABNF spelling when displayed: rules
    /// (`pchar`), quoted strings (`"/"`) and `end of input`. Rules first, in the order of `uri.pest`.
    ///
    /// ```
    /// use rfc3986::{validate, Expected, Rule};
    /// let e = validate(Rule::IPV4ADDRESS, "192.0.2").unwrap_err();
    /// assert_eq!(e.offset(), 7); // the end: the third dec-octet may go on, or a "." must follow it
    /// assert_eq!(e.expected(), [Expected::Rule("DIGIT".into()), Expected::Literal(".".into())]);
    /// ```
    pub fn expected(&self) -> &[Expected] {
        &self.expected
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
    /// `unexpected end of input`. [`write_message`](Self::write_message) writes the same text without
    /// making a `String`.
    pub fn message(&self) -> String {
        let mut m = String::new();
        let _ = self.write_message(&mut m);
        m
    }

    /// Writes [`message`](Self::message) to `out`, piece by piece (no `String` is made): for writing
    /// many errors into one buffer. Fails only when `out` does.
    pub fn write_message<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        match (self.kind, self.found) {
            (ParseErrorKind::UnexpectedEnd, _) => out.write_str("unexpected end of input"),
            (ParseErrorKind::InvalidPercentEncoding, None) => {
                out.write_str("input ends inside a percent-encoding")
            }
            (ParseErrorKind::InvalidUtf8, _) => out.write_str("invalid UTF-8"),
            (ParseErrorKind::LimitReached, _) => {
                out.write_str("parser limit reached: ")?;
                out.write_str(self.limit_message().map_or("", String::as_str))
            }
            (_, Some(c)) => {
                write_described(out, c)?;
                out.write_str(" not allowed here")
            }
            (_, None) => out.write_str("unexpected input"),
        }
    }

    /// What to do about the common mistakes, with the RFC section to read: `percent-encode a space as
    /// %20 (RFC 3986 2.1)`; `None` when there is nothing more to say than the expected items.
    /// [`write_hint`](Self::write_hint) writes the same text without making a `String`.
    pub fn hint(&self) -> Option<String> {
        self.hint_text().map(|hint| {
            let mut m = String::new();
            let _ = hint.write_to(&mut m);
            m
        })
    }

    /// Writes [`hint`](Self::hint) to `out`, piece by piece (no `String` is made); `Ok(false)`, with
    /// nothing written, when there is no hint. Fails only when `out` does.
    pub fn write_hint<W: fmt::Write + ?Sized>(&self, out: &mut W) -> Result<bool, fmt::Error> {
        match self.hint_text() {
            Some(hint) => hint.write_to(out).map(|()| true),
            None => Ok(false),
        }
    }

    /// The hint, as static text and the percent-encoding of the character found.
    fn hint_text(&self) -> Option<Hint> {
        // A rule of a grammar loaded at run time that RFC 3986 does not name (`IRI-reference`): say what
        // holds for every grammar, not what holds for URIs. A loaded rule with an RFC 3986 name (an
        // edited uri.pest, an overlay) gets RFC 3986's hints, as the built-in grammar does.
        let loaded = self.loaded_non_rfc3986();
        let zone_id_expected = || {
            self.expected
                .iter()
                .any(|e| matches!(e, Expected::Literal(l) if l.eq_ignore_ascii_case("%25")))
        };
        let hint = match (self.kind, self.found) {
            // A grammar that has zone identifiers (RFC 6874 2) expects "%25" where "%" alone was found.
            (ParseErrorKind::InvalidIpLiteral | ParseErrorKind::InvalidPercentEncoding, Some('%'))
                if zone_id_expected() =>
            {
                Hint::Static(
                    "a zone identifier is introduced by \"%25\", the percent-encoded \"%\" (RFC 6874 2)",
                )
            }
            // Under a grammar loaded at run time (an IRI grammar allows some non-ASCII characters), say
            // what holds for every grammar.
            (ParseErrorKind::NonAscii, Some(c)) if loaded => Hint::Pct(
                "the grammar does not allow this character here; in a URI, percent-encode its UTF-8 \
                 octets as ",
                c,
                " (RFC 3986 2.1, 2.5)",
            ),
            (ParseErrorKind::InvalidIpLiteral, Some('%')) if loaded => Hint::Static(
                "an IP-literal holds what the grammar's IP-literal rule allows (RFC 3986 3.2.2: an \
                 IPv6address or IPvFuture)",
            ),
            (ParseErrorKind::InvalidPercentEncoding, _) => Hint::Static(
                "\"%\" must be followed by two hex digits (pct-encoded, RFC 3986 2.1)",
            ),
            (ParseErrorKind::InvalidUtf8, _) if loaded => Hint::Static(
                "the line is not UTF-8 text: percent-encode each octet that is not part of a \
                 character (RFC 3986 2.1)",
            ),
            (ParseErrorKind::InvalidUtf8, _) => Hint::Static(
                "a URI is ASCII: percent-encode each octet of other characters (RFC 3986 2.1)",
            ),
            (ParseErrorKind::Space, _) => {
                Hint::Static("percent-encode a space as %20 (RFC 3986 2.1)")
            }
            (ParseErrorKind::Brace, Some(c)) => Hint::Pct(
                "no URI contains braces: expand the template or percent-encode as ",
                c,
                " (RFC 3986 2.1)",
            ),
            (ParseErrorKind::Bracket, _) => Hint::Static(
                "brackets only enclose an IP-literal host (RFC 3986 3.2.2), elsewhere \
                 percent-encode them as %5B and %5D",
            ),
            (ParseErrorKind::InvalidIpLiteral, Some('%')) => Hint::Static(
                "zone identifiers (RFC 6874, obsoleted by RFC 9844) are not part of RFC 3986: an \
                 IP-literal holds an IPv6address or IPvFuture (RFC 3986 3.2.2)",
            ),
            (ParseErrorKind::InvalidIpLiteral, _) => Hint::Static(
                "a host in brackets must be an IPv6address or IPvFuture (IP-literal, RFC 3986 \
                 3.2.2); elsewhere percent-encode brackets as %5B and %5D",
            ),
            (ParseErrorKind::InvalidPort, _) => {
                Hint::Static("a port is digits only (port = *DIGIT, RFC 3986 3.2.3)")
            }
            (ParseErrorKind::SecondHash, _) => Hint::Static(
                "a fragment cannot contain \"#\" (RFC 3986 3.5): percent-encode it as %23",
            ),
            (ParseErrorKind::NonAscii, Some(c)) => Hint::Pct(
                "a URI is ASCII: percent-encode the character's UTF-8 octets as ",
                c,
                " (RFC 3986 2.1, 2.5)",
            ),
            (ParseErrorKind::InvalidCharacter, Some(c)) => Hint::Pct(
                "no URI contains it: percent-encode it as ",
                c,
                " (RFC 3986 2.1)",
            ),
            _ => return self.context.map(|c| Hint::Static(c.hint())),
        };
        Some(hint)
    }

    /// Whether the rule is of a grammar loaded at run time and has no RFC 3986 name.
    fn loaded_non_rfc3986(&self) -> bool {
        self.loaded_rule()
            .is_some_and(|name| Rule::from_abnf_name(name).is_none())
    }

    /// The message, the hint and the expected items on one line, separated by `; `, without position:
    /// what the command line prints after `FILE:LINE:COL: error: `.
    ///
    /// ```
    /// use rfc3986::UriRef;
    /// let e = UriRef::parse("/a b").unwrap_err();
    /// assert_eq!(e.message(), "space not allowed here");
    /// assert_eq!(e.hint().as_deref(), Some("percent-encode a space as %20 (RFC 3986 2.1)"));
    /// assert!(e.expected_list().starts_with("expected "));
    /// assert_eq!(e.detail(), format!("{}; {}; {}", e.message(), e.hint().unwrap(), e.expected_list()));
    /// ```
    pub fn detail(&self) -> String {
        let mut m = String::new();
        let _ = self.write_detail(&mut m);
        m
    }

    /// Writes [`detail`](Self::detail) to `out` without making a `String` per error: the text of each
    /// distinct error (kind, character found, hint and list of expected items) is made once per thread
    /// and copied after that (a file's rejections say few distinct things), else written piece by piece.
    /// What `Display` writes after `at byte N: `. Fails only when `out` does.
    ///
    /// ```
    /// let e = rfc3986::UriRef::parse("/a b").unwrap_err();
    /// let mut text = String::from("line 1: ");
    /// e.write_detail(&mut text).unwrap();
    /// assert_eq!(text, format!("line 1: {}", e.detail()));
    /// ```
    pub fn write_detail<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        // A limit's message carries its own text (sizes): written each time, not kept.
        if self.limit_message().is_some() {
            return self.write_detail_uncached(out);
        }
        let key = DetailKey {
            kind: self.kind,
            found: self.found,
            context: self.context,
            loaded: self.loaded_non_rfc3986(),
            expected: self.expected.as_ptr() as usize,
        };
        // Written uncached where the cache is out of reach: `out` writing another error's detail
        // (the cache is in use), or a thread being torn down.
        let written = DETAILS.try_with(|details| {
            let Ok(mut details) = details.try_borrow_mut() else {
                return None;
            };
            let slot = &mut details[key.slot()];
            match slot {
                // The list's address is its identity while the slot holds the list (no other list
                // can be made at that address meanwhile).
                Some(cached) if cached.key == key => Some(out.write_str(&cached.text)),
                _ => {
                    let mut text = String::with_capacity(256);
                    let _ = self.write_detail_uncached(&mut text);
                    let cached = slot.insert(CachedDetail {
                        key,
                        _expected: self.expected.clone(),
                        text: text.into_boxed_str(),
                    });
                    Some(out.write_str(&cached.text))
                }
            }
        });
        match written {
            Ok(Some(result)) => result,
            _ => self.write_detail_uncached(out),
        }
    }

    /// [`write_detail`](Self::write_detail), written piece by piece.
    fn write_detail_uncached<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        self.write_message(out)?;
        if let Some(hint) = self.hint_text() {
            out.write_str("; ")?;
            hint.write_to(out)?;
        }
        if !self.expected.is_empty() {
            out.write_str("; ")?;
            self.write_expected_list(out)?;
        }
        Ok(())
    }

    /// `expected A, B or C`, in ABNF spelling; `""` when nothing is expected (a limit, bad UTF-8).
    /// [`write_expected_list`](Self::write_expected_list) writes the same text without making a
    /// `String`.
    pub fn expected_list(&self) -> String {
        let mut m = String::new();
        let _ = self.write_expected_list(&mut m);
        m
    }

    /// Writes [`expected_list`](Self::expected_list) to `out`, item by item (no `String` is made);
    /// nothing when nothing is expected. Fails only when `out` does.
    pub fn write_expected_list<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        if self.expected.is_empty() {
            return Ok(());
        }
        out.write_str("expected ")?;
        for (i, x) in self.expected.iter().enumerate() {
            if i > 0 {
                out.write_str(if i + 1 == self.expected.len() {
                    " or "
                } else {
                    ", "
                })?;
            }
            // As `Display` writes it, without the formatting machinery (an error lists ~8 items).
            match x {
                Expected::Rule(name) => out.write_str(name)?,
                Expected::Literal(text) => {
                    out.write_char('"')?;
                    out.write_str(text)?;
                    out.write_char('"')?;
                }
                Expected::EndOfInput => out.write_str("end of input")?,
            }
        }
        Ok(())
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
            extra: Some(Box::new(ErrorExtra {
                loaded_rule: None,
                detail: Some(message),
            })),
            ..ParseError::new(
                rule,
                offset,
                ParseErrorKind::LimitReached,
                input.get(offset..).and_then(|s| s.chars().next()),
                ExpectedList::Static(&[]),
                None,
            )
        }
    }

    /// An input longer than the builder can record offsets for (4 GiB - 2 bytes): refused whole, at the
    /// first byte past the limit.
    pub(crate) fn too_long(rule: Rule, input: &str) -> ParseError {
        let offset = crate::util::MAX_LEN;
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
        ParseError::new(
            rule,
            offset,
            ParseErrorKind::InvalidUtf8,
            None,
            ExpectedList::Static(&[]),
            None,
        )
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
        crate::util::push_escaped(&mut line, &input[start..offset_char]);
        let column = line.chars().count();
        crate::util::push_escaped(&mut line, &input[offset_char..end]);
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

/// Writes `'x'`, or a name for characters that are hard to see.
fn write_described<W: fmt::Write + ?Sized>(out: &mut W, c: char) -> fmt::Result {
    match c {
        ' ' => out.write_str("space"),
        '\t' => out.write_str("tab"),
        '\u{feff}' => out.write_str("byte order mark U+FEFF"),
        c if c.is_control() => {
            out.write_str("control character ")?;
            write_code_point(out, c)
        }
        // Not quoted raw: a bidirectional control would reorder the message on a terminal.
        c if crate::util::needs_escape(c) => {
            out.write_str("invisible formatting character ")?;
            write_code_point(out, c)
        }
        c => {
            out.write_char('\'')?;
            out.write_char(c)?;
            out.write_char('\'')?;
            if c.is_ascii() {
                return Ok(());
            }
            out.write_str(" (")?;
            write_code_point(out, c)?;
            out.write_char(')')
        }
    }
}

const HEX_DIGITS: &[u8; 16] = b"0123456789ABCDEF";

/// Writes `U+` and the code point of `c` in at least four upper-case hex digits (`U+00E9`).
fn write_code_point<W: fmt::Write + ?Sized>(out: &mut W, c: char) -> fmt::Result {
    let n = c as u32;
    let digits = (32 - n.leading_zeros()).div_ceil(4).max(4);
    out.write_str("U+")?;
    for i in (0..digits).rev() {
        out.write_char(char::from(HEX_DIGITS[(n >> (4 * i)) as usize & 15]))?;
    }
    Ok(())
}

/// Writes the percent-encoding of the UTF-8 octets of `c`, upper-case (`%C3%A9`).
fn write_pct<W: fmt::Write + ?Sized>(out: &mut W, c: char) -> fmt::Result {
    let mut buf = [0; 4];
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        let hex = [
            b'%',
            HEX_DIGITS[usize::from(b >> 4)],
            HEX_DIGITS[usize::from(b & 15)],
        ];
        out.write_str(std::str::from_utf8(&hex).map_err(|_| fmt::Error)?)?;
    }
    Ok(())
}

/// A hint: static text, or static text around the percent-encoding of a character.
#[derive(Clone, Copy)]
enum Hint {
    Static(&'static str),
    Pct(&'static str, char, &'static str),
}

impl Hint {
    fn write_to<W: fmt::Write + ?Sized>(self, out: &mut W) -> fmt::Result {
        match self {
            Hint::Static(text) => out.write_str(text),
            Hint::Pct(before, c, after) => {
                out.write_str(before)?;
                write_pct(out, c)?;
                out.write_str(after)
            }
        }
    }
}

/// `Display` of [`ParseError::detail`], written with [`ParseError::write_detail`].
struct DetailText<'e>(&'e ParseError);

impl fmt::Display for DetailText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_detail(f)
    }
}

/// What the detail of an error depends on, besides a limit's own text: the key of [`DETAILS`].
#[derive(Clone, Copy, PartialEq, Eq)]
struct DetailKey {
    kind: ParseErrorKind,
    found: Option<char>,
    context: Option<Context>,
    /// [`ParseError::loaded_non_rfc3986`].
    loaded: bool,
    /// The address of the list of expected items (lists are shared between the errors of a grammar).
    expected: usize,
}

impl DetailKey {
    fn slot(&self) -> usize {
        let found = self.found.map_or(0x11_0000, u32::from) as usize;
        let mixed = (self.expected >> 4)
            ^ found.wrapping_mul(0x9E37_79B9)
            ^ (self.kind as usize).wrapping_mul(0x85EB_CA6B)
            ^ self
                .context
                .map_or(0, |c| c as usize + 1)
                .wrapping_mul(0xC2B2_AE35);
        (mixed ^ (mixed >> 7) ^ (mixed >> 17)) % DETAIL_SLOTS
    }
}

/// A detail made by [`ParseError::write_detail`], with the list of expected items it was made for
/// (held, so that its address names no other list while the slot keeps it).
struct CachedDetail {
    key: DetailKey,
    _expected: ExpectedList,
    text: Box<str>,
}

/// Slots of the detail cache of each thread (direct-mapped).
const DETAIL_SLOTS: usize = 256;

thread_local! {
    /// The details made on this thread, by [`DetailKey::slot`]: at most [`DETAIL_SLOTS`] texts and
    /// the lists they were made for.
    static DETAILS: std::cell::RefCell<[Option<CachedDetail>; DETAIL_SLOTS]> =
        const { std::cell::RefCell::new([const { None }; DETAIL_SLOTS]) };
}

/// The list of expected items of a [`ParseError`], shared between the errors that list the same
/// items: the built-in explainer's lists are made once per process and borrowed (`Static`: making and
/// dropping an error then changes no reference count, an atomic operation each), the others (loaded
/// grammars, the pest_derive reference) are counted.
#[derive(Clone)]
pub(crate) enum ExpectedList {
    Static(&'static [Expected]),
    Shared(Arc<[Expected]>),
}

impl std::ops::Deref for ExpectedList {
    type Target = [Expected];
    #[inline]
    fn deref(&self) -> &[Expected] {
        match self {
            ExpectedList::Static(list) => list,
            ExpectedList::Shared(list) => list,
        }
    }
}

impl PartialEq for ExpectedList {
    /// The same items, however each list is kept.
    fn eq(&self, other: &ExpectedList) -> bool {
        **self == **other
    }
}

impl Eq for ExpectedList {}

impl fmt::Debug for ExpectedList {
    /// As the items' slice: `[Rule("pchar"), EndOfInput]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<Vec<Expected>> for ExpectedList {
    fn from(list: Vec<Expected>) -> ExpectedList {
        ExpectedList::Shared(list.into())
    }
}

impl From<Arc<[Expected]>> for ExpectedList {
    fn from(list: Arc<[Expected]>) -> ExpectedList {
        ExpectedList::Shared(list)
    }
}

/// One item of what the grammar would have accepted at the byte where parsing failed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Expected {
    /// A rule, by its ABNF name (`pchar`, `IPv6address`, `HEXDIG`).
    Rule(Cow<'static, str>),
    /// A quoted string of the grammar, without quotes (`/`, `::`, `v`).
    Literal(Cow<'static, str>),
    /// The end of the input.
    EndOfInput,
}

impl fmt::Display for Expected {
    /// ABNF spelling: a rule name as is, a literal in double quotes, `end of input`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Rule(name) => f.write_str(name),
            Expected::Literal(text) => write!(f, "\"{text}\""),
            Expected::EndOfInput => f.write_str("end of input"),
        }
    }
}

impl Expected {
    pub(crate) fn rule(rule: Rule) -> Expected {
        Expected::Rule(Cow::Borrowed(rule.abnf_name()))
    }
}

/// Any error of this crate, for `?` in code that parses and resolves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input is not in the language of a grammar rule.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Percent-decoding failed ([`percent::decode`](crate::percent::decode)).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A [`UriBuilder`](crate::UriBuilder) could not put its components together.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// A conversion to or from `http::Uri` or `url::Url` failed.
    #[cfg(any(feature = "http", feature = "url"))]
    #[error(transparent)]
    Convert(#[from] ConvertError),
    /// A reference could not be resolved against a base.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// A URI Template could not be parsed or expanded (RFC 6570).
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A match of a rule that is not a URI reference was asked to become a [`UriRef`](crate::UriRef)
    /// ([`RuleMatch::into_uri_ref`](crate::RuleMatch::into_uri_ref)).
    #[error(transparent)]
    NotAReference(#[from] NotAReference),
}

/// Why a reference could not be resolved.
///
/// Each variant names a minimal input that triggers it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The target has no authority and its path begins with `//`, which would be read back as an
    /// authority (RFC 3986 section 3.3: "If a URI does not contain an authority component, then the path
    /// cannot begin with two slash characters"). Returned only by a [`Resolver`](crate::resolve::Resolver) with
    /// [`dot_prefix(false)`](crate::resolve::Resolver::dot_prefix); the default writes `/.` before such a path instead.
    /// Base `f:/a`, reference `.//g`: the 5.2.2 target path is `//g`.
    #[error("the target has no authority and its path {path:?} begins with \"//\" (RFC 3986 3.3)")]
    AmbiguousPath {
        /// The target's path as computed by 5.2.2 (`//g` in the example).
        path: String,
    },
    /// The target cannot be made: it would be longer than 4 GiB - 2 bytes, the most a value can hold
    /// (the error's kind is [`LimitReached`](crate::ParseErrorKind::LimitReached)).
    #[error("the resolved target is not a URI this crate can hold: {0}")]
    Target(ParseError),
    /// The reference given as text to [`Uri::join`](crate::Uri::join) is not a `URI-reference`
    /// (RFC 3986 4.1): base `http://a/`, reference `a b`.
    #[error("the reference is not a URI reference: {0}")]
    Reference(ParseError),
}

/// Why [`decode`](crate::percent::decode) or [`decode_utf8`](crate::percent::decode_utf8) failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A `%` not followed by two hex digits (`pct-encoded`, RFC 3986 2.1): `a%2`, `100%`, `%zz`. A component
    /// of a parsed URI never has one.
    InvalidPercentEncoding,
    /// The decoded octets are not UTF-8 ([`decode_utf8`](crate::percent::decode_utf8) only): `%FF`, `%C3` alone, `%C3%28`.
    InvalidUtf8,
}

/// Percent-decoding failed: what went wrong and where.
///
/// ```
/// use rfc3986::percent::{decode, decode_utf8, DecodeErrorKind};
/// let e = decode("ab%2").unwrap_err();
/// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidPercentEncoding, 2));
/// let e = decode_utf8("ab%C3%28").unwrap_err();
/// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidUtf8, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{}", self.message())]
pub struct DecodeError {
    pub(crate) kind: DecodeErrorKind,
    pub(crate) offset: usize,
}

impl DecodeError {
    /// What went wrong.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The 0-based byte offset into the *encoded* input: of the `%` that does not start a `pct-encoded`,
    /// or of the first octet (its `%` when encoded, the byte itself when not) of the first sequence that is
    /// not UTF-8.
    pub fn offset(&self) -> usize {
        self.offset
    }

    fn message(&self) -> String {
        match self.kind {
            DecodeErrorKind::InvalidPercentEncoding => format!(
                "\"%\" at byte {} is not followed by two hex digits (pct-encoded, RFC 3986 2.1)",
                self.offset
            ),
            DecodeErrorKind::InvalidUtf8 => format!(
                "decoded octets at byte {} are not UTF-8 (RFC 3986 2.5)",
                self.offset
            ),
        }
    }
}

/// Why a [`UriBuilder`](crate::UriBuilder) could not build a reference.
///
/// Each variant names a minimal builder that triggers it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A component is not in the language of its rule; `error` has the offset into the component's text:
    /// `UriBuilder::new().host("a b")` (`host`), `.port("80a")` (`port`), `.scheme("1a")` (`scheme`).
    #[error("invalid {component}: {error}")]
    InvalidComponent {
        /// The component's name as the RFC writes it: `scheme`, `userinfo`, `host`, `port`, `path`,
        /// `query` or `fragment`.
        component: &'static str,
        /// Why its rule rejected it (`error.rule()` is the rule it was matched against).
        error: ParseError,
    },
    /// A userinfo or a port without a host: they are parts of the authority, which needs a host, possibly
    /// empty (RFC 3986 3.2): `UriBuilder::new().port("80")`.
    #[error(
        "{component} without a host: an authority needs a host, possibly empty (RFC 3986 3.2)"
    )]
    MissingHost {
        /// `userinfo` or `port`.
        component: &'static str,
    },
    /// With an authority, the path must be empty or start with `/` (`path-abempty`, RFC 3986 3.3):
    /// `UriBuilder::new().host("h").path("a")`.
    #[error(
        "with an authority the path must be empty or start with \"/\" (path-abempty, RFC 3986 3.3)"
    )]
    RelativePathWithAuthority,
    /// Without an authority, the path cannot start with `//`: it would be read as an authority (RFC 3986
    /// 3.3): `UriBuilder::new().path("//a")`.
    #[error("without an authority the path cannot start with \"//\" (RFC 3986 3.3)")]
    PathStartsWithTwoSlashes,
    /// In a relative reference (no scheme, no authority), the first path segment cannot contain `:`: it
    /// would be read as a scheme. Write `./a:b` instead of `a:b` (RFC 3986 4.2):
    /// `UriBuilder::new().path("a:b")`.
    #[error(
        "the first segment of a relative-path reference cannot contain \":\"; prefix the path with \"./\" \
         (path-noscheme, RFC 3986 4.2)"
    )]
    ColonInFirstSegment,
    /// [`UriBuilder::build_uri`](crate::UriBuilder::build_uri) without a scheme: a URI has one (RFC 3986 3).
    #[error("a URI needs a scheme (RFC 3986 3)")]
    MissingScheme,
    /// The recomposed string is not a `URI-reference`. Components that pass their rules and the checks
    /// above always recompose into one, so this reports a bug in this crate rather than in the input.
    #[error("recomposed reference rejected: {0}")]
    Recomposition(ParseError),
}

/// A conversion between this crate's values and `http::Uri` or `url::Url` failed.
#[cfg(any(feature = "http", feature = "url"))]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The other library's value is not an RFC 3986 URI reference (or not a URI, when converting into a
    /// [`Uri`](crate::Uri)); the error is the grammar's, on the text described at the conversion. For example
    /// `url::Url` keeps `|` in a path and `{` in a query, which RFC 3986 does not allow.
    #[error("not an RFC 3986 reference: {0}")]
    Parse(ParseError),
    /// The target type cannot represent this reference, whatever its text: `http::Uri` has no fragment,
    /// `url::Url` no relative reference.
    #[error("{target} cannot represent {what}")]
    Unsupported {
        /// `http::Uri`, `url::Url` or `rfc3986::Uri`.
        target: &'static str,
        /// What it cannot represent (`a fragment`, `a relative reference`, ...).
        what: &'static str,
    },
    /// The other library rejected this valid RFC 3986 reference, or would read it differently: for example
    /// `url::Url` rejects the port `99999`, `http::Uri` the empty host of `http:///p`, and `url::Url` reads
    /// `http:/p` as `http://p/`.
    #[error("{target} rejected the reference: {message}")]
    Rejected {
        /// `http::Uri` or `url::Url`.
        target: &'static str,
        /// The other library's error message.
        message: String,
    },
}

/// Why a template could not be parsed or expanded. Each variant names a minimal template that triggers
/// it; offsets are byte offsets into the template.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// The template is not in the grammar of RFC 6570 section 2: `{var` (offset 4: the expression is not
    /// closed), `a}` (offset 1: `}` is not a literal), `{a b}` (offset 2), `{var:0}` (offset 5:
    /// `max-length` starts with 1 to 9).
    #[error("at byte {offset}: not a URI Template (RFC 6570 section 2); expected {}{}", expected_list(.expected), hint.map(|h| format!("; {h}")).unwrap_or_default())]
    Syntax {
        /// Where the template stops matching the grammar.
        offset: usize,
        /// What the grammar would have accepted there, in ABNF spelling: the names of RFC 6570's rules
        /// (`varname`, `literals`, `max-length`), quoted strings (`"}"`) and `end of input`; rules
        /// first.
        expected: Vec<&'static str>,
        /// A hint in words (`a "}" outside an expression must be percent-encoded as %7D`), when the
        /// character found says more than the list.
        hint: Option<&'static str>,
    },
    /// An operator that RFC 6570 section 2.2 reserves for future extensions (`op-reserve`: `=`, `,`,
    /// `!`, `@`, `|`): `{=path}` (offset 1).
    #[error("at byte {offset}: operator {operator:?} is reserved for future extensions (op-reserve, RFC 6570 section 2.2)")]
    ReservedOperator {
        /// The offset of the operator.
        offset: usize,
        /// The operator.
        operator: char,
    },
    /// A prefix modifier on a variable whose value is a list or an associative array (RFC 6570 section
    /// 2.4.1: "not applicable to variables that have composite values"): `{keys:1}` with `keys` a list
    /// or an array (offset 1).
    #[error("at byte {offset}: prefix modifier on {varname:?}, whose value is composite (RFC 6570 section 2.4.1)")]
    PrefixOnComposite {
        /// The offset of the varspec.
        offset: usize,
        /// The variable's name.
        varname: String,
    },
}

impl TemplateError {
    /// The byte offset into the template that the error is about.
    pub fn offset(&self) -> usize {
        match self {
            TemplateError::Syntax { offset, .. }
            | TemplateError::ReservedOperator { offset, .. }
            | TemplateError::PrefixOnComposite { offset, .. } => *offset,
        }
    }
}

fn expected_list(expected: &[&str]) -> String {
    match expected {
        [] => "a literal or an expression".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A [`RuleMatch`](crate::RuleMatch) of a rule whose matches are not references of the kind asked for
/// was asked to become one: a [`UriRef`](crate::UriRef) from anything but `URI-reference`, `URI`,
/// `relative-ref` and `absolute-URI`, an [`IriRef`](crate::iri::IriRef) from anything but
/// `IRI-reference`, `IRI`, `irelative-ref` and `absolute-IRI`, or either from a match whose components
/// are out of the order of RFC 3986 4.1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a match of the rule {rule} is not {kind} (only {} are, with their components in the order of RFC 3986 section 4.1)", rules.join(", "))]
pub struct NotAReference {
    pub(crate) rule: String,
    kind: &'static str,
    rules: &'static [&'static str],
}

impl NotAReference {
    /// A match of `rule` asked to become `kind` (`a URI reference`), which only matches of `rules` are.
    pub(crate) fn new(
        rule: String,
        kind: &'static str,
        rules: &'static [&'static str],
    ) -> NotAReference {
        NotAReference { rule, kind, rules }
    }

    /// The ABNF name of the rule that matched.
    pub fn rule_name(&self) -> &str {
        &self.rule
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// The errors of the built-in grammar are moved up through every parse function's `Result`: the
    /// rare fields stay out of line, and the list is one pointer and length and a tag.
    #[test]
    fn regression_a_parse_error_stays_small() {
        assert!(
            std::mem::size_of::<ParseError>() <= 56,
            "{}",
            std::mem::size_of::<ParseError>()
        );
        let e = crate::UriRef::parse("http://a/b c").unwrap_err();
        assert!(e.extra.is_none());
        let loaded = e.clone().for_loaded_rule("IRI-reference");
        assert_eq!(loaded.rule_name(), "IRI-reference");
        assert_ne!(loaded, e);
        assert!(format!("{loaded:?}").contains("loaded_rule: Some(\"IRI-reference\")"));
    }
}
