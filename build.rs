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

    let ast = match parser::consume_rules(pairs.clone()) {
        Ok(ast) => ast,
        Err(errors) => {
            let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("uri.pest:\n{}", messages.join("\n"));
        }
    };
    match fastpath::generate(&ast) {
        Ok(code) => fs::write(out_dir.join("fastpath.rs"), code).expect("write fastpath.rs"),
        Err(message) => panic!(
            "uri.pest cannot be compiled into the fast path: {message}\n\
             (build with `--no-default-features` to use only the pest_derive parser)"
        ),
    }

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

/// The compiled fast path: `uri.pest` turned into plain Rust over `&[u8]` (see `src/recognizer.rs`).
///
/// Each rule becomes a function `fn r_NAME(s: &[u8], p: usize, ev: &mut Vec<Event>) -> Option<usize>` that
/// returns the position after its match, with PEG semantics kept exactly: ordered choice commits to the
/// first alternative that matches, repetition is greedy and never gives back, predicates consume nothing.
/// A non-silent rule records an event `(rule index, start, end)` before its children (pre-order, as pest's
/// pairs are); events recorded inside a branch that later fails are discarded by truncating the list at
/// the point where the branch began. Rules called from inside an atomic (`@`) rule record nothing, as in
/// pest, so every rule also has a quiet twin `q_NAME`.
mod fastpath {
    use std::collections::HashMap;
    use std::fmt::Write as _;

    use pest_meta::ast::{Expr, Rule, RuleType};

    pub(super) struct Gen<'g> {
        index: HashMap<&'g str, usize>,
        kinds: HashMap<&'g str, RuleType>,
        counter: usize,
    }

    pub(super) fn generate(rules: &[Rule]) -> Result<String, String> {
        let mut gen = Gen {
            index: rules
                .iter()
                .enumerate()
                .map(|(i, r)| (r.name.as_str(), i))
                .collect(),
            kinds: rules.iter().map(|r| (r.name.as_str(), r.ty)).collect(),
            counter: 0,
        };
        let mut out = String::from(
            "// Generated by build.rs from uri.pest: the compiled fast path.\n\
             #[allow(dead_code, unused_variables, unused_mut, unused_labels, unused_parens, clippy::all)]\nmod generated {\n\
             use super::*;\n",
        );
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
            for quiet in [false, true] {
                // Inside an atomic rule, callees are quiet; a compound-atomic rule keeps its children.
                let callees_quiet = quiet || rule.ty == RuleType::Atomic;
                let body = gen.expr(&rule.expr, "p", callees_quiet)?;
                let record = !quiet && rule.ty != RuleType::Silent;
                let prefix = if quiet { "q" } else { "r" };
                let _ = writeln!(
                    out,
                    "#[inline]\npub(super) fn {prefix}_{}(s: &[u8], p: usize, ev: &mut Vec<Event>) -> Option<usize> {{",
                    rule.name
                );
                if record {
                    let _ = writeln!(
                        out,
                        "    let i = ev.len();\n    ev.push(({}, p, p));\n    let r = ({body});\n    \
                         match r {{ Some(q) => {{ ev[i].2 = q; Some(q) }} None => {{ ev.truncate(i); None }} }}\n}}",
                        gen.index[rule.name.as_str()]
                    );
                } else {
                    let _ = writeln!(out, "    {body}\n}}");
                }
            }
        }
        out.push_str("}\n\n/// Matches rule number `rule` (in the order of uri.pest) against the whole input.\n");
        out.push_str("pub(crate) fn recognize(rule: usize, s: &[u8], ev: &mut Vec<Event>) -> bool {\n    match rule {\n");
        for (i, rule) in rules.iter().enumerate() {
            let _ = writeln!(
                out,
                "        {i} => generated::r_{}(s, 0, ev) == Some(s.len()),",
                rule.name
            );
        }
        out.push_str("        _ => false,\n    }\n}\n");
        Ok(out)
    }

    fn bytes(text: &str) -> String {
        let mut b = String::from("b\"");
        for byte in text.bytes() {
            let _ = write!(b, "\\x{byte:02x}");
        }
        b.push('"');
        b
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

        /// Rust code of type `Option<usize>`: the position after `e` matched at position `p`.
        fn expr(&mut self, e: &Expr, p: &str, quiet: bool) -> Result<String, String> {
            Ok(match e {
                Expr::Str(text) if text.is_empty() => format!("Some({p})"),
                Expr::Str(text) => format!("lit(s, {p}, {})", bytes(text)),
                Expr::Insens(text) => format!("lit_ci(s, {p}, {})", bytes(text)),
                Expr::Range(a, b) => {
                    let (a, b) = (single_char(a)?, single_char(b)?);
                    if (b as u32) < 0x80 {
                        format!("byte_in(s, {p}, {}, {})", a as u32, b as u32)
                    } else {
                        format!("char_in(s, {p}, {:?}, {:?})", a, b)
                    }
                }
                Expr::Ident(name) => match name.as_str() {
                    "SOI" => format!("({p} == 0).then_some({p})"),
                    "EOI" => format!("({p} == s.len()).then_some({p})"),
                    "ANY" => format!("any_char(s, {p})"),
                    "ASCII_DIGIT" => format!("byte_in(s, {p}, 48, 57)"),
                    "ASCII_ALPHA" => format!("byte_in(s, {p}, 65, 90).or_else(|| byte_in(s, {p}, 97, 122))"),
                    "ASCII_HEX_DIGIT" => format!(
                        "byte_in(s, {p}, 48, 57).or_else(|| byte_in(s, {p}, 65, 70)).or_else(|| byte_in(s, {p}, 97, 102))"
                    ),
                    other if self.kinds.contains_key(other) => {
                        format!("{}_{other}(s, {p}, ev)", if quiet { "q" } else { "r" })
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
                        let _ = write!(code, " let Some({next}) = ({body}) else {{ break {label} None }};");
                        cur = next;
                    }
                    let _ = write!(code, " Some({cur}) }}");
                    code
                }
                Expr::Choice(..) => {
                    let mut items = Vec::new();
                    flatten_choice(e, &mut items);
                    let label = self.label();
                    let mut code = format!("{label}: {{ let n = ev.len();");
                    for item in items {
                        let body = self.expr(item, p, quiet)?;
                        let _ = write!(
                            code,
                            " if let Some(q) = ({body}) {{ break {label} Some(q) }} ev.truncate(n);"
                        );
                    }
                    code.push_str(" None }");
                    code
                }
                Expr::Opt(inner) => {
                    let body = self.expr(inner, p, quiet)?;
                    format!("{{ let n = ev.len(); match ({body}) {{ Some(q) => Some(q), None => {{ ev.truncate(n); Some({p}) }} }} }}")
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
                        "PUSH, PEEK, POP and skip expressions are not supported by the fast path".to_string()
                    )
                }
            })
        }

        /// `inner` exactly `min` times, then up to `extra` more times (`None`: any number).
        fn at_least(
            &mut self,
            inner: &Expr,
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
            inner: &Expr,
            p: &str,
            max: Option<u32>,
            quiet: bool,
        ) -> Result<String, String> {
            let body = self.expr(inner, "q", quiet)?;
            let head = match max {
                Some(max) => format!("for _ in 0..{max}"),
                None => "loop".to_string(),
            };
            Ok(format!(
                "{{ let mut q = {p}; {head} {{ let n = ev.len(); match ({body}) {{ Some(r) if r > q => q = r, Some(_) => break, None => {{ ev.truncate(n); break }} }} }} Some(q) }}"
            ))
        }
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

    fn flatten_choice<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::Choice(a, b) => {
                flatten_choice(a, out);
                flatten_choice(b, out);
            }
            other => out.push(other),
        }
    }
}
