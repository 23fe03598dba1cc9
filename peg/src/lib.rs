//! The generator of the `rfc3986` crate: reads a `.pest` grammar as data and compiles it into the two
//! programs the crate runs, a *recognizer* (does the input match, and where are its components?) and an
//! *explainer* (where and why does a rejected input fail, as pest's attempt tracking would say?), then
//! writes them as Rust.
//!
//! The stages, in the order data flows:
//!
//! - [`read`]: the grammar read with pest_meta, the table of rules with their ABNF names, and the
//!   derived grammars: the entry rules and the *detail* grammar (every rule and quoted string visible);
//! - [`analyse`]: byte classes, FIRST sets, which rules record component events;
//! - [`program`]: the grammar lowered into the recognizer's program (which `rfc3986`'s run-time engine
//!   interprets for grammars loaded at run time);
//! - [`emit`]: the program written as Rust (the compiled recognizer) and the byte classes of the
//!   components;
//! - [`explainer`]: the explainer, which records pest's attempts at the furthest position to explain a
//!   rejection, and its tables (skip, stop, triplet and run tables of repetitions);
//! - [`components`]: named constants for the component rules' slots;
//! - [`tables`]: the rule table and the pest_derive reference parsers;
//! - [`layout`]: the generated code laid out one statement per line.
//!
//! [`generate`] runs them all for `rfc3986`'s build script.

pub mod analyse;
pub mod components;
pub mod emit;
pub mod explainer;
pub mod layout;
pub mod program;
pub mod read;
pub mod tables;

use std::path::Path;

/// One file the build script writes into `OUT_DIR`: its name and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The file name (`generated_recognizer.rs`, `detail.pest`, ...).
    pub name: &'static str,
    /// The file's contents.
    pub text: String,
}

/// Everything `rfc3986` compiles from its grammar: `grammar_text` is the grammar (`uri.pest`) read from
/// `grammar_path`, `components` the rules whose spans become a value's components (in slot order), and
/// `out_dir` the directory the files will be written to (the reference parsers name the `.pest` files
/// there by their path).
///
/// The files: `generated_recognizer.rs`, `generated_classes.rs`, `generated_components.rs`,
/// `generated_explainer.rs`, `generated_rules.rs`, `generated_reference.rs`, `entries.pest` and
/// `detail.pest`.
///
/// # Errors
/// A message naming the stage when the grammar cannot be read or compiled.
pub fn generate(
    grammar_text: &str,
    grammar_path: &Path,
    components: &[&str],
    out_dir: &Path,
) -> Result<Vec<Output>, String> {
    let grammar = read::read(grammar_text)?;
    let mut out = Vec::new();
    let mut push = |name, text| out.push(Output { name, text });

    let recognizer = emit::generate(&grammar.ast, &grammar.rules, components)
        .map_err(|m| format!("cannot be compiled into the recognizer: {m}"))?;
    push("generated_recognizer.rs", recognizer);
    push("generated_classes.rs", emit::classes(&grammar.ast));
    push(
        "generated_components.rs",
        components::constants(components, &grammar.ast)
            .map_err(|m| format!("component rules: {m}"))?,
    );

    // The detail grammar as pest_derive sees it (optimized), compiled with pest's record of attempts.
    let detail_rules =
        read::optimized(&grammar.detail).map_err(|e| format!("detail grammar: {e}"))?;
    let names: Vec<String> = grammar.rules.iter().map(|r| r.name.clone()).collect();
    // A literal as the detail parser's messages have it: the text between the quotes as written.
    let items = explainer::items(
        &detail_rules,
        &names,
        |name| {
            (grammar.literals.iter())
                .find(|(rule, _)| rule == name)
                .map(|(_, text)| text.clone())
        },
        read::ENTRY_PREFIX,
    );
    let explainer = explainer::generate(&detail_rules, &items, &grammar.rules, read::ENTRY_PREFIX)
        .map_err(|m| format!("cannot be compiled into the explainer: {m}"))?;
    push("generated_explainer.rs", explainer);

    push("generated_rules.rs", tables::rules_rs(&grammar.rules));
    push(
        "generated_reference.rs",
        tables::reference_rs(
            &grammar.rules,
            &grammar.literals,
            &grammar_path.display().to_string(),
            &out_dir.join("entries.pest").display().to_string(),
            &out_dir.join("detail.pest").display().to_string(),
        ),
    );
    push("entries.pest", grammar.entries);
    push("detail.pest", grammar.detail);
    Ok(out)
}

/// The detail parser of a second grammar (`grammars/iri.pest`, `grammars/uri-template.pest`), for
/// explaining its rejections as [`generate`]'s explainer does for `uri.pest`: its detail grammar (every
/// rule normal, every quoted string a rule, an entry rule per rule) written to `out_dir/detail_name`,
/// and Rust (`rust_name`) holding the pest_derive parser of it (`DetailParser`), `detail_entry` (the
/// entry rule of the rule with a given ABNF or pest name) and `detail_expected` (what a rule of the
/// detail parser stands for in an error: a rule by its ABNF name, a quoted string, the end of input;
/// `detail_spelling`, the same as text).
/// The Rust is meant to be `include!`d in a module that has `Cow` and `Expected` in scope.
///
/// # Errors
/// A message when the grammar cannot be read.
pub fn detail_parser(
    grammar_text: &str,
    grammar_name: &str,
    detail_name: &'static str,
    rust_name: &'static str,
    out_dir: &Path,
) -> Result<Vec<Output>, String> {
    use std::fmt::Write as _;
    let grammar = read::read(grammar_text)?;
    let detail_abs = out_dir.join(detail_name).display().to_string();
    let entry = read::ENTRY_PREFIX;
    let mut rs = String::new();
    let _ = writeln!(
        rs,
        "// Generated by build.rs (rfc3986-peg) from {grammar_name}: the parser that explains rejections.\n\
         /// The detail grammar of `{grammar_name}` (every rule normal, every literal a rule), by pest_derive.\n\
         #[derive(pest_derive::Parser)]\n\
         #[grammar = {detail_abs:?}]\n\
         pub(crate) struct DetailParser;\n\n\
         /// The whole-input entry rule of the rule named `name` (ABNF or pest spelling).\n\
         pub(crate) fn detail_entry(name: &str) -> Option<Rule> {{\n    match name {{"
    );
    for rule in &grammar.rules {
        let names = if rule.abnf == rule.name {
            format!("{:?}", rule.name)
        } else {
            format!("{:?} | {:?}", rule.abnf, rule.name)
        };
        let _ = writeln!(rs, "        {names} => Some(Rule::{entry}{}),", rule.name);
    }
    rs.push_str("        _ => None,\n    }\n}\n\n");
    rs.push_str(
        "/// What a rule of the detail parser stands for in an error's list of expected items.\n\
         #[allow(dead_code)]\n\
         pub(crate) fn detail_expected(rule: Rule) -> Expected {\n    match rule {\n",
    );
    for rule in &grammar.rules {
        let _ = writeln!(
            rs,
            "        Rule::{} => Expected::Rule(Cow::Borrowed({:?})),",
            rule.name, rule.abnf
        );
        let _ = writeln!(
            rs,
            "        Rule::{entry}{} => Expected::EndOfInput,",
            rule.name
        );
    }
    for (rule, text) in &grammar.literals {
        let _ = writeln!(
            rs,
            "        Rule::{rule} => Expected::Literal(Cow::Borrowed({text:?})),"
        );
    }
    rs.push_str("        Rule::EOI => Expected::EndOfInput,\n    }\n}\n\n");
    rs.push_str(
        "/// How `detail_expected` of the rule is displayed: an ABNF name, a quoted string in double\n\
         /// quotes, `end of input`.\n\
         #[allow(dead_code)]\n\
         pub(crate) fn detail_spelling(rule: Rule) -> &'static str {\n    match rule {\n",
    );
    for rule in &grammar.rules {
        let _ = writeln!(rs, "        Rule::{} => {:?},", rule.name, rule.abnf);
        let _ = writeln!(
            rs,
            "        Rule::{entry}{} => \"end of input\",",
            rule.name
        );
    }
    for (rule, text) in &grammar.literals {
        let _ = writeln!(rs, "        Rule::{rule} => {:?},", format!("\"{text}\""));
    }
    rs.push_str("        Rule::EOI => \"end of input\",\n    }\n}\n");
    Ok(vec![
        Output {
            name: detail_name,
            text: grammar.detail,
        },
        Output {
            name: rust_name,
            text: rs,
        },
    ])
}
