//! URI Templates ([RFC 6570]): [`UriTemplate::parse`] checks a template against the grammar of RFC 6570
//! section 2 (`grammars/uri-template.pest`, compiled by `pest_derive` like `uri.pest`), and
//! [`UriTemplate::expand`] expands it with variable values (section 3, levels 1 to 4), in one pass,
//! linear in the size of the template and the values.
//!
//! ```text
//! URI-Template  = *( literals / expression )
//! expression    = "{" [ operator ] variable-list "}"
//! operator      = op-level2 / op-level3 / op-reserve
//! variable-list = varspec *( "," varspec )
//! varspec       = varname [ modifier-level4 ]
//! modifier-level4 = prefix / explode   ; prefix = ":" max-length, explode = "*"
//! ```
//!
//! ```
//! use rfc3986::template::{UriTemplate, Value};
//! use std::collections::HashMap;
//!
//! let template = UriTemplate::parse("http://example.com/search{?q,lang}{#section}")?;
//! let vars = HashMap::from([
//!     ("q".to_owned(), Value::from("caf\u{e9} au lait")),
//!     ("lang".to_owned(), Value::from("fr")),
//! ]);
//! let uri = template.expand(&vars)?;
//! assert_eq!(uri, "http://example.com/search?q=caf%C3%A9%20au%20lait&lang=fr");
//! assert!(rfc3986::Uri::parse(&uri).is_ok());
//! # Ok::<(), rfc3986::template::TemplateError>(())
//! ```
//!
//! # Values
//!
//! A variable is a string, a list of strings or an associative array (a list of `(name, value)` pairs
//! kept in order) ([`Value`]). A variable that is not given, an empty list and an empty array are
//! *undefined* (RFC 6570 2.3) and expand to nothing; an empty string is defined.
//!
//! # Strictness
//!
//! Every template is matched against the whole grammar before anything is expanded: an invalid template
//! is an error ([`TemplateError::Syntax`]), never a partial expansion. Beyond the grammar, expansion
//! fails for an operator that RFC 6570 reserves (`=`, `,`, `!`, `@`, `|`; section 2.2) and for a prefix
//! modifier on a list or an associative array (section 2.4.1), as the shared test suite of URI Template
//! implementations expects.
//!
//! # The result
//!
//! What expansion writes is ASCII: literals keep their unreserved, reserved and `pct-encoded`
//! characters and percent-encode the rest as UTF-8 (3.1); values are percent-encoded except for the
//! characters the operator allows (unreserved; for `+` and `#` also reserved characters and
//! `pct-encoded` triplets). A template of a URI with values gives a URI, but not every expansion is a
//! URI reference: a template can put text where RFC 3986 does not allow it (`{+x}` with `x = "[a]"`
//! writes brackets outside a host; literals may hold `[`, `]`, `#` anywhere). Parse the result with
//! [`UriRef::parse`](crate::UriRef::parse) to know.
//!
//! [RFC 6570]: https://datatracker.ietf.org/doc/html/rfc6570

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::BuildHasher;

use pest::Parser as _;

use crate::engine::classes;
use crate::util::{is_pct_triplet, push_pct_triplet};

/// The text of `grammars/uri-template.pest`, the grammar this module runs: for
/// `runtime::Grammar::load` (feature `runtime-grammar`) and the command line's `--grammar`.
pub const GRAMMAR: &str = include_str!("../grammars/uri-template.pest");

mod parser {
    /// The pest_derive parser of `grammars/uri-template.pest`, with a whole-input entry rule.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/uri-template.pest"]
    #[grammar_inline = "template_entry = _{ SOI ~ uri_template ~ EOI }"]
    pub(super) struct TemplateParser;
}

use parser::{Rule, TemplateParser};

/// The value of a template variable (RFC 6570 section 2.3).
///
/// ```
/// use rfc3986::template::Value;
/// assert_eq!(Value::from("a"), Value::String("a".into()));
/// assert_eq!(Value::from(vec!["a", "b"]), Value::List(vec!["a".into(), "b".into()]));
/// assert_eq!(Value::from([("k", "v")]), Value::Map(vec![("k".into(), "v".into())]));
/// assert!(Value::List(vec![]).is_undefined());
/// assert!(!Value::from("").is_undefined()); // the empty string is defined
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Value {
    /// A string (Unicode text; expansion percent-encodes it as UTF-8).
    String(String),
    /// A list of strings; undefined when empty.
    List(Vec<String>),
    /// An associative array of `(name, value)` pairs, expanded in this order; undefined when empty.
    Map(Vec<(String, String)>),
}

impl Value {
    /// Whether the value counts as undefined (RFC 6570 2.3): an empty list or associative array.
    pub fn is_undefined(&self) -> bool {
        match self {
            Value::String(_) => false,
            Value::List(items) => items.is_empty(),
            Value::Map(pairs) => pairs.is_empty(),
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl<S: Into<String>> From<Vec<S>> for Value {
    fn from(items: Vec<S>) -> Value {
        Value::List(items.into_iter().map(Into::into).collect())
    }
}

impl<K: Into<String>, V: Into<String>, const N: usize> From<[(K, V); N]> for Value {
    fn from(pairs: [(K, V); N]) -> Value {
        Value::Map(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}

/// Where [`UriTemplate::expand`] finds variable values, by name as written in the template (`varname`,
/// RFC 6570 2.3, which may contain `.` and `pct-encoded`; names are compared as written). `None` means
/// undefined.
pub trait Variables {
    /// The value of the variable `name`, or `None` when it is undefined.
    fn get(&self, name: &str) -> Option<&Value>;
}

impl<S: BuildHasher> Variables for HashMap<String, Value, S> {
    fn get(&self, name: &str) -> Option<&Value> {
        HashMap::get(self, name)
    }
}

impl<S: BuildHasher> Variables for HashMap<&str, Value, S> {
    fn get(&self, name: &str) -> Option<&Value> {
        HashMap::get(self, name)
    }
}

impl Variables for BTreeMap<String, Value> {
    fn get(&self, name: &str) -> Option<&Value> {
        BTreeMap::get(self, name)
    }
}

impl Variables for BTreeMap<&str, Value> {
    fn get(&self, name: &str) -> Option<&Value> {
        BTreeMap::get(self, name)
    }
}

impl<K: AsRef<str>> Variables for [(K, Value)] {
    fn get(&self, name: &str) -> Option<&Value> {
        self.iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| v)
    }
}

impl<K: AsRef<str>> Variables for Vec<(K, Value)> {
    fn get(&self, name: &str) -> Option<&Value> {
        Variables::get(self.as_slice(), name)
    }
}

impl<K: AsRef<str>, const N: usize> Variables for [(K, Value); N] {
    fn get(&self, name: &str) -> Option<&Value> {
        Variables::get(self.as_slice(), name)
    }
}

pub use crate::error::TemplateError;

/// An expression's operator (RFC 6570 section 2.2) and the row of Appendix A's table that it selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Operator {
    first: &'static str,
    sep: &'static str,
    named: bool,
    ifemp: &'static str,
    /// Reserved characters and `pct-encoded` triplets pass unencoded (U+R); otherwise only unreserved
    /// characters do (U).
    allow_reserved: bool,
}

/// The table of RFC 6570 Appendix A, by operator; `None` for `op-reserve`.
fn operator(op: Option<char>) -> Option<Operator> {
    let row = |first, sep, named, ifemp, allow_reserved| Operator {
        first,
        sep,
        named,
        ifemp,
        allow_reserved,
    };
    Some(match op {
        None => row("", ",", false, "", false),
        Some('+') => row("", ",", false, "", true),
        Some('.') => row(".", ".", false, "", false),
        Some('/') => row("/", "/", false, "", false),
        Some(';') => row(";", ";", true, "", false),
        Some('?') => row("?", "&", true, "=", false),
        Some('&') => row("&", "&", true, "=", false),
        Some('#') => row("#", ",", false, "", true),
        Some(_) => return None,
    })
}

/// A varspec (RFC 6570 2.3, 2.4): the name's span in the template and its modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
struct VarSpec {
    start: usize,
    name: (usize, usize),
    prefix: Option<usize>,
    explode: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(usize, usize),
    Expression {
        operator: Operator,
        varspecs: Vec<VarSpec>,
    },
}

/// A parsed URI Template (RFC 6570): the template text and where its literals and expressions are.
///
/// ```
/// use rfc3986::template::UriTemplate;
/// let t = UriTemplate::parse("/users/{id}{?fields*}")?;
/// assert_eq!(t.variables().collect::<Vec<_>>(), ["id", "fields"]);
/// assert_eq!(t.as_str(), "/users/{id}{?fields*}");
/// assert!(UriTemplate::parse("/users/{id").is_err());
/// # Ok::<(), rfc3986::template::TemplateError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct UriTemplate<'a> {
    text: &'a str,
    parts: Vec<Part>,
}

impl fmt::Debug for UriTemplate<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UriTemplate").field(&self.text).finish()
    }
}

impl fmt::Display for UriTemplate<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl<'a> UriTemplate<'a> {
    /// Parses a URI Template: the whole `text` must match `URI-Template` ([RFC 6570 section
    /// 2](https://datatracker.ietf.org/doc/html/rfc6570#section-2)), and no expression may use a reserved
    /// operator (2.2). Borrows `text`.
    ///
    /// ```text
    /// URI-Template = *( literals / expression )
    /// expression   = "{" [ operator ] variable-list "}"
    /// ```
    ///
    /// ```
    /// use rfc3986::template::{TemplateError, UriTemplate};
    /// assert!(UriTemplate::parse("").is_ok()); // no literal, no expression
    /// assert!(UriTemplate::parse("caf\u{e9}/{x}").is_ok()); // literals may be non-ASCII (ucschar)
    /// assert_eq!(UriTemplate::parse("{}").unwrap_err().offset(), 1); // a varname is required
    /// assert!(matches!(
    ///     UriTemplate::parse("{!x}"),
    ///     Err(TemplateError::ReservedOperator { offset: 1, operator: '!' })
    /// ));
    /// ```
    ///
    /// # Errors
    /// [`TemplateError::Syntax`] with the offset where the template leaves the grammar and the ABNF names
    /// expected there; [`TemplateError::ReservedOperator`] for an `op-reserve` operator.
    pub fn parse(text: &'a str) -> Result<UriTemplate<'a>, TemplateError> {
        let pairs = TemplateParser::parse(Rule::template_entry, text)
            .map_err(|e| syntax_error(text, &e))?;
        let mut parts = Vec::new();
        for pair in pairs.flatten() {
            match pair.as_rule() {
                Rule::literal_run => {
                    let span = pair.as_span();
                    parts.push(Part::Literal(span.start(), span.end()));
                }
                Rule::expression => parts.push(expression(pair)?),
                _ => {}
            }
        }
        Ok(UriTemplate { text, parts })
    }

    /// The template as written.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The variable names of the template's expressions, in order, as written (a name used twice is
    /// listed twice).
    pub fn variables(&self) -> impl Iterator<Item = &'a str> + '_ {
        let text = self.text;
        self.parts.iter().flat_map(move |part| {
            match part {
                Part::Literal(..) => &[][..],
                Part::Expression { varspecs, .. } => varspecs.as_slice(),
            }
            .iter()
            .map(move |v| &text[v.name.0..v.name.1])
        })
    }

    /// Expands the template with `variables` ([RFC 6570 section 3](https://datatracker.ietf.org/doc/html/rfc6570#section-3)):
    /// literals are copied, percent-encoding what is neither unreserved nor reserved (3.1), and each
    /// expression is replaced by the values of its variables as its operator says (3.2, levels 1 to 4;
    /// the algorithm of Appendix A). Undefined variables expand to nothing.
    ///
    /// ```text
    /// op     NUL  +    .    /    ;    ?    &    #
    /// first  ""   ""   "."  "/"  ";"  "?"  "&"  "#"
    /// sep    ","  ","  "."  "/"  ";"  "&"  "&"  ","
    /// named  no   no   no   no   yes  yes  yes  no
    /// ifemp  ""   ""   ""   ""   ""   "="  "="  ""
    /// allow  U    U+R  U    U    U    U    U    U+R
    /// ```
    ///
    /// ```
    /// use rfc3986::template::{UriTemplate, Value};
    /// let vars = [
    ///     ("var", Value::from("value")),
    ///     ("empty", Value::from("")),
    ///     ("list", Value::from(vec!["red", "green"])),
    ///     ("keys", Value::from([("semi", ";"), ("dot", ".")])),
    /// ];
    /// let expand = |t: &str| UriTemplate::parse(t).unwrap().expand(&vars).unwrap();
    /// assert_eq!(expand("{var:3}"), "val"); // 2.4.1 prefix
    /// assert_eq!(expand("{?var,empty,undef}"), "?var=value&empty="); // 3.2.8
    /// assert_eq!(expand("{;empty}"), ";empty"); // 3.2.7: no "=" for an empty value
    /// assert_eq!(expand("{/list*}"), "/red/green"); // 2.4.2 explode
    /// assert_eq!(expand("{?keys*}"), "?semi=%3B&dot=."); // 3.2.8
    /// assert_eq!(expand("{+keys}"), "semi,;,dot,."); // 3.2.3: reserved characters kept
    /// assert_eq!(expand("X{.undef}"), "X");
    /// assert!(UriTemplate::parse("{keys:1}").unwrap().expand(&vars).is_err()); // 2.4.1
    /// ```
    ///
    /// # Errors
    /// [`TemplateError::PrefixOnComposite`] for a prefix modifier on a list or associative array.
    pub fn expand<V: Variables + ?Sized>(&self, variables: &V) -> Result<String, TemplateError> {
        let mut out = String::with_capacity(self.text.len());
        for part in &self.parts {
            match part {
                Part::Literal(start, end) => push_literal(&mut out, &self.text[*start..*end]),
                Part::Expression { operator, varspecs } => {
                    self.expand_expression(&mut out, *operator, varspecs, variables)?;
                }
            }
        }
        Ok(out)
    }

    fn expand_expression<V: Variables + ?Sized>(
        &self,
        out: &mut String,
        op: Operator,
        varspecs: &[VarSpec],
        variables: &V,
    ) -> Result<(), TemplateError> {
        let mut first = true;
        for spec in varspecs {
            let name = &self.text[spec.name.0..spec.name.1];
            let Some(value) = variables.get(name).filter(|v| !v.is_undefined()) else {
                continue;
            };
            // if this is the first defined variable, append first, otherwise sep
            out.push_str(if first { op.first } else { op.sep });
            first = false;
            match value {
                Value::String(s) => {
                    if op.named {
                        push_literal(out, name);
                        if s.is_empty() {
                            out.push_str(op.ifemp);
                            continue;
                        }
                        out.push('=');
                    }
                    match spec.prefix {
                        Some(n) => push_encoded(out, prefix(s, n, op.allow_reserved), op),
                        None => push_encoded(out, s, op),
                    }
                }
                _ if spec.prefix.is_some() => {
                    return Err(TemplateError::PrefixOnComposite {
                        offset: spec.start,
                        varname: name.to_owned(),
                    })
                }
                Value::List(items) if !spec.explode => {
                    if op.named {
                        push_literal(out, name);
                        out.push('=');
                    }
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        push_encoded(out, item, op);
                    }
                }
                Value::Map(pairs) if !spec.explode => {
                    if op.named {
                        push_literal(out, name);
                        out.push('=');
                    }
                    for (i, (k, v)) in pairs.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        push_encoded(out, k, op);
                        out.push(',');
                        push_encoded(out, v, op);
                    }
                }
                Value::List(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(op.sep);
                        }
                        if op.named {
                            push_literal(out, name);
                            if item.is_empty() {
                                out.push_str(op.ifemp);
                                continue;
                            }
                            out.push('=');
                        }
                        push_encoded(out, item, op);
                    }
                }
                Value::Map(pairs) => {
                    for (i, (k, v)) in pairs.iter().enumerate() {
                        if i > 0 {
                            out.push_str(op.sep);
                        }
                        if op.named {
                            push_literal(out, k);
                            if v.is_empty() {
                                out.push_str(op.ifemp);
                                continue;
                            }
                        } else {
                            push_encoded(out, k, op);
                        }
                        out.push('=');
                        push_encoded(out, v, op);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The detail parser of `grammars/uri-template.pest` (generated by `build.rs`), which explains
/// rejections.
mod detail {
    use std::borrow::Cow;

    use crate::error::Expected;

    include!(concat!(
        env!("OUT_DIR"),
        "/generated_uri_template_detail.rs"
    ));
}

/// The error of a template that the grammar rejected: where and what was expected there, from pest's
/// record of attempts in the detail grammar of `grammars/uri-template.pest` (every rule and quoted string
/// visible), named by RFC 6570's ABNF; rules first, then quoted strings, then the end of input, each
/// once. The grammar alone decides; [`syntax_hint`] only puts the character found into words.
#[cold]
#[inline(never)]
fn syntax_error(text: &str, fast: &pest::error::Error<Rule>) -> TemplateError {
    if text.len() > crate::engine::reference::DETAIL_MAX_INPUT {
        // Too long for the detail parser: where the grammar stops matching, nothing listed.
        return TemplateError::Syntax {
            offset: crate::engine::reference::pest_offset(fast),
            expected: Vec::new(),
            hint: None,
        };
    }
    let (offset, positives) = match detail::detail_entry("URI-Template")
        .map(|entry| detail::DetailParser::parse(entry, text))
    {
        Some(Err(e)) => {
            let offset = crate::engine::reference::pest_offset(&e);
            let positives = match e.variant {
                pest::error::ErrorVariant::ParsingError { positives, .. } => positives,
                pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
            };
            (offset, positives)
        }
        // The two parsers of one grammar disagree (they never should): nothing to list.
        _ => (0, Vec::new()),
    };
    let mut expected: Vec<&'static str> = Vec::new();
    for rule in positives {
        let spelling = detail::detail_spelling(rule);
        if !expected.contains(&spelling) {
            expected.push(spelling);
        }
    }
    expected.sort_by_key(|item| match *item {
        "end of input" => 2,
        quoted if quoted.starts_with('"') => 1,
        _ => 0,
    });
    TemplateError::Syntax {
        offset,
        hint: syntax_hint(text, offset, &expected),
        expected,
    }
}

/// A hint in words for a template that leaves the grammar at `offset`, where it `expected` those items
/// (RFC 6570 sections 2.1 to 2.4).
fn syntax_hint(text: &str, offset: usize, expected: &[&str]) -> Option<&'static str> {
    let found = text[offset..].chars().next();
    let open = text[..offset].rfind('{');
    let in_expression = open.is_some_and(|o| !text[o..offset].contains('}'));
    let expects = |item: &str| expected.contains(&item);
    Some(match found {
        None if in_expression => "the expression is not closed: add \"}\" (RFC 6570 section 2.2)",
        None => return None,
        Some(_) if expects("HEXDIG") => {
            "\"%\" must be followed by two hex digits (pct-encoded, RFC 6570 section 2.1)"
        }
        Some('}') if !in_expression => {
            "a \"}\" outside an expression must be percent-encoded as %7D (RFC 6570 section 2.1)"
        }
        Some('{') if in_expression => "expressions do not nest (RFC 6570 section 2.2)",
        Some(' ') => "a space is not allowed: percent-encode it as %20 (RFC 6570 section 2.1)",
        Some(_) if expects("max-length") || (in_expression && expects("DIGIT")) => {
            "a prefix length is 1 to 9999 with no leading zero (max-length, RFC 6570 section 2.4.1)"
        }
        Some(_) if expects("varchar") && !expects("modifier-level4") => {
            "a varname is expected here: ALPHA, DIGIT, \"_\" or pct-encoded (RFC 6570 section 2.3)"
        }
        Some(_) if in_expression => {
            "a varname is made of ALPHA, DIGIT, \"_\", pct-encoded and single dots (RFC 6570 section 2.3)"
        }
        Some(_) => "this character is not allowed in a literal: percent-encode it (RFC 6570 section 2.1)",
    })
}

/// The parts of an `expression` pair.
fn expression(pair: pest::iterators::Pair<'_, Rule>) -> Result<Part, TemplateError> {
    let mut op = None;
    let mut varspecs = Vec::new();
    for inner in pair.into_inner().flatten() {
        match inner.as_rule() {
            Rule::operator => {
                let c = inner.as_str().chars().next();
                op = Some((inner.as_span().start(), c));
            }
            Rule::varspec => {
                let mut spec = VarSpec {
                    start: inner.as_span().start(),
                    name: (0, 0),
                    prefix: None,
                    explode: false,
                };
                for part in inner.into_inner().flatten() {
                    match part.as_rule() {
                        Rule::varname => spec.name = (part.as_span().start(), part.as_span().end()),
                        // max-length = %x31-39 0*3DIGIT: at most 9999, always a number
                        Rule::max_length => spec.prefix = part.as_str().parse().ok(),
                        Rule::explode => spec.explode = true,
                        _ => {}
                    }
                }
                varspecs.push(spec);
            }
            _ => {}
        }
    }
    let operator = match op {
        None => operator(None),
        Some((offset, c)) => match operator(c) {
            Some(o) => Some(o),
            None => {
                return Err(TemplateError::ReservedOperator {
                    offset,
                    operator: c.unwrap_or('?'),
                })
            }
        },
    };
    Ok(Part::Expression {
        operator: operator.unwrap_or(Operator {
            first: "",
            sep: ",",
            named: false,
            ifemp: "",
            allow_reserved: false,
        }),
        varspecs,
    })
}

/// The first `n` characters of `value` (RFC 6570 2.4.1: Unicode characters, not octets; with U+R a
/// `pct-encoded` triplet counts as one character and is not split).
fn prefix(value: &str, n: usize, allow_reserved: bool) -> &str {
    let bytes = value.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() && count < n {
        if allow_reserved && is_pct_triplet(bytes, i) {
            i += 3;
        } else {
            i += value[i..].chars().next().map_or(1, char::len_utf8);
        }
        count += 1;
    }
    &value[..i]
}

/// Appends the UTF-8 octets of `c` as `pct-encoded` triplets.
fn push_pct(out: &mut String, c: char) {
    let mut buf = [0; 4];
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        push_pct_triplet(out, b);
    }
}

/// Appends `text` keeping the characters of `allow` and `pct-encoded` triplets where U+R applies, and
/// percent-encoding every other character as UTF-8 octets (RFC 6570 1.6, 3.2.1).
fn push_allowed(out: &mut String, text: &str, allow_reserved: bool) {
    let reserved = classes::GEN_DELIMS | classes::SUB_DELIMS;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if allow_reserved && is_pct_triplet(bytes, i) {
            out.push_str(&text[i..i + 3]);
            i += 3;
        } else if classes::contains(classes::UNRESERVED, b)
            || (allow_reserved && classes::contains(reserved, b))
        {
            out.push(b as char);
            i += 1;
        } else {
            let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
            push_pct(out, c);
            i += c.len_utf8();
        }
    }
}

/// Appends a value with the operator's `allow` set (U or U+R).
fn push_encoded(out: &mut String, text: &str, op: Operator) {
    push_allowed(out, text, op.allow_reserved);
}

/// Appends literal text (RFC 6570 3.1): unreserved and reserved characters and `pct-encoded` triplets
/// are copied, every other character is percent-encoded as UTF-8. Also used for variable names and keys.
fn push_literal(out: &mut String, text: &str) {
    push_allowed(out, text, true);
}
