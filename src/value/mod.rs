//! The values: one reference type generic over the specification whose syntax it follows
//! ([`RiRef`](crate::RiRef) / [`Ri`](crate::Ri) with a [`Spec`](crate::Spec): [`UriRef`](crate::UriRef) /
//! [`Uri`](crate::Uri) for RFC 3986, [`IriRef`](crate::iri::IriRef) / [`Iri`](crate::iri::Iri) for RFC
//! 3987), the input text and the byte spans of its components, made only by the reference rules of its
//! own specification (`URI-reference`, `URI`, `relative-ref`, `absolute-URI`; `IRI-reference`, ...); a
//! [`RuleMatch`](crate::RuleMatch) of any other rule; the [`Authority`](crate::Authority) and
//! [`Host`](crate::Host). The operations (resolve, normalize, recompose) add their own methods to these
//! types in their own modules.

pub mod iri;
pub(crate) mod reference;
pub(crate) mod rule_match;
pub(crate) mod uri;
