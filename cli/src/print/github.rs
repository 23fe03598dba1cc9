//! `--format github`: GitHub Actions workflow commands, one line per finding,
//! `::error file=F,line=L,col=C,endColumn=E,title=rfc3986 RULE::MESSAGE`, which a workflow run shows
//! as annotations on the file.
//!
//! What the runner would read as part of the command is percent-encoded as it expects (`%`, CR and LF
//! in the message; also `:` and `,` in a property); the message and the file name are escaped for a
//! terminal first (control, bidirectional and separator characters as `\u{..}`), and name no character
//! of a password ([`crate::report::Diagnostic::record`]). `col` and `endColumn` count characters.

use std::io::{self, Write};

use crate::report::{self, CiRecord};

/// Writes `record` as one workflow command.
pub(crate) fn write(out: &mut impl Write, record: &CiRecord) -> io::Result<()> {
    let file = report::escape_text(&record.source);
    writeln!(
        out,
        "::{} file={},line={},col={},endColumn={},title={}::{}",
        command(record.level),
        property(&file),
        record.line,
        record.column,
        record.end_column.max(record.column),
        property(&format!("rfc3986 {}", record.rule)),
        data(&record.message),
    )
}

/// The workflow command of a level: `error`, `warning`, or `notice` for a note.
fn command(level: &str) -> &'static str {
    match level {
        "error" => "error",
        "warning" => "warning",
        _ => "notice",
    }
}

/// A command's message: `%`, CR and LF percent-encoded.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: as [`data`], and `:` and `,`.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_and_data_are_encoded_as_the_runner_reads_them() {
        assert_eq!(data("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
