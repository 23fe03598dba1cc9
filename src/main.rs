//! The `rfc3986` command-line tool: `check` and `parse` URIs by the grammar of RFC 3986.
//!
//! Everything lives in [`cli`]; this file only hands the process exit status back.

#![forbid(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
