//! The values: a parsed [`UriRef`](crate::UriRef) / [`Uri`](crate::Uri) (the input text and the byte
//! spans of its components, made only by the rules `URI-reference`, `URI`, `relative-ref` and
//! `absolute-URI`), a [`RuleMatch`](crate::RuleMatch) of any other rule, the [`Host`](crate::Host), and
//! the IRI values of RFC 3987 ([`iri`]). The operations (resolve, normalize, recompose) add their own
//! methods to these types in their own modules.

pub mod iri;
pub(crate) mod rule_match;
pub(crate) mod uri;
