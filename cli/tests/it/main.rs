//! The integration tests of the `rfc3986` command, one test binary: each module runs the built binary as a
//! process (through [`common`]) and checks one side of it.
//!
//! - [`contract`]: exit status, text diagnostics, the summary line, JSON shapes, input handling.
//! - [`conformance`], [`default_port`], [`expand`], [`repair`], [`resolve`]: one subcommand or option each.
//! - [`redact`], [`trust`], [`output`]: what is never echoed (passwords, terminal escapes), one record per
//!   line, the streams, every subcommand by every output field.
//! - [`formats`]: `--format github` and `--format sarif` (validated against the SARIF 2.1.0 schema).
//! - [`regressions`]: one test per defect of issue 28 (`regression_<slug>`).
//! - [`hostile`], [`hostile_grammar`]: huge, nested and repeated inputs and grammar files.
//! - [`readme_examples`]: the README's `$ command` examples; [`editing_guide`]: those of
//!   docs/EDITING-THE-GRAMMAR.md; [`grammar`]: `rfc3986 grammar` and `parse --tree`.
//! - [`ci_integrations`]: the pre-commit hook and the GitHub Action at the repository root, run as their
//!   hosts run them.

mod ci_integrations;
mod common;
mod conformance;
mod contract;
mod default_port;
mod editing_guide;
mod expand;
mod formats;
mod grammar;
mod hostile;
mod hostile_grammar;
mod output;
mod readme_examples;
mod redact;
mod regressions;
mod repair;
mod resolve;
mod trust;
