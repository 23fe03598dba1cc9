//! The umbrella [`Error`]: one type for `?` over every stage's error. It lives apart from
//! [`ParseError`](crate::ParseError) so that the stages depend on `error.rs` and this module depends on
//! them, without a circle.

/// Any error of this crate, for `?` in code that parses and resolves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input is not in the language of a grammar rule.
    #[error(transparent)]
    Parse(#[from] crate::ParseError),
    /// Percent-decoding failed ([`percent::decode`](crate::percent::decode)).
    #[error(transparent)]
    Decode(#[from] crate::percent::DecodeError),
    /// A [`UriBuilder`](crate::UriBuilder) could not put its components together.
    #[error(transparent)]
    Build(#[from] crate::recompose::BuildError),
    /// A conversion to or from `http::Uri` or `url::Url` failed.
    #[cfg(any(feature = "http", feature = "url"))]
    #[error(transparent)]
    Convert(#[from] crate::interop::ConvertError),
    /// A reference could not be resolved against a base.
    #[error(transparent)]
    Resolve(#[from] crate::resolve::ResolveError),
    /// A URI Template could not be parsed or expanded (RFC 6570).
    #[error(transparent)]
    Template(#[from] crate::template::TemplateError),
    /// A match of a rule that is not a URI reference was asked to become a [`UriRef`](crate::UriRef)
    /// ([`RuleMatch::into_uri_ref`](crate::RuleMatch::into_uri_ref)).
    #[error(transparent)]
    NotAReference(#[from] crate::rule_match::NotAReference),
}
