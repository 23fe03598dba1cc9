//! `rfc3986 man [SUBCOMMAND]`: the manual pages, roff, from the same clap definitions as `--help`, so
//! that every option is on its page: `rfc3986(1)` lists the subcommands, each `rfc3986-NAME(1)` page (the
//! ones `rfc3986(1)` refers to) has every option of its subcommand.

use std::io;

use super::Status;

/// Arguments of `rfc3986 man`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The subcommand whose page to print (`check`, `parse`, ...); none: the page of `rfc3986` itself.
    #[arg(value_name = "SUBCOMMAND")]
    subcommand: Option<String>,
}

/// Prints the page; an unknown SUBCOMMAND is a usage error (exit 2) that lists the known ones.
pub(crate) fn run(args: &Args, command: clap::Command) -> io::Result<Status> {
    let command = command.version(env!("CARGO_PKG_VERSION"));
    let page = match &args.subcommand {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name).cloned() else {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                super::error(format_args!(
                    "no subcommand '{name}'; subcommands: {}",
                    names.join(", ")
                ));
                return Ok(Status::IoError);
            };
            // Named as its page: `rfc3986-check`, once per process.
            let display: &'static str =
                Box::leak(format!("rfc3986-{}", sub.get_name()).into_boxed_str());
            sub.name(display)
                .display_name(display)
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut text = Vec::new();
    clap_mangen::Man::new(page).render(&mut text)?;
    super::write_stdout(&text)
}
