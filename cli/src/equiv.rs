//! `rfc3986 equiv [--level syntax|scheme] A B`: whether two URI references are equivalent at a level of
//! the comparison ladder of RFC 3986 section 6.2. Prints `equivalent` or `not equivalent` and exits 0 or 1;
//! an input that is not a `URI-reference` is reported on standard error and exits 2, as `cmp` and `diff`
//! do for trouble, so that 1 always means "valid and different".

use std::ffi::OsString;
use std::io::{self, Write};

use rfc3986::{Rule, UriRef};

use super::input;
use super::normalize::LevelArg;
use super::report;
use super::Status;

/// Arguments of `rfc3986 equiv`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The level of the comparison ladder (RFC 3986 6.2) at which to compare.
    #[arg(long, value_enum, default_value_t = LevelArg::Syntax)]
    level: LevelArg,

    /// Also compare IPv6 hosts by their RFC 5952 canonical text (`[2001:db8:0::1]` = `[2001:db8::1]`).
    #[arg(long)]
    ipv6_rfc5952: bool,

    /// The first URI reference.
    #[arg(value_name = "A")]
    a: OsString,

    /// The second URI reference.
    #[arg(value_name = "B")]
    b: OsString,
}

/// Runs `equiv`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let a = input::decode(Rule::URI_REFERENCE, args.a.as_encoded_bytes());
    let b = input::decode(Rule::URI_REFERENCE, args.b.as_encoded_bytes());
    let mut parsed = Vec::with_capacity(2);
    let mut invalid = false;
    for (name, decoded) in [("A", &a), ("B", &b)] {
        let result = match decoded {
            Ok(text) => UriRef::parse(text).map_err(|e| (*text, e)),
            Err((lossy, error)) => Err((lossy.as_str(), error.clone())),
        };
        match result {
            Ok(uri) => parsed.push(uri),
            Err((text, e)) => {
                invalid = true;
                let stderr = io::stderr();
                let mut err = stderr.lock();
                let _ = writeln!(err, "{name}:{}: error: {}", e.offset() + 1, e.detail());
                let _ = report::write_caret(&mut err, "", text, &e);
            }
        }
    }
    if invalid {
        return Ok(Status::IoError);
    }
    let options = rfc3986::normalize::Options::from(rfc3986::normalize::Level::from(args.level))
        .ipv6_rfc5952(args.ipv6_rfc5952);
    let equivalent = rfc3986::normalize::equivalent_with(&parsed[0], &parsed[1], options);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}",
        if equivalent {
            "equivalent"
        } else {
            "not equivalent"
        }
    )?;
    Ok(if equivalent {
        Status::Success
    } else {
        Status::Invalid
    })
}
