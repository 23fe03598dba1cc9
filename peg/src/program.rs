//! The program: a grammar lowered into the matcher's operations, once, for both of its users.
//!
//! `build.rs` lowers `uri.pest` and prints the program as Rust (`build/emit.rs`, the compiled fast
//! path); the run-time loader lowers a `.pest` file chosen by the user and runs the same program with
//! an interpreter (`src/runtime/machine.rs`). Every decision that makes matching fast is taken here,
//! from the analyses of `build/analyse.rs`, and is exact under PEG semantics (ordered choice commits to
//! the first alternative that matches, repetition is greedy and never gives back, predicates consume
//! nothing):
//!
//! - a *byte class* (an expression that matches exactly one ASCII byte of a set or fails) is one byte
//!   test, one range test or one lookup in a 256-entry table;
//! - a choice is flattened (through calls of rules that record nothing) and its class alternatives are
//!   folded into one table tried first when that cannot change the result
//!   ([`Grammar::fold`](super::analyse::Grammar::fold));
//! - an alternative that cannot match the empty string and is more than a string is guarded by its
//!   FIRST set (a range of characters beyond ASCII, such as `ucschar`'s, included: an ASCII byte is then
//!   turned away by one lookup instead of a decoded character per range);
//! - a repetition of a folded choice is a scan over a table, and `*( "/" *pchar )` one scan over
//!   `"/" / pchar` ([`Grammar::separated`](super::analyse::Grammar::separated));
//! - only the rules the builder listens for record component events, and only expressions that can
//!   record them save and restore what was recorded;
//! - an optional part that must consume a byte after a scan (`[ userinfo "@" ]`) is tried by the
//!   compiled recognizer only when that byte ends the run of bytes the scan and what follows it can
//!   contain ([`Program::byte_required_later`]; a hint the interpreter does not need).
//!
//! Every rule has a *quiet* body (records nothing: inside an atomic rule, a lookahead, or when nothing
//! below can record) and, when it can record, a *recording* body. Nodes are lowered once per expression
//! of the grammar and context, so the program is a graph whose size is linear in the grammar's (a node
//! is shared by every place that uses it).
//!
//! Used by `build.rs` (through [`crate::generate`]) and by the library's feature `runtime-grammar`; unit tests in
//! `peg/tests/generator.rs`.

use std::collections::HashMap;

use pest_meta::ast::{Expr, Rule, RuleType};

use super::analyse::{flatten_seq, single_char, Grammar, Set};

/// A node of the program, by its position in [`Program::nodes`].
pub type NodeId = usize;

/// What a node matches at a position `p`; each gives the position after its match, or fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Matches the empty string.
    Empty,
    /// Never matches (a byte class with no byte).
    Fail,
    /// The byte.
    Byte(u8),
    /// One byte in the range.
    ByteRange(u8, u8),
    /// One byte of table number `usize` of [`Program::tables`].
    Table(usize),
    /// The bytes (a quoted string).
    Literal(Vec<u8>),
    /// The bytes, ASCII letters in either case (`^"..."`).
    LiteralCi(Vec<u8>),
    /// One character (UTF-8) in the range.
    CharRange(char, char),
    /// The start of the input.
    Soi,
    /// The end of the input.
    Eoi,
    /// One character (UTF-8).
    Any,
    /// Rule number `rule`, its recording body when `record`.
    Call { rule: usize, record: bool },
    /// `&e` (`positive`) or `!e`: matches the empty string when `inner` matches (or fails).
    Predicate { positive: bool, inner: NodeId },
    /// The nodes one after the other.
    Seq(Vec<NodeId>),
    /// The first alternative that matches.
    Ordered(Vec<Alternative>),
    /// One byte of the table if it matches, else `rest` (a folded choice).
    Folded { head: Box<Node>, rest: NodeId },
    /// `inner` if it matches, else the empty string; `records`: `inner` can record events.
    Optional { inner: NodeId, records: bool },
    /// `inner` exactly `min` times, then `rest` (a repetition of `inner`).
    AtLeast {
        inner: NodeId,
        min: u32,
        rest: NodeId,
    },
    /// `inner` greedily, up to `max` times (`None`: any number), stopping when it does not progress.
    Repeat {
        inner: NodeId,
        max: Option<u32>,
        records: bool,
    },
    /// Bytes of table `table` greedily; where they stop, `tail` (an [`Node::Ordered`] choice; `records`:
    /// it can record events) once more and the scan goes on, as long as it progresses. With `guard`,
    /// nothing at all unless the first byte is in that table.
    Scan {
        table: usize,
        tail: Option<(NodeId, bool)>,
        guard: Option<usize>,
    },
}

/// An alternative of an [`Node::Ordered`] choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    pub node: NodeId,
    /// A test of the byte at `p` that must hold for the alternative to match (its FIRST set, when it
    /// cannot match the empty string and is more than a byte test itself).
    pub guard: Option<Guard>,
    /// The alternative can record events (to forget when it fails).
    pub records: bool,
}

/// The test of an [`Alternative::guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// Never holds (the alternative cannot match).
    Never,
    /// The byte.
    Byte(u8),
    /// A byte of table number `usize`.
    Table(usize),
}

/// A rule of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramRule {
    /// The pest name.
    pub name: String,
    /// The rule as pest writes it (`name = @{ ... }`), for the emitted code's comments.
    pub text: String,
    /// The body that records nothing.
    pub quiet: NodeId,
    /// The body that records component events, when the rule can record any.
    pub recording: Option<NodeId>,
    /// The component slot the rule records its own span in (`src/component_rules.rs`).
    pub component: Option<usize>,
}

/// A grammar lowered for matching.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The rules in file order.
    pub rules: Vec<ProgramRule>,
    pub nodes: Vec<Node>,
    /// Distinct byte tables, in order of first use.
    pub tables: Vec<Set>,
}

/// The delimiters that end most components of a URI (`/`, `?`, `#`): the one home of this URI-flavoured
/// guess in the generic generator. The explainer's quiet shortcut ([`crate::explainer::SHORTCUT_BYTES`])
/// takes the match of a rule that cannot step over them ([`crate::explainer::Program::bytes_crossed`]),
/// using a byte only where it proves from the grammar that the byte is safe, so a wrong guess costs
/// speed, never a different answer.
pub const COMPONENT_DELIMITERS: [u8; 3] = *b"/?#";

impl Program {
    /// The nodes node `id` is made of (not through calls).
    pub fn children(&self, id: NodeId) -> Vec<NodeId> {
        match &self.nodes[id] {
            Node::Predicate { inner, .. }
            | Node::Optional { inner, .. }
            | Node::Repeat { inner, .. } => vec![*inner],
            Node::AtLeast { inner, rest, .. } => vec![*inner, *rest],
            Node::Folded { rest, .. } => vec![*rest],
            Node::Seq(items) => items.clone(),
            Node::Ordered(alternatives) => alternatives.iter().map(|a| a.node).collect(),
            Node::Scan { tail, .. } => tail.iter().map(|&(body, _)| body).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether a match of node `id` calls the recording body of a rule (directly or through the nodes it
    /// is made of): `false` for the body of a component rule that records only its own span (`scheme`,
    /// `query`, ...), which the compiled recognizer then inlines into its callers.
    pub fn calls_recording(&self, id: NodeId) -> bool {
        let mut stack = vec![id];
        let mut seen = vec![false; self.nodes.len()];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            if let Node::Call { record: true, .. } = self.nodes[id] {
                return true;
            }
            stack.extend(self.children(id));
        }
        false
    }

    /// For an optional part `(A ~ ... ~ "c" ~ ...)` whose first item `A` is more than a byte test: the
    /// byte `c` every match of node `id` consumes, and the bytes a match of `A` and the items before `c`
    /// can contain, but `c` (see `Events::byte_ahead` in `src/engine/recognizer.rs`). A match at `p`
    /// needs a `c` at or after `p` with only those bytes before it, so the first byte from `p` on that
    /// is not one of them must be a `c`. So for `[ userinfo "@" ]` the compiled recognizer scans the
    /// bytes a userinfo can hold, and tries the userinfo only when an `@` ends the scan: an authority
    /// without userinfo is scanned up to its first byte outside the userinfo's class (its end, or a bad
    /// byte), and the host is scanned again. `None` for other nodes. A hint, not a decision: the match
    /// is the same with or without it (the interpreter of loaded grammars does not use it).
    pub fn byte_required_later(&self, id: NodeId) -> Option<(u8, Set)> {
        let Node::Seq(items) = &self.nodes[id] else {
            return None;
        };
        let (&first, rest) = items.split_first()?;
        if matches!(
            self.nodes[first],
            Node::Byte(_) | Node::ByteRange(..) | Node::Table(_) | Node::Literal(_)
        ) {
            return None;
        }
        // The items between `A` and `c` hold bytes of their own.
        let mut before = self.bytes_of(first, &mut vec![false; self.nodes.len()]);
        for &item in rest {
            if let Node::Byte(c) = self.nodes[item] {
                before[usize::from(c)] = false;
                return Some((c, before));
            }
            let more = self.bytes_of(item, &mut vec![false; self.nodes.len()]);
            for (b, m) in before.iter_mut().zip(more) {
                *b |= m;
            }
        }
        None
    }

    /// Every byte a match of node `id` can contain (all bytes when it cannot tell: a character range,
    /// `ANY`, a rule that calls itself). `visiting` marks the nodes being looked at.
    pub fn bytes_of(&self, id: NodeId, visiting: &mut Vec<bool>) -> Set {
        if std::mem::replace(&mut visiting[id], true) {
            return [true; 256];
        }
        let single = |set: &mut Set, b: u8| set[b as usize] = true;
        let mut set = [false; 256];
        match &self.nodes[id] {
            Node::Empty | Node::Fail | Node::Soi | Node::Eoi | Node::Predicate { .. } => {}
            Node::Byte(b) => single(&mut set, *b),
            Node::ByteRange(lo, hi) => (*lo..=*hi).for_each(|b| single(&mut set, b)),
            Node::Table(t) => set = self.tables[*t],
            Node::Literal(text) => text.iter().for_each(|&b| single(&mut set, b)),
            Node::LiteralCi(text) => text.iter().for_each(|&b| {
                single(&mut set, b.to_ascii_lowercase());
                single(&mut set, b.to_ascii_uppercase());
            }),
            Node::CharRange(..) | Node::Any => set = [true; 256],
            Node::Call { rule, record } => {
                let rule = &self.rules[*rule];
                let body = if *record { rule.recording } else { None };
                set = self.bytes_of(body.unwrap_or(rule.quiet), visiting);
            }
            Node::Folded { head, rest } => {
                set = self.bytes_of(*rest, visiting);
                match **head {
                    Node::Byte(b) => single(&mut set, b),
                    Node::ByteRange(lo, hi) => (lo..=hi).for_each(|b| single(&mut set, b)),
                    Node::Table(t) => (0..256).for_each(|b| set[b] |= self.tables[t][b]),
                    _ => set = [true; 256],
                }
            }
            Node::Scan { table, .. } => {
                set = self.tables[*table];
                for child in self.children(id) {
                    let more = self.bytes_of(child, visiting);
                    (0..256).for_each(|b| set[b] |= more[b]);
                }
            }
            _ => {
                for child in self.children(id) {
                    let more = self.bytes_of(child, visiting);
                    (0..256).for_each(|b| set[b] |= more[b]);
                }
            }
        }
        visiting[id] = false;
        set
    }
}

/// Lowers `rules`, where the rules named in `components` record their spans in the slot of their
/// position there. `max_nodes` bounds the program's size.
///
/// # Errors
/// A message when the grammar uses what the program cannot express exactly (non-atomic rules, implicit
/// `WHITESPACE` or `COMMENT`, stack operations, builtins other than `SOI`, `EOI`, `ANY`, `ASCII_DIGIT`,
/// `ASCII_ALPHA`, `ASCII_HEX_DIGIT`, a range bound that is not one character) or is over `max_nodes`.
pub fn lower(rules: &[Rule], components: &[&str], max_nodes: usize) -> Result<Program, String> {
    for rule in rules {
        if rule.ty == RuleType::NonAtomic {
            return Err(format!(
                "rule `{}`: non-atomic rules (`!{{...}}`) are not supported by the fast path",
                rule.name
            ));
        }
        if rule.name == "WHITESPACE" || rule.name == "COMMENT" {
            return Err(format!(
                "rule `{}`: implicit whitespace and comments are not supported by the fast path",
                rule.name
            ));
        }
    }
    let index: HashMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    let mut lower = Lower {
        g: Grammar::new(rules, |rule| records(rule, components).is_some()),
        index,
        program: Program::default(),
        memo: HashMap::new(),
        max_nodes,
    };
    for rule in rules {
        let quiet = lower.expr(&rule.expr, true)?;
        let recording = if lower.g.records_events[rule.name.as_str()] {
            // Inside an atomic rule, callees are quiet; a compound-atomic rule keeps its children.
            Some(lower.expr(&rule.expr, rule.ty == RuleType::Atomic)?)
        } else {
            None
        };
        lower.program.rules.push(ProgramRule {
            name: rule.name.clone(),
            text: rule_text(rule),
            quiet,
            recording,
            component: records(rule, components),
        });
    }
    Ok(lower.program)
}

/// The component slot a rule records, if it is a component rule the builder listens for (and not
/// silent: pest gives no pair for a silent rule).
pub fn records(rule: &Rule, components: &[&str]) -> Option<usize> {
    if rule.ty == RuleType::Silent {
        return None;
    }
    components.iter().position(|&name| name == rule.name)
}

/// The rule as pest writes it: `name = @{ ... }`.
fn rule_text(rule: &Rule) -> String {
    let modifier = match rule.ty {
        RuleType::Normal => "",
        RuleType::Silent => "_",
        RuleType::Atomic => "@",
        RuleType::CompoundAtomic => "$",
        RuleType::NonAtomic => "!",
    };
    format!("{} = {modifier}{{ {} }}", rule.name, rule.expr)
}

/// The state of a lowering.
struct Lower<'g> {
    g: Grammar<'g>,
    index: HashMap<&'g str, usize>,
    program: Program,
    /// The node of each expression already lowered, by its address and quietness.
    memo: HashMap<(*const Expr, bool), NodeId>,
    max_nodes: usize,
}

impl<'g> Lower<'g> {
    fn push(&mut self, node: Node) -> Result<NodeId, String> {
        if self.program.nodes.len() >= self.max_nodes {
            return Err(format!(
                "the grammar needs more than {} matcher nodes",
                self.max_nodes
            ));
        }
        self.program.nodes.push(node);
        Ok(self.program.nodes.len() - 1)
    }

    fn table(&mut self, set: &Set) -> usize {
        match self.program.tables.iter().position(|t| t == set) {
            Some(i) => i,
            None => {
                self.program.tables.push(*set);
                self.program.tables.len() - 1
            }
        }
    }

    /// One byte of `set`: a byte test, a range test or a table.
    fn class(&mut self, set: &Set) -> Node {
        let members: Vec<u8> = (0..=255u8).filter(|&b| set[b as usize]).collect();
        match members.as_slice() {
            [] => Node::Fail,
            [b] => Node::Byte(*b),
            [lo, .., hi] if members.len() == (hi - lo) as usize + 1 => Node::ByteRange(*lo, *hi),
            _ => Node::Table(self.table(set)),
        }
    }

    /// The node matching `e` (`quiet`: recording nothing), lowered once per expression and context.
    fn expr(&mut self, e: &'g Expr, quiet: bool) -> Result<NodeId, String> {
        let key = (e as *const Expr, quiet);
        if let Some(&id) = self.memo.get(&key) {
            return Ok(id);
        }
        let node = self.node(e, quiet)?;
        let id = self.push(node)?;
        self.memo.insert(key, id);
        Ok(id)
    }

    fn node(&mut self, e: &'g Expr, quiet: bool) -> Result<Node, String> {
        if let Some(set) = self.g.class(e, quiet) {
            return Ok(self.class(&set));
        }
        Ok(match e {
            Expr::Str(text) if text.is_empty() => Node::Empty,
            Expr::Str(text) => Node::Literal(text.as_bytes().to_vec()),
            Expr::Insens(text) => Node::LiteralCi(text.as_bytes().to_vec()),
            Expr::Range(a, b) => Node::CharRange(single_char(a)?, single_char(b)?),
            Expr::Ident(name) => match name.as_str() {
                "SOI" => Node::Soi,
                "EOI" => Node::Eoi,
                "ANY" => Node::Any,
                other => match self.index.get(other) {
                    Some(&rule) => Node::Call {
                        rule,
                        record: self.g.pushes(e, quiet),
                    },
                    None => return Err(format!("`{other}` is not supported by the fast path")),
                },
            },
            Expr::PosPred(inner) | Expr::NegPred(inner) => Node::Predicate {
                positive: matches!(e, Expr::PosPred(_)),
                inner: self.expr(inner, true)?,
            },
            Expr::Seq(..) => {
                let mut items = Vec::new();
                flatten_seq(e, &mut items);
                let mut nodes = Vec::with_capacity(items.len());
                for item in items {
                    nodes.push(self.expr(item, quiet)?);
                }
                Node::Seq(nodes)
            }
            Expr::Choice(..) => self.choice(e, quiet)?,
            Expr::Opt(inner) => Node::Optional {
                inner: self.expr(inner, quiet)?,
                records: self.g.pushes(inner, quiet),
            },
            Expr::Rep(inner) => self.repeat(inner, None, quiet)?,
            Expr::RepOnce(inner) => self.at_least(inner, 1, None, quiet)?,
            Expr::RepExact(inner, n) => self.at_least(inner, *n, Some(0), quiet)?,
            Expr::RepMin(inner, n) => self.at_least(inner, *n, None, quiet)?,
            Expr::RepMax(inner, n) => self.repeat(inner, Some(*n), quiet)?,
            Expr::RepMinMax(inner, min, max) => {
                if max < min {
                    return Err(format!("repetition {{{min}, {max}}}: max is below min"));
                }
                self.at_least(inner, *min, Some(max - min), quiet)?
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

    /// An ordered choice of `items`.
    fn ordered(&mut self, items: &[(&'g Expr, bool)]) -> Result<Node, String> {
        if let [(e, quiet)] = items {
            let id = self.expr(e, *quiet)?;
            return Ok(self.program.nodes[id].clone());
        }
        let mut alternatives = Vec::with_capacity(items.len());
        for (e, quiet) in items {
            let node = self.expr(e, *quiet)?;
            let guard = self.guard(e);
            alternatives.push(Alternative {
                node,
                guard,
                records: self.g.pushes(e, *quiet),
            });
        }
        Ok(Node::Ordered(alternatives))
    }

    /// The test put before trying alternative `e` of a choice (`None` when none is worth it): the byte
    /// is in the FIRST set of `e`, when `e` cannot match the empty string and is more than a byte test.
    /// A range of characters beyond ASCII (`ucschar`'s) is more: it decodes a character, where the guard
    /// turns an ASCII byte away with one lookup.
    fn guard(&mut self, e: &'g Expr) -> Option<Guard> {
        let beyond_ascii = |bound: &str| bound.chars().next().is_some_and(|c| !c.is_ascii());
        match e {
            Expr::Str(_) | Expr::Insens(_) => return None,
            Expr::Range(_, hi) if !beyond_ascii(hi) => return None,
            _ => {}
        }
        let (first, nullable) = self.g.first(e);
        if nullable || first.iter().all(|&b| b) {
            return None;
        }
        let members: Vec<u8> = (0..=255u8).filter(|&b| first[b as usize]).collect();
        Some(match members.as_slice() {
            [] => Guard::Never,
            [b] => Guard::Byte(*b),
            _ => Guard::Table(self.table(&first)),
        })
    }

    /// A choice: the folded class first when that is exact, then the other alternatives.
    fn choice(&mut self, e: &'g Expr, quiet: bool) -> Result<Node, String> {
        let mut items = Vec::new();
        self.g.alternatives(e, quiet, 0, &mut items);
        match self.g.fold(&items) {
            Some((set, rest)) if rest.is_empty() => Ok(self.class(&set)),
            Some((set, rest)) => {
                let head = Box::new(self.class(&set));
                let tail = self.ordered(&rest)?;
                let rest = self.push(tail)?;
                Ok(Node::Folded { head, rest })
            }
            None => self.ordered(&items),
        }
    }

    /// `inner` exactly `min` times, then up to `extra` more times (`None`: any number).
    fn at_least(
        &mut self,
        inner: &'g Expr,
        min: u32,
        extra: Option<u32>,
        quiet: bool,
    ) -> Result<Node, String> {
        let body = self.expr(inner, quiet)?;
        let rest = self.repeat(inner, extra, quiet)?;
        let rest = self.push(rest)?;
        Ok(Node::AtLeast {
            inner: body,
            min,
            rest,
        })
    }

    /// `inner` greedily, up to `max` times (`None`: any number).
    fn repeat(&mut self, inner: &'g Expr, max: Option<u32>, quiet: bool) -> Result<Node, String> {
        let mut items = Vec::new();
        let mut separator = None;
        if max.is_none() {
            if let Some((set, repeated)) = self.g.separated(inner, quiet) {
                separator = Some(set);
                items = repeated;
            }
        }
        if items.is_empty() {
            self.g.alternatives(inner, quiet, 0, &mut items);
        }
        if max.is_none() {
            if let Some((set, rest)) = self.g.fold(&items) {
                let table = self.table(&set);
                let tail = if rest.is_empty() {
                    None
                } else {
                    let body = self.ordered(&rest)?;
                    let body = self.push(body)?;
                    let records = rest.iter().any(|(e, quiet)| self.g.pushes(e, *quiet));
                    Some((body, records))
                };
                let guard = separator.map(|set| self.table(&set));
                return Ok(Node::Scan { table, tail, guard });
            }
        }
        Ok(Node::Repeat {
            inner: self.expr(inner, quiet)?,
            max,
            records: self.g.pushes(inner, quiet),
        })
    }
}
