//! Reads `uri.pest` as data and generates what the library compiles from it; `uri.pest` stays the only
//! place where URI syntax is written. The stages are modules of `build/` (each with unit tests in
//! `tests/generator.rs`, which includes them):
//!
//! - `build/read.rs`: the grammar read with pest_meta, the table of rules with their ABNF names, and the
//!   derived grammars: the entry rules and the *detail* grammar (every rule and quoted string visible);
//! - `build/analyse.rs`: byte classes, FIRST sets, which rules record component events;
//! - `build/program.rs`: the grammar lowered into the matcher's program (shared with the run-time loader,
//!   which interprets it);
//! - `build/emit.rs`: the program printed as Rust (the compiled recognizer, the fast path) and the byte
//!   classes of the components;
//! - `build/diagnose.rs`: the diagnostic twin, which explains a rejection as pest would;
//! - `build/components.rs`: named constants for the component rules' slots;
//! - `build/tables.rs`: the rule table and the pest_derive parsers (the reference engine);
//! - `build/layout.rs`: lays out the generated code one statement per line.
//!
//! Into `OUT_DIR` go `fastpath.rs`, `classes.rs`, `components.rs`, `diagnose.rs`, `grammar.rs`,
//! `entries.pest` and `detail.pest`.

use std::env;
use std::fs;
use std::path::PathBuf;

#[path = "build/analyse.rs"]
mod analyse;
#[path = "build/components.rs"]
mod components;
#[path = "build/diagnose.rs"]
mod diagnose;
#[path = "build/emit.rs"]
mod emit;
#[path = "build/layout.rs"]
mod layout;
#[path = "build/program.rs"]
mod program;
#[path = "build/read.rs"]
#[allow(dead_code)] // the run-time loader uses all of it, the build part
mod read;
#[path = "build/tables.rs"]
mod tables;

include!("src/component_rules.rs");

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let grammar_path = manifest_dir.join("uri.pest");
    println!("cargo:rerun-if-changed=uri.pest");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=src/component_rules.rs");
    let write = |name: &str, text: &str| {
        fs::write(out_dir.join(name), text).unwrap_or_else(|e| panic!("write {name}: {e}"))
    };

    let text = fs::read_to_string(&grammar_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", grammar_path.display()));
    let grammar = read::read(&text).unwrap_or_else(|e| panic!("uri.pest: {e}"));

    match emit::generate(&grammar.ast, &grammar.rules, &COMPONENT_RULES) {
        Ok(code) => write("fastpath.rs", &code),
        Err(message) => panic!("uri.pest cannot be compiled into the fast path: {message}"),
    }
    write("classes.rs", &emit::classes(&grammar.ast));
    match components::constants(&COMPONENT_RULES, &grammar.ast) {
        Ok(code) => write("components.rs", &code),
        Err(message) => panic!("src/component_rules.rs and uri.pest: {message}"),
    }
    write("entries.pest", &grammar.entries);
    write("detail.pest", &grammar.detail);

    // The detail grammar as pest_derive sees it (optimized), compiled with pest's record of attempts.
    let detail_rules =
        read::optimized(&grammar.detail).unwrap_or_else(|e| panic!("detail.pest: {e}"));
    let names: Vec<String> = grammar.rules.iter().map(|r| r.name.clone()).collect();
    // A literal as the detail parser's messages have it: the text between the quotes as written.
    let items = diagnose::items(
        &detail_rules,
        &names,
        |name| {
            (grammar.literals.iter())
                .find(|(rule, _)| rule == name)
                .map(|(_, text)| text.clone())
        },
        read::ENTRY_PREFIX,
    );
    match diagnose::generate(&detail_rules, &items, &grammar.rules, read::ENTRY_PREFIX) {
        Ok(code) => write("diagnose.rs", &code),
        Err(message) => panic!("uri.pest cannot be compiled into the diagnostic twin: {message}"),
    }

    write(
        "grammar.rs",
        &tables::grammar_rs(
            &grammar.rules,
            &grammar.literals,
            &grammar_path.display().to_string(),
            &out_dir.join("entries.pest").display().to_string(),
            &out_dir.join("detail.pest").display().to_string(),
        ),
    );
}
