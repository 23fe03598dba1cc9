//! [`Rule`]: the rules of `uri.pest` by name, from the table the generator (`peg/`) writes. The vocabulary
//! every stage shares: an error names the rule it was matched against, the engine runs a rule, a value
//! records which rule matched. It imports nothing of the crate.

use std::fmt;

include!(concat!(env!("OUT_DIR"), "/generated_rules.rs"));

/// A rule of `uri.pest`, as listed in the generated table.
#[derive(Debug)]
pub(crate) struct RuleInfo {
    /// The pest name (`uri_reference`).
    pub(crate) name: &'static str,
    /// The ABNF spelling (`URI-reference`).
    pub(crate) abnf: &'static str,
    /// The ABNF definition quoted in `uri.pest` (`URI / relative-ref`).
    pub(crate) definition: &'static str,
    /// Where the rule comes from (`RFC 3986 section 4.1.`).
    pub(crate) source: &'static str,
}

/// A rule of the grammar in `uri.pest`: every rule of RFC 3986 Appendix A, plus the core rules ALPHA, DIGIT
/// and HEXDIG of RFC 5234.
///
/// Each rule is a constant named after its ABNF name in upper case with `-` -> `_`
/// ([`Rule::URI_REFERENCE`], [`Rule::IPV6ADDRESS`], [`Rule::PATH_ABEMPTY`], ...). Any rule can be matched
/// against a whole input with [`validate`](crate::validate) or [`parse_as`](crate::parse_as), which is what
/// `rfc3986 check --rule` does.
///
/// ```
/// use rfc3986::Rule;
/// assert_eq!(Rule::from_abnf_name("IPv6address"), Some(Rule::IPV6ADDRESS));
/// assert_eq!(Rule::IP_LITERAL.abnf_name(), "IP-literal");
/// assert!(Rule::all().any(|r| r.abnf_name() == "dec-octet"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule(usize);

impl Rule {
    fn info(self) -> &'static RuleInfo {
        &RULES[self.0]
    }

    /// The rule's position in `uri.pest`, for tables indexed by rule.
    pub(crate) fn index(self) -> usize {
        self.0
    }

    /// The rule at position `i` of `uri.pest` (`i` below the number of rules).
    pub(crate) fn from_index(i: usize) -> Rule {
        debug_assert!(i < RULES.len());
        Rule(i)
    }

    /// The rule's name as RFC 3986 (or RFC 5234 for the core rules) spells it: `URI-reference`,
    /// `IPv6address`, `HEXDIG`.
    pub fn abnf_name(self) -> &'static str {
        self.info().abnf
    }

    /// The ABNF definition of the rule as quoted in `uri.pest`, e.g. `URI / relative-ref` for
    /// `URI-reference`.
    pub fn definition(self) -> &'static str {
        self.info().definition
    }

    /// Where the rule is defined, e.g. `RFC 3986 section 4.1.`.
    pub fn source(self) -> &'static str {
        self.info().source
    }

    /// The rule with this ABNF name (`URI-reference`, `reg-name`, `IPv4address`), or `None` if the grammar
    /// has no such rule. Rule names are case-insensitive
    /// ([RFC 5234 2.1](https://www.rfc-editor.org/rfc/rfc5234#section-2.1)), so `ipv4address` and
    /// `uri-REFERENCE` name rules too; the pest spelling (`URI_reference`) does not.
    ///
    /// ```
    /// use rfc3986::Rule;
    /// assert_eq!(Rule::from_abnf_name("IPv4address"), Some(Rule::IPV4ADDRESS));
    /// assert_eq!(Rule::from_abnf_name("ipv4ADDRESS"), Some(Rule::IPV4ADDRESS));
    /// assert_eq!(Rule::from_abnf_name("URI_reference"), None);
    /// ```
    pub fn from_abnf_name(name: &str) -> Option<Rule> {
        RULES
            .iter()
            .position(|r| r.abnf == name)
            .or_else(|| RULES.iter().position(|r| r.abnf.eq_ignore_ascii_case(name)))
            .map(Rule)
    }

    /// Every rule of the grammar, in the order of `uri.pest`.
    pub fn all() -> impl ExactSizeIterator<Item = Rule> {
        (0..RULES.len()).map(Rule)
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abnf_name())
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abnf_name())
    }
}
