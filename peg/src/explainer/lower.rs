//! The explainer's program: the detail grammar (after pest_meta's optimizer) lowered once into nodes
//! with its rule calls resolved, together with every table the explainer steps with (the class rules,
//! the bytes that alone decide a rule, and for each repetition its skip, stop, triplet and run
//! tables). `build.rs` writes it as Rust ([`generate`](super::generate)); the run-time engine of
//! `rfc3986` (feature `runtime-grammar`) builds the same [`Program`] when a loaded grammar first
//! rejects an input, and interprets it. Nothing here is worked out anywhere else.
//!
//! Every analysis is bounded, as the program is also built for grammars loaded at run time: a rule's
//! [`Local`] value on a byte is worked out once (linear in the grammar's size times 256), and the search
//! for three-byte iterations evaluates at most [`WINDOW_NODES`] nodes per window and [`WINDOW_BUDGET`]
//! in all. Past a bound, a table has fewer bytes (the explainer steps over less), never wrong ones.

use std::collections::HashMap;

use pest_meta::ast::RuleType;
use pest_meta::optimizer::{OptimizedExpr as E, OptimizedRule};

use super::{class_rules, triplets, window_of_text, Window};
use crate::analyse::{single_char, Set};

/// A byte class pest has built in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `ASCII_ALPHA`.
    Alpha,
    /// `ASCII_HEX_DIGIT`.
    HexDigit,
}

impl Builtin {
    /// The bytes of the class.
    pub fn table(self) -> &'static Set {
        static ALPHA: Set = {
            let mut t = [false; 256];
            let mut b = 0;
            while b < 256 {
                t[b] = (b as u8).is_ascii_alphabetic();
                b += 1;
            }
            t
        };
        static HEX: Set = {
            let mut t = [false; 256];
            let mut b = 0;
            while b < 256 {
                t[b] = (b as u8).is_ascii_hexdigit();
                b += 1;
            }
            t
        };
        match self {
            Builtin::Alpha => &ALPHA,
            Builtin::HexDigit => &HEX,
        }
    }
}

/// A node of the explainer's program: an expression of the detail grammar as pest_derive compiles it,
/// its rule calls resolved to rule numbers and its terms to node numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// The empty string.
    Empty,
    /// One byte.
    Byte(u8),
    /// One byte in an inclusive range of ASCII bytes (`ASCII_DIGIT` too).
    ByteRange(u8, u8),
    /// One byte of a built-in class.
    Builtin(Builtin),
    /// A string of two bytes or more.
    Literal(Vec<u8>),
    /// A case-insensitive string (`^"..."`).
    LiteralCi(Vec<u8>),
    /// One character in an inclusive range that goes beyond ASCII.
    CharRange(char, char),
    /// pest's `SOI`.
    Soi,
    /// pest's `EOI` (recorded as item 0).
    Eoi,
    /// pest's `ANY`.
    Any,
    /// A call of detail rule number `usize`.
    Call(usize),
    /// `&inner` (`positive`) or `!inner`.
    Predicate {
        /// `&` rather than `!`.
        positive: bool,
        /// The node looked at.
        inner: usize,
    },
    /// The nodes in order.
    Seq(Vec<usize>),
    /// The first node that matches.
    Choice(Vec<usize>),
    /// `inner?`.
    Optional(usize),
    /// `body*`, with its tables: [`Program::repeats`]`[tables]`.
    Repeat {
        /// The node repeated.
        body: usize,
        /// Its entry in [`Program::repeats`].
        tables: usize,
    },
}

/// A rule of the detail grammar.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Its name in the detail grammar (not part of [`Program::digest`]: the run-time engine names its
    /// entry rules otherwise).
    pub name: String,
    /// Its number in the attempt lists: its position among the detail rules plus one (0 is `EOI`).
    pub id: u16,
    /// A silent rule records nothing.
    pub silent: bool,
    /// Its body.
    pub body: usize,
    /// Its number among the *class rules* (see [`class_rules`]), whose record depends on the byte at
    /// its position alone, if it is one.
    pub class: Option<usize>,
    /// For a normal rule that is not a class rule, its *fail table*: the bytes on which that byte alone
    /// decides it, attempting nothing at any other position ([`Local::Fail`], [`Local::Match0`],
    /// [`Local::Match1`]), when there are some: on them, what it records depends on the byte alone,
    /// and is replayed from a table made once (as a class rule's), with the match's length.
    pub fail: Option<Box<Set>>,
}

/// The tables of a repetition `body*` (see [`Program::repeats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Repeat {
    /// Its [`Skip`], when every alternative of `body` is a call of a normal rule and some byte decides
    /// an iteration alone.
    pub skip: Option<Skip>,
    /// Its [`Runs`], when `body` is `A ~ R` as they describe.
    pub runs: Option<Runs>,
}

/// The bytes a repetition `body*` may step over without running `body`, and those on which it stops.
///
/// At a byte on which `body` is [`Local::Match1`], an iteration only adds attempts at that byte's
/// position. When every alternative of `body` is a call of a normal rule, the repetition ends where
/// `body` fails, outside a negative lookahead, by recording a failed rule at that later position (or
/// further), which drops every attempt recorded before it: so the skipped iterations cannot show in
/// the error, and the explainer scans over them as the recognizer does (inside a negative lookahead a
/// match records, and nothing is skipped).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Skip {
    /// The bytes on which `body` is [`Local::Match1`].
    pub over: Set,
    /// The three-byte iterations also stepped over: tables of the first, second and third bytes such
    /// that on every such triplet `body` matches exactly those three bytes, looking at no other position
    /// (for `*pchar`: `"%"`, `HEXDIG`, `HEXDIG`, a `pct-encoded`). The argument above holds for them
    /// unchanged. Only ASCII first bytes are tried, each with at most
    /// [`TRIPLE_SECOND_BYTES`](super::TRIPLE_SECOND_BYTES) second bytes that leave the body undecided;
    /// when several first bytes start triplets with different second and third bytes, those of the
    /// lowest first byte are kept.
    pub triple: Option<Box<[Set; 3]>>,
    /// The bytes on which `body` is [`Local::Fail`]: where the scan stops on one of them, the repetition
    /// ends there, and what `body` records at that position depends on the byte alone, so it is
    /// replayed from a table made once (as a class rule's step), not matched.
    pub stop: Set,
}

/// For a repetition `(A ~ R)*` whose body calls a normal rule `A` then a normal rule `R = body*` (for
/// `*( "/" segment )`: `"/"` then `segment = *pchar`), where `R`'s repetition has a [`Skip`]: the bytes
/// that separate iterations and the tables of `R`'s scan.
///
/// An iteration that starts on a byte `c` of `start` and whose run stops on such a byte again attempts
/// rules only where the run stops (`body` fails there alone), so the next iteration, whose run stops at
/// least one byte further, records beyond it and drops that record; the iterations of a string of them
/// are stepped over (`scan_runs`: as long as the bytes are in `runs`) and the last one, whose run stops
/// elsewhere, is matched and recorded in full. A byte that may be the second or third of a triplet is
/// not in `start`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Runs {
    /// The bytes on which `A` matches alone and on which the run's body fails alone.
    pub start: Set,
    /// `start` and the run's [`Skip::over`] together.
    pub runs: Set,
    /// The run's [`Skip::triple`].
    pub triple: Option<Box<[Set; 3]>>,
}

/// The explainer's program (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    /// The nodes; a rule's body and a node's terms are numbers in this list.
    pub nodes: Vec<Node>,
    /// The detail rules, in the order of the detail grammar.
    pub rules: Vec<Rule>,
    /// The detail rule of each grammar rule's whole-input entry, by grammar rule number.
    pub entries: Vec<usize>,
    /// The class rules (detail rule numbers), in the order of [`Rule::class`].
    pub classes: Vec<usize>,
    /// The tables of each repetition, in the order of their nodes.
    pub repeats: Vec<Repeat>,
}

/// What an expression does at a position whose byte is `b`, when that byte alone decides it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Local {
    /// It matches exactly that byte, attempting nothing at any other position.
    Match1,
    /// It matches the empty string, attempting nothing at any other position (a repetition or an
    /// option whose body fails on the byte, say).
    Match0,
    /// It fails, attempting nothing at any other position.
    Fail,
    /// Anything else (it looks further).
    Other,
}

/// A rule's [`Local`] while it is being worked out, or before.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pending {
    Unknown,
    Working,
    Known(Local),
}

/// The nodes the search of three-byte iterations may evaluate for one grammar in all (a few
/// milliseconds), and for one window.
pub const WINDOW_BUDGET: usize = 1 << 22;
/// See [`WINDOW_BUDGET`].
pub const WINDOW_NODES: usize = 256;

/// How deep the analyses follow nodes (beyond: [`Local::Other`], [`Window::Unknown`]).
const DEPTH: usize = 64;

impl Program {
    /// Lowers the optimized detail rules: `rule_names` are the grammar's rules in order, whose
    /// whole-input entries are the detail rules named `entry_prefix` + name.
    ///
    /// # Errors
    /// A message when an expression is beyond what the explainer supports (PUSH, PEEK, POP, node
    /// tags), a rule is neither normal nor silent, an entry rule is missing, or there are more rules
    /// than ids.
    pub fn lower(
        detail: &[OptimizedRule],
        rule_names: &[String],
        entry_prefix: &str,
    ) -> Result<Program, String> {
        if detail.len() >= usize::from(u16::MAX) {
            return Err("too many rules and quoted strings for the detail grammar".to_string());
        }
        let index: HashMap<&str, usize> = detail
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let mut program = Program {
            nodes: Vec::new(),
            rules: Vec::with_capacity(detail.len()),
            entries: Vec::with_capacity(rule_names.len()),
            classes: Vec::new(),
            repeats: Vec::new(),
        };
        for (i, rule) in detail.iter().enumerate() {
            let body = program.lower_expr(&rule.expr, &index)?;
            program.rules.push(Rule {
                name: rule.name.clone(),
                id: (i + 1) as u16,
                silent: match rule.ty {
                    RuleType::Silent => true,
                    RuleType::Normal => false,
                    _ => return Err(format!("rule `{}` is not normal or silent", rule.name)),
                },
                body,
                class: None,
                fail: None,
            });
        }
        for name in rule_names {
            let entry = format!("{entry_prefix}{name}");
            match index.get(entry.as_str()) {
                Some(&i) => program.entries.push(i),
                None => return Err(format!("no entry rule for `{name}`")),
            }
        }
        for (k, name) in class_rules(detail).iter().enumerate() {
            if let Some(&i) = index.get(name.as_str()) {
                program.rules[i].class = Some(k);
                program.classes.push(i);
            }
        }
        program.tables();
        Ok(program)
    }

    /// The bytes a match of detail rule `rule` can step over anywhere inside it, lookaheads included:
    /// every byte its strings, ranges and classes (and those of the rules it calls) consume. A match of
    /// `rule` at `p` attempts rules only at positions it reached by consuming such bytes, so at none past
    /// the first byte after `p` that is not one of them. All bytes when a character range or `ANY` is
    /// inside (they consume characters beyond ASCII).
    pub fn bytes_crossed(&self, rule: usize) -> Set {
        let mut set = [false; 256];
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![self.rules[rule].body];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            match &self.nodes[id] {
                Node::Empty | Node::Soi | Node::Eoi => {}
                Node::Byte(b) => set[usize::from(*b)] = true,
                Node::ByteRange(lo, hi) => (*lo..=*hi).for_each(|b| set[usize::from(b)] = true),
                Node::Builtin(builtin) => {
                    (0..256).for_each(|b| set[b] |= builtin.table()[b]);
                }
                Node::Literal(text) => text.iter().for_each(|&b| set[usize::from(b)] = true),
                Node::LiteralCi(text) => text.iter().for_each(|&b| {
                    set[usize::from(b.to_ascii_lowercase())] = true;
                    set[usize::from(b.to_ascii_uppercase())] = true;
                }),
                Node::CharRange(..) | Node::Any => return [true; 256],
                Node::Call(r) => stack.push(self.rules[*r].body),
                Node::Predicate { inner, .. } | Node::Optional(inner) => stack.push(*inner),
                Node::Repeat { body, .. } => stack.push(*body),
                Node::Seq(items) | Node::Choice(items) => stack.extend(items),
            }
        }
        set
    }

    /// A digest of the program (its rules' names left out), to compare the program `build.rs` emitted
    /// with the one the run-time engine builds from the same grammar: FNV-1a over its `Debug` text.
    pub fn digest(&self) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |text: &str| {
            for b in text.bytes() {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(&format!("{:?}", self.nodes));
        for rule in &self.rules {
            eat(&format!(
                "{:?}",
                (rule.id, rule.silent, rule.body, rule.class, &rule.fail)
            ));
        }
        eat(&format!(
            "{:?}",
            (&self.entries, &self.classes, &self.repeats)
        ));
        hash
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn lower_expr(&mut self, e: &E, index: &HashMap<&str, usize>) -> Result<usize, String> {
        let node = match e {
            E::Str(text) if text.is_empty() => Node::Empty,
            E::Str(text) if text.len() == 1 => Node::Byte(text.as_bytes()[0]),
            E::Str(text) => Node::Literal(text.as_bytes().to_vec()),
            E::Insens(text) => Node::LiteralCi(text.as_bytes().to_vec()),
            E::Range(a, b) => {
                let (a, b) = (single_char(a)?, single_char(b)?);
                if a.is_ascii() && b.is_ascii() {
                    Node::ByteRange(a as u8, b as u8)
                } else {
                    Node::CharRange(a, b)
                }
            }
            E::Ident(name) => match name.as_str() {
                "SOI" => Node::Soi,
                "EOI" => Node::Eoi,
                "ANY" => Node::Any,
                "ASCII_DIGIT" => Node::ByteRange(b'0', b'9'),
                "ASCII_ALPHA" => Node::Builtin(Builtin::Alpha),
                "ASCII_HEX_DIGIT" => Node::Builtin(Builtin::HexDigit),
                other => match index.get(other) {
                    Some(&i) => Node::Call(i),
                    None => return Err(format!("`{other}` is not supported by the explainer")),
                },
            },
            E::PosPred(inner) | E::NegPred(inner) => Node::Predicate {
                positive: matches!(e, E::PosPred(_)),
                inner: self.lower_expr(inner, index)?,
            },
            E::Seq(..) => Node::Seq(self.terms(e, index, |e| match e {
                E::Seq(a, b) => Some((&**a, &**b)),
                _ => None,
            })?),
            E::Choice(..) => Node::Choice(self.terms(e, index, |e| match e {
                E::Choice(a, b) => Some((&**a, &**b)),
                _ => None,
            })?),
            E::Opt(inner) => Node::Optional(self.lower_expr(inner, index)?),
            E::Rep(inner) => {
                let body = self.lower_expr(inner, index)?;
                self.repeats.push(Repeat::default());
                Node::Repeat {
                    body,
                    tables: self.repeats.len() - 1,
                }
            }
            E::RestoreOnErr(inner) => return self.lower_expr(inner, index),
            _ => {
                return Err(format!(
                    "`{e}`: PUSH, PEEK, POP, skip and node tags are not supported by the explainer"
                ))
            }
        };
        Ok(self.push(node))
    }

    /// The terms of a chain of sequences (or of choices), which pest_meta nests (mostly to the right),
    /// lowered in order, with nested chains of the same kind flattened; `split` takes a link of the
    /// chain apart.
    fn terms(
        &mut self,
        e: &E,
        index: &HashMap<&str, usize>,
        split: impl Fn(&E) -> Option<(&E, &E)>,
    ) -> Result<Vec<usize>, String> {
        let mut flat = Vec::new();
        let mut todo = vec![e];
        while let Some(at) = todo.pop() {
            match split(at) {
                Some((a, b)) => {
                    todo.push(b);
                    todo.push(a);
                }
                None => flat.push(at),
            }
        }
        flat.into_iter()
            .map(|term| self.lower_expr(term, index))
            .collect()
    }

    /// Works out the tables: the rules' fail tables, then each repetition's [`Skip`], then its
    /// [`Runs`] (which use the skips of other repetitions).
    fn tables(&mut self) {
        let locals = self.rule_locals();
        for (rule, local) in self.rules.iter_mut().zip(&locals) {
            if rule.silent || rule.class.is_some() {
                continue;
            }
            let fail: Set = local.map(|v| v != Local::Other);
            if fail.contains(&true) {
                rule.fail = Some(Box::new(fail));
            }
        }
        let mut budget = WINDOW_BUDGET;
        let repeats: Vec<(usize, usize)> = (self.nodes.iter())
            .filter_map(|node| match node {
                Node::Repeat { body, tables } => Some((*body, *tables)),
                _ => None,
            })
            .collect();
        for &(body, k) in &repeats {
            self.repeats[k].skip = self.skip_of(body, &locals, &mut budget);
        }
        for &(body, k) in &repeats {
            self.repeats[k].runs = self.runs_of(body, &locals);
        }
    }

    /// The [`Skip`] of the repetition `body*`.
    fn skip_of(&self, body: usize, locals: &[[Local; 256]], budget: &mut usize) -> Option<Skip> {
        let mut alternatives = Vec::new();
        let mut todo = vec![body];
        while let Some(id) = todo.pop() {
            match &self.nodes[id] {
                Node::Choice(items) => todo.extend(items.iter().rev()),
                _ => alternatives.push(id),
            }
        }
        let normal_call =
            |&id: &usize| matches!(self.nodes[id], Node::Call(r) if !self.rules[r].silent);
        if !alternatives.iter().all(normal_call) {
            return None;
        }
        let (mut over, mut stop) = ([false; 256], [false; 256]);
        for b in 0..=255u8 {
            match self.local(body, b, locals) {
                Local::Match1 => over[usize::from(b)] = true,
                Local::Fail => stop[usize::from(b)] = true,
                Local::Match0 | Local::Other => {}
            }
        }
        over.contains(&true).then(|| Skip {
            over,
            triple: self.triple_of(body, budget),
            stop,
        })
    }

    /// The [`Runs`] of `body*`.
    fn runs_of(&self, body: usize, locals: &[[Local; 256]]) -> Option<Runs> {
        let Node::Seq(items) = &self.nodes[body] else {
            return None;
        };
        let [a, r] = items.as_slice() else {
            return None;
        };
        let normal = |id: usize| match self.nodes[id] {
            Node::Call(rule) if !self.rules[rule].silent => Some(rule),
            _ => None,
        };
        normal(*a)?;
        let Node::Repeat { tables, .. } = &self.nodes[self.rules[normal(*r)?].body] else {
            return None;
        };
        let skip = self.repeats[*tables].skip.as_ref()?;
        let mut start = [false; 256];
        let mut runs = skip.over;
        for c in 0..=255u8 {
            let b = usize::from(c);
            // Not a second or third byte of a triplet, which would hide an iteration's start.
            let in_triplet = skip.triple.as_ref().is_some_and(|t| t[1][b] || t[2][b]);
            start[b] = self.local(*a, c, locals) == Local::Match1 && skip.stop[b] && !in_triplet;
            runs[b] |= start[b];
        }
        start.contains(&true).then(|| Runs {
            start,
            runs,
            triple: skip.triple.clone(),
        })
    }

    /// The triplets of [`Skip::triple`] for the repetition `body*`, within `budget` nodes.
    fn triple_of(&self, body: usize, budget: &mut usize) -> Option<Box<[Set; 3]>> {
        triplets(|bytes| {
            // At most `WINDOW_NODES` nodes for this window, taken from what the grammar has left.
            let mut nodes = WINDOW_NODES.min(*budget);
            let w = self.window(body, bytes, 0, 0, &mut nodes);
            *budget -= WINDOW_NODES.min(*budget) - nodes;
            (*budget > 0).then_some(w)
        })
        .map(Box::new)
    }

    /// [`Window`] of node `id` matched at `p` in `s` (one to three bytes), as the explainer matches it;
    /// every node evaluated at or past the end of `s` is [`Window::Unknown`] (so a result other than that
    /// one says the match looked at, and attempted rules at, positions inside `s` only), as is
    /// everything past [`DEPTH`] nodes deep or past `nodes` nodes evaluated.
    fn window(&self, id: usize, s: &[u8], p: usize, depth: usize, nodes: &mut usize) -> Window {
        if depth > DEPTH || p >= s.len() || *nodes == 0 {
            return Window::Unknown;
        }
        *nodes -= 1;
        let compare = |text: &[u8], same| window_of_text(s, p, text, same);
        let one = |matched: bool| match matched {
            true => Window::Match(p + 1),
            false => Window::Fail,
        };
        match &self.nodes[id] {
            Node::Empty => Window::Match(p),
            Node::Byte(b) => one(s[p] == *b),
            Node::ByteRange(lo, hi) => one((*lo..=*hi).contains(&s[p])),
            Node::Builtin(class) => one(class.table()[usize::from(s[p])]),
            Node::Literal(text) => compare(text, |a, b| a == b),
            Node::LiteralCi(text) => compare(text, |a, b| a.eq_ignore_ascii_case(b)),
            // An ASCII byte is a whole character; any other starts one that may go past the window.
            Node::CharRange(lo, hi) if s[p].is_ascii() => {
                one((*lo..=*hi).contains(&char::from(s[p])))
            }
            Node::Call(r) => self.window(self.rules[*r].body, s, p, depth + 1, nodes),
            Node::Predicate { positive, inner } => {
                match (self.window(*inner, s, p, depth + 1, nodes), positive) {
                    (Window::Unknown, _) => Window::Unknown,
                    (Window::Match(_), true) | (Window::Fail, false) => Window::Match(p),
                    _ => Window::Fail,
                }
            }
            Node::Seq(items) => {
                let mut q = p;
                for &item in items {
                    match self.window(item, s, q, depth + 1, nodes) {
                        Window::Match(r) => q = r,
                        other => return other,
                    }
                }
                Window::Match(q)
            }
            Node::Choice(items) => {
                for &item in items {
                    match self.window(item, s, p, depth + 1, nodes) {
                        Window::Fail => {}
                        decided => return decided,
                    }
                }
                Window::Fail
            }
            Node::Optional(inner) => match self.window(*inner, s, p, depth + 1, nodes) {
                Window::Fail => Window::Match(p),
                other => other,
            },
            Node::Repeat { body, .. } => {
                // As the explainer's loop: until the body fails or stops moving.
                let mut q = p;
                loop {
                    match self.window(*body, s, q, depth + 1, nodes) {
                        Window::Match(r) if r > q => q = r,
                        Window::Match(_) | Window::Fail => return Window::Match(q),
                        Window::Unknown => return Window::Unknown,
                    }
                }
            }
            Node::CharRange(..) | Node::Soi | Node::Eoi | Node::Any => Window::Unknown,
        }
    }

    /// [`Local`] of node `id` on byte `b`, the rules' values taken from `locals`.
    pub fn local(&self, id: usize, b: u8, locals: &[[Local; 256]]) -> Local {
        self.local_with(id, b, &mut |rule, _| locals[rule][usize::from(b)], 0)
    }

    /// [`Local`] of node `id` on byte `b`, asking `rule` for the value of a called rule; at most
    /// [`DEPTH`] nodes deep (beyond: [`Local::Other`], which only skips less).
    fn local_with(
        &self,
        id: usize,
        b: u8,
        rule: &mut dyn FnMut(usize, usize) -> Local,
        depth: usize,
    ) -> Local {
        if depth > DEPTH {
            return Local::Other;
        }
        match &self.nodes[id] {
            Node::Byte(x) if *x == b => Local::Match1,
            Node::Byte(_) => Local::Fail,
            Node::Literal(text) if text.first() != Some(&b) => Local::Fail,
            Node::ByteRange(lo, hi) if (*lo..=*hi).contains(&b) => Local::Match1,
            Node::ByteRange(..) => Local::Fail,
            // An ASCII byte is a whole character: in the range or not, decided by the byte (a
            // `ucschar` range of an IRI grammar fails on every ASCII byte).
            Node::CharRange(lo, hi) if b.is_ascii() => match (*lo..=*hi).contains(&char::from(b)) {
                true => Local::Match1,
                false => Local::Fail,
            },
            Node::Call(r) => rule(*r, depth + 1),
            Node::Empty => Local::Match0,
            // Items that match nothing leave the next one at the same byte; one that matches the byte
            // leaves the next one past it.
            Node::Seq(items) => {
                for (k, &item) in items.iter().enumerate() {
                    match self.local_with(item, b, rule, depth + 1) {
                        Local::Match0 => {}
                        Local::Match1 if k + 1 == items.len() => return Local::Match1,
                        Local::Fail => return Local::Fail,
                        _ => return Local::Other,
                    }
                }
                Local::Match0
            }
            Node::Optional(inner) => match self.local_with(*inner, b, rule, depth + 1) {
                Local::Fail => Local::Match0,
                decided => decided,
            },
            // A body that fails, or matches nothing (which ends the loop), at the first iteration.
            Node::Repeat { body, .. } => match self.local_with(*body, b, rule, depth + 1) {
                Local::Fail | Local::Match0 => Local::Match0,
                _ => Local::Other,
            },
            Node::Predicate { positive, inner } => {
                match (self.local_with(*inner, b, rule, depth + 1), positive) {
                    (Local::Other, _) => Local::Other,
                    (Local::Fail, false) | (Local::Match0 | Local::Match1, true) => Local::Match0,
                    _ => Local::Fail,
                }
            }
            Node::Choice(items) => {
                for &item in items {
                    match self.local_with(item, b, rule, depth + 1) {
                        Local::Fail => {}
                        decided => return decided,
                    }
                }
                Local::Fail
            }
            _ => Local::Other,
        }
    }

    /// [`Local`] of every detail rule on every byte, each worked out once (a rule met again while its
    /// value is being worked out, which pest's ban on left recursion leaves to deep chains, counts as
    /// [`Local::Other`]): linear in the size of the detail grammar times 256.
    pub fn rule_locals(&self) -> Vec<[Local; 256]> {
        let mut table = vec![[Pending::Unknown; 256]; self.rules.len()];
        for b in 0..=255u8 {
            for r in 0..self.rules.len() {
                self.rule_local(r, b, &mut table, 0);
            }
        }
        table
            .iter()
            .map(|row| {
                row.map(|v| match v {
                    Pending::Known(local) => local,
                    _ => Local::Other,
                })
            })
            .collect()
    }

    fn rule_local(&self, r: usize, b: u8, table: &mut Vec<[Pending; 256]>, depth: usize) -> Local {
        match table[r][usize::from(b)] {
            Pending::Unknown => {}
            Pending::Working => return Local::Other,
            Pending::Known(known) => return known,
        }
        if depth > DEPTH {
            return Local::Other;
        }
        table[r][usize::from(b)] = Pending::Working;
        let value = self.local_with(
            self.rules[r].body,
            b,
            &mut |callee, depth| self.rule_local(callee, b, table, depth),
            depth,
        );
        table[r][usize::from(b)] = Pending::Known(value);
        value
    }
}
