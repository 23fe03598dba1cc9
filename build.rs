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

#[path = "build/diagnose.rs"]
mod diagnose;

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
    println!("cargo:rerun-if-changed=src/component_rules.rs");

    let text = fs::read_to_string(&grammar_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", grammar_path.display()));
    let pairs = match parser::parse(MetaRule::grammar_rules, &text) {
        Ok(pairs) => pairs,
        Err(e) => panic!("uri.pest is not a valid pest grammar:\n{e}"),
    };

    let ast = match parser::consume_rules(pairs.clone()) {
        Ok(ast) => ast,
        Err(errors) => {
            let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("uri.pest:\n{}", messages.join("\n"));
        }
    };
    match fastpath::generate(&ast) {
        Ok(code) => fs::write(out_dir.join("fastpath.rs"), code).expect("write fastpath.rs"),
        Err(message) => panic!("uri.pest cannot be compiled into the fast path: {message}"),
    }
    fs::write(out_dir.join("classes.rs"), fastpath::classes(&ast)).expect("write classes.rs");

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

    // diagnose.rs: the detail grammar as pest_derive sees it (optimized), compiled with pest's record of
    // failed attempts.
    let detail_rules = match parser::parse(MetaRule::grammar_rules, &detail) {
        Ok(pairs) => match parser::consume_rules(pairs) {
            Ok(ast) => pest_meta::optimizer::optimize(ast),
            Err(errors) => panic!("detail.pest: {errors:?}"),
        },
        Err(e) => panic!("detail.pest is not a valid pest grammar:\n{e}"),
    };
    let literal_text: BTreeMap<&str, String> = literal_order
        .iter()
        .map(|source| {
            let literal = source.trim_start_matches('^');
            (
                literals[source].as_str(),
                literal[1..literal.len() - 1].to_string(),
            )
        })
        .collect();
    let names: Vec<String> = rules.iter().map(|r| r.name.clone()).collect();
    let items = diagnose::items(
        &detail_rules,
        &names,
        // As the detail parser's messages have them: the text between the quotes as written.
        |name| literal_text.get(name).cloned(),
        ENTRY_PREFIX,
    );
    match diagnose::generate(&detail_rules, &items, &names, ENTRY_PREFIX) {
        Ok(code) => fs::write(out_dir.join("diagnose.rs"), code).expect("write diagnose.rs"),
        Err(message) => panic!("uri.pest cannot be compiled into the diagnostic twin: {message}"),
    }

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

/// The compiled fast path: `uri.pest` turned into plain Rust over `&[u8]` (see `src/recognizer.rs`).
///
/// Each rule becomes a function `fn q_NAME(s: &[u8], p: usize) -> Option<usize>` that returns the position
/// after its match, with PEG semantics kept exactly: ordered choice commits to the first alternative that
/// matches, repetition is greedy and never gives back, predicates consume nothing. A rule whose match can
/// record events (it is a component rule, or calls one) also gets `fn r_NAME(s, p, ev: &mut Events)`. Only
/// the rules the builder listens for (`src/component_rules.rs`) record events: a non-silent one of them
/// records its span in the slot of its index there (`Events` in `src/recognizer.rs`); spans recorded inside a
/// branch that later fails are discarded by restoring the bit set of valid slots as it was where the branch
/// began. Rules called from inside an atomic (`@`) rule record nothing, as in
/// pest, so they are called through their quiet `q_` form.
///
/// What makes it fast, each step exact under PEG semantics:
/// - a *byte class* (an expression that matches exactly one ASCII byte of a set or fails: a one-byte
///   string, an ASCII range, a choice of classes, a rule whose body is a class and records nothing) is one
///   lookup in a 256-entry table;
/// - a choice is flattened (through calls of rules that record nothing) and all its class alternatives
///   are folded into one table tried first, when that cannot change the result: every other alternative
///   that comes before a class alternative must be unable to match the empty string and unable to start
///   with a byte of that class (its FIRST set, computed conservatively). `pchar = unreserved / pct-encoded /
///   sub-delims / ":" / "@"` becomes "one table lookup, else `pct-encoded`";
/// - a repetition of such a choice is a tight loop over the table;
/// - a repetition of a class followed by a repetition, `*( "/" *pchar )`, is one repetition of both when
///   the two cannot overlap (see `Gen::separated`), so a path is one loop, not one per segment;
/// - saving and restoring the recorded spans happens only around expressions that can record them.
mod fastpath {
    include!("src/component_rules.rs");

    use std::collections::HashMap;
    use std::fmt::Write as _;

    use pest_meta::ast::{Expr, Rule, RuleType};

    /// A set of bytes.
    type Set = [bool; 256];

    /// How deep the analyses follow rule calls (the grammar may be recursive).
    const DEPTH: usize = 16;

    pub(super) struct Gen<'g> {
        rules: HashMap<&'g str, &'g Rule>,
        /// `r_NAME` can record events: the rule records one, or its body calls one that does.
        pushes: HashMap<&'g str, bool>,
        /// Distinct byte tables, emitted as `T0`, `T1`, ...
        tables: Vec<Set>,
        counter: usize,
    }

    /// The byte classes of the components, as `u128` bit sets of ASCII bytes (bit `b` for byte `b`): the
    /// bytes each rule accepts as a single-byte alternative (through choices, repetitions and calls), so
    /// without `pct-encoded`. percent-encoding, normalization and lints use them instead of writing the
    /// character sets again.
    pub(super) fn classes(rules: &[Rule]) -> String {
        let gen = Gen {
            rules: rules.iter().map(|r| (r.name.as_str(), r)).collect(),
            pushes: rules.iter().map(|r| (r.name.as_str(), false)).collect(),
            tables: Vec::new(),
            counter: 0,
        };
        let mut out = String::from(
            "// Generated by build.rs from uri.pest: the single-byte alternatives of component rules.\n",
        );
        for (constant, rule, abnf) in [
            ("UNRESERVED", "unreserved", "unreserved"),
            ("SUB_DELIMS", "sub_delims", "sub-delims"),
            ("GEN_DELIMS", "gen_delims", "gen-delims"),
            ("USERINFO", "userinfo", "userinfo"),
            ("REG_NAME", "reg_name", "reg-name"),
            ("PCHAR", "pchar", "pchar"),
            ("QUERY", "query", "query"),
            ("FRAGMENT", "fragment", "fragment"),
        ] {
            let Some(r) = gen.rules.get(rule) else {
                panic!("uri.pest has no rule {rule}");
            };
            let set = gen.single_bytes(&r.expr, 0);
            let bits = (0..128u32)
                .filter(|&b| set[b as usize])
                .fold(0u128, |bits, b| bits | 1 << b);
            let _ = writeln!(
                out,
                "/// The bytes `{abnf}` accepts as one-byte alternatives (uri.pest).\n\
                 pub(crate) const {constant}: u128 = {bits:#034x};"
            );
        }
        out
    }

    pub(super) fn generate(rules: &[Rule]) -> Result<String, String> {
        for rule in rules {
            match rule.ty {
                RuleType::NonAtomic => {
                    return Err(format!(
                    "rule `{}`: non-atomic rules (`!{{...}}`) are not supported by the fast path",
                    rule.name
                ))
                }
                RuleType::Normal
                | RuleType::Silent
                | RuleType::Atomic
                | RuleType::CompoundAtomic => {}
            }
            if rule.name == "WHITESPACE" || rule.name == "COMMENT" {
                return Err(format!(
                    "rule `{}`: implicit whitespace and comments are not supported by the fast path",
                    rule.name
                ));
            }
        }
        let mut gen = Gen {
            rules: rules.iter().map(|r| (r.name.as_str(), r)).collect(),
            pushes: rules.iter().map(|r| (r.name.as_str(), false)).collect(),
            tables: Vec::new(),
            counter: 0,
        };
        // Least fixed point of "can record events" over the (possibly recursive) rules.
        loop {
            let mut changed = false;
            for rule in rules {
                let pushes = records(rule).is_some()
                    || (rule.ty != RuleType::Atomic && gen.expr_pushes(&rule.expr));
                if pushes && !gen.pushes[rule.name.as_str()] {
                    gen.pushes.insert(rule.name.as_str(), true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }

        let mut functions = String::new();
        for rule in rules {
            let body = gen.expr(&rule.expr, "p", true)?;
            let _ = writeln!(
                functions,
                "#[inline]\npub(super) fn q_{}(s: &[u8], p: usize) -> Option<usize> {{\n    {body}\n}}",
                rule.name
            );
            if gen.pushes[rule.name.as_str()] {
                // Inside an atomic rule, callees are quiet; a compound-atomic rule keeps its children.
                let body = gen.expr(&rule.expr, "p", rule.ty == RuleType::Atomic)?;
                let _ = writeln!(
                    functions,
                    "#[inline]\npub(super) fn r_{}(s: &[u8], p: usize, ev: &mut Events) -> Option<usize> {{",
                    rule.name
                );
                if let Some(component) = records(rule) {
                    let _ = writeln!(
                        functions,
                        "    let n = ev.push({component}, p);\n    let r = ({body});\n    \
                         match r {{ Some(q) => {{ ev.close({component}, q); Some(q) }} None => {{ ev.truncate(n); None }} }}\n}}"
                    );
                } else {
                    let _ = writeln!(functions, "    {body}\n}}");
                }
            }
        }

        let mut out = String::from(
            "// Generated by build.rs from uri.pest: the compiled fast path.\n\
             #[allow(dead_code, unused_variables, unused_mut, unused_labels, unused_parens, unused_braces, clippy::all)]\nmod generated {\n\
             use super::*;\n",
        );
        for (i, table) in gen.tables.iter().enumerate() {
            let cells: Vec<&str> = table
                .iter()
                .map(|&b| if b { "true" } else { "false" })
                .collect();
            let _ = writeln!(out, "static T{i}: [bool; 256] = [{}];", cells.join(", "));
        }
        out.push_str(&functions);
        out.push_str("}\n\n/// Matches rule number `rule` (in the order of uri.pest) against the whole input.\n");
        out.push_str("pub(crate) fn recognize(rule: usize, s: &[u8], ev: &mut Events) -> bool {\n    match rule {\n");
        for (i, rule) in rules.iter().enumerate() {
            if gen.pushes[rule.name.as_str()] {
                let _ = writeln!(
                    out,
                    "        {i} => generated::r_{}(s, 0, ev) == Some(s.len()),",
                    rule.name
                );
            } else {
                let _ = writeln!(
                    out,
                    "        {i} => generated::q_{}(s, 0) == Some(s.len()),",
                    rule.name
                );
            }
        }
        out.push_str("        _ => false,\n    }\n}\n");
        out.push_str(
            "\n/// Whether rule number `rule` matches the whole input, recording nothing.\n",
        );
        out.push_str(
            "pub(crate) fn recognize_quiet(rule: usize, s: &[u8]) -> bool {\n    match rule {\n",
        );
        for (i, rule) in rules.iter().enumerate() {
            let _ = writeln!(
                out,
                "        {i} => generated::q_{}(s, 0) == Some(s.len()),",
                rule.name
            );
        }
        out.push_str("        _ => false,\n    }\n}\n");
        Ok(out)
    }

    /// The event number a rule records, if it is a component rule the builder listens for (and not silent:
    /// pest gives no pair for a silent rule).
    fn records(rule: &Rule) -> Option<usize> {
        if rule.ty == RuleType::Silent {
            return None;
        }
        COMPONENT_RULES.iter().position(|&name| name == rule.name)
    }

    fn bytes(text: &str) -> String {
        let mut b = String::from("b\"");
        for byte in text.bytes() {
            let _ = write!(b, "\\x{byte:02x}");
        }
        b.push('"');
        b
    }

    fn empty() -> Set {
        [false; 256]
    }

    fn full() -> Set {
        [true; 256]
    }

    fn range(lo: u8, hi: u8) -> Set {
        let mut set = empty();
        for b in lo..=hi {
            set[b as usize] = true;
        }
        set
    }

    fn union(a: &mut Set, b: &Set) {
        for (x, y) in a.iter_mut().zip(b) {
            *x |= *y;
        }
    }

    fn meets(a: &Set, b: &Set) -> bool {
        a.iter().zip(b).any(|(x, y)| *x && *y)
    }

    /// The set of a builtin class rule of pest that the fast path supports.
    fn builtin_class(name: &str) -> Option<Set> {
        Some(match name {
            "ASCII_DIGIT" => range(b'0', b'9'),
            "ASCII_ALPHA" => {
                let mut set = range(b'a', b'z');
                union(&mut set, &range(b'A', b'Z'));
                set
            }
            "ASCII_HEX_DIGIT" => {
                let mut set = range(b'0', b'9');
                union(&mut set, &range(b'a', b'f'));
                union(&mut set, &range(b'A', b'F'));
                set
            }
            _ => return None,
        })
    }

    fn single_char(text: &str) -> Result<char, String> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(format!("range bound {text:?} is not one character")),
        }
    }

    fn flatten_seq<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::Seq(a, b) => {
                flatten_seq(a, out);
                flatten_seq(b, out);
            }
            other => out.push(other),
        }
    }

    impl<'g> Gen<'g> {
        fn label(&mut self) -> String {
            self.counter += 1;
            format!("'b{}", self.counter)
        }

        fn var(&mut self) -> String {
            self.counter += 1;
            format!("p{}", self.counter)
        }

        /// Whether matching `e` outside an atomic rule can record events.
        fn expr_pushes(&self, e: &Expr) -> bool {
            match e {
                Expr::Ident(name) => self.pushes.get(name.as_str()).copied().unwrap_or(false),
                Expr::PosPred(_) | Expr::NegPred(_) => false,
                Expr::Seq(a, b) | Expr::Choice(a, b) => self.expr_pushes(a) || self.expr_pushes(b),
                Expr::Opt(inner)
                | Expr::Rep(inner)
                | Expr::RepOnce(inner)
                | Expr::RepExact(inner, _)
                | Expr::RepMin(inner, _)
                | Expr::RepMax(inner, _)
                | Expr::RepMinMax(inner, _, _) => self.expr_pushes(inner),
                _ => false,
            }
        }

        /// Whether matching `e` in this context (`quiet`: inside an atomic rule) can record events.
        fn pushes(&self, e: &Expr, quiet: bool) -> bool {
            !quiet && self.expr_pushes(e)
        }

        /// The body of rule `name` as called in this context, if the call records nothing (so the body may
        /// be analysed or inlined in place of the call), with the quietness its body runs under.
        fn inlinable(&self, name: &str, quiet: bool) -> Option<(&'g Expr, bool)> {
            let rule = self.rules.get(name)?;
            if !quiet && self.pushes[name] {
                return None;
            }
            Some((&rule.expr, quiet || rule.ty == RuleType::Atomic))
        }

        /// The union of the byte classes among the alternatives of `e`, looking through choices,
        /// repetitions, options and rule calls; a sequence (`pct-encoded`) contributes nothing.
        fn single_bytes(&self, e: &Expr, depth: usize) -> Set {
            if let Some(set) = self.class(e, true, 0) {
                return set;
            }
            match e {
                Expr::Choice(a, b) => {
                    let mut set = self.single_bytes(a, depth);
                    union(&mut set, &self.single_bytes(b, depth));
                    set
                }
                Expr::Rep(x)
                | Expr::RepOnce(x)
                | Expr::Opt(x)
                | Expr::RepExact(x, _)
                | Expr::RepMin(x, _)
                | Expr::RepMax(x, _)
                | Expr::RepMinMax(x, _, _) => self.single_bytes(x, depth),
                Expr::Ident(name) if depth < DEPTH => match self.rules.get(name.as_str()) {
                    Some(rule) => self.single_bytes(&rule.expr, depth + 1),
                    None => empty(),
                },
                _ => empty(),
            }
        }

        /// `Some(set)` when `e` matches exactly one byte, which is ASCII and in `set`, or fails.
        fn class(&self, e: &Expr, quiet: bool, depth: usize) -> Option<Set> {
            match e {
                Expr::Str(text) if text.len() == 1 && text.is_ascii() => {
                    Some(range(text.as_bytes()[0], text.as_bytes()[0]))
                }
                Expr::Insens(text) if text.len() == 1 && text.is_ascii() => {
                    let b = text.as_bytes()[0];
                    let mut set = range(b.to_ascii_lowercase(), b.to_ascii_lowercase());
                    union(
                        &mut set,
                        &range(b.to_ascii_uppercase(), b.to_ascii_uppercase()),
                    );
                    Some(set)
                }
                Expr::Range(a, b) => {
                    let (a, b) = (single_char(a).ok()?, single_char(b).ok()?);
                    if a.is_ascii() && b.is_ascii() {
                        Some(if a <= b {
                            range(a as u8, b as u8)
                        } else {
                            empty()
                        })
                    } else {
                        None
                    }
                }
                Expr::Ident(name) => {
                    if let Some(set) = builtin_class(name) {
                        return Some(set);
                    }
                    if depth >= DEPTH {
                        return None;
                    }
                    let (body, quiet) = self.inlinable(name, quiet)?;
                    self.class(body, quiet, depth + 1)
                }
                Expr::Choice(a, b) => {
                    let mut set = self.class(a, quiet, depth)?;
                    union(&mut set, &self.class(b, quiet, depth)?);
                    Some(set)
                }
                _ => None,
            }
        }

        /// A superset of the bytes `e` can start with, and whether `e` can match the empty string
        /// (conservative: when in doubt, every byte and nullable).
        fn first(&self, e: &Expr, depth: usize) -> (Set, bool) {
            match e {
                Expr::Str(text) | Expr::Insens(text) if text.is_empty() => (empty(), true),
                Expr::Str(text) => {
                    let b = text.as_bytes()[0];
                    (range(b, b), false)
                }
                Expr::Insens(text) => {
                    let b = text.as_bytes()[0];
                    if !b.is_ascii() {
                        return (full(), true);
                    }
                    let mut set = range(b.to_ascii_lowercase(), b.to_ascii_lowercase());
                    union(
                        &mut set,
                        &range(b.to_ascii_uppercase(), b.to_ascii_uppercase()),
                    );
                    (set, false)
                }
                Expr::Range(a, b) => match (single_char(a), single_char(b)) {
                    (Ok(a), Ok(b)) if a.is_ascii() && b.is_ascii() && a <= b => {
                        (range(a as u8, b as u8), false)
                    }
                    _ => (full(), true),
                },
                Expr::Ident(name) => match name.as_str() {
                    "SOI" | "EOI" => (empty(), true),
                    "ANY" => (full(), false),
                    other => {
                        if let Some(set) = builtin_class(other) {
                            return (set, false);
                        }
                        match self.rules.get(other) {
                            Some(rule) if depth < DEPTH => self.first(&rule.expr, depth + 1),
                            _ => (full(), true),
                        }
                    }
                },
                Expr::PosPred(_) | Expr::NegPred(_) => (empty(), true),
                Expr::Seq(..) => {
                    let mut items = Vec::new();
                    flatten_seq(e, &mut items);
                    let mut set = empty();
                    for item in items {
                        let (first, nullable) = self.first(item, depth);
                        union(&mut set, &first);
                        if !nullable {
                            return (set, false);
                        }
                    }
                    (set, true)
                }
                Expr::Choice(a, b) => {
                    let (mut set, na) = self.first(a, depth);
                    let (other, nb) = self.first(b, depth);
                    union(&mut set, &other);
                    (set, na || nb)
                }
                Expr::Opt(inner) | Expr::Rep(inner) | Expr::RepMax(inner, _) => {
                    (self.first(inner, depth).0, true)
                }
                Expr::RepOnce(inner) => self.first(inner, depth),
                Expr::RepExact(inner, n)
                | Expr::RepMin(inner, n)
                | Expr::RepMinMax(inner, n, _) => {
                    let (set, nullable) = self.first(inner, depth);
                    (set, nullable || *n == 0)
                }
                #[allow(unreachable_patterns)]
                _ => (full(), true),
            }
        }

        /// The alternatives of `e` as an ordered choice, flattened through nested choices and through calls
        /// of rules that record nothing, each with the quietness it runs under.
        fn alternatives(
            &self,
            e: &'g Expr,
            quiet: bool,
            depth: usize,
            out: &mut Vec<(&'g Expr, bool)>,
        ) {
            match e {
                Expr::Choice(a, b) => {
                    self.alternatives(a, quiet, depth, out);
                    self.alternatives(b, quiet, depth, out);
                }
                Expr::Ident(name) if depth < DEPTH => match self.inlinable(name, quiet) {
                    Some((body @ Expr::Choice(..), inner_quiet)) => {
                        self.alternatives(body, inner_quiet, depth + 1, out)
                    }
                    _ => out.push((e, quiet)),
                },
                _ => out.push((e, quiet)),
            }
        }

        /// Splits a choice into one folded byte class tried first and the other alternatives in order,
        /// when folding is exact (see the module documentation); `None` when it is not or there is no class.
        fn fold(&self, alternatives: &[(&'g Expr, bool)]) -> Option<(Set, Vec<(&'g Expr, bool)>)> {
            let classes: Vec<Option<Set>> = alternatives
                .iter()
                .map(|(e, quiet)| self.class(e, *quiet, 0))
                .collect();
            if classes.iter().all(Option::is_none) {
                return None;
            }
            let mut folded = empty();
            let mut rest = Vec::new();
            for (j, (e, quiet)) in alternatives.iter().enumerate() {
                if let Some(set) = &classes[j] {
                    union(&mut folded, set);
                    continue;
                }
                let mut later = empty();
                for set in classes[j + 1..].iter().flatten() {
                    union(&mut later, set);
                }
                if later.iter().any(|&b| b) {
                    let (first, nullable) = self.first(e, 0);
                    if nullable || meets(&first, &later) {
                        return None;
                    }
                }
                rest.push((*e, *quiet));
            }
            Some((folded, rest))
        }

        /// Rust code of type `Option<usize>`: one byte of `set` at `p`.
        fn class_code(&mut self, set: &Set, p: &str) -> String {
            let members: Vec<u8> = (0..=255u8).filter(|&b| set[b as usize]).collect();
            match members.as_slice() {
                [] => "None".to_string(),
                [b] => format!("byte_is(s, {p}, {b})"),
                [lo, .., hi] if members.len() == (hi - lo) as usize + 1 => {
                    format!("byte_in(s, {p}, {lo}, {hi})")
                }
                _ => {
                    let t = self.table(set);
                    format!("byte_of(s, {p}, &T{t})")
                }
            }
        }

        fn table(&mut self, set: &Set) -> usize {
            match self.tables.iter().position(|t| t == set) {
                Some(i) => i,
                None => {
                    self.tables.push(*set);
                    self.tables.len() - 1
                }
            }
        }

        /// An ordered choice of `items` at `p`, restoring the event list after an alternative that failed
        /// and may have recorded events.
        fn ordered(&mut self, items: &[(&'g Expr, bool)], p: &str) -> Result<String, String> {
            if let [(e, quiet)] = items {
                return self.expr(e, p, *quiet);
            }
            let label = self.label();
            let any_pushes = items.iter().any(|(e, quiet)| self.pushes(e, *quiet));
            let mut code = format!("{label}: {{");
            if any_pushes {
                code.push_str(" let n = ev.len();");
            }
            for (e, quiet) in items {
                let body = self.expr(e, p, *quiet)?;
                let restore = if self.pushes(e, *quiet) {
                    " ev.truncate(n);"
                } else {
                    ""
                };
                let body = match self.guard(e, p) {
                    Some(test) => format!("if {test} {{ {body} }} else {{ None }}"),
                    None => body,
                };
                let _ = write!(
                    code,
                    " if let Some(q) = ({body}) {{ break {label} Some(q) }}{restore}"
                );
            }
            code.push_str(" None }");
            Ok(code)
        }

        /// A cheap test put before trying alternative `e` of a choice at `p` (`None` when none is worth it):
        /// the byte at `p` is in the FIRST set of `e`, when `e` cannot match the empty string (so it would
        /// fail anyway) and is more than a byte test itself.
        fn guard(&mut self, e: &'g Expr, p: &str) -> Option<String> {
            if matches!(e, Expr::Str(_) | Expr::Insens(_) | Expr::Range(..)) {
                return None;
            }
            let (first, nullable) = self.first(e, 0);
            if nullable || first.iter().all(|&b| b) {
                return None;
            }
            let members: Vec<u8> = (0..=255u8).filter(|&b| first[b as usize]).collect();
            Some(match members.as_slice() {
                [] => "false".to_string(),
                [b] => format!("s.get({p}) == Some(&{b})"),
                _ => {
                    let t = self.table(&first);
                    format!("matches!(s.get({p}), Some(&b) if T{t}[b as usize])")
                }
            })
        }

        /// A choice at `p`: the folded class first when that is exact, then the other alternatives.
        fn choice(&mut self, e: &'g Expr, p: &str, quiet: bool) -> Result<String, String> {
            let mut items = Vec::new();
            self.alternatives(e, quiet, 0, &mut items);
            match self.fold(&items) {
                Some((set, rest)) if rest.is_empty() => Ok(self.class_code(&set, p)),
                Some((set, rest)) => {
                    let head = self.class_code(&set, p);
                    let tail = self.ordered(&rest, p)?;
                    Ok(format!(
                        "match ({head}) {{ Some(q) => Some(q), None => {tail} }}"
                    ))
                }
                None => self.ordered(&items, p),
            }
        }

        /// Rust code of type `Option<usize>`: the position after `e` matched at position `p`.
        fn expr(&mut self, e: &'g Expr, p: &str, quiet: bool) -> Result<String, String> {
            if let Some(set) = self.class(e, quiet, 0) {
                return Ok(self.class_code(&set, p));
            }
            Ok(match e {
                Expr::Str(text) if text.is_empty() => format!("Some({p})"),
                Expr::Str(text) => format!("lit(s, {p}, {})", bytes(text)),
                Expr::Insens(text) => format!("lit_ci(s, {p}, {})", bytes(text)),
                Expr::Range(a, b) => {
                    let (a, b) = (single_char(a)?, single_char(b)?);
                    format!("char_in(s, {p}, {:?}, {:?})", a, b)
                }
                Expr::Ident(name) => match name.as_str() {
                    "SOI" => format!("({p} == 0).then_some({p})"),
                    "EOI" => format!("({p} == s.len()).then_some({p})"),
                    "ANY" => format!("any_char(s, {p})"),
                    other if self.rules.contains_key(other) => {
                        if self.pushes(e, quiet) {
                            format!("r_{other}(s, {p}, ev)")
                        } else {
                            format!("q_{other}(s, {p})")
                        }
                    }
                    other => return Err(format!("`{other}` is not supported by the fast path")),
                },
                Expr::PosPred(inner) | Expr::NegPred(inner) => {
                    let body = self.expr(inner, p, true)?;
                    if matches!(e, Expr::PosPred(_)) {
                        format!("({body}).map(|_| {p})")
                    } else {
                        format!("(if ({body}).is_some() {{ None }} else {{ Some({p}) }})")
                    }
                }
                Expr::Seq(..) => {
                    let mut items = Vec::new();
                    flatten_seq(e, &mut items);
                    let label = self.label();
                    let mut code = format!("{label}: {{ let q0 = {p};");
                    let mut cur = "q0".to_string();
                    for item in items {
                        let next = self.var();
                        let body = self.expr(item, &cur, quiet)?;
                        let _ = write!(
                            code,
                            " let Some({next}) = ({body}) else {{ break {label} None }};"
                        );
                        cur = next;
                    }
                    let _ = write!(code, " Some({cur}) }}");
                    code
                }
                Expr::Choice(..) => self.choice(e, p, quiet)?,
                Expr::Opt(inner) => {
                    let body = self.expr(inner, p, quiet)?;
                    if self.pushes(inner, quiet) {
                        format!("{{ let n = ev.len(); match ({body}) {{ Some(q) => Some(q), None => {{ ev.truncate(n); Some({p}) }} }} }}")
                    } else {
                        format!("Some(({body}).unwrap_or({p}))")
                    }
                }
                Expr::Rep(inner) => self.repeat(inner, p, None, quiet)?,
                Expr::RepOnce(inner) => self.at_least(inner, p, 1, None, quiet)?,
                Expr::RepExact(inner, n) => self.at_least(inner, p, *n, Some(0), quiet)?,
                Expr::RepMin(inner, n) => self.at_least(inner, p, *n, None, quiet)?,
                Expr::RepMax(inner, n) => self.repeat(inner, p, Some(*n), quiet)?,
                Expr::RepMinMax(inner, min, max) => {
                    if max < min {
                        return Err(format!("repetition {{{min}, {max}}}: max is below min"));
                    }
                    self.at_least(inner, p, *min, Some(max - min), quiet)?
                }
                // PUSH, PEEK, POP, skip, and (with pest's grammar-extras) node tags.
                #[allow(unreachable_patterns)]
                _ => {
                    return Err(
                        "PUSH, PEEK, POP and skip expressions are not supported by the fast path"
                            .to_string(),
                    )
                }
            })
        }

        /// For `*( C ~ X )` where `C` is a byte class and `X` is `*Z` (or a rule whose body is, recording
        /// nothing), with `Z` unable to match the empty string or to start with a byte of `C`: the class
        /// `C` and the alternatives of `Z`. Then `*( C ~ *Z )` matches exactly what "nothing, unless the
        /// next byte is in `C`, else `*( C / Z )`" matches (inside `*Z` a byte of `C` ends the run of `Z`
        /// and the outer loop takes it, just as `C / Z` does), and `*( C / Z )` folds into one table:
        /// `*( "/" segment )`, the tail of every path rule, becomes one scan over `"/" / pchar`.
        fn separated(&self, inner: &'g Expr, quiet: bool) -> Option<(Set, Vec<(&'g Expr, bool)>)> {
            let mut items = Vec::new();
            flatten_seq(inner, &mut items);
            let [separator, repeated] = items[..] else {
                return None;
            };
            let class = self.class(separator, quiet, 0)?;
            if self.pushes(separator, quiet) || self.pushes(repeated, quiet) {
                return None;
            }
            let (mut body, mut body_quiet) = (repeated, quiet);
            for _ in 0..DEPTH {
                match body {
                    Expr::Ident(name) => (body, body_quiet) = self.inlinable(name, body_quiet)?,
                    _ => break,
                }
            }
            let Expr::Rep(z) = body else {
                return None;
            };
            let (first, nullable) = self.first(z, 0);
            if nullable || meets(&first, &class) {
                return None;
            }
            let mut alternatives = vec![(separator, quiet)];
            self.alternatives(z, body_quiet, 0, &mut alternatives);
            Some((class, alternatives))
        }

        /// `inner` exactly `min` times, then up to `extra` more times (`None`: any number).
        fn at_least(
            &mut self,
            inner: &'g Expr,
            p: &str,
            min: u32,
            extra: Option<u32>,
            quiet: bool,
        ) -> Result<String, String> {
            let label = self.label();
            let body = self.expr(inner, "q", quiet)?;
            let rest = self.repeat(inner, "q", extra, quiet)?;
            Ok(format!(
                "{label}: {{ let mut q = {p}; for _ in 0..{min} {{ match ({body}) {{ Some(r) => q = r, None => break {label} None }} }} {rest} }}"
            ))
        }

        /// `inner` greedily, up to `max` times (`None`: any number); stops without progress.
        fn repeat(
            &mut self,
            inner: &'g Expr,
            p: &str,
            max: Option<u32>,
            quiet: bool,
        ) -> Result<String, String> {
            let mut items = Vec::new();
            let mut guard = None;
            if max.is_none() {
                if let Some((separator, repeated)) = self.separated(inner, quiet) {
                    guard = Some(separator);
                    items = repeated;
                }
            }
            if items.is_empty() {
                self.alternatives(inner, quiet, 0, &mut items);
            }
            if max.is_none() {
                if let Some((set, rest)) = self.fold(&items) {
                    // A tight loop over the folded class; the other alternatives only where it stops.
                    let t = self.table(&set);
                    let tail = if rest.is_empty() {
                        "break".to_string()
                    } else {
                        let body = self.ordered(&rest, "q")?;
                        let pushes = rest.iter().any(|(e, quiet)| self.pushes(e, *quiet));
                        if pushes {
                            format!("let n = ev.len(); match ({body}) {{ Some(r) if r > q => q = r, Some(_) => break, None => {{ ev.truncate(n); break }} }}")
                        } else {
                            format!("match ({body}) {{ Some(r) if r > q => q = r, _ => break }}")
                        }
                    };
                    let scan = format!(
                        "{{ let mut q = {p}; loop {{ q = scan(s, q, &T{t}); {tail} }} Some(q) }}"
                    );
                    return Ok(match guard {
                        Some(separator) => {
                            let g = self.table(&separator);
                            format!("(if matches!(s.get({p}), Some(&b) if T{g}[b as usize]) {scan} else {{ Some({p}) }})")
                        }
                        None => scan,
                    });
                }
                // Nothing to fold after all: the plain loop over `inner` below.
            }
            let body = self.expr(inner, "q", quiet)?;
            let head = match max {
                Some(max) => format!("for _ in 0..{max}"),
                None => "loop".to_string(),
            };
            if self.pushes(inner, quiet) {
                Ok(format!(
                    "{{ let mut q = {p}; {head} {{ let n = ev.len(); match ({body}) {{ Some(r) if r > q => q = r, Some(_) => break, None => {{ ev.truncate(n); break }} }} }} Some(q) }}"
                ))
            } else {
                Ok(format!(
                    "{{ let mut q = {p}; {head} {{ match ({body}) {{ Some(r) if r > q => q = r, _ => break }} }} Some(q) }}"
                ))
            }
        }
    }
}
