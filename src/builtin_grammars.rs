//! The grammar files that ship inside the library, by name, so that a program installed without the
//! repository (`cargo install`) can still load them: [`builtin`], [`BUILTIN_NAMES`], and
//! [`Grammar::builtin`](crate::runtime::Grammar::builtin) (feature `runtime-grammar`).

/// The names [`builtin`] knows, in the order a help text would list them.
pub const BUILTIN_NAMES: [&str; 4] = ["uri", "iri", "zone-id", "uri-template"];

/// The text of a grammar built into the library, by name; `None` for any other name.
///
/// | name | file | what | load with |
/// |---|---|---|---|
/// | `uri` | `uri.pest` | RFC 3986 (the built-in grammar itself) | `Grammar::load` |
/// | `iri` | `grammars/iri.pest` | RFC 3987 IRIs (`IRI-reference`) | `Grammar::load` |
/// | `zone-id` | `grammars/ipv6-zone-id.pest` | RFC 6874 zone identifiers, an overlay on `uri.pest` | `Grammar::overlay` |
/// | `uri-template` | `grammars/uri-template.pest` | RFC 6570 URI Templates (`URI-Template`) | `Grammar::load` |
///
/// [`Grammar::builtin`](crate::runtime::Grammar::builtin) loads each the right way.
///
/// ```
/// assert!(rfc3986::runtime::builtin("uri-template").unwrap().contains("URI-Template"));
/// assert_eq!(rfc3986::runtime::builtin("no-such-grammar"), None);
/// ```
pub fn builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "uri" => include_str!("../uri.pest"),
        "iri" => include_str!("../grammars/iri.pest"),
        "zone-id" => include_str!("../grammars/ipv6-zone-id.pest"),
        "uri-template" => crate::template::GRAMMAR,
        _ => return None,
    })
}

/// Whether the built-in grammar `name` is an overlay on `uri.pest` rather than a whole grammar.
pub(crate) fn is_overlay(name: &str) -> bool {
    name == "zone-id"
}
