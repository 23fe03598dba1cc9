//! The integration tests of the `rfc3986` library, one binary with a module per stage or concern (the
//! generator's tests are in `peg/tests`, the command line's in `cli/tests`).
//!
//! `common` holds the shared inputs, the generators of references for property tests, and the oracles:
//! the regular-expression transcription of Appendix A, the Appendix B split, the RFC 5.4 tables.

mod common;

mod alloc;
mod diagnose;
mod differential;
mod edit;
mod errors;
mod grammar;
mod hostile;
mod interop;
mod iri;
mod is_valid;
mod lint;
mod normalize;
mod percent;
mod query_pairs;
mod readme_links;
mod recompose;
mod regressions;
mod relative;
mod relative_equivalence;
mod repair;
mod resolve;
mod rule_match;
mod runtime;
mod template;
mod traits;
mod values;
mod workbench;
mod workbench_engines;
