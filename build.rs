//! Reads `uri.pest` as data and prepares what the library compiles from it.
//!
//! `uri.pest` stays the only place where URI syntax is written. From it this script writes, into `OUT_DIR`:
//!
//! - `entries.pest`: one entry rule `entry_NAME = _{ SOI ~ NAME ~ EOI }` per grammar rule, so that every rule
//!   can be matched against a whole input (the derived parser of `uri.pest` + `entries.pest` is the one that
//!   produces the values);
//! - `detail.pest`: a copy of `uri.pest` in which every rule is normal (no `_`, `@`, `$`, `!` modifier) and
//!   every quoted string is replaced by a rule `lit_N` that matches it, plus the same entry rules. The
//!   language is unchanged (the grammar has no implicit WHITESPACE or COMMENT, so atomicity does not change
//!   what matches); what changes is that pest's error positions name every rule and literal that was tried
//!   at the failing byte. It is parsed only to explain a rejected input;
//! - `grammar.rs`: the two `#[derive(Parser)]` structs over those files and a table of the rules with the
//!   ABNF spelling of their names (read from the first `///` line of each rule: `URI-reference = ...`).

use std::collections::BTreeMap;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use pest_meta::parser::{self, Rule as MetaRule};

const ENTRY_PREFIX: &str = "entry_";
const LITERAL_PREFIX: &str = "lit_";

struct GrammarRule {
    /// The pest name (`uri_reference`).
    name: String,
    /// The ABNF spelling (`URI-reference`), from the first doc line, or the pest name if there is none.
    abnf: String,
    /// The ABNF definition as quoted in the doc (`URI / relative-ref`), possibly empty.
    definition: String,
    /// The RFC section from the second doc line (`RFC 3986 section 4.1.`), possibly empty.
    source: String,
}

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let grammar_path = manifest_dir.join("uri.pest");
    println!("cargo:rerun-if-changed=uri.pest");
    println!("cargo:rerun-if-changed=build.rs");

    let text = fs::read_to_string(&grammar_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", grammar_path.display()));
    let pairs = match parser::parse(MetaRule::grammar_rules, &text) {
        Ok(pairs) => pairs,
        Err(e) => panic!("uri.pest is not a valid pest grammar:\n{e}"),
    };

    let mut rules: Vec<GrammarRule> = Vec::new();
    let mut docs: Vec<String> = Vec::new();
    // Byte ranges of `uri.pest` to rewrite in the detail copy: (start, end, replacement).
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    // Literal source text (`"/"`, `^"v"`) -> its rule name, in order of first use.
    let mut literals: BTreeMap<String, String> = BTreeMap::new();
    let mut literal_order: Vec<String> = Vec::new();

    for pair in pairs {
        if pair.as_rule() != MetaRule::grammar_rule {
            continue;
        }
        let mut inner = pair.into_inner();
        let Some(first) = inner.next() else { continue };
        if first.as_rule() == MetaRule::line_doc {
            let doc = first.into_inner().next().map(|p| p.as_str()).unwrap_or("");
            docs.push(doc.trim().to_string());
            continue;
        }
        let name = first.as_str().to_string();
        if name.starts_with(ENTRY_PREFIX) || name.starts_with(LITERAL_PREFIX) {
            panic!(
                "uri.pest: rule `{name}`: names starting with `{ENTRY_PREFIX}` or \
                 `{LITERAL_PREFIX}` are reserved for rules the build generates"
            );
        }
        let (abnf, definition) = match docs.first().and_then(|d| d.split_once(" = ")) {
            Some((abnf, def)) => (abnf.trim().to_string(), def.trim().to_string()),
            None => (name.clone(), String::new()),
        };
        let source = docs.get(1).cloned().unwrap_or_default();
        rules.push(GrammarRule {
            name,
            abnf,
            definition,
            source,
        });
        docs.clear();

        for part in inner.flatten() {
            match part.as_rule() {
                MetaRule::silent_modifier
                | MetaRule::atomic_modifier
                | MetaRule::compound_atomic_modifier
                | MetaRule::non_atomic_modifier => {
                    let span = part.as_span();
                    edits.push((span.start(), span.end(), String::new()));
                }
                MetaRule::string | MetaRule::insensitive_string => {
                    let span = part.as_span();
                    // The string inside an insensitive_string is covered by the outer edit.
                    if edits
                        .last()
                        .is_some_and(|&(s, e, _)| s <= span.start() && span.end() <= e)
                    {
                        continue;
                    }
                    let source = part.as_str().to_string();
                    let next = format!("{LITERAL_PREFIX}{}", literals.len());
                    let name = literals
                        .entry(source.clone())
                        .or_insert_with(|| {
                            literal_order.push(source.clone());
                            next
                        })
                        .clone();
                    edits.push((span.start(), span.end(), name));
                }
                _ => {}
            }
        }
    }
    if rules.is_empty() {
        panic!("uri.pest defines no rules");
    }

    // entries.pest
    let mut entries =
        String::from("// Generated by build.rs from uri.pest: one whole-input entry per rule.\n");
    for rule in &rules {
        let _ = writeln!(
            entries,
            "{ENTRY_PREFIX}{0} = _{{ SOI ~ {0} ~ EOI }}",
            rule.name
        );
    }
    fs::write(out_dir.join("entries.pest"), &entries).expect("write entries.pest");

    // detail.pest
    edits.sort_by_key(|&(s, _, _)| s);
    let mut detail = String::with_capacity(text.len() * 2);
    let mut at = 0;
    for (start, end, replacement) in &edits {
        detail.push_str(&text[at..*start]);
        detail.push_str(replacement);
        at = *end;
    }
    detail.push_str(&text[at..]);
    detail.push_str("\n// Generated by build.rs: one rule per quoted string of uri.pest.\n");
    for source in &literal_order {
        let _ = writeln!(detail, "{} = {{ {source} }}", literals[source]);
    }
    detail.push_str(&entries);
    fs::write(out_dir.join("detail.pest"), &detail).expect("write detail.pest");

    // grammar.rs
    let mut rs = String::new();
    let grammar_abs = grammar_path.display().to_string();
    let entries_abs = out_dir.join("entries.pest").display().to_string();
    let detail_abs = out_dir.join("detail.pest").display().to_string();
    let _ = writeln!(
        rs,
        "// Generated by build.rs from uri.pest.\n\
         /// The parser that produces values: `uri.pest` as written, plus one entry rule per rule.\n\
         pub(crate) mod fast {{\n\
         #[derive(pest_derive::Parser)]\n\
         #[grammar = {grammar_abs:?}]\n\
         #[grammar = {entries_abs:?}]\n\
         pub(crate) struct FastParser;\n\
         }}\n\
         /// The parser that explains rejections: every rule normal, every literal a rule.\n\
         pub(crate) mod detail {{\n\
         #[derive(pest_derive::Parser)]\n\
         #[grammar = {detail_abs:?}]\n\
         pub(crate) struct DetailParser;\n\
         }}\n"
    );

    // The rule table, in the order of uri.pest.
    rs.push_str("/// Every rule of `uri.pest`, in file order.\n");
    rs.push_str("pub(crate) static RULES: &[RuleInfo] = &[\n");
    for rule in &rules {
        let _ = writeln!(
            rs,
            "    RuleInfo {{ name: {:?}, abnf: {:?}, definition: {:?}, source: {:?} }},",
            rule.name, rule.abnf, rule.definition, rule.source
        );
    }
    rs.push_str("];\n\n");

    // Public constants on `Rule`, one per rule.
    rs.push_str("impl Rule {\n");
    for (i, rule) in rules.iter().enumerate() {
        let doc = if rule.definition.is_empty() {
            format!("The rule `{}` of `uri.pest`.", rule.abnf)
        } else {
            format!(
                "`{} = {}` ({}).",
                rule.abnf,
                rule.definition,
                rule.source.trim_end_matches('.')
            )
        };
        let _ = writeln!(
            rs,
            "    #[doc = {doc:?}]\n    pub const {}: Rule = Rule({i});",
            rule.name.to_uppercase()
        );
    }
    rs.push_str("}\n\n");

    // Entry rule of each grammar rule, for both parsers.
    for (module, ty) in [("fast", "fast::Rule"), ("detail", "detail::Rule")] {
        let _ = writeln!(
            rs,
            "/// The whole-input entry rule of rule `i` in the {module} parser.\n\
             pub(crate) fn {module}_entry(i: usize) -> {ty} {{\n    match i {{"
        );
        for (i, rule) in rules.iter().enumerate() {
            let _ = writeln!(rs, "        {i} => {ty}::{ENTRY_PREFIX}{},", rule.name);
        }
        let _ = writeln!(
            rs,
            "        _ => unreachable!(\"rule index {{i}} out of range\"),\n    }}\n}}\n"
        );
    }

    // The fast parser's rules by name (the builder listens for component names).
    rs.push_str(
        "/// The pest name of a rule of the fast parser (`EOI` and entry rules included).\n\
         pub(crate) fn fast_rule_name(rule: fast::Rule) -> &'static str {\n    match rule {\n",
    );
    for rule in &rules {
        let _ = writeln!(rs, "        fast::Rule::{0} => {0:?},", rule.name);
    }
    for rule in &rules {
        let _ = writeln!(
            rs,
            "        fast::Rule::{ENTRY_PREFIX}{0} => \"{ENTRY_PREFIX}{0}\",",
            rule.name
        );
    }
    rs.push_str("        fast::Rule::EOI => \"EOI\",\n    }\n}\n\n");

    // What a detail rule means in an error message.
    rs.push_str(
        "/// What a rule of the detail parser stands for in an error's list of expected items.\n\
         pub(crate) fn detail_expected(rule: detail::Rule) -> Expected {\n    match rule {\n",
    );
    for (i, rule) in rules.iter().enumerate() {
        let _ = writeln!(
            rs,
            "        detail::Rule::{} => Expected::rule(Rule({i})),",
            rule.name
        );
    }
    for rule in &rules {
        let _ = writeln!(
            rs,
            "        detail::Rule::{ENTRY_PREFIX}{} => Expected::EndOfInput,",
            rule.name
        );
    }
    for source in &literal_order {
        let literal = source.trim_start_matches('^');
        let inner = &literal[1..literal.len() - 1];
        let _ = writeln!(
            rs,
            "        detail::Rule::{} => Expected::Literal(Cow::Borrowed({inner:?})),",
            literals[source]
        );
    }
    rs.push_str("        detail::Rule::EOI => Expected::EndOfInput,\n    }\n}\n");

    fs::write(out_dir.join("grammar.rs"), rs).expect("write grammar.rs");
}
