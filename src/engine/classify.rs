//! Judging a rejection: the [kind](crate::ParseErrorKind) and hint of a [`ParseError`] from the byte at
//! the error's offset and the input around it, and the one correction of pest's furthest position (a
//! port with a non-digit).

use crate::engine::classes;
use crate::engine::recognizer::{repeated_byte, zero_bytes};
use crate::error::{Context, ExpectedList, ParseError, ParseErrorKind};
use crate::rule::Rule;

/// Judges the kind of error from the byte at `offset` and its surroundings.
///
/// pest reports the furthest byte any alternative reached, which is right by the grammar but can be late
/// for one common mistake: in `http://host:port/`, `host:port` is also a prefix of a userinfo
/// (`host:port@...`), so the furthest byte is the `/` where an `@` could have come. When the authority has
/// no `@`, the text after the host's `:` can only be a port, and the error is moved to its first non-digit.
///
/// `scanned`: what the caller found before the explainer's bound, if it looked (see [`Scanned`]).
pub(crate) fn classify(
    rule: Rule,
    input: &str,
    offset: usize,
    expected: impl Into<ExpectedList>,
    scanned: Option<Scanned>,
) -> ParseError {
    // The authority as Appendix B splits it, for the port and IP-literal hints (one pass), when they
    // may apply (see `relevant_authority`).
    let authority = relevant_authority(input, offset, scanned);
    if authority.is_some() {
        if let Some(error) = port_error(rule, input, offset, authority) {
            return error;
        }
    }
    let found = input.get(offset..).and_then(|s| s.chars().next());
    let before = &input.as_bytes()[..offset.min(input.len())];
    let context = if has_context_hints(rule) {
        context_hint(rule, input, offset, found)
    } else {
        None
    };
    let kind = match found {
        None if follows_bad_percent(before) => ParseErrorKind::InvalidPercentEncoding,
        None => ParseErrorKind::UnexpectedEnd,
        Some(' ') => ParseErrorKind::Space,
        Some(c) if !c.is_ascii() => ParseErrorKind::NonAscii,
        Some('{' | '}') => ParseErrorKind::Brace,
        Some(_) if follows_bad_percent(before) => ParseErrorKind::InvalidPercentEncoding,
        Some(_) if in_ip_literal(input, offset, authority) => ParseErrorKind::InvalidIpLiteral,
        Some('[' | ']') => ParseErrorKind::Bracket,
        Some('#') if before.contains(&b'#') => ParseErrorKind::SecondHash,
        Some(c) if !u8::try_from(c).is_ok_and(classes::in_any_uri) => {
            ParseErrorKind::InvalidCharacter
        }
        Some(_) => ParseErrorKind::Unexpected,
    };
    ParseError::new(rule, offset, kind, found, expected.into(), context)
}

/// What the set-up of an explainer's run found in the input before its bound
/// ([`reach_and_marks`](crate::engine::explainer::reach_and_marks) with [`HINT_BYTES`]), so that
/// [`relevant_authority`] need not scan an authority that runs up to the error (as when a host has a
/// bad character: most rejections) again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scanned {
    /// The bound: a byte offset.
    pub(crate) bound: usize,
    /// One past the last `/`, `?` or `#` before `bound` (0: none).
    pub(crate) reach: usize,
    /// Whether a `:` or `[` comes in `reach..bound`.
    pub(crate) marked: bool,
}

/// The bytes of [`Scanned::marked`]: those that make the port and IP-literal hints apply.
pub(crate) const HINT_BYTES: [u8; 2] = *b":[";

/// Whether [`context_hint`] may give a hint for an error of `rule` (it gives none for most rules).
#[inline(always)]
fn has_context_hints(rule: Rule) -> bool {
    rule == Rule::URI
        || rule == Rule::ABSOLUTE_URI
        || rule == Rule::IPV4ADDRESS
        || rule == Rule::DEC_OCTET
}

/// The hint for mistakes that the rule and the input around the error tell, not the character found
/// (for the rules of [`has_context_hints`]).
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
fn follows_bad_percent(b: &[u8]) -> bool {
    matches!(b, [.., b'%']) || matches!(b, [.., b'%', h] if h.is_ascii_hexdigit())
}

/// The authority as RFC 3986 Appendix B splits it (`^(([^:/?#]+):)?(//([^/?#]*))?`), and what the port
/// and IP-literal hints need of it, found in one pass over its bytes (the delimiters are ASCII, so a
/// byte finds them where a character search would).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The authority of `input` as [`AuthorityShape`] describes it when the port and IP-literal hints may
/// apply to an error at `offset`, else `None` (as when there is no authority).
///
/// Both hints need, in the authority and at or before `offset`, a `:` after the host (a port's) or a
/// `[` opening it: with neither byte before the authority ends or the error comes, no hint applies, and
/// the authority (which may go on far past the error) is not scanned.
///
/// With `scanned` found up to `offset`, and no `/`, `?` or `#` between the authority's start and
/// `offset` (its reach is the start), whether a `:` or `[` comes there is known without a scan.
#[inline(always)]
fn relevant_authority(
    input: &str,
    offset: usize,
    scanned: Option<Scanned>,
) -> Option<AuthorityShape> {
    let start = authority_start(input)?;
    if let Some(scanned) = scanned.filter(|s| s.bound == offset && s.reach == start) {
        // The first of `:`, `[`, `/`, `?`, `#` from `start` is a `:` or `[` before `offset`, or the
        // byte at `offset`.
        let at_offset = matches!(input.as_bytes().get(offset), Some(b':' | b'['));
        return (scanned.marked || at_offset).then(|| authority_shape_from(input, start));
    }
    // Up to the byte at `offset`: the first of `:`, `[`, `/`, `?`, `#` there tells.
    let upto = input
        .as_bytes()
        .get(..input.len().min(offset.saturating_add(1)))?;
    match upto.get(first_of(upto, start, b":[/?#")) {
        Some(b':' | b'[') => Some(authority_shape_from(input, start)),
        _ => None,
    }
}

/// The position of the first byte of `s` at or after `p` that is one of `stops` (none of them 0), or
/// the length of `s` when there is none: eight bytes at a time (SWAR, a test per stop byte), as the
/// scheme and the authority are searched on every rejection.
#[inline(always)]
fn first_of(s: &[u8], mut p: usize, stops: &[u8]) -> usize {
    // The high bit of each byte of `word` that is a stop byte, exact up to the lowest one.
    let hits = |word: u64| (stops.iter()).fold(0, |m, &d| m | zero_bytes(word ^ repeated_byte(d)));
    while let Some(chunk) = s.get(p..p + 8) {
        let found = hits(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        if found != 0 {
            return p + (found.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    if s.len() >= 8 && p < s.len() {
        // Fewer than eight bytes left: the last eight bytes of `s`, shifted so that byte 0 is `p`; the
        // zeros shifted in are no stop byte.
        let last = s.len() - 8;
        let word = u64::from_le_bytes(s[last..].try_into().unwrap_or_default()) >> (8 * (p - last));
        let found = hits(word);
        return if found != 0 {
            p + (found.trailing_zeros() / 8) as usize
        } else {
            s.len()
        };
    }
    while s.get(p).is_some_and(|b| !stops.contains(b)) {
        p += 1;
    }
    p
}

/// Where the authority of `input` starts (after `//`), as Appendix B finds it; `None` when there is no
/// `//` where Appendix B looks for it.
#[inline(always)]
fn authority_start(input: &str) -> Option<usize> {
    let b = input.as_bytes();
    // The scheme's ":" is the first of ":", "/", "?" and "#" when it is not the first byte.
    let after_scheme = match first_of(b, 0, b":/?#") {
        i if i > 0 && b.get(i) == Some(&b':') => i + 1,
        _ => 0,
    };
    // (Byte by byte: a comparison of slices is a call.)
    (b.get(after_scheme) == Some(&b'/') && b.get(after_scheme + 1) == Some(&b'/'))
        .then_some(after_scheme + 2)
}

/// The authority of `input` as [`AuthorityShape`] describes it; `None` when there is no `//` where
/// Appendix B looks for it.
#[cfg(test)]
fn authority_shape(input: &str) -> Option<AuthorityShape> {
    authority_start(input).map(|start| authority_shape_from(input, start))
}

/// The authority of `input` that starts at `start` (see [`authority_start`]).
fn authority_shape_from(input: &str, start: usize) -> AuthorityShape {
    let b = input.as_bytes();
    let mut shape = AuthorityShape {
        end: b.len(),
        host_start: start,
        colon: None,
        close: None,
    };
    // The bytes the loop looks at; the others (most of a host) cost one table look-up each, as this
    // runs on every rejection.
    static MARKS: [bool; 256] = {
        let mut t = [false; 256];
        let marks = b"/?#@:]";
        let mut k = 0;
        while k < marks.len() {
            t[marks[k] as usize] = true;
            k += 1;
        }
        t
    };
    let mut seen_at = false;
    for (i, &c) in b.iter().enumerate().skip(start) {
        if !MARKS[usize::from(c)] {
            continue;
        }
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
    shape
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
    // What may follow a port, as the grammar says for this rule.
    let expected = crate::engine::after_port(rule)?;
    let kind = match found {
        Some(' ') => ParseErrorKind::Space,
        Some(c) if !c.is_ascii() => ParseErrorKind::NonAscii,
        Some('{' | '}') => ParseErrorKind::Brace,
        _ => ParseErrorKind::InvalidPort,
    };
    Some(ParseError::new(
        rule, bad_offset, kind, found, expected, None,
    ))
}

/// [`authority_shape`] against the regular expression of RFC 3986 Appendix B, read as the text says
/// (each part found by its own search).
#[cfg(test)]
mod authority_shape_tests {
    use super::*;
    use proptest::prelude::*;

    /// The shape by one loop over the bytes, as Appendix B reads: the scheme up to the first ":" when
    /// none of "/?#" comes before it, "//", then the authority up to "/", "?" or "#".
    fn by_appendix_b(input: &str) -> Option<AuthorityShape> {
        let b = input.as_bytes();
        let scheme_end = b.iter().position(|c| b":/?#".contains(c));
        let after_scheme = match scheme_end {
            Some(i) if i > 0 && b[i] == b':' => i + 1,
            _ => 0,
        };
        let rest = b.get(after_scheme..)?;
        if !rest.starts_with(b"//") {
            return None;
        }
        let start = after_scheme + 2;
        let end = (start..b.len())
            .find(|&i| b"/?#".contains(&b[i]))
            .unwrap_or(b.len());
        let host_start = (start..end)
            .find(|&i| b[i] == b'@')
            .map_or(start, |i| i + 1);
        let first = |c: u8| (host_start..end).find(|&i| b[i] == c);
        Some(AuthorityShape {
            end,
            host_start,
            colon: first(b':'),
            close: first(b']'),
        })
    }

    #[rstest::rstest]
    #[case::no_scheme_no_authority("a/b", None)]
    #[case::colon_first_is_no_scheme("://a", None)]
    #[case::user_port_and_literal(
        "s://u:p@[::1]:80/x",
        Some(AuthorityShape { end: 16, host_start: 8, colon: Some(9), close: Some(12) })
    )]
    #[case::second_at_is_in_the_host(
        "//a@b@c:1",
        Some(AuthorityShape { end: 9, host_start: 4, colon: Some(7), close: None })
    )]
    #[case::slash_before_colon_is_a_path("a/b://c", None)]
    fn shapes(#[case] input: &str, #[case] want: Option<AuthorityShape>) {
        assert_eq!(authority_shape(input), want);
        assert_eq!(by_appendix_b(input), want);
    }

    proptest! {
        #[test]
        fn the_shape_is_appendix_b_s(input in "[a:/?#@\\]\\[]{0,16}") {
            prop_assert_eq!(authority_shape(&input), by_appendix_b(&input));
        }

        /// The hints read from the authority only when it may matter are those read from the whole
        /// authority, wherever the error is.
        #[test]
        fn the_hints_need_the_authority_only_with_a_colon_or_bracket_before_the_error(
            input in "(a:)?//[a1:@\\]\\[/]{0,12}",
            offset in 0usize..16,
        ) {
            let offset = offset.min(input.len());
            let whole = authority_shape(&input);
            let relevant = relevant_authority(&input, offset, None);
            prop_assert_eq!(
                in_ip_literal(&input, offset, whole),
                in_ip_literal(&input, offset, relevant)
            );
            prop_assert_eq!(
                port_error(Rule::URI_REFERENCE, &input, offset, whole),
                port_error(Rule::URI_REFERENCE, &input, offset, relevant)
            );
        }

        /// What the explainer's set-up found before its bound stands for the scan of the authority:
        /// the same answer, with the bound at the error or anywhere else (where it is not used).
        #[test]
        fn the_set_up_s_scan_gives_the_authority_s_answer(
            input in "([a:]{0,3}:)?(//)?[a1:@\\]\\[/?#]{0,20}",
            offset in 0usize..32,
            bound in 0usize..32,
        ) {
            let offset = offset.min(input.len());
            for bound in [offset, bound.min(input.len())] {
                let (reach, marked) = crate::engine::explainer::reach_and_marks(
                    &input.as_bytes()[..bound],
                    &HINT_BYTES,
                );
                let scanned = Scanned { bound, reach, marked };
                prop_assert_eq!(
                    relevant_authority(&input, offset, Some(scanned)),
                    relevant_authority(&input, offset, None),
                    "bound {}", bound
                );
            }
        }
    }

    /// The bytes [`Scanned::reach`] is found by are those whose absence from the authority it stands
    /// for: the ends of the authority by Appendix B.
    #[test]
    fn the_explainer_s_shortcut_bytes_end_the_authority() {
        let mut bytes = crate::engine::explainer::SHORTCUT_BYTES.to_vec();
        bytes.sort_unstable();
        assert_eq!(bytes, b"#/?");
    }
}
