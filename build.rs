//! Compiles `uri.pest` with the generator crate `rfc3986-peg` (`peg/`) into the files `src/` includes
//! from `OUT_DIR` (see `rfc3986_peg::generate`); `uri.pest` stays the only place where URI syntax is
//! written. The IRI and URI Template grammars (`grammars/`) get the detail parsers that explain their
//! rejections (`rfc3986_peg::detail_parser`).

use std::path::PathBuf;
use std::{env, fs};

include!("src/components/rules.rs");

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let grammar_path = manifest_dir.join("uri.pest");
    for path in ["uri.pest", "build.rs", "src/components/rules.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let text = fs::read_to_string(&grammar_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", grammar_path.display()));
    let files = rfc3986_peg::generate(&text, &grammar_path, &COMPONENT_RULES, &out_dir)
        .unwrap_or_else(|e| panic!("uri.pest: {e}"));
    let mut files = files;
    for (grammar, detail, rust) in [
        (
            "grammars/iri.pest",
            "iri_detail.pest",
            "generated_iri_detail.rs",
        ),
        (
            "grammars/uri-template.pest",
            "uri_template_detail.pest",
            "generated_uri_template_detail.rs",
        ),
    ] {
        println!("cargo:rerun-if-changed={grammar}");
        let path = manifest_dir.join(grammar);
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        files.extend(
            rfc3986_peg::detail_parser(&text, grammar, detail, rust, &out_dir)
                .unwrap_or_else(|e| panic!("{grammar}: {e}")),
        );
    }
    for file in files {
        let path = out_dir.join(file.name);
        fs::write(&path, file.text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}
