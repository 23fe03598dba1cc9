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
use std::sync::OnceLock;

use pest_meta::optimizer::OptimizedRule;

use super::explainer::{self as lowered, Item};
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

/// What a repetition records where its scan stops, outside a negative lookahead (the steps of its
/// body), made at the first use.
type StopSteps = OnceLock<Vec<ClassStep>>;

/// The detail grammar, ready to explain rejections: the explainer's program as the generator lowers
/// it (`rfc3986_peg::explainer::Program`, the same program `build.rs` writes as the built-in explainer,
/// with the same tables), and the steps made from it at the first use.
#[derive(Debug)]
pub(super) struct Detail {
    program: lowered::Program,
    /// What each id of the attempt lists stands for, with pest's rank (rules, literals, the end of
    /// input) and its character class for folding.
    items: crate::engine::ExpectedTable,
    /// What each class rule does on each byte (for the first [`MAX_CLASS_MEMOS`]), made at its first
    /// use (the built-in explainer's are constants the generator works out the same way).
    steps: Vec<OnceLock<Vec<ClassStep>>>,
    /// What each repetition with a skip table records where its scan stops, by its number in the
    /// program's `repeats`.
    stops: Vec<StopSteps>,
    /// What each rule with a fail table records on the bytes of that table, by rule number, made at
    /// its first use.
    fails: Vec<OnceLock<Vec<ClassStep>>>,
}

/// The most class rules whose steps are kept (514 small steps each); the others are run in full.
const MAX_CLASS_MEMOS: usize = 512;

impl Detail {
    /// Compiles the optimized detail rules; `abnf` gives the ABNF name of grammar rule number `i`,
    /// `items` what each id stands for (`peg/src/explainer.rs`), `entry_prefix` names the entry rules of
    /// `rule_names` (the grammar's rules, in order).
    ///
    /// # Errors
    /// A message when an expression is beyond what the explainer supports, or there are more
    /// rules than ids (see `Program::lower`).
    pub(super) fn new(
        detail: &[OptimizedRule],
        items: &[Item],
        rule_names: &[String],
        abnf: impl Fn(usize) -> String,
        entry_prefix: &str,
    ) -> Result<Detail, String> {
        let program = lowered::Program::lower(detail, rule_names, entry_prefix)?;
        let items = crate::engine::ExpectedTable::new(items.iter().map(|item| match item {
            Item::Rule(i) if *i < rule_names.len() => (Expected::Rule(Cow::Owned(abnf(*i))), 0),
            Item::Literal(text) => (Expected::Literal(Cow::Owned(text.clone())), 1),
            _ => (Expected::EndOfInput, 2),
        }));
        Ok(Detail {
            steps: (0..program.classes.len().min(MAX_CLASS_MEMOS))
                .map(|_| OnceLock::new())
                .collect(),
            stops: (0..program.repeats.len())
                .map(|_| OnceLock::new())
                .collect(),
            fails: (0..program.rules.len()).map(|_| OnceLock::new()).collect(),
            program,
            items,
        })
    }

    /// The explainer's program.
    #[cfg(test)]
    pub(super) fn program(&self) -> &lowered::Program {
        &self.program
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
        let r = run.call(self.program.entries[rule], 0, &mut d);
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
            run.eval(body, 0, d)
        })
    }

    /// The steps of class rule `rule` (a detail rule number) for each byte and the end of the input
    /// (256), outside and inside a negative lookahead: the rule run in full on that byte alone. Exact
    /// for the reason the built-in explainer's tables of steps are: every rule a class rule tries starts at its
    /// position (and for a rule with a fail table, on the bytes of its table).
    fn class_steps(&self, rule: usize) -> Vec<ClassStep> {
        steps_of(|d| {
            let mut run = DRun {
                detail: self,
                // One byte, run once per table: no step budget, as the explanation it feeds must be exact.
                nest: Nesting::new(usize::MAX),
                full: true,
            };
            run.call(rule, 0, d)
        })
    }
}

struct DRun<'a> {
    detail: &'a Detail,
    nest: Nesting,
    /// Class rules are run in full (making their steps), not from their steps, and repetitions step
    /// over nothing.
    full: bool,
}

impl DRun<'_> {
    fn call(&mut self, rule: usize, p: usize, d: &mut Diag<'_>) -> Option<usize> {
        let detail = self.detail;
        let r = &detail.program.rules[rule];
        if let (false, Some(k)) = (self.full, r.class.filter(|&k| k < MAX_CLASS_MEMOS)) {
            let steps = detail.steps[k].get_or_init(|| detail.class_steps(rule));
            let byte = d.s.get(p).map_or(256, |&b| usize::from(b));
            let negative = d.look == Look::Negative;
            return d.step(&steps[byte * 2 + usize::from(negative)], p);
        }
        if r.silent {
            return self.eval(r.body, p, d);
        }
        // A rule that this byte alone decides (it fails, or matches the byte or nothing): its record
        // there is replayed (as the built-in explainer's `FAIL_k` tables).
        if let (false, Some(fail), Some(&b)) = (self.full, &r.fail, d.s.get(p)) {
            if fail[usize::from(b)] {
                let steps = detail.fails[rule].get_or_init(|| detail.class_steps(rule));
                let negative = d.look == Look::Negative;
                return d.step(&steps[usize::from(b) * 2 + usize::from(negative)], p);
            }
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
        let detail = self.detail;
        match &detail.program.nodes[id] {
            lowered::Node::Empty => Some(p),
            lowered::Node::Byte(b) => byte_is(s, p, *b),
            lowered::Node::ByteRange(lo, hi) => byte_in(s, p, *lo, *hi),
            lowered::Node::Builtin(class) => byte_of(s, p, class.table()),
            lowered::Node::Literal(text) => {
                self.nest.charge(literal_steps(s, p, text), p);
                lit(s, p, text)
            }
            lowered::Node::LiteralCi(text) => {
                self.nest.charge(literal_steps(s, p, text), p);
                lit_ci(s, p, text)
            }
            lowered::Node::CharRange(a, b) => char_in(s, p, *a, *b),
            lowered::Node::Soi => (p == 0).then_some(p),
            lowered::Node::Eoi => d.eoi(p),
            lowered::Node::Any => any_char(s, p),
            lowered::Node::Call(rule) => self.call(*rule, p, d),
            lowered::Node::Predicate { positive, inner } => {
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
            lowered::Node::Seq(items) => {
                let mut q = p;
                for &item in items {
                    q = self.eval(item, q, d)?;
                }
                Some(q)
            }
            lowered::Node::Choice(items) => {
                let last = items.len() - 1;
                for (k, &item) in items.iter().enumerate() {
                    let r = self.eval(item, p, d);
                    if r.is_some() || k == last {
                        return r;
                    }
                }
                None
            }
            lowered::Node::Optional(inner) => Some(self.eval(*inner, p, d).unwrap_or(p)),
            lowered::Node::Repeat {
                body: inner,
                tables,
            } => {
                let mut q = p;
                // Outside a negative lookahead, the iterations on bytes the body matches alone are
                // stepped over, and at a byte where it fails alone its record is replayed (as the
                // built-in explainer does); a table's own steps are made in full.
                let repeat = &detail.program.repeats[*tables];
                let (skip, runs) = match self.full || d.look == Look::Negative {
                    false => (repeat.skip.as_ref(), repeat.runs.as_ref()),
                    true => (None, None),
                };
                // A string of iterations `A ~ R` is stepped over to its last one (as `scan_runs` in
                // the built-in explainer).
                if let Some(runs) = runs {
                    q = scan_runs(s, q, &runs.start, &runs.runs, runs.triple.as_deref());
                    self.nest.charge(q - p, q);
                }
                loop {
                    if let Some(skip) = skip {
                        let from = q;
                        q = match &skip.triple {
                            Some(triple) => scan_triples(s, q, &skip.over, triple),
                            None => scan(s, q, &skip.over),
                        };
                        self.nest.charge(q - from, q);
                        if let Some(&b) = s.get(q) {
                            if skip.stop[usize::from(b)] {
                                let steps =
                                    detail.stops[*tables].get_or_init(|| detail.body_steps(*inner));
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
