//! `rfc3986 expand [--vars FILE.json] [--rule RULE] [--format text|json] [TEMPLATE] [NAME=VALUE...]`:
//! expand a URI Template (RFC 6570) and check the result against RFC 3986.
//!
//! Variables come from `--vars FILE.json` (an object: a string, number or boolean is a string value, an
//! array a list, an object an associative array in file order, `null` undefined; nested values are
//! flattened as their members joined by `,`) and from `NAME=VALUE`
//! arguments (string values; they override the file). Without TEMPLATE, or with `-`, the templates are
//! the lines of standard input, each expanded with the same variables; a blank line is the empty template,
//! which expands to the empty string.
//!
//! Each expansion is matched against `--rule` (default `URI-reference`): `text` writes it on standard
//! output when it matches and a diagnostic on standard error when the template is invalid or the result
//! does not match; `json` writes one object per template. Exit status: 0 every expansion matched, 1 a
//! template was invalid or an expansion did not match, 2 usage errors (a bad `NAME=VALUE`, a `--vars`
//! file that cannot be read or is not a JSON object).

use std::collections::HashMap;
use std::io;
use std::path::PathBuf;

use rfc3986::template::{TemplateError, UriTemplate, Value};
use rfc3986::Rule;
use serde::Serialize;

use super::input;
use super::print::Printer;
use super::report::Format;
use super::report::{self, Diagnostic, ErrorJson, Severity, Words};
use super::Status;

/// Arguments of `rfc3986 expand`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A JSON file with an object of variables: strings (numbers and booleans are taken as their text),
    /// arrays of strings (lists), objects of strings (associative arrays, in file order), null (undefined).
    #[arg(long, value_name = "FILE.json")]
    vars: Option<PathBuf>,

    /// The grammar rule each expansion must match, by its ABNF name in RFC 3986.
    #[arg(long, default_value = "URI-reference", value_parser = super::rule::parse_rule)]
    rule: Rule,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    #[command(flatten)]
    look: report::LookArgs,

    /// The URI Template (RFC 6570); none or `-`: one template per line of standard input.
    #[arg(value_name = "TEMPLATE")]
    template: Option<String>,

    /// Variables as NAME=VALUE (string values; they override --vars).
    #[arg(value_name = "NAME=VALUE")]
    assignments: Vec<String>,
}

/// A template error in JSON: `{"offset", "column", "expected", "message"}`.
#[derive(Debug, Serialize)]
struct TemplateErrorJson {
    offset: usize,
    column: usize,
    expected: Vec<&'static str>,
    message: String,
}

/// One template's record.
#[derive(Debug, Serialize)]
struct ResultJson<'a> {
    /// 1-based line of standard input, or 1 for the argument.
    line: u64,
    template: &'a str,
    /// The expansion; `null` when the template is invalid.
    expanded: Option<&'a str>,
    /// Whether the expansion matched `--rule`.
    valid: bool,
    /// Why the template could not be expanded (RFC 6570).
    template_error: Option<TemplateErrorJson>,
    /// Why the expansion does not match `--rule` (RFC 3986), as in `check`.
    error: Option<ErrorJson>,
}

/// Runs `expand`; `Err` only when standard output cannot be written.
pub(crate) fn run(args: &Args) -> io::Result<Status> {
    let variables = match variables(args) {
        Ok(v) => v,
        Err(message) => {
            super::error(format_args!("{message}"));
            return Ok(Status::IoError);
        }
    };
    let value_bytes = variables
        .iter()
        .map(|(name, value)| value_size(name, value))
        .sum::<usize>();
    let mut printer = Printer::new(args.format, &args.look);
    let mut any_invalid = false;
    let template: Vec<std::ffi::OsString> = args.template.iter().map(Into::into).collect();
    // A blank line is the empty template (valid, RFC 6570 2: it expands to the empty string), not a line
    // to skip: every input line has its record (issue 13).
    let all_read = input::for_each_input(&template, |line| {
        let text = String::from_utf8_lossy(line.bytes);
        let source = (
            line.file,
            if line.file == input::ARGUMENT {
                1
            } else {
                line.number
            },
        );
        any_invalid |= !expand_one(args, &mut printer, (&variables, value_bytes), source, &text)?;
        printer.end_input()
    })?;
    printer.finish()?;
    Ok(Status::of(all_read, any_invalid))
}

/// The most bytes the variable `name` can add to an expansion each time an expression names it: each
/// member percent-encoded (3 bytes a byte), with a separator and, exploded, the name and `=` before it
/// (RFC 6570 3.2.1).
fn value_size(name: &str, value: &Value) -> usize {
    let member = |len: usize| 3 * len + name.len() + 2;
    match value {
        Value::String(s) => member(s.len()),
        Value::List(items) => items.iter().map(|i| member(i.len())).sum(),
        Value::Map(members) => members
            .iter()
            .map(|(k, v)| member(k.len() + v.len() + 1))
            .sum(),
        // A kind of value added later: counted as large as the limit, refusing expressions that name
        // it rather than guessing.
        _ => input::MAX_EXPANSION,
    }
}

/// The variables of `--vars` and the `NAME=VALUE` arguments, or a usage error's message.
fn variables(args: &Args) -> Result<HashMap<String, Value>, String> {
    let mut vars = HashMap::new();
    if let Some(path) = &args.vars {
        let name = input::escape_name(&path.to_string_lossy());
        // A regular file of at most 1 MiB: not /dev/zero, not a FIFO that never ends.
        let text = input::read_option_file(path)?;
        let json: Ordered =
            serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON: {e}"))?;
        let Ordered::Object(object) = json else {
            return Err(format!("{name}: expected a JSON object of variables"));
        };
        for (key, value) in object {
            if let Some(value) = from_json(&value) {
                vars.insert(key, value);
            }
        }
    }
    for assignment in &args.assignments {
        let Some((name, value)) = assignment.split_once('=') else {
            return Err(format!(
                "expected NAME=VALUE, found {:?}",
                input::escape_name(assignment)
            ));
        };
        vars.insert(name.to_owned(), Value::from(value));
    }
    Ok(vars)
}

/// A JSON value whose objects keep their members in file order (an associative array is expanded in
/// its order, RFC 6570 2.3), with numbers and booleans as their text.
#[derive(Debug)]
enum Ordered {
    Null,
    Scalar(String),
    Array(Vec<Ordered>),
    Object(Vec<(String, Ordered)>),
}

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Ordered::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut members = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Ordered>()? {
                    members.push((key, value));
                }
                Ok(Ordered::Object(members))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// A JSON value as a template value; `null` is undefined (and so are an empty list or object, RFC 6570
/// 2.3). Inside a list or object, `null` is the empty string and a nested list or object its members
/// joined by `,`.
fn from_json(json: &Ordered) -> Option<Value> {
    fn scalar(j: &Ordered) -> String {
        match j {
            Ordered::Scalar(s) => s.clone(),
            Ordered::Null => String::new(),
            Ordered::Array(items) => {
                let items: Vec<String> = items.iter().map(scalar).collect();
                items.join(",")
            }
            Ordered::Object(members) => {
                let members: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{k},{}", scalar(v)))
                    .collect();
                members.join(",")
            }
        }
    }
    match json {
        Ordered::Null => None,
        Ordered::Array(items) => Some(Value::List(items.iter().map(scalar).collect())),
        Ordered::Object(members) => Some(Value::Map(
            members
                .iter()
                .map(|(k, v)| (k.clone(), scalar(v)))
                .collect(),
        )),
        Ordered::Scalar(s) => Some(Value::String(s.clone())),
    }
}

/// Why a template has no expansion.
enum Failure {
    /// Not a template, or not expandable with these variables (RFC 6570).
    Template(TemplateError),
    /// Over a limit of the tool: the message.
    TooLarge(String),
}

/// Expands one template, checks the result and prints the record; returns whether it was valid.
///
/// A template over [`input::MAX_TEMPLATE`] bytes, or whose expansion could exceed
/// [`input::MAX_EXPANSION`] bytes (each expression counted as every variable's value, encoded), is
/// refused before it is parsed: memory stays bounded whatever the template and the variables.
fn expand_one(
    args: &Args,
    printer: &mut Printer,
    (variables, value_bytes): (&HashMap<String, Value>, usize),
    (source, line): (&str, u64),
    template: &str,
) -> io::Result<bool> {
    let expressions = memchr::memchr_iter(b'{', template.as_bytes()).count();
    let bound = template
        .len()
        .saturating_add(expressions.saturating_mul(value_bytes));
    let too_large = |what, limit| format!("the {what} could exceed the limit of {limit} bytes");
    let expanded = if template.len() > input::MAX_TEMPLATE {
        Err(Failure::TooLarge(too_large(
            "template",
            input::MAX_TEMPLATE,
        )))
    } else if bound > input::MAX_EXPANSION {
        Err(Failure::TooLarge(too_large(
            "expansion",
            input::MAX_EXPANSION,
        )))
    } else {
        UriTemplate::parse(template)
            .and_then(|t| t.expand(variables))
            .map_err(Failure::Template)
    };
    let checked = expanded
        .as_ref()
        .ok()
        .map(|text| rfc3986::validate(args.rule, text));
    let valid = matches!(checked, Some(Ok(())));
    match printer.format {
        Format::Text => match (&expanded, &checked) {
            (Ok(text), Some(Ok(()))) => printer.text(text)?,
            (Ok(text), Some(Err(e))) => {
                let note = format!(
                    "the expansion of the template is not a {} (RFC 3986)",
                    args.rule.abnf_name()
                );
                printer
                    .diagnostic(&Diagnostic::error(source, line, text, e).with_note(Some(&note)))?;
            }
            (Err(Failure::Template(e)), _) => {
                printer.diagnostic(&template_diagnostic(source, line, template, e))?
            }
            (Err(Failure::TooLarge(message)), _) => printer.diagnostic(&Diagnostic::at(
                source,
                line,
                template,
                0..0,
                message.clone(),
            ))?,
            (Ok(_), None) => {}
        },
        _ => {
            let redact = printer.redact();
            printer.record(&ResultJson {
                line,
                template,
                expanded: expanded.as_deref().ok(),
                valid,
                template_error: expanded.as_ref().err().map(|e| match e {
                    Failure::Template(e) => template_error_json(e, template),
                    Failure::TooLarge(message) => TemplateErrorJson {
                        offset: 0,
                        column: 1,
                        expected: Vec::new(),
                        message: message.clone(),
                    },
                }),
                error: match (&expanded, &checked) {
                    (Ok(text), Some(Err(e))) => Some(ErrorJson::redacted_if(redact, e, text)),
                    _ => None,
                },
            })?;
        }
    }
    Ok(valid)
}

/// The diagnostic of a template that could not be parsed or expanded (RFC 6570).
fn template_diagnostic<'a>(
    source: &'a str,
    line: u64,
    template: &'a str,
    error: &TemplateError,
) -> Diagnostic<'a> {
    let offset = error.offset().min(template.len());
    let end = offset + template[offset..].chars().next().map_or(0, char::len_utf8);
    // The position is the diagnostic's; the message is the error's without its "at byte N: ".
    let full = error.to_string();
    let (message, label, help) = match error {
        TemplateError::Syntax { expected, hint, .. } => (
            "not a URI Template (RFC 6570 section 2)".to_owned(),
            (!expected.is_empty()).then(|| format!("expected {}", or_list(expected))),
            hint.map(str::to_owned),
        ),
        _ => (
            full.split_once(": ")
                .map_or(full.clone(), |(_, m)| m.to_owned()),
            None,
            None,
        ),
    };
    Diagnostic {
        severity: Severity::Error,
        source,
        line,
        input: template,
        span: offset..end,
        words: Words::Own {
            message,
            label,
            help,
        },
        note: None,
        code: None,
        plain_snippet: true,
    }
}

/// `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn template_error_json(error: &TemplateError, template: &str) -> TemplateErrorJson {
    TemplateErrorJson {
        offset: error.offset(),
        column: report::column(template, error.offset()),
        expected: match error {
            TemplateError::Syntax { expected, .. } => expected.clone(),
            _ => Vec::new(),
        },
        message: error.to_string(),
    }
}
