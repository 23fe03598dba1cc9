//! The interpreter of a grammar loaded at run time: the program `rfc3986_peg::program` lowers the grammar into
//! (the same program `build.rs` prints as the built-in recognizer) run by an interpreter, and the
//! detail grammar (every rule normal, every quoted string a rule of its own, as `build.rs` makes it)
//! run with pest's record of failed attempts (`Diag`, shared with the built-in explainer), to
//! explain a rejection exactly as pest would.
//!
//! Both interpreters recurse once per node of the program, not per input byte: a sequence is a loop,
//! repetitions are loops, and only rule calls, choices, options and predicates nest. A recursive grammar
//! (`a = { "(" ~ a? ~ ")" }`) nests in proportion to its input, so the machine stack a match uses is
//! measured (the distance between a local of the first frame and one of the current frame) against
//! what the thread has left when the match begins (`pest_stack_guard`, as pest's own guard), less
//! [`STACK_RESERVE`]; a match that would use more, or nest more than [`MAX_DEPTH`] levels, stops with
//! an error of kind [`LimitReached`](crate::ParseErrorKind::LimitReached), never a stack overflow. In a
//! release build a level takes a few hundred bytes, so real grammars never come near.
//!
//! Time is bounded the same way. PEG backtracking without memoization (pest's, and so the engine's)
//! takes time exponential in the input on a pathological grammar (`r = { "x" ~ r ~ "a" | "x" ~ r ~ "b"
//! | "x" }` tries 2^n paths on n `x`). Every node a match evaluates, every byte a scan steps over and
//! every byte of a string literal compared is a step; a match may take [`STEPS_FIXED`] (16,384) steps plus [`STEPS_PER_BYTE`] (256) per
//! byte of its input, and stops with [`LimitReached`](crate::ParseErrorKind::LimitReached) past that,
//! so that any grammar matches in time linear in the input. The shipped grammars take at most 41 steps
//! per byte on the real corpus and on IPv6 look-alikes (700 in all on a short line, 2 per byte on
//! average), far below the budget.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use pest_meta::ast::RuleType;
use pest_meta::optimizer::{OptimizedExpr as E, OptimizedRule};

use super::analyse::{builtin_class, single_char, Set};
use super::explainer::{class_rules, triplets, window_of_text, Item, Window};
use super::program::{Guard, Node, NodeId, Program};
use crate::engine::explainer::{steps_of, ClassStep, Diag, Look};
use crate::engine::recognizer::{
    any_char, byte_in, byte_is, byte_of, char_in, lit, lit_ci, scan, scan_runs, scan_triples,
    Events,
};
use crate::engine::Expected;

/// The deepest nesting of nodes a match may reach.
pub(crate) const MAX_DEPTH: u32 = 100_000;

/// The machine stack a match leaves unused, in bytes.
pub(crate) const STACK_RESERVE: usize = 128 << 10;

/// The most machine stack a match may use when the stack's bounds are unknown, in bytes.
pub(crate) const STACK_BUDGET: usize = 256 << 10;

/// The steps a string literal's comparison at byte `p` of `s` costs beyond its node: the bytes it
/// compares (at most the literal's length and what is left of the input) when its first byte matches
/// (case-insensitively, for `^"..."`), none otherwise. So a long literal tried at every byte is
/// counted by its length, and the step budget bounds a match's time linearly in the input.
#[inline(always)]
fn literal_steps(s: &[u8], p: usize, text: &[u8]) -> usize {
    match (s.get(p), text.first()) {
        (Some(a), Some(b)) if a.eq_ignore_ascii_case(b) => text.len().min(s.len() - p),
        _ => 0,
    }
}

/// The steps (node evaluations, bytes scanned and bytes of literals compared) every match may take,
/// whatever the input's length.
pub(crate) const STEPS_FIXED: u64 = 1 << 14;

/// The steps a match may take per byte of its input, beyond [`STEPS_FIXED`].
pub(crate) const STEPS_PER_BYTE: u64 = 1 << 8;

/// Where a rejected input failed (pest's furthest attempt) and what was expected there.
pub(super) type Explained = (usize, Vec<Expected>);

/// Which limit a match reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    /// It nested deeper than [`MAX_DEPTH`] levels or the thread's stack allows.
    Depth,
    /// It took more steps than its budget ([`STEPS_FIXED`] + [`STEPS_PER_BYTE`] per input byte).
    Steps,
}

/// The machine stack a match may use from here, in bytes.
fn stack_budget() -> usize {
    pest_stack_guard::remaining_stack()
        .map_or(STACK_BUDGET, |left| left.saturating_sub(STACK_RESERVE))
}

/// The address of a local of the calling frame, to measure the stack used between two frames.
#[inline(always)]
fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// How deep a match is nested and how long it has run, shared by both interpreters: the levels and the
/// machine stack used since it began, the steps it has left, and where it stopped if it went over
/// [`MAX_DEPTH`], the stack's budget or its steps.
struct Nesting {
    depth: u32,
    /// [`stack_address`] where the match began.
    base: usize,
    /// The stack the match may use below `base`.
    budget: usize,
    /// The steps the match may still take.
    steps: u64,
    /// Where a limit was reached, and which, if one was.
    limit: Option<(usize, Limit)>,
}

impl Nesting {
    /// A match of an input of `len` bytes.
    fn new(len: usize) -> Nesting {
        Nesting {
            depth: 0,
            base: stack_address(),
            budget: stack_budget(),
            steps: STEPS_PER_BYTE
                .saturating_mul(len as u64)
                .saturating_add(STEPS_FIXED),
            limit: None,
        }
    }

    /// One level deeper at byte `p`, one step; `false` (and the limit recorded) when that is over a
    /// limit or one was reached before. A `true` is paired with [`Nesting::leave`].
    #[inline(always)]
    fn enter(&mut self, p: usize) -> bool {
        if self.limit.is_some() {
            return false;
        }
        if self.depth >= MAX_DEPTH || self.base.abs_diff(stack_address()) > self.budget {
            self.limit = Some((p, Limit::Depth));
            return false;
        }
        if self.steps == 0 {
            self.limit = Some((p, Limit::Steps));
            return false;
        }
        self.steps -= 1;
        self.depth += 1;
        true
    }

    /// `n` more steps (the bytes a scan stepped over), ending at byte `p`. Running out is recorded
    /// as a limit at `p`, which stops the match at its next [`Nesting::enter`].
    #[inline(always)]
    fn charge(&mut self, n: usize, p: usize) {
        match self.steps.checked_sub(n as u64) {
            Some(left) => self.steps = left,
            None => {
                self.steps = 0;
                self.limit.get_or_insert((p, Limit::Steps));
            }
        }
    }

    #[inline(always)]
    fn leave(&mut self) {
        self.depth -= 1;
    }
}

/// `&e` (`positive`) or `!e` at `p`, where `e` gave `r`: the empty match at `p`, or a failure.
#[inline(always)]
fn lookahead(positive: bool, r: Option<usize>, p: usize) -> Option<usize> {
    match (positive, r) {
        (true, r) => r.map(|_| p),
        (false, Some(_)) => None,
        (false, None) => Some(p),
    }
}

/// A match by the program: the verdict, or that a limit was reached.
pub(super) enum Outcome {
    /// The position after the match, or `None` when the rule does not match there.
    Done(Option<usize>),
    /// The match nested too deep or ran out of steps; the byte it had reached, and which limit.
    Limit(usize, Limit),
}

/// Runs `program`'s rule number `rule` from the start of `s`, recording component events in `ev`.
pub(super) fn run(program: &Program, rule: usize, s: &[u8], ev: &mut Events) -> Outcome {
    let mut m = Machine {
        program,
        s,
        nest: Nesting::new(s.len()),
    };
    let r = m.call(rule, true, 0, ev);
    match m.nest.limit {
        Some((at, limit)) => Outcome::Limit(at, limit),
        None => Outcome::Done(r),
    }
}

/// As [`run`], from byte `p` of `s` (so a match may look at the whole input, as one inside a larger
/// match does), on a budget of `steps` that the caller shares between matches: what the match took is
/// taken off it. Used by the streamed tree (`workbench::tree`), which matches each node's rule again.
pub(super) fn run_at(
    program: &Program,
    rule: usize,
    s: &[u8],
    p: usize,
    steps: &mut u64,
    ev: &mut Events,
) -> Outcome {
    let mut m = Machine {
        program,
        s,
        nest: Nesting::new(0),
    };
    m.nest.steps = *steps;
    let r = m.call(rule, false, p, ev);
    *steps = m.nest.steps;
    match m.nest.limit {
        Some((at, limit)) => Outcome::Limit(at, limit),
        None => Outcome::Done(r),
    }
}

struct Machine<'a> {
    program: &'a Program,
    s: &'a [u8],
    nest: Nesting,
}

impl<'a> Machine<'a> {
    fn table(&self, t: usize) -> &'a [bool; 256] {
        &self.program.tables[t]
    }

    #[inline]
    fn eval(&mut self, id: NodeId, p: usize, ev: &mut Events) -> Option<usize> {
        if !self.nest.enter(p) {
            return None;
        }
        let program = self.program;
        let r = self.node(&program.nodes[id], p, ev);
        self.nest.leave();
        r
    }

    fn guard(&self, guard: Guard, p: usize) -> bool {
        match guard {
            Guard::Never => false,
            Guard::Byte(b) => self.s.get(p) == Some(&b),
            Guard::Table(t) => matches!(self.s.get(p), Some(&b) if self.table(t)[b as usize]),
        }
    }

    fn node(&mut self, node: &'a Node, p: usize, ev: &mut Events) -> Option<usize> {
        let s = self.s;
        match node {
            Node::Empty => Some(p),
            Node::Fail => None,
            Node::Byte(b) => byte_is(s, p, *b),
            Node::ByteRange(lo, hi) => byte_in(s, p, *lo, *hi),
            Node::Table(t) => byte_of(s, p, self.table(*t)),
            Node::Literal(text) => {
                self.nest.charge(literal_steps(s, p, text), p);
                lit(s, p, text)
            }
            Node::LiteralCi(text) => {
                self.nest.charge(literal_steps(s, p, text), p);
                lit_ci(s, p, text)
            }
            Node::CharRange(a, b) => char_in(s, p, *a, *b),
            Node::Soi => (p == 0).then_some(p),
            Node::Eoi => (p == s.len()).then_some(p),
            Node::Any => any_char(s, p),
            Node::Call { rule, record } => self.call(*rule, *record, p, ev),
            Node::Predicate { positive, inner } => {
                lookahead(*positive, self.eval(*inner, p, ev), p)
            }
            Node::Seq(items) => {
                let mut q = p;
                for &item in items {
                    q = self.eval(item, q, ev)?;
                }
                Some(q)
            }
            Node::Ordered(alternatives) => {
                let n = ev.len();
                for alternative in alternatives {
                    if let Some(guard) = alternative.guard {
                        if !self.guard(guard, p) {
                            continue;
                        }
                    }
                    if let Some(q) = self.eval(alternative.node, p, ev) {
                        return Some(q);
                    }
                    if alternative.records {
                        ev.truncate(n);
                    }
                }
                None
            }
            Node::Folded { head, rest } => match self.node(head, p, ev) {
                Some(q) => Some(q),
                None => self.eval(*rest, p, ev),
            },
            Node::Optional { inner, records } => {
                let n = ev.len();
                match self.eval(*inner, p, ev) {
                    Some(q) => Some(q),
                    None => {
                        if *records {
                            ev.truncate(n);
                        }
                        Some(p)
                    }
                }
            }
            Node::AtLeast { inner, min, rest } => {
                let mut q = p;
                for _ in 0..*min {
                    q = self.eval(*inner, q, ev)?;
                }
                self.eval(*rest, q, ev)
            }
            Node::Repeat {
                inner,
                max,
                records,
            } => {
                let mut q = p;
                let mut count = 0u32;
                while max.is_none_or(|max| count < max) {
                    count += 1;
                    match self.again(*inner, q, *records, ev) {
                        Some(r) => q = r,
                        None => break,
                    }
                }
                Some(q)
            }
            Node::Scan { table, tail, guard } => {
                if let Some(g) = guard {
                    if !matches!(s.get(p), Some(&b) if self.table(*g)[b as usize]) {
                        return Some(p);
                    }
                }
                let table = self.table(*table);
                let mut q = p;
                loop {
                    let from = q;
                    q = scan(s, q, table);
                    self.nest.charge(q - from, q);
                    let Some((body, records)) = tail else { break };
                    match self.again(*body, q, *records, ev) {
                        Some(r) => q = r,
                        None => break,
                    }
                }
                Some(q)
            }
        }
    }

    /// One more round of a repetition of `body` at `q`: where it ends, if it matched and moved on (a
    /// repetition stops at an empty match); the events of a failed round (`records`) are forgotten.
    fn again(&mut self, body: NodeId, q: usize, records: bool, ev: &mut Events) -> Option<usize> {
        let n = ev.len();
        match self.eval(body, q, ev) {
            Some(r) if r > q => Some(r),
            Some(_) => None,
            None => {
                if records {
                    ev.truncate(n);
                }
                None
            }
        }
    }

    fn call(&mut self, rule: usize, record: bool, p: usize, ev: &mut Events) -> Option<usize> {
        let r = &self.program.rules[rule];
        let body = match (record, r.recording) {
            (true, Some(body)) => body,
            _ => return self.eval(r.quiet, p, ev),
        };
        let Some(component) = r.component else {
            return self.eval(body, p, ev);
        };
        let component = component as u32;
        let n = ev.push(component, p);
        match self.eval(body, p, ev) {
            Some(q) => {
                ev.close(component, q);
                Some(q)
            }
            None => {
                ev.truncate(n);
                None
            }
        }
    }
}

// -------------------------------------------------------------------------------------------------------
// The detail grammar, with pest's record of attempts
// -------------------------------------------------------------------------------------------------------

/// A node of the detail grammar as pest_derive would compile it (after pest_meta's optimizer), with its
/// rule calls resolved.
#[derive(Debug)]
enum DNode {
    Empty,
    Byte(u8),
    ByteRange(u8, u8),
    Table(Box<Set>),
    Literal(Vec<u8>),
    LiteralCi(Vec<u8>),
    CharRange(char, char),
    Soi,
    Eoi,
    Any,
    Call(usize),
    Predicate {
        positive: bool,
        inner: usize,
    },
    Seq(Vec<usize>),
    Choice(Vec<usize>),
    Optional(usize),
    /// `body*`, and what it may skip when explaining (see [`Skip`]), worked out at the first use.
    Repeat(usize, OnceLock<Skips>),
}

/// The bytes a repetition may step over without running its body, and those where it stops with what
/// the body records there replayed: the run-time form of the built-in explainer's `SKIP_k` and `STOP_j` tables
/// (`skip_table` and `stop_table` in `peg/src/explainer.rs`, which give the reason this is exact).
#[derive(Debug)]
struct Skip {
    over: [bool; 256],
    /// The three-byte iterations also stepped over (as the built-in explainer's `TRIPLE_k`, see
    /// `triple_tables` in `peg/src/explainer.rs`): first, second and third bytes.
    triple: Option<Box<[[bool; 256]; 3]>>,
    stop: [bool; 256],
    /// What the body records at a stop byte, outside a negative lookahead, made at the first use.
    steps: OnceLock<Vec<ClassStep>>,
}

/// What a repetition may step over when explaining: a [`Skip`] for a body that is a choice of rule
/// calls, a [`Runs`] for `(A ~ R)*`, each worked out at the first use.
#[derive(Debug, Default)]
struct Skips {
    skip: Option<Box<Skip>>,
    runs: Option<Box<Runs>>,
}

/// The run-time form of `run_tables` in `peg/src/explainer.rs` (which gives the reason this is exact):
/// the bytes that start an iteration of `(A ~ R)*`, those with the bytes of `R`'s run, and the run's
/// triplets, for `scan_runs`.
#[derive(Debug)]
struct Runs {
    start: [bool; 256],
    runs: [bool; 256],
    triple: Option<Box<[[bool; 256]; 3]>>,
}

/// What a node does at a position whose byte is `b`, when that byte alone decides it (as `Local` in
/// `peg/src/explainer.rs`), one value per byte and rule in [`Detail::locals`].
const LOCAL_OTHER: u8 = 0;
const LOCAL_MATCH1: u8 = 1;
const LOCAL_FAIL: u8 = 2;
const LOCAL_UNKNOWN: u8 = 3;
const LOCAL_PENDING: u8 = 4;

#[derive(Debug)]
struct DRule {
    /// The rule's number in the attempt lists (its position in the detail rules plus one; 0 is `EOI`).
    id: u16,
    silent: bool,
    body: usize,
}

/// The detail grammar, ready to explain rejections.
#[derive(Debug)]
pub(super) struct Detail {
    nodes: Vec<DNode>,
    rules: Vec<DRule>,
    /// The detail rule of each grammar rule's whole-input entry, by grammar rule number.
    entries: Vec<usize>,
    /// What each id of the attempt lists stands for, with pest's rank (rules, literals, the end of
    /// input) and its character class for folding.
    items: crate::engine::ExpectedTable,
    /// For each detail rule that is a *class rule* (its attempts depend on the byte at its position
    /// alone, see `peg/src/explainer.rs`), its number among them, for the first [`MAX_CLASS_MEMOS`].
    class_of: Vec<Option<usize>>,
    /// What each class rule does on each byte, made at its first use (as the built-in explainer's
    /// `class_memo`).
    steps: Vec<OnceLock<Vec<ClassStep>>>,
    /// What each detail rule does on each byte when that byte alone decides it (`LOCAL_*`), for the
    /// repetitions' [`Skip`] tables, made at the first use.
    locals: OnceLock<Vec<[u8; 256]>>,
    /// The nodes the analysis of three-byte iterations may still evaluate, over all repetitions (see
    /// [`Detail::triple_of`]): a grammar built to make it slow only gets fewer of them.
    window_budget: AtomicUsize,
}

/// The nodes [`Detail::triple_of`] may evaluate for one grammar in all (a few milliseconds), and for one
/// window.
const WINDOW_BUDGET: usize = 1 << 22;
const WINDOW_NODES: usize = 256;

/// The most class rules whose steps are kept (514 small steps each); the others are run in full.
const MAX_CLASS_MEMOS: usize = 512;

impl Detail {
    /// Compiles the optimized detail rules; `abnf` gives the ABNF name of grammar rule number `i`,
    /// `items` what each id stands for (`peg/src/explainer.rs`), `entry_prefix` names the entry rules of
    /// `rule_names` (the grammar's rules, in order).
    ///
    /// # Errors
    /// A message when an expression is beyond what the explainer supports, or there are more
    /// rules than ids.
    pub(super) fn new(
        detail: &[OptimizedRule],
        items: &[Item],
        rule_names: &[String],
        abnf: impl Fn(usize) -> String,
        entry_prefix: &str,
    ) -> Result<Detail, String> {
        if detail.len() >= usize::from(u16::MAX) {
            return Err("too many rules and quoted strings for the detail grammar".to_string());
        }
        let index: HashMap<&str, usize> = detail
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let mut class_of = vec![None; detail.len()];
        let classes = class_rules(detail);
        for (k, name) in classes.iter().take(MAX_CLASS_MEMOS).enumerate() {
            if let Some(&i) = index.get(name.as_str()) {
                class_of[i] = Some(k);
            }
        }
        let mut out = Detail {
            nodes: Vec::new(),
            rules: Vec::with_capacity(detail.len()),
            entries: Vec::with_capacity(rule_names.len()),
            items: crate::engine::ExpectedTable::new(std::iter::empty()),
            class_of,
            steps: (0..classes.len().min(MAX_CLASS_MEMOS))
                .map(|_| OnceLock::new())
                .collect(),
            locals: OnceLock::new(),
            window_budget: AtomicUsize::new(WINDOW_BUDGET),
        };
        for (i, rule) in detail.iter().enumerate() {
            let body = out.lower(&rule.expr, &index)?;
            out.rules.push(DRule {
                id: (i + 1) as u16,
                silent: match rule.ty {
                    RuleType::Silent => true,
                    RuleType::Normal => false,
                    _ => return Err(format!("rule `{}` is not normal or silent", rule.name)),
                },
                body,
            });
        }
        for name in rule_names {
            let entry = format!("{entry_prefix}{name}");
            match index.get(entry.as_str()) {
                Some(&i) => out.entries.push(i),
                None => return Err(format!("no entry rule for `{name}`")),
            }
        }
        out.items = crate::engine::ExpectedTable::new(items.iter().map(|item| match item {
            Item::Rule(i) if *i < rule_names.len() => (Expected::Rule(Cow::Owned(abnf(*i))), 0),
            Item::Literal(text) => (Expected::Literal(Cow::Owned(text.clone())), 1),
            _ => (Expected::EndOfInput, 2),
        }));
        Ok(out)
    }

    fn push(&mut self, node: DNode) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn lower(&mut self, e: &E, index: &HashMap<&str, usize>) -> Result<usize, String> {
        let node = match e {
            E::Str(text) if text.is_empty() => DNode::Empty,
            E::Str(text) if text.len() == 1 => DNode::Byte(text.as_bytes()[0]),
            E::Str(text) => DNode::Literal(text.as_bytes().to_vec()),
            E::Insens(text) => DNode::LiteralCi(text.as_bytes().to_vec()),
            E::Range(a, b) => {
                let (a, b) = (single_char(a)?, single_char(b)?);
                if a.is_ascii() && b.is_ascii() {
                    DNode::ByteRange(a as u8, b as u8)
                } else {
                    DNode::CharRange(a, b)
                }
            }
            E::Ident(name) => match name.as_str() {
                "SOI" => DNode::Soi,
                "EOI" => DNode::Eoi,
                "ANY" => DNode::Any,
                "ASCII_DIGIT" | "ASCII_ALPHA" | "ASCII_HEX_DIGIT" => {
                    DNode::Table(Box::new(builtin_class(name).unwrap_or([false; 256])))
                }
                other => match index.get(other) {
                    Some(&i) => DNode::Call(i),
                    None => return Err(format!("`{other}` is not supported by the explainer")),
                },
            },
            E::PosPred(inner) | E::NegPred(inner) => DNode::Predicate {
                positive: matches!(e, E::PosPred(_)),
                inner: self.lower(inner, index)?,
            },
            E::Seq(..) => DNode::Seq(self.terms(e, index, |e| match e {
                E::Seq(a, b) => Some((&**a, &**b)),
                _ => None,
            })?),
            E::Choice(..) => DNode::Choice(self.terms(e, index, |e| match e {
                E::Choice(a, b) => Some((&**a, &**b)),
                _ => None,
            })?),
            E::Opt(inner) => DNode::Optional(self.lower(inner, index)?),
            E::Rep(inner) => DNode::Repeat(self.lower(inner, index)?, OnceLock::new()),
            E::RestoreOnErr(inner) => return self.lower(inner, index),
            _ => {
                return Err(format!(
                    "`{e}`: PUSH, PEEK, POP, skip and node tags are not supported by the explainer"
                ))
            }
        };
        Ok(self.push(node))
    }

    /// The terms of a chain of sequences (or of choices), which pest_meta nests to the right, lowered in
    /// order; `split` takes a link of the chain apart.
    fn terms(
        &mut self,
        e: &E,
        index: &HashMap<&str, usize>,
        split: impl Fn(&E) -> Option<(&E, &E)>,
    ) -> Result<Vec<usize>, String> {
        let mut items = Vec::new();
        let mut at = e;
        while let Some((a, b)) = split(at) {
            items.push(self.lower(a, index)?);
            at = b;
        }
        items.push(self.lower(at, index)?);
        Ok(items)
    }

    /// Matches grammar rule number `rule` against the whole of `s` with pest's record of attempts:
    /// `Ok(None)` when it matches after all, `Ok(Some((offset, expected)))` with the furthest position
    /// reached and what was expected there (pest's order, folded), `Err((at, limit))` when a limit
    /// was reached at byte `at`.
    pub(super) fn explain(
        &self,
        rule: usize,
        s: &[u8],
    ) -> Result<Option<Explained>, (usize, Limit)> {
        let mut d = Diag::new(s);
        let mut run = DRun {
            detail: self,
            nest: Nesting::new(s.len()),
            full: false,
        };
        let r = run.call(self.entries[rule], 0, &mut d);
        if let Some(limit) = run.nest.limit {
            return Err(limit);
        }
        if r == Some(s.len()) {
            return Ok(None);
        }
        Ok(Some((
            d.offset(),
            crate::engine::expected_from_ids(&self.items, &mut d.into_positive_ids()),
        )))
    }

    /// What the repetition `body*` may skip (see [`Skip`]), as `skip_table` and `stop_table` in
    /// `peg/src/explainer.rs` work it out for the built-in explainer: only when every alternative of `body` is a
    /// call of a normal rule, and only bytes on which that is decided by the byte alone.
    fn skip_of(&self, body: usize) -> Option<Box<Skip>> {
        let mut alternatives = Vec::new();
        let mut todo = vec![body];
        while let Some(id) = todo.pop() {
            match &self.nodes[id] {
                DNode::Choice(items) => todo.extend(items.iter().rev()),
                _ => alternatives.push(id),
            }
        }
        let normal_call =
            |&id: &usize| matches!(self.nodes[id], DNode::Call(r) if !self.rules[r].silent);
        if !alternatives.iter().all(normal_call) {
            return None;
        }
        let locals = self.locals.get_or_init(|| self.rule_locals());
        let (mut over, mut stop) = ([false; 256], [false; 256]);
        for b in 0..=255u8 {
            match self.local(body, b, locals) {
                LOCAL_MATCH1 => over[usize::from(b)] = true,
                LOCAL_FAIL => stop[usize::from(b)] = true,
                _ => {}
            }
        }
        over.contains(&true).then(|| {
            Box::new(Skip {
                over,
                triple: self.triple_of(body),
                stop,
                steps: OnceLock::new(),
            })
        })
    }

    /// What the repetition `body*` may step over (see [`Skips`]).
    fn skips_of(&self, body: usize) -> Skips {
        Skips {
            skip: self.skip_of(body),
            runs: self.runs_of(body),
        }
    }

    /// The [`Runs`] of `body*` when `body` is `A ~ R`, `A` and `R` calls of normal rules and `R`'s body
    /// a repetition with a [`Skip`] (as `run_tables` in `peg/src/explainer.rs`).
    fn runs_of(&self, body: usize) -> Option<Box<Runs>> {
        let DNode::Seq(items) = &self.nodes[body] else {
            return None;
        };
        let [a, r] = items.as_slice() else {
            return None;
        };
        let normal = |id: usize| match self.nodes[id] {
            DNode::Call(rule) if !self.rules[rule].silent => Some(rule),
            _ => None,
        };
        normal(*a)?;
        let DNode::Repeat(run, _) = &self.nodes[self.rules[normal(*r)?].body] else {
            return None;
        };
        // Worked out again rather than taken from `R`'s own node: its `OnceLock` may be the one being
        // initialized, through recursion (`R = (A ~ R)*`).
        let skip = self.skip_of(*run)?;
        let locals = self.locals.get_or_init(|| self.rule_locals());
        let mut start = [false; 256];
        let mut runs = skip.over;
        for c in 0..=255u8 {
            let b = usize::from(c);
            let in_triplet = skip.triple.as_ref().is_some_and(|t| t[1][b] || t[2][b]);
            start[b] = self.local(*a, c, locals) == LOCAL_MATCH1 && skip.stop[b] && !in_triplet;
            runs[b] |= start[b];
        }
        start.contains(&true).then(|| {
            Box::new(Runs {
                start,
                runs,
                triple: skip.triple,
            })
        })
    }

    /// The three-byte iterations the repetition `body*` may also step over, as `triple_tables` in
    /// `peg/src/explainer.rs` works them out (whose reason holds here): the triplets on which `body`
    /// matches exactly those three bytes looking at no other position, when they are a product of a
    /// first byte, a second and a third. At most [`WINDOW_NODES`] nodes per window and what remains of
    /// the grammar's [`WINDOW_BUDGET`]: past either, there are fewer triplets (none), never wrong ones.
    fn triple_of(&self, body: usize) -> Option<Box<[[bool; 256]; 3]>> {
        let mut budget = self.window_budget.swap(0, Ordering::Relaxed);
        let found = triplets(|bytes| {
            // At most `WINDOW_NODES` nodes for this window, taken from what the grammar has left.
            let mut nodes = WINDOW_NODES.min(budget);
            let w = self.window(body, bytes, 0, 0, &mut nodes);
            budget -= WINDOW_NODES.min(budget) - nodes;
            (budget > 0).then_some(w)
        })
        .map(Box::new);
        self.window_budget.fetch_add(budget, Ordering::Relaxed);
        found
    }

    /// [`Window`] of node `id` matched at `p` in `s` (one to three bytes), as `DRun` matches it; every
    /// node evaluated at or past the end of `s` is [`Window::Unknown`], as is everything past 64
    /// nodes deep or past `nodes` nodes evaluated.
    fn window(&self, id: usize, s: &[u8], p: usize, depth: usize, nodes: &mut usize) -> Window {
        if depth > 64 || p >= s.len() || *nodes == 0 {
            return Window::Unknown;
        }
        *nodes -= 1;
        let compare = |text: &[u8], same| window_of_text(s, p, text, same);
        let one = |matched: bool| match matched {
            true => Window::Match(p + 1),
            false => Window::Fail,
        };
        match &self.nodes[id] {
            DNode::Empty => Window::Match(p),
            DNode::Byte(b) => one(s[p] == *b),
            DNode::ByteRange(lo, hi) => one((*lo..=*hi).contains(&s[p])),
            DNode::Table(set) => one(set[usize::from(s[p])]),
            DNode::Literal(text) => compare(text, |a, b| a == b),
            DNode::LiteralCi(text) => compare(text, |a, b| a.eq_ignore_ascii_case(b)),
            // An ASCII byte is a whole character; any other starts one that may go past the window.
            DNode::CharRange(lo, hi) if s[p].is_ascii() => {
                one((*lo..=*hi).contains(&char::from(s[p])))
            }
            DNode::Call(r) => self.window(self.rules[*r].body, s, p, depth + 1, nodes),
            DNode::Predicate { positive, inner } => {
                match (self.window(*inner, s, p, depth + 1, nodes), positive) {
                    (Window::Unknown, _) => Window::Unknown,
                    (Window::Match(_), true) | (Window::Fail, false) => Window::Match(p),
                    _ => Window::Fail,
                }
            }
            DNode::Seq(items) => {
                let mut q = p;
                for &item in items {
                    match self.window(item, s, q, depth + 1, nodes) {
                        Window::Match(r) => q = r,
                        other => return other,
                    }
                }
                Window::Match(q)
            }
            DNode::Choice(items) => {
                for &item in items {
                    match self.window(item, s, p, depth + 1, nodes) {
                        Window::Fail => {}
                        decided => return decided,
                    }
                }
                Window::Fail
            }
            DNode::Optional(inner) => match self.window(*inner, s, p, depth + 1, nodes) {
                Window::Fail => Window::Match(p),
                other => other,
            },
            DNode::Repeat(inner, _) => {
                let mut q = p;
                loop {
                    match self.window(*inner, s, q, depth + 1, nodes) {
                        Window::Match(r) if r > q => q = r,
                        Window::Match(_) | Window::Fail => return Window::Match(q),
                        Window::Unknown => return Window::Unknown,
                    }
                }
            }
            DNode::CharRange(..) | DNode::Soi | DNode::Eoi | DNode::Any => Window::Unknown,
        }
    }

    /// What `body` records on each byte and at the end of the input, outside and inside a negative
    /// lookahead (as a class rule's steps), run in full.
    fn body_steps(&self, body: usize) -> Vec<ClassStep> {
        steps_of(|d| {
            let mut run = DRun {
                detail: self,
                // One byte, run once per table: no step budget, as the explanation it feeds must be exact.
                nest: Nesting::new(usize::MAX),
                full: true,
            };
            run.eval(body, 0, d).is_some()
        })
    }

    /// `LOCAL_*` of node `id` on byte `b`, the rules' values taken from `locals`.
    fn local(&self, id: usize, b: u8, locals: &[[u8; 256]]) -> u8 {
        self.local_with(id, b, &mut |rule, _| locals[rule][usize::from(b)], 0)
    }

    /// `LOCAL_*` of node `id` on byte `b` (as `local` in `peg/src/explainer.rs`), asking `rule` for the
    /// value of a called rule; at most 64 nodes deep (beyond: `LOCAL_OTHER`, which only skips less).
    fn local_with(
        &self,
        id: usize,
        b: u8,
        rule: &mut dyn FnMut(usize, usize) -> u8,
        depth: usize,
    ) -> u8 {
        if depth > 64 {
            return LOCAL_OTHER;
        }
        match &self.nodes[id] {
            DNode::Byte(x) if *x == b => LOCAL_MATCH1,
            DNode::Byte(_) => LOCAL_FAIL,
            DNode::Literal(text) if text.first() != Some(&b) => LOCAL_FAIL,
            DNode::ByteRange(lo, hi) if (*lo..=*hi).contains(&b) => LOCAL_MATCH1,
            DNode::ByteRange(..) => LOCAL_FAIL,
            // An ASCII byte is a whole character: in the range or not, decided by the byte (a
            // `ucschar` range of an IRI grammar fails on every ASCII byte).
            DNode::CharRange(lo, hi) if b.is_ascii() => {
                match (*lo..=*hi).contains(&char::from(b)) {
                    true => LOCAL_MATCH1,
                    false => LOCAL_FAIL,
                }
            }
            DNode::Call(r) => rule(*r, depth + 1),
            DNode::Seq(items) => match self.local_with(items[0], b, rule, depth + 1) {
                LOCAL_FAIL => LOCAL_FAIL,
                _ => LOCAL_OTHER,
            },
            DNode::Choice(items) => {
                for &item in items {
                    match self.local_with(item, b, rule, depth + 1) {
                        LOCAL_FAIL => {}
                        decided => return decided,
                    }
                }
                LOCAL_FAIL
            }
            _ => LOCAL_OTHER,
        }
    }

    /// `LOCAL_*` of every detail rule on every byte, each worked out once (a rule met again while its
    /// value is being worked out, which pest's ban on left recursion leaves to deep chains, counts as
    /// `LOCAL_OTHER`): linear in the size of the detail grammar times 256.
    fn rule_locals(&self) -> Vec<[u8; 256]> {
        let mut table = vec![[LOCAL_UNKNOWN; 256]; self.rules.len()];
        for b in 0..=255u8 {
            for r in 0..self.rules.len() {
                self.rule_local(r, b, &mut table, 0);
            }
        }
        table
    }

    fn rule_local(&self, r: usize, b: u8, table: &mut Vec<[u8; 256]>, depth: usize) -> u8 {
        match table[r][usize::from(b)] {
            LOCAL_UNKNOWN => {}
            LOCAL_PENDING => return LOCAL_OTHER,
            known => return known,
        }
        if depth > 64 {
            return LOCAL_OTHER;
        }
        table[r][usize::from(b)] = LOCAL_PENDING;
        let value = self.local_with(
            self.rules[r].body,
            b,
            &mut |callee, depth| self.rule_local(callee, b, table, depth),
            depth,
        );
        table[r][usize::from(b)] = value;
        value
    }

    /// The steps of class rule `rule` (a detail rule number) for each byte and the end of the input
    /// (256), outside and inside a negative lookahead: the rule run in full on that byte alone. Exact
    /// for the reason the built-in explainer's `class_memo` is: every rule a class rule tries starts at its
    /// position.
    fn class_steps(&self, rule: usize) -> Vec<ClassStep> {
        steps_of(|d| {
            let mut run = DRun {
                detail: self,
                // One byte, run once per table: no step budget, as the explanation it feeds must be exact.
                nest: Nesting::new(usize::MAX),
                full: true,
            };
            run.call(rule, 0, d).is_some()
        })
    }
}

struct DRun<'a> {
    detail: &'a Detail,
    nest: Nesting,
    /// Class rules are run in full (making their steps), not from their steps.
    full: bool,
}

impl DRun<'_> {
    fn call(&mut self, rule: usize, p: usize, d: &mut Diag<'_>) -> Option<usize> {
        if let (false, Some(k)) = (self.full, self.detail.class_of[rule]) {
            let detail = self.detail;
            let steps = detail.steps[k].get_or_init(|| detail.class_steps(rule));
            let byte = d.s.get(p).map_or(256, |&b| usize::from(b));
            let negative = d.look == Look::Negative;
            return d.step(&steps[byte * 2 + usize::from(negative)], p);
        }
        let r = &self.detail.rules[rule];
        if r.silent {
            return self.eval(r.body, p, d);
        }
        let entry = d.enter(p);
        let result = self.eval(r.body, p, d);
        d.leave(r.id, p, entry, result)
    }

    fn eval(&mut self, id: usize, p: usize, d: &mut Diag<'_>) -> Option<usize> {
        if !self.nest.enter(p) {
            return None;
        }
        let r = self.node(id, p, d);
        self.nest.leave();
        r
    }

    fn node(&mut self, id: usize, p: usize, d: &mut Diag<'_>) -> Option<usize> {
        let s = d.s;
        match &self.detail.nodes[id] {
            DNode::Empty => Some(p),
            DNode::Byte(b) => byte_is(s, p, *b),
            DNode::ByteRange(lo, hi) => byte_in(s, p, *lo, *hi),
            DNode::Table(set) => byte_of(s, p, set),
            DNode::Literal(text) => {
                self.nest.charge(literal_steps(s, p, text), p);
                lit(s, p, text)
            }
            DNode::LiteralCi(text) => {
                self.nest.charge(literal_steps(s, p, text), p);
                lit_ci(s, p, text)
            }
            DNode::CharRange(a, b) => char_in(s, p, *a, *b),
            DNode::Soi => (p == 0).then_some(p),
            DNode::Eoi => d.eoi(p),
            DNode::Any => any_char(s, p),
            DNode::Call(rule) => self.call(*rule, p, d),
            DNode::Predicate { positive, inner } => {
                let look = d.look;
                d.look = if *positive {
                    look.positive()
                } else {
                    look.negative()
                };
                let r = self.eval(*inner, p, d);
                d.look = look;
                lookahead(*positive, r, p)
            }
            DNode::Seq(items) => {
                let mut q = p;
                for &item in items {
                    q = self.eval(item, q, d)?;
                }
                Some(q)
            }
            DNode::Choice(items) => {
                let last = items.len() - 1;
                for (k, &item) in items.iter().enumerate() {
                    let r = self.eval(item, p, d);
                    if r.is_some() || k == last {
                        return r;
                    }
                }
                None
            }
            DNode::Optional(inner) => Some(self.eval(*inner, p, d).unwrap_or(p)),
            DNode::Repeat(inner, skips) => {
                let mut q = p;
                // Outside a negative lookahead, the iterations on bytes the body matches alone are
                // stepped over, and at a byte where it fails alone its record is replayed (as the
                // built-in explainer does); a table's own steps are made in full.
                let (skip, runs) = match self.full {
                    false => {
                        let skips = skips.get_or_init(|| self.detail.skips_of(*inner));
                        (skips.skip.as_deref(), skips.runs.as_deref())
                    }
                    true => (None, None),
                };
                // A string of iterations `A ~ R` is stepped over to its last one (as `scan_runs` in
                // the built-in explainer).
                if let (Some(runs), false) = (runs, d.look == Look::Negative) {
                    q = scan_runs(s, q, &runs.start, &runs.runs, runs.triple.as_deref());
                    self.nest.charge(q - p, q);
                }
                loop {
                    if let (Some(skip), false) = (skip, d.look == Look::Negative) {
                        let from = q;
                        q = match &skip.triple {
                            Some(triple) => scan_triples(s, q, &skip.over, triple),
                            None => scan(s, q, &skip.over),
                        };
                        self.nest.charge(q - from, q);
                        if let Some(&b) = s.get(q) {
                            if skip.stop[usize::from(b)] {
                                let detail = self.detail;
                                let steps = skip.steps.get_or_init(|| detail.body_steps(*inner));
                                d.step(&steps[usize::from(b) * 2], q);
                                return Some(q);
                            }
                        }
                    }
                    let Some(r) = self.eval(*inner, q, d) else {
                        break;
                    };
                    if r == q {
                        break;
                    }
                    q = r;
                }
                Some(q)
            }
        }
    }
}
