//! The explainer: the *detail* grammar (`uri.pest` with every rule normal and every quoted string a
//! rule of its own, see `build.rs`) compiled into plain Rust over bytes that keeps pest's record of failed
//! attempts, so that a rejected input is explained without running pest.
//!
//! The explainer is generated from the rules exactly as `pest_derive` sees them: after `pest_meta`'s optimizer
//! (which unrolls `{m, n}` into a sequence of options and factors some choices), because what pest reports
//! depends on which rules it tried where. Every rule call does what `ParserState::rule` does for the
//! record: remember the attempt lists' lengths on entry, and on leaving (a failure outside a negative
//! lookahead, a success inside one) call `Diag::track` (in `src/recognizer.rs`), a transcription of
//! `ParserState::track`. Nothing else in pest touches the record, so the furthest position and the
//! expected items come out the same; the `diagnose_agrees` tests check it against pest_derive.
//!
//! Each generated function is one rule, with the rule's ABNF line (as the `///` doc of its rule in the
//! grammar writes it) and its pest text (as `pest_derive` sees it: in the detail grammar, optimized)
//! as `//` comments above it, and one statement per line.
//!
//! The code is written from the explainer's [`Program`] ([`lower`]): the detail grammar lowered once,
//! with the tables the explainer steps with (class rules, fail, skip, stop, triplet and run tables),
//! which `rfc3986`'s run-time engine also builds, for grammars loaded at run time, and interprets. What
//! the class rules, the rules on the bytes of their fail tables and the repetitions' bodies where their
//! scans stop record (their *steps*, [`steps`]) is worked out here too and written as constants, as are
//! the character classes of the rules that folding the expected items needs
//! ([`steps::class_of_rule`]): the built-in explainer makes no table at run time.

pub mod lower;
pub mod steps;

pub use lower::{Builtin, Local, Node, Program, Repeat, Runs, Skip};

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use pest_meta::ast::RuleType;
use pest_meta::optimizer::{OptimizedExpr as E, OptimizedRule};

use super::read::{self, GrammarRule};

/// What an entry of the attempt lists stands for, by its position in the detail parser's `Rule` enum
/// (`EOI` first, then the rules in file order, as `pest_generator` declares them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// pest's `EOI`.
    EndOfInput,
    /// Rule number `usize` of the grammar.
    Rule(usize),
    /// A quoted string of the grammar (without quotes and `^`).
    Literal(String),
    /// A generated entry rule (silent, never recorded).
    Entry,
}

/// The detail rules' items in enum order: `rules` are the grammar's rule names, `literal` says what a
/// `lit_N` rule matches (its text without quotes), `entry_prefix` marks entry rules.
pub fn items(
    detail: &[OptimizedRule],
    rules: &[String],
    literal: impl Fn(&str) -> Option<String>,
    entry_prefix: &str,
) -> Vec<Item> {
    let mut items = vec![Item::EndOfInput];
    for rule in detail {
        let name = rule.name.as_str();
        items.push(if let Some(i) = rules.iter().position(|r| r == name) {
            Item::Rule(i)
        } else if let Some(text) = literal(name) {
            // The string as pest reads it (escapes such as `\u{41}` decoded), as the reference
            // engine lists it.
            Item::Literal(match &rule.expr {
                E::Str(text) | E::Insens(text) => text.clone(),
                _ => text,
            })
        } else if name.starts_with(entry_prefix) {
            Item::Entry
        } else {
            Item::Rule(usize::MAX)
        });
    }
    items
}

/// A writer of indented Rust.
struct Out<'g> {
    text: String,
    indent: usize,
    counter: usize,
    /// The program written.
    program: &'g Program,
    /// The rule being written (named in the comments of its repetitions' bodies).
    rule: usize,
    /// The skip tables of the repetitions written so far ([`Skip::over`]), emitted as `SKIP_k`.
    skips: Vec<[bool; 256]>,
    /// The three-byte iterations those repetitions step over ([`Skip::triple`]), as `TRIPLE_k`.
    triples: Vec<[[bool; 256]; 3]>,
    /// The tables of the repetitions of runs ([`Runs`]): the bytes that start an iteration, and those
    /// with the bytes of a run, as `RUN_k`.
    runs: Vec<[bool; 256]>,
    /// The bodies of those repetitions, emitted as functions `d_rep_k` with a table of steps `STOP_k`
    /// ([`Skip::stop`]): the text of each function, its stop table and the body's node.
    bodies: Vec<(String, [bool; 256], usize)>,
    /// The distinct steps of every table of steps ([`steps`]), emitted as `STEPS`.
    steps: Vec<steps::Step>,
    /// Where each step is in `steps`.
    step_index: HashMap<steps::Step, u16>,
    /// For each detail rule, its grammar rule number when it may take the recognizer's quiet match
    /// ([`quiet_rules`]).
    quiet: Vec<Option<usize>>,
}

impl Out<'_> {
    fn line(&mut self, line: &str) {
        for _ in 0..self.indent {
            self.text.push_str("    ");
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// A `static NAME: [bool; 256]` table after a blank line, with `doc` and the table's bytes above it.
    fn byte_table(&mut self, doc: &str, name: &str, table: &[bool; 256]) {
        self.line("");
        self.line(&format!("/// {doc}: {}.", describe(table)));
        self.line(&format!("static {name}: [bool; 256] = ["));
        self.indent += 1;
        self.rows(table);
        self.indent -= 1;
        self.line("];");
    }

    /// The entries of a byte table, sixteen to a line.
    fn rows(&mut self, table: &[bool; 256]) {
        for row in table.chunks(16) {
            let row: Vec<&str> = row
                .iter()
                .map(|&b| if b { "true" } else { "false" })
                .collect();
            self.line(&format!("{},", row.join(", ")));
        }
    }

    /// `static TRIPLE_k: [[bool; 256]; 3]`, the tables of [`triplets`], after a blank line.
    fn triple_table(&mut self, k: usize, tables: &[[bool; 256]; 3]) {
        self.line("");
        self.line(&format!(
            "/// The three-byte iterations a repetition's body matches alone (see `Skip::triple` in \
             `peg/src/explainer/lower.rs`): {}, then {}, then {}.",
            describe(&tables[0]),
            describe(&tables[1]),
            describe(&tables[2])
        ));
        self.line(&format!("static TRIPLE_{k}: [[bool; 256]; 3] = ["));
        self.indent += 1;
        for table in tables {
            self.line("[");
            self.indent += 1;
            self.rows(table);
            self.indent -= 1;
            self.line("],");
        }
        self.indent -= 1;
        self.line("];");
    }

    /// `static NAME: [u16; 514]`: the steps of `target` (of `what`) for each byte and the end of the
    /// input, outside and inside a negative lookahead ([`steps::steps`]), as places in `STEPS` with
    /// the bits [`STEP_MATCHED`], [`STEP_WIDTH`], [`STEP_RECORDS`] and [`STEP_POSITIVES_ONLY`].
    fn step_table(&mut self, what: &str, name: &str, target: steps::Target) {
        let mut places = Vec::with_capacity(514);
        for step in steps::steps(self.program, target) {
            let flags = if step.matched { STEP_MATCHED } else { 0 }
                | if step.width == 1 { STEP_WIDTH } else { 0 }
                | if step.positives.is_empty() && step.negatives.is_empty() {
                    0
                } else {
                    STEP_RECORDS
                }
                | if !step.positives.is_empty() && step.negatives.is_empty() {
                    STEP_POSITIVES_ONLY
                } else {
                    0
                };
            let place = match self.step_index.get(&step) {
                Some(&place) => place,
                None => {
                    let place = u16::try_from(self.steps.len())
                        .ok()
                        .filter(|&place| place & STEP_FLAGS == 0)
                        .expect("fewer than 4096 steps");
                    self.step_index.insert(step.clone(), place);
                    self.steps.push(step);
                    place
                }
            };
            places.push((place | flags).to_string());
        }
        self.line("");
        self.line(&format!(
            "/// The steps of {what}: places in `STEPS` by byte (256: the end of the input), outside and"
        ));
        self.line(
            "/// inside a negative lookahead (worked out by `rfc3986_peg::explainer::steps`), with the bits",
        );
        self.line("/// `STEP_MATCHED`, `STEP_WIDTH`, `STEP_RECORDS` and `STEP_POSITIVES_ONLY`.");
        self.line(&format!("pub(crate) static {name}: [u16; 514] = ["));
        self.indent += 1;
        for row in places.chunks(24) {
            self.line(&format!("{},", row.join(", ")));
        }
        self.indent -= 1;
        self.line("];");
    }

    /// Lines of `//` comments (each already a [`read::comment`]), indented.
    fn comment(&mut self, comment: &str) {
        for line in comment.lines() {
            self.line(line);
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }
}

/// The Rust source of the explainer: `fn d_NAME(d: &mut Diag<'_>, p: usize) -> Option<usize>` per rule, the
/// table of items and `explain(rule, d)`, which matches entry rule number `rule` (in the order of
/// `grammar_rules`, the grammar's rule table, which also gives the ABNF lines of the comments) from the
/// start of the input. The code is written from the explainer's [`Program`], lowered from `detail` (the
/// optimized detail rules, whose pest text the comments show) and written with its tables as statics;
/// `PROGRAM_DIGEST` is its [`Program::digest`].
///
/// # Errors
/// A message when the detail grammar cannot be lowered (see [`Program::lower`]).
pub fn generate(
    detail: &[OptimizedRule],
    items: &[Item],
    grammar_rules: &[GrammarRule],
    entry_prefix: &str,
) -> Result<String, String> {
    let names: Vec<String> = grammar_rules.iter().map(|r| r.name.clone()).collect();
    let program = Program::lower(detail, &names, entry_prefix)?;
    let mut out = Out {
        text: String::new(),
        indent: 0,
        counter: 0,
        program: &program,
        rule: 0,
        skips: Vec::new(),
        triples: Vec::new(),
        runs: Vec::new(),
        bodies: Vec::new(),
        steps: Vec::new(),
        step_index: HashMap::new(),
        quiet: quiet_rules(&program, items, names.len()),
    };
    out.line("// Generated by build.rs (rfc3986-peg, explainer.rs) from uri.pest: the explainer.");
    out.line("");
    out.line("/// What each entry of the attempt lists stands for (pest's `Rule` enum order).");
    out.line("pub(crate) static ITEMS: &[Item] = &[");
    out.indent += 1;
    for item in items {
        let text = match item {
            Item::EndOfInput => "Item::EndOfInput".to_string(),
            Item::Rule(i) => format!("Item::Rule({i})"),
            Item::Literal(text) => format!("Item::Literal({text:?})"),
            Item::Entry => "Item::Entry".to_string(),
        };
        out.line(&format!("{text},"));
    }
    out.indent -= 1;
    out.line("];");
    out.line("");
    out.line(
        "/// The digest of the explainer's program (`rfc3986_peg::explainer::Program::digest`).",
    );
    out.line(&format!(
        "pub(crate) const PROGRAM_DIGEST: u64 = {:#018x};",
        program.digest()
    ));
    out.line("");
    out.line(
        "/// The bits of the entries of the tables of steps (`STEP_MATCHED`, `STEP_RECORDS`, `STEP_WIDTH`,",
    );
    out.line("/// `STEP_POSITIVES_ONLY` in `peg/src/explainer.rs`); the other bits are a place in `STEPS`.");
    out.line(&format!(
        "pub(crate) const STEP_MATCHED: u16 = {STEP_MATCHED:#x};"
    ));
    out.line(&format!(
        "pub(crate) const STEP_RECORDS: u16 = {STEP_RECORDS:#x};"
    ));
    out.line(&format!(
        "pub(crate) const STEP_WIDTH: u16 = {STEP_WIDTH:#x};"
    ));
    out.line(&format!(
        "pub(crate) const STEP_POSITIVES_ONLY: u16 = {STEP_POSITIVES_ONLY:#x};"
    ));
    out.line("");
    out.line("/// The bytes whose places before the bound `Diag::before_bound` looks up (`SHORTCUT_BYTES` in");
    out.line("/// `peg/src/explainer.rs`).");
    out.line(&format!(
        "pub(crate) static SHORTCUT_BYTES: [u8; {}] = {:?};",
        SHORTCUT_BYTES.len(),
        SHORTCUT_BYTES
    ));
    out.line("");
    out.line("/// The rules that match one ASCII byte or fail, trying only rules of the same kind: their record");
    out.line(
        "/// of attempts depends on the byte alone, so `Diag::replay` replays it from their table",
    );
    out.line("/// `CLASS_STEPS_k` (their step-by-step forms, listed here, are what the tests check the tables with).");
    out.line("pub(crate) static CLASS_RULES: &[fn(&mut Diag<'_>, usize) -> Option<usize>] = &[");
    out.indent += 1;
    for &r in &program.classes {
        out.line(&format!("d_{}_in_full,", program.rules[r].name));
    }
    out.indent -= 1;
    out.line("];");
    let mut fails: Vec<(String, [bool; 256], usize)> = Vec::new();
    for (index, rule) in detail.iter().enumerate() {
        let id = index + 1;
        let lowered = &program.rules[index];
        out.rule = index;
        let heading = match items.get(id) {
            Some(Item::Rule(i)) => (grammar_rules.get(*i))
                .and_then(GrammarRule::abnf_line)
                .unwrap_or_else(|| read::NO_ABNF.to_string()),
            Some(Item::Literal(_)) => {
                "(no ABNF line: the detail grammar's rule for a quoted string)".to_string()
            }
            Some(Item::Entry) => {
                "(no ABNF line: a whole-input entry rule the build adds)".to_string()
            }
            _ => read::NO_ABNF.to_string(),
        };
        let comment = read::rule_comment(&heading, &format!("{} = {}", rule.name, rule.expr));
        // Where the step-by-step form of a class rule begins (its comment included).
        let mut in_full = None;
        out.line("");
        out.comment(&comment);
        if let Some(k) = lowered.class {
            out.line("#[inline(always)]");
            out.line(&format!(
                "fn d_{}(d: &mut Diag<'_>, p: usize) -> Option<usize> {{",
                rule.name
            ));
            out.indent += 1;
            out.line(&format!("d.replay(&CLASS_STEPS_{k}, p)"));
            out.indent -= 1;
            out.line("}");
            out.line("");
            in_full = Some(out.text.len());
            out.comment(&comment);
            out.line(&format!(
                "// `{}` matched and recorded step by step (as its table `CLASS_STEPS_{k}` says).",
                rule.name
            ));
            out.line(&format!(
                "fn d_{}_in_full(d: &mut Diag<'_>, p: usize) -> Option<usize> {{",
                rule.name
            ));
        } else if let Some(fail) = &lowered.fail {
            // A normal rule that fails on some bytes alone: on those, its record is replayed.
            let k = fails.len();
            fails.push((rule.name.clone(), **fail, index));
            out.line("#[inline(always)]");
            out.line(&format!(
                "fn d_{}(d: &mut Diag<'_>, p: usize) -> Option<usize> {{",
                rule.name
            ));
            out.indent += 1;
            out.line("if let Some(&b) = d.s.get(p) {");
            out.indent += 1;
            out.line(&format!("if FAIL_{k}[b as usize] {{"));
            out.indent += 1;
            out.line(&format!("return d.replay(&FAIL_STEPS_{k}, p);"));
            out.indent -= 1;
            out.line("}");
            out.indent -= 1;
            out.line("}");
            out.line(&format!("d_{}_in_full(d, p)", rule.name));
            out.indent -= 1;
            out.line("}");
            out.line("");
            out.comment(&comment);
            out.line(&format!(
                "// `{}` matched and recorded step by step (and for its table `FAIL_{k}`).",
                rule.name
            ));
            out.line(&format!(
                "fn d_{}_in_full(d: &mut Diag<'_>, p: usize) -> Option<usize> {{",
                rule.name
            ));
        } else {
            out.line(&format!(
                "fn d_{}(d: &mut Diag<'_>, p: usize) -> Option<usize> {{",
                rule.name
            ));
        }
        out.indent += 1;
        if lowered.silent {
            let body = node(&mut out, lowered.body, "p");
            out.line(&body);
        } else {
            out.line("let entry = d.enter(p);");
            let body = node(&mut out, lowered.body, "p");
            out.line(&format!("let r = {body};"));
            out.line(&format!("d.leave({id}, p, entry, r)"));
        }
        out.indent -= 1;
        out.line("}");
        if let Some(start) = in_full {
            // The step-by-step form calls the step-by-step forms of the class rules it tries, so that
            // making one rule's table needs no other table (its comments are left as they are).
            let function = out.text.split_off(start);
            for line in function.split_inclusive('\n') {
                if line.trim_start().starts_with("//") {
                    out.text.push_str(line);
                    continue;
                }
                let mut line = line.to_string();
                for name in program.classes.iter().map(|&c| &program.rules[c].name) {
                    line =
                        line.replace(&format!(" d_{name}(d, "), &format!(" d_{name}_in_full(d, "));
                }
                out.text.push_str(&line);
            }
        }
    }
    for (k, &r) in program.classes.iter().enumerate() {
        let name = &program.rules[r].name;
        out.step_table(
            &format!("the class rule `{name}`"),
            &format!("CLASS_STEPS_{k}"),
            steps::Target::Rule(r),
        );
    }
    for (k, (name, fail, r)) in fails.iter().enumerate() {
        out.byte_table(
            &format!(
                "The bytes that alone decide `{name}` (see `Rule::fail` in `peg/src/explainer/lower.rs`)"
            ),
            &format!("FAIL_{k}"),
            fail,
        );
        out.step_table(
            &format!("`{name}` (replayed on the bytes of `FAIL_{k}`)"),
            &format!("FAIL_STEPS_{k}"),
            steps::Target::Rule(*r),
        );
    }
    let bodies = std::mem::take(&mut out.bodies);
    for (k, (function, stop, body)) in bodies.iter().enumerate() {
        out.text.push_str(function);
        out.byte_table(
            &format!("What `d_rep_{k}` does at each byte, for the bytes on which it fails alone"),
            &format!("STOP_{k}"),
            stop,
        );
        out.step_table(
            &format!("`d_rep_{k}` (replayed on the bytes of `STOP_{k}`)"),
            &format!("STOP_STEPS_{k}"),
            steps::Target::Body(*body),
        );
    }
    // The functions and tables of the steps, for the tests that remake each table at run time.
    let lists: [(&str, &str, Vec<String>); 3] = [
        (
            "The class rules' step-by-step forms and tables of steps, in the order of `CLASS_RULES`.",
            "CLASS_TABLES",
            (0..program.classes.len())
                .map(|k| format!("&CLASS_STEPS_{k}"))
                .collect(),
        ),
        (
            "The rules with a fail table, in full, and their tables of steps.",
            "FAIL_TABLES",
            (fails.iter().enumerate())
                .map(|(k, (name, ..))| format!("(d_{name}_in_full, &FAIL_STEPS_{k})"))
                .collect(),
        ),
        (
            "The repetitions' bodies and their tables of steps.",
            "STOP_TABLES",
            (0..bodies.len())
                .map(|k| format!("(d_rep_{k}, &STOP_STEPS_{k})"))
                .collect(),
        ),
    ];
    for (doc, name, entries) in lists {
        let ty = if name == "CLASS_TABLES" {
            "&[&[u16; 514]]"
        } else {
            "&[(fn(&mut Diag<'_>, usize) -> Option<usize>, &[u16; 514])]"
        };
        out.line("");
        out.line(&format!("/// {doc}"));
        out.line(&format!("pub(crate) static {name}: {ty} = &["));
        out.indent += 1;
        for entry in entries {
            out.line(&format!("{entry},"));
        }
        out.indent -= 1;
        out.line("];");
    }
    out.line("");
    out.line("/// The ASCII characters each grammar rule accepts, as a bit set, when its language is made of");
    out.line("/// one-character strings only (`rfc3986_peg::explainer::steps::class_of_rule`), by rule number.");
    out.line(&format!(
        "pub(crate) static RULE_CLASSES: [Option<u128>; {}] = [",
        program.entries.len()
    ));
    out.indent += 1;
    for (rule, name) in names.iter().enumerate().take(program.entries.len()) {
        let class = match steps::class_of_rule(&program, rule) {
            Some(set) => format!("Some({set:#x})"),
            None => "None".to_string(),
        };
        out.line(&format!("{class}, // {name}"));
    }
    out.indent -= 1;
    out.line("];");
    out.line("");
    out.line("/// The distinct steps of the tables of steps (`CLASS_STEPS_k`, `FAIL_STEPS_k`, `STOP_STEPS_k`).");
    out.line(&format!(
        "pub(crate) static STEPS: [ClassStep; {}] = [",
        out.steps.len()
    ));
    out.indent += 1;
    for step in std::mem::take(&mut out.steps) {
        let ids = |ids: &[u16]| {
            ids.iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.line(&format!(
            "ClassStep::fixed({}, &[{}], &[{}]),",
            match step.matched {
                true => format!("Some({})", step.width),
                false => "None".to_string(),
            },
            ids(&step.positives),
            ids(&step.negatives)
        ));
    }
    out.indent -= 1;
    out.line("];");
    for (k, table) in std::mem::take(&mut out.skips).iter().enumerate() {
        out.byte_table(
            "The bytes a repetition's body matches alone (see `Skip::over` in `peg/src/explainer/lower.rs`)",
            &format!("SKIP_{k}"),
            table,
        );
        out.line(&format!(
            "/// The masks of `SKIP_{k}` by position, for `scan_shifted` (two instructions a byte)."
        ));
        out.line(&format!(
            "static SKIP_SHIFTED_{k}: Shifted = shifted(&SKIP_{k});"
        ));
    }
    for (k, tables) in std::mem::take(&mut out.triples).iter().enumerate() {
        out.triple_table(k, tables);
    }
    for (k, table) in std::mem::take(&mut out.runs).iter().enumerate() {
        out.byte_table(
            "Bytes of a repetition of runs (see `Runs` in `peg/src/explainer/lower.rs`)",
            &format!("RUN_{k}"),
            table,
        );
        out.line(&format!(
            "/// The masks of `RUN_{k}` by position, for `scan_shifted` (two instructions a byte)."
        ));
        out.line(&format!(
            "static RUN_SHIFTED_{k}: Shifted = shifted(&RUN_{k});"
        ));
    }
    out.line("");
    out.line(
        "/// Matches the entry rule of grammar rule number `rule` from the start of the input.",
    );
    out.line("pub(crate) fn explain(rule: usize, d: &mut Diag<'_>) -> Option<usize> {");
    out.indent += 1;
    out.line("match rule {");
    out.indent += 1;
    for (i, &entry) in program.entries.iter().enumerate() {
        out.line(&format!("{i} => d_{}(d, 0),", program.rules[entry].name));
    }
    out.line("_ => None,");
    out.indent -= 1;
    out.line("}");
    out.indent -= 1;
    out.line("}");
    out.line("");
    out.line("/// Matches grammar rule number `rule` at `p` (not the whole input), for the tests that compare");
    out.line("/// it with the recognizer's quiet form.");
    out.line("pub(crate) fn rule_at(rule: usize, d: &mut Diag<'_>, p: usize) -> Option<usize> {");
    out.indent += 1;
    out.line("match rule {");
    out.indent += 1;
    for (id, item) in items.iter().enumerate() {
        if let (Item::Rule(i), Some(rule)) =
            (item, id.checked_sub(1).and_then(|r| program.rules.get(r)))
        {
            if *i < names.len() {
                out.line(&format!("{i} => d_{}(d, p),", rule.name));
            }
        }
    }
    out.line("_ => None,");
    out.indent -= 1;
    out.line("}");
    out.indent -= 1;
    out.line("}");
    Ok(out.text)
}

/// For each detail rule, its grammar rule number when it may take the recognizer's quiet match where
/// none of its attempts can be recorded (`Diag::before_bound` in `src/engine/explainer.rs`): a grammar
/// rule (one of the first `grammar_rules` items) that is not a class rule (those are replayed) and
/// cannot step over any of [`SHORTCUT_BYTES`] ([`Program::bytes_crossed`]).
fn quiet_rules(program: &Program, items: &[Item], grammar_rules: usize) -> Vec<Option<usize>> {
    (0..program.rules.len())
        .map(|r| match items.get(r + 1) {
            Some(Item::Rule(i)) if *i < grammar_rules && program.rules[r].class.is_none() => {
                let crossed = program.bytes_crossed(r);
                (SHORTCUT_BYTES.iter().all(|&b| !crossed[usize::from(b)])).then_some(*i)
            }
            _ => None,
        })
        .collect()
}

/// The bit of an entry of a table of steps (`CLASS_STEPS_k`, `FAIL_STEPS_k`, `STOP_STEPS_k`) set when
/// its step matches, so that `Diag::replay` (`src/engine/explainer.rs`) reads the step itself only
/// when it records.
pub const STEP_MATCHED: u16 = 0x8000;
/// The bit of an entry of a table of steps set when its step records something (see
/// [`STEP_MATCHED`]); the bits below [`STEP_POSITIVES_ONLY`] are the step's place in `STEPS`.
pub const STEP_RECORDS: u16 = 0x4000;
/// The bit of an entry of a table of steps set when its step matches one byte (clear: it matches
/// nothing, as a rule of a fail table can on a byte on which its repetition stops at once).
pub const STEP_WIDTH: u16 = 0x2000;
/// The bit of an entry of a table of steps set when its step records positive attempts and no negative
/// ones, so that `Diag::replay` records it as its place alone, without reading the step.
pub const STEP_POSITIVES_ONLY: u16 = 0x1000;
/// The bits of an entry of a table of steps that are not the step's place.
const STEP_FLAGS: u16 = STEP_MATCHED | STEP_RECORDS | STEP_WIDTH | STEP_POSITIVES_ONLY;

/// The bytes that end most components of a URI, which most rules cannot step over: a rule that cannot
/// step over one of them ([`Program::bytes_crossed`]), matched where one comes before the furthest
/// position the explainer records at, attempts nothing that position sees, and the explainer takes its
/// match from the recognizer's quiet form (`Diag::before_bound` in `src/engine/explainer.rs`). At most
/// three (a bit each in a mask of eight sets): [`crate::program::COMPONENT_DELIMITERS`].
pub const SHORTCUT_BYTES: [u8; 3] = crate::program::COMPONENT_DELIMITERS;

/// What an expression does on a short window of bytes, when the window alone decides it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Window {
    /// It matches up to this position, having looked at no position outside the window.
    Match(usize),
    /// It fails, having looked at no position outside the window.
    Fail,
    /// It looks at (or tries a rule at) a position past the window's end, or is not understood here.
    Unknown,
}

/// [`Window`] of the string `text` at `p` in `s` (`p` inside it), its bytes compared by `same`: a
/// mismatch in the window fails, a string that goes past it is [`Window::Unknown`].
pub fn window_of_text(s: &[u8], p: usize, text: &[u8], same: fn(&[u8], &[u8]) -> bool) -> Window {
    let seen = &s[p..s.len().min(p + text.len())];
    if !same(seen, &text[..seen.len()]) {
        Window::Fail
    } else if seen.len() == text.len() {
        Window::Match(p + text.len())
    } else {
        Window::Unknown
    }
}

/// The most second bytes after which [`triplets`] tries every third byte, for one first byte (`%` has
/// the 22 of `HEXDIG`): past them, that first byte starts no triplet.
pub const TRIPLE_SECOND_BYTES: usize = 64;

/// The search for the three-byte iterations a repetition's body matches alone ([`Skip::triple`], the
/// `TRIPLE_k` tables), over `window`, which says what the body does on one to three bytes (`None`: the
/// caller's budget ran out, and the search ends with what it has verified). Called by the lowering
/// ([`Program`]), which build.rs emits and the engine of grammars loaded at run time interprets.
pub fn triplets(mut window: impl FnMut(&[u8]) -> Option<Window>) -> Option<[[bool; 256]; 3]> {
    let mut found: Option<[[bool; 256]; 3]> = None;
    // An ASCII first byte (a non-ASCII one starts a character, whose range `window` does not follow).
    for b0 in 0..=127u8 {
        if window(&[b0])? != Window::Unknown {
            continue;
        }
        let mut pairs = vec![[false; 256]; 256];
        let (mut second, mut third) = ([false; 256], [false; 256]);
        let mut open = 0;
        for b1 in 0..=255u8 {
            if window(&[b0, b1])? != Window::Unknown {
                continue;
            }
            open += 1;
            if open > TRIPLE_SECOND_BYTES {
                second = [false; 256];
                break;
            }
            for b2 in 0..=255u8 {
                match window(&[b0, b1, b2]) {
                    Some(Window::Match(3)) => {
                        pairs[usize::from(b1)][usize::from(b2)] = true;
                        second[usize::from(b1)] = true;
                        third[usize::from(b2)] = true;
                    }
                    Some(_) => {}
                    // Out of budget: the pairs of this first byte are incomplete.
                    None => return found,
                }
            }
        }
        // Kept only when every second byte goes with every third one (a product of two classes).
        let product =
            (0..256).all(|b1| (0..256).all(|b2| pairs[b1][b2] == (second[b1] && third[b2])));
        if !product || !second.contains(&true) {
            continue;
        }
        match &mut found {
            None => {
                let mut first = [false; 256];
                first[usize::from(b0)] = true;
                found = Some([first, second, third]);
            }
            Some(tables) if tables[1] == second && tables[2] == third => {
                tables[0][usize::from(b0)] = true;
            }
            Some(_) => {}
        }
    }
    found
}

/// The position of `item` in `list`, added at the end if it is not there.
fn intern<T: PartialEq>(list: &mut Vec<T>, item: T) -> usize {
    match list.iter().position(|t| *t == item) {
        Some(k) => k,
        None => {
            list.push(item);
            list.len() - 1
        }
    }
}

/// The bytes of a table, as ranges of printable ASCII and hex codes (for the generated comment).
fn describe(table: &[bool; 256]) -> String {
    let mut parts = Vec::new();
    let mut b = 0usize;
    while b < 256 {
        if !table[b] {
            b += 1;
            continue;
        }
        let start = b;
        while b + 1 < 256 && table[b + 1] {
            b += 1;
        }
        let show = |c: usize| format!("{:?}", char::from(c as u8));
        parts.push(if start == b {
            show(start)
        } else {
            format!("{}..{}", show(start), show(b))
        });
        b += 1;
    }
    format!("`{}`", parts.join(" | "))
}

/// The normal rules whose body is a choice of one-byte ASCII strings, ASCII ranges and calls of such
/// rules (a least fixed point): each matches one byte at `p` or fails, and every rule it tries starts at
/// `p`, so what it adds to pest's record depends only on that byte and on being in a negative lookahead.
pub fn class_rules(detail: &[OptimizedRule]) -> Vec<String> {
    let mut classes: Vec<String> = Vec::new();
    let mut known: HashSet<&str> = HashSet::new();
    loop {
        let before = classes.len();
        for rule in detail {
            if rule.ty == RuleType::Normal
                && !known.contains(rule.name.as_str())
                && one_byte(&rule.expr, &known)
            {
                classes.push(rule.name.clone());
                known.insert(rule.name.as_str());
            }
        }
        if classes.len() == before {
            return classes;
        }
    }
}

fn one_byte(e: &E, classes: &HashSet<&str>) -> bool {
    match e {
        E::Str(text) => text.len() == 1 && text.is_ascii(),
        E::Range(a, b) => matches!(
            (single_char(a), single_char(b)),
            (Ok(a), Ok(b)) if a.is_ascii() && b.is_ascii()
        ),
        E::Ident(name) => classes.contains(name.as_str()),
        E::Choice(a, b) => one_byte(a, classes) && one_byte(b, classes),
        _ => false,
    }
}

fn bytes(text: &[u8]) -> String {
    let mut b = String::from("b\"");
    for &byte in text {
        if byte.is_ascii_alphanumeric() {
            b.push(byte as char);
        } else {
            let _ = write!(b, "\\x{byte:02x}");
        }
    }
    b.push('"');
    b
}

fn single_char(text: &str) -> Result<char, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(format!("range bound {text:?} is not one character")),
    }
}

/// Writes the statements node `id` of the program needs and returns an expression of type
/// `Option<usize>`: the position after the node matched at position `p` (a variable name), as pest's
/// generated code would match it.
fn node(out: &mut Out<'_>, id: usize, p: &str) -> String {
    let program = out.program;
    match &program.nodes[id] {
        Node::Empty => format!("Some({p})"),
        Node::Byte(b) => format!("byte_is(d.s, {p}, {b})"),
        Node::ByteRange(lo, hi) => format!("byte_in(d.s, {p}, {lo}, {hi})"),
        Node::Builtin(Builtin::Alpha) => format!("byte_of(d.s, {p}, &ASCII_ALPHA)"),
        Node::Builtin(Builtin::HexDigit) => format!("byte_of(d.s, {p}, &ASCII_HEX_DIGIT)"),
        Node::Literal(text) => format!("lit(d.s, {p}, {})", bytes(text)),
        Node::LiteralCi(text) => format!("lit_ci(d.s, {p}, {})", bytes(text)),
        Node::CharRange(a, b) => format!("char_in(d.s, {p}, {a:?}, {b:?})"),
        Node::Soi => format!("({p} == 0).then_some({p})"),
        Node::Eoi => format!("d.eoi({p})"),
        Node::Any => format!("any_char(d.s, {p})"),
        Node::Call(r) => {
            let call = format!("d_{}(d, {p})", program.rules[*r].name);
            // Called from a rule that cannot take the quiet match itself (a call from one that can is
            // made only where that rule's own test failed, where this one fails too).
            match (out.quiet[*r], out.quiet[out.rule]) {
                (Some(i), None) => format!(
                    "(if d.before_bound({p}) {{ quiet_at({i}, d.s, {p}) }} else {{ {call} }})"
                ),
                _ => call,
            }
        }
        Node::Predicate { positive, inner } => {
            let look = out.fresh("look");
            let r = out.fresh("r");
            out.line(&format!("let {look} = d.look;"));
            out.line(&format!(
                "d.look = {look}.{}();",
                if *positive { "positive" } else { "negative" }
            ));
            let body = node(out, *inner, p);
            out.line(&format!("let {r} = {body};"));
            out.line(&format!("d.look = {look};"));
            if *positive {
                format!("{r}.map(|_| {p})")
            } else {
                format!("(if {r}.is_some() {{ None }} else {{ Some({p}) }})")
            }
        }
        Node::Seq(items) => {
            let label = out.fresh("'s");
            let result = out.fresh("r");
            out.line(&format!("let {result} = {label}: {{"));
            out.indent += 1;
            let mut cur = p.to_string();
            for &item in items {
                let next = out.fresh("p");
                let body = node(out, item, &cur);
                out.line(&format!(
                    "let Some({next}) = {body} else {{ break {label} None }};"
                ));
                cur = next;
            }
            out.line(&format!("Some({cur})"));
            out.indent -= 1;
            out.line("};");
            result
        }
        Node::Choice(items) => {
            let label = out.fresh("'c");
            let result = out.fresh("r");
            out.line(&format!("let {result} = {label}: {{"));
            out.indent += 1;
            let last = items.len() - 1;
            for (i, &item) in items.iter().enumerate() {
                let body = node(out, item, p);
                if i == last {
                    out.line(&body);
                } else {
                    let q = out.fresh("q");
                    out.line(&format!(
                        "if let Some({q}) = {body} {{ break {label} Some({q}) }}"
                    ));
                }
            }
            out.indent -= 1;
            out.line("};");
            result
        }
        Node::Optional(inner) => {
            let result = out.fresh("r");
            out.line(&format!("let {result} = {{"));
            out.indent += 1;
            let body = node(out, *inner, p);
            out.line(&format!("Some({body}.unwrap_or({p}))"));
            out.indent -= 1;
            out.line("};");
            result
        }
        Node::Repeat {
            body: inner,
            tables,
        } => {
            // pest repeats until the expression fails; an expression that succeeds without moving (which
            // pest's validator rejects) ends the loop here instead of never.
            let repeat = &program.repeats[*tables];
            let q = out.fresh("q");
            let r = out.fresh("r");
            out.line(&format!("let mut {q} = {p};"));
            if let Some(run) = &repeat.runs {
                let j = intern(&mut out.runs, run.start);
                let k = intern(&mut out.runs, run.runs);
                let triple = match &run.triple {
                    Some(triple) => format!("Some(&TRIPLE_{})", intern(&mut out.triples, **triple)),
                    None => "None".to_string(),
                };
                out.line("if d.look != Look::Negative {");
                out.indent += 1;
                out.line(&format!(
                    "{q} = scan_runs_shifted(d.s, {q}, &RUN_{j}, &RUN_{k}, &RUN_SHIFTED_{k}, {triple});"
                ));
                out.indent -= 1;
                out.line("}");
            }
            out.line("loop {");
            out.indent += 1;
            if let Some(skip) = &repeat.skip {
                let k = intern(&mut out.skips, skip.over);
                // The body as a function of its own, whose steps replay where the scan stops.
                let j = out.bodies.len();
                out.bodies.push((String::new(), skip.stop, *inner));
                let (text, indent) = (std::mem::take(&mut out.text), out.indent);
                out.indent = 0;
                out.line("");
                out.line(&format!(
                    "/// The body of a repetition in `d_{}`.",
                    program.rules[out.rule].name
                ));
                out.line(&format!(
                    "fn d_rep_{j}(d: &mut Diag<'_>, p: usize) -> Option<usize> {{"
                ));
                out.indent += 1;
                let r = node(out, *inner, "p");
                out.line(&r);
                out.indent -= 1;
                out.line("}");
                out.bodies[j].0 = std::mem::replace(&mut out.text, text);
                out.indent = indent;
                out.line("if d.look != Look::Negative {");
                out.indent += 1;
                match &skip.triple {
                    Some(triple) => {
                        let t = intern(&mut out.triples, **triple);
                        out.line(&format!(
                            "{q} = scan_triples_shifted(d.s, {q}, &SKIP_{k}, &SKIP_SHIFTED_{k}, &TRIPLE_{t});"
                        ));
                    }
                    None => out.line(&format!(
                        "{q} = scan_shifted(d.s, {q}, &SKIP_{k}, &SKIP_SHIFTED_{k});"
                    )),
                }
                out.line(&format!("if let Some(&b) = d.s.get({q}) {{"));
                out.indent += 1;
                out.line(&format!("if STOP_{j}[b as usize] {{"));
                out.indent += 1;
                out.line(&format!("d.replay(&STOP_STEPS_{j}, {q});"));
                out.line("break;");
                out.indent -= 1;
                out.line("}");
                out.indent -= 1;
                out.line("}");
                out.indent -= 1;
                out.line("}");
            }
            let body = node(out, *inner, &q);
            out.line(&format!("let Some({r}) = {body} else {{ break }};"));
            out.line(&format!("if {r} == {q} {{ break }}"));
            out.line(&format!("{q} = {r};"));
            out.indent -= 1;
            out.line("}");
            format!("Some({q})")
        }
    }
}
