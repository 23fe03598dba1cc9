//! `parse --tree`: the derivation of one input, as pest's pairs show it.
//!
//! Every rule of the grammar is made normal for the tree (a silent or atomic rule would hide the rules
//! inside it), so each rule that matched is a node, in the order pest makes them (pre-order), with its
//! byte span. For a rejected input the tree is that of the longest prefix the rule matched (where pest
//! stopped before the end of the input), and the error is the grammar's own.
//!
//! # Streamed, in memory bounded whatever the input's length
//!
//! A grammar compiled into the engine's program (every shipped grammar, and most loaded ones) gets its
//! tree streamed: each node is handed on as soon as it is known, and what the tree holds meanwhile is a
//! stack of the open rules and the parts of their expressions still to walk, as deep as the grammar
//! nests, never a node per input byte. The tree is found top down: once a rule is known to match at a
//! byte, its node is handed on and its expression is walked from there, the program telling where each
//! rule inside it ends (a choice takes its first alternative that matches, a repetition repeats while
//! its body matches, a predicate makes no node). Each level matches its span once more, so the time is
//! the input's length times the grammar's depth; the matches of one tree share a budget of steps
//! ([`STEPS_PER_BYTE`] per input byte, plus a fixed part), so a recursive or backtracking grammar cuts
//! its tree (and says so) rather than run for long.
//!
//! Grammars the program cannot express (implicit `WHITESPACE` or `COMMENT`), or that use pest's stack
//! (`PUSH`, `PEEK`, `POP`), get their tree from pest_vm's pairs, within [`TreeLimits`].

use std::collections::HashMap;

use pest_meta::ast::RuleType;
use pest_meta::optimizer::{self, OptimizedExpr, OptimizedRule};
use pest_vm::Vm;

use crate::engine::recognizer::Events;
use crate::error::ParseError;
use crate::runtime::interpreter::{self, Outcome};
use crate::runtime::{raise_vm_call_limit, Engine, Grammar, GrammarError, UnknownRule};

/// The bounds of a tree made on pest_vm (a grammar whose tree cannot be streamed, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// The longest input given a tree on pest_vm, in bytes (pest makes a pair of about 80 bytes per
    /// rule match, several per input byte: a longer input is refused with an error, not parsed).
    pub max_input: usize,
    /// The most nodes of one tree made on pest_vm (a tree with more is cut, and says so).
    pub max_nodes: usize,
}

impl Default for TreeLimits {
    fn default() -> TreeLimits {
        TreeLimits {
            max_input: 64 * 1024,
            max_nodes: 100_000,
        }
    }
}

/// The steps the matches of one streamed tree may take together per byte of its input, beyond
/// [`STEPS_FIXED`]: each level of the tree matches its span again, so this is the program's budget of
/// one match (`interpreter::STEPS_PER_BYTE`) times 16 (the shipped grammars take at most a few hundred
/// steps per byte for a whole tree).
pub const STEPS_PER_BYTE: u64 = 16 * interpreter::STEPS_PER_BYTE;

/// The steps every streamed tree may take whatever its input's length.
pub const STEPS_FIXED: u64 = 16 * interpreter::STEPS_FIXED;

/// The deepest expression (nested sequences, choices, repetitions ...) of a rule whose tree is streamed:
/// the walk of an expression recurses on it (a deeper grammar gets its tree from pest_vm).
const MAX_EXPR_DEPTH: usize = 1_000;

/// One node of a tree: a rule that matched `start..end` (byte offsets into the input) at `depth` (0 for
/// the rule asked for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The rule's ABNF name (`URI-reference`), or its pest name when it has none.
    pub rule: String,
    /// The first byte of its match.
    pub start: usize,
    /// The byte after its match.
    pub end: usize,
    /// How many rules it is nested in.
    pub depth: usize,
}

/// A node as [`Tree::for_each`] hands it on, borrowing its rule's name from the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeNodeRef<'g> {
    /// The rule's ABNF name (`URI-reference`), or its pest name when it has none.
    pub rule: &'g str,
    /// The first byte of its match.
    pub start: usize,
    /// The byte after its match.
    pub end: usize,
    /// How many rules it is nested in.
    pub depth: usize,
}

impl TreeNodeRef<'_> {
    /// The node with its rule's name copied.
    pub fn to_node(self) -> TreeNode {
        TreeNode {
            rule: self.rule.to_string(),
            start: self.start,
            end: self.end,
            depth: self.depth,
        }
    }
}

/// The tree of one input, collected ([`TreeGrammar::tree`]).
#[derive(Clone, Debug)]
pub struct TreeOutcome {
    /// The nodes in pre-order (a node before the nodes inside it).
    pub nodes: Vec<TreeNode>,
    /// `Some` when the rule does not match the whole input (or the input is over a limit): the error.
    pub error: Option<ParseError>,
    /// Whether the tree was cut: at [`TreeLimits::max_nodes`] on pest_vm, or when a streamed tree ran
    /// out of steps.
    pub truncated: bool,
}

/// A grammar ready to print trees: its rules all normal.
pub struct TreeGrammar<'g> {
    grammar: &'g Grammar,
    /// pest_vm on the all-normal rules: the reference, and the engine of grammars not streamed.
    vm: Vm,
    /// The all-normal rules for the streamed walk; `None` when the tree cannot be streamed.
    walk: Option<Walk<'g>>,
}

impl std::fmt::Debug for TreeGrammar<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeGrammar")
            .field("streamed", &self.walk.is_some())
            .finish_non_exhaustive()
    }
}

/// Prepares `grammar` for [`TreeGrammar::tree`] and [`TreeGrammar::start`].
///
/// # Errors
/// [`GrammarError`] if pest_meta refuses the grammar's all-normal copy (it accepted the grammar).
pub fn tree(grammar: &Grammar) -> Result<TreeGrammar<'_>, GrammarError> {
    let source = grammar.source.clone();
    let (rules, spaced) = crate::runtime_limits::on_big_stack(move || {
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, &source)
            .map_err(|e| super::super::invalid(&[e]))?;
        let mut ast =
            pest_meta::parser::consume_rules(pairs).map_err(|e| super::super::invalid(&e))?;
        let spaced = ast
            .iter()
            .any(|r| r.name == "WHITESPACE" || r.name == "COMMENT");
        if !spaced {
            for r in &mut ast {
                r.ty = RuleType::Normal;
            }
        }
        Ok((optimizer::optimize(ast), spaced))
    })?;
    let walk = if spaced {
        None
    } else {
        Walk::new(grammar, &rules)
    };
    Ok(TreeGrammar {
        grammar,
        vm: Vm::new(rules),
        walk,
    })
}

impl<'g> TreeGrammar<'g> {
    /// The tree of `input` under the rule named `rule`, collected.
    ///
    /// # Errors
    /// [`UnknownRule`] when the grammar has no such rule.
    pub fn tree(
        &self,
        rule: &str,
        input: &str,
        limits: TreeLimits,
    ) -> Result<TreeOutcome, UnknownRule> {
        let tree = self.start(rule, input, limits)?;
        let mut nodes = Vec::new();
        let error = tree.error().cloned();
        let end = tree.for_each(|node| {
            nodes.push(node.to_node());
            Ok::<(), std::convert::Infallible>(())
        });
        let truncated = match end {
            Ok(complete) => !complete,
            Err(never) => match never {},
        };
        Ok(TreeOutcome {
            nodes,
            error,
            truncated,
        })
    }

    /// The tree of `input` under the rule named `rule`, to walk with [`Tree::for_each`]: the verdict
    /// (the error, if the rule does not match the whole input) is known first.
    ///
    /// # Errors
    /// [`UnknownRule`] when the grammar has no such rule.
    pub fn start<'t>(
        &'t self,
        rule: &str,
        input: &'t str,
        limits: TreeLimits,
    ) -> Result<Tree<'t, 'g>, UnknownRule> {
        let entry = self.grammar.entry(rule)?;
        let streamed = self
            .walk
            .as_ref()
            .and_then(|w| w.by_name.get(entry.pest_name()).copied());
        let error = if streamed.is_none() && input.len() > limits.max_input {
            Some(
                ParseError::limit(
                    crate::runtime::builtin_rule(entry.rule()),
                    input,
                    0,
                    format!(
                        "the line is {} bytes, longer than the {} bytes a tree is made for on pest_vm",
                        input.len(),
                        limits.max_input
                    ),
                )
                .for_loaded_rule(entry.abnf_name()),
            )
        } else {
            entry.parse(input).err()
        };
        Ok(Tree {
            grammar: self,
            pest_name: entry.pest_name(),
            input,
            limits,
            streamed,
            over: streamed.is_none() && input.len() > limits.max_input,
            error,
        })
    }
}

/// The tree of one input under one rule ([`TreeGrammar::start`]), its verdict known.
#[derive(Debug)]
pub struct Tree<'t, 'g> {
    grammar: &'t TreeGrammar<'g>,
    pest_name: &'g str,
    input: &'t str,
    limits: TreeLimits,
    /// The rule's index in the walk, when the tree is streamed.
    streamed: Option<usize>,
    /// Over [`TreeLimits::max_input`] on pest_vm: no tree.
    over: bool,
    error: Option<ParseError>,
}

impl<'g> Tree<'_, 'g> {
    /// Why the rule does not match the whole input (or the input is over a limit); `None` when it
    /// matches.
    pub fn error(&self) -> Option<&ParseError> {
        self.error.as_ref()
    }

    /// Whether the nodes are streamed (memory bounded whatever the input's length) rather than made on
    /// pest_vm.
    pub fn is_streamed(&self) -> bool {
        self.streamed.is_some()
    }

    /// Hands `on_node` every node in pre-order (a node before the nodes inside it), as soon as it is
    /// known. `Ok(true)` when the tree is complete, `Ok(false)` when it was cut (pest_vm's
    /// [`TreeLimits::max_nodes`], or a streamed tree out of steps); an error of `on_node` stops the
    /// walk and is returned.
    ///
    /// # Errors
    /// The first error `on_node` returns.
    pub fn for_each<E>(
        self,
        mut on_node: impl FnMut(TreeNodeRef<'g>) -> Result<(), E>,
    ) -> Result<bool, E> {
        if self.over {
            return Ok(true);
        }
        match (self.streamed, &self.grammar.walk) {
            (Some(rule), Some(walk)) => walk.stream(rule, self.input, &mut on_node),
            _ => self.on_vm(&mut on_node),
        }
    }

    /// The tree from pest_vm's pairs, cut at [`TreeLimits::max_nodes`].
    fn on_vm<E>(
        &self,
        on_node: &mut impl FnMut(TreeNodeRef<'g>) -> Result<(), E>,
    ) -> Result<bool, E> {
        raise_vm_call_limit(self.input.len());
        let Ok(pairs) = self.grammar.vm.parse(self.pest_name, self.input) else {
            return Ok(true);
        };
        let mut nodes = 0;
        // Pre-order with an explicit stack.
        let mut stack: Vec<(pest::iterators::Pair<'_, &str>, usize)> =
            pairs.rev().map(|p| (p, 0)).collect();
        while let Some((pair, depth)) = stack.pop() {
            if nodes >= self.limits.max_nodes {
                return Ok(false);
            }
            nodes += 1;
            let span = pair.as_span();
            let rule = self
                .grammar
                .grammar
                .rule_names()
                .find(|(pest, _)| *pest == pair.as_rule())
                .map_or("EOI", |(_, abnf)| abnf);
            on_node(TreeNodeRef {
                rule,
                start: span.start(),
                end: span.end(),
                depth,
            })?;
            let children: Vec<_> = pair.into_inner().collect();
            stack.extend(children.into_iter().rev().map(|p| (p, depth + 1)));
        }
        Ok(true)
    }
}

/// pest's built-in rules that match without a pair of their own (as pest_vm matches them).
#[derive(Clone, Copy, Debug)]
enum Builtin {
    Any,
    Soi,
    Newline,
    /// One character in one of the (inclusive) ranges.
    Ranges(&'static [(char, char)]),
}

/// An expression of an all-normal rule with its rule calls resolved.
#[derive(Debug)]
enum X {
    Str(Box<[u8]>),
    Insens(Box<[u8]>),
    Range(char, char),
    /// A rule of the grammar: its index in [`Walk::rules`].
    Rule(usize),
    Builtin(Builtin),
    /// `EOI`: the empty match at the end of the input, with a node of its own.
    Eoi,
    Pos(Box<X>),
    Neg(Box<X>),
    Seq(Box<X>, Box<X>),
    Choice(Box<X>, Box<X>),
    Opt(Box<X>),
    Rep(Box<X>),
    /// Up to the first of the strings, or the end of the input.
    Skip(Vec<Box<[u8]>>),
}

/// A rule of the walk.
#[derive(Debug)]
struct WRule<'g> {
    /// The name its nodes show.
    name: &'g str,
    /// Its number in the grammar's program.
    program: usize,
    body: X,
}

/// The all-normal rules of a grammar compiled into a program, for the streamed tree.
#[derive(Debug)]
struct Walk<'g> {
    grammar: &'g Grammar,
    rules: Vec<WRule<'g>>,
    by_name: HashMap<&'g str, usize>,
}

/// Why an expression cannot be streamed.
struct Unsupported;

/// Why a streamed tree stops before its end.
enum Stop<E> {
    /// Out of steps, or a limit of the program: the tree is cut.
    Cut,
    /// The caller's error.
    Caller(E),
}

/// What the walk has left to do, on its explicit stack.
enum Task<'w> {
    /// Walk this expression, known to match at the current byte, handing on its nodes.
    Walk(&'w X),
    /// One more round of this repetition's body, if it matches at the current byte.
    More(&'w X),
    /// The end of a node: one level up.
    Close,
}

impl<'g> Walk<'g> {
    /// The walk of `rules` (all normal, optimized) of `grammar`; `None` when the grammar is not compiled
    /// into a program or an expression cannot be streamed.
    fn new(grammar: &'g Grammar, rules: &[OptimizedRule]) -> Option<Walk<'g>> {
        if !matches!(grammar.engine, Engine::Compiled(_)) {
            return None;
        }
        let mut by_name = HashMap::new();
        let mut programs = Vec::new();
        for r in rules {
            // The grammar's own spelling of the name, borrowed for as long as the grammar.
            let (index, loaded) = grammar
                .rules
                .iter()
                .enumerate()
                .find(|(_, l)| l.name == r.name)?;
            by_name.insert(loaded.name.as_str(), by_name.len());
            programs.push((index, loaded.name.as_str(), loaded.abnf.as_str()));
        }
        let mut out = Vec::with_capacity(rules.len());
        for (r, (program, _, abnf)) in rules.iter().zip(&programs) {
            let body = lower(&r.expr, &by_name, 0).ok()?;
            out.push(WRule {
                name: abnf,
                program: *program,
                body,
            });
        }
        Some(Walk {
            grammar,
            rules: out,
            by_name,
        })
    }

    fn program(&self) -> &rfc3986_peg::program::Program {
        match &self.grammar.engine {
            Engine::Compiled(compiled) => &compiled.program,
            Engine::Vm(_) => unreachable!("a walk is made for compiled grammars only"),
        }
    }

    /// Streams the tree of `input` under rule `rule` (see the module docs); `Ok(false)` when cut.
    fn stream<E>(
        &self,
        rule: usize,
        input: &str,
        on_node: &mut impl FnMut(TreeNodeRef<'g>) -> Result<(), E>,
    ) -> Result<bool, E> {
        let mut run = Run {
            walk: self,
            program: self.program(),
            s: input.as_bytes(),
            input,
            steps: STEPS_PER_BYTE
                .saturating_mul(input.len() as u64)
                .saturating_add(STEPS_FIXED),
            events: Events::new(),
        };
        let top = X::Rule(rule);
        match run.walk(&top, on_node) {
            Ok(()) => Ok(true),
            Err(Stop::Cut) => Ok(false),
            Err(Stop::Caller(e)) => Err(e),
        }
    }
}

/// `e` with its rule calls resolved; `depth`: how deep `e` is in its rule's expression.
fn lower(e: &OptimizedExpr, rules: &HashMap<&str, usize>, depth: usize) -> Result<X, Unsupported> {
    if depth > MAX_EXPR_DEPTH {
        return Err(Unsupported);
    }
    let sub = |e: &OptimizedExpr| lower(e, rules, depth + 1).map(Box::new);
    const DIGIT: &[(char, char)] = &[('0', '9')];
    const HEX: &[(char, char)] = &[('0', '9'), ('a', 'f'), ('A', 'F')];
    const ALPHA: &[(char, char)] = &[('a', 'z'), ('A', 'Z')];
    const ALNUM: &[(char, char)] = &[('a', 'z'), ('A', 'Z'), ('0', '9')];
    Ok(match e {
        OptimizedExpr::Str(s) => X::Str(s.as_bytes().into()),
        OptimizedExpr::Insens(s) => X::Insens(s.as_bytes().into()),
        OptimizedExpr::Range(a, b) => {
            let (Some(a), Some(b)) = (a.chars().next(), b.chars().next()) else {
                return Err(Unsupported);
            };
            X::Range(a, b)
        }
        // pest_vm's built-in rules come before the grammar's (as it looks them up).
        OptimizedExpr::Ident(name) => match name.as_str() {
            "ANY" => X::Builtin(Builtin::Any),
            "EOI" => X::Eoi,
            "SOI" => X::Builtin(Builtin::Soi),
            "NEWLINE" => X::Builtin(Builtin::Newline),
            "ASCII_DIGIT" => X::Builtin(Builtin::Ranges(DIGIT)),
            "ASCII_NONZERO_DIGIT" => X::Builtin(Builtin::Ranges(&[('1', '9')])),
            "ASCII_BIN_DIGIT" => X::Builtin(Builtin::Ranges(&[('0', '1')])),
            "ASCII_OCT_DIGIT" => X::Builtin(Builtin::Ranges(&[('0', '7')])),
            "ASCII_HEX_DIGIT" => X::Builtin(Builtin::Ranges(HEX)),
            "ASCII_ALPHA_LOWER" => X::Builtin(Builtin::Ranges(&[('a', 'z')])),
            "ASCII_ALPHA_UPPER" => X::Builtin(Builtin::Ranges(&[('A', 'Z')])),
            "ASCII_ALPHA" => X::Builtin(Builtin::Ranges(ALPHA)),
            "ASCII_ALPHANUMERIC" => X::Builtin(Builtin::Ranges(ALNUM)),
            "ASCII" => X::Builtin(Builtin::Ranges(&[('\0', '\x7f')])),
            name => X::Rule(*rules.get(name).ok_or(Unsupported)?),
        },
        OptimizedExpr::PosPred(e) => X::Pos(sub(e)?),
        OptimizedExpr::NegPred(e) => X::Neg(sub(e)?),
        OptimizedExpr::Seq(a, b) => X::Seq(sub(a)?, sub(b)?),
        OptimizedExpr::Choice(a, b) => X::Choice(sub(a)?, sub(b)?),
        OptimizedExpr::Opt(e) => X::Opt(sub(e)?),
        OptimizedExpr::Rep(e) => X::Rep(sub(e)?),
        OptimizedExpr::Skip(strings) => {
            X::Skip(strings.iter().map(|s| s.as_bytes().into()).collect())
        }
        // The stack (PUSH, PEEK ...) and the extras: pest_vm's tree.
        #[allow(unreachable_patterns)]
        _ => return Err(Unsupported),
    })
}

/// One streamed tree under way.
struct Run<'w, 'g> {
    walk: &'w Walk<'g>,
    program: &'w rfc3986_peg::program::Program,
    s: &'w [u8],
    input: &'w str,
    /// The steps left to the tree's matches.
    steps: u64,
    events: Events,
}

impl<'w, 'g> Run<'w, 'g> {
    /// One step of the walk's own (an expression node looked at); out of steps: cut.
    fn step<E>(&mut self) -> Result<(), Stop<E>> {
        match self.steps.checked_sub(1) {
            Some(left) => {
                self.steps = left;
                Ok(())
            }
            None => Err(Stop::Cut),
        }
    }

    /// Where rule number `rule` of the walk ends when it matches at `p`.
    fn rule_end<E>(&mut self, rule: usize, p: usize) -> Result<Option<usize>, Stop<E>> {
        let program = self.walk.rules[rule].program;
        match interpreter::run_at(
            self.program,
            program,
            self.s,
            p,
            &mut self.steps,
            &mut self.events,
        ) {
            Outcome::Done(r) => Ok(r),
            Outcome::Limit(..) => Err(Stop::Cut),
        }
    }

    /// Where `e` ends when it matches at `p` (no node handed on). Recurses on the expression only (its
    /// depth is at most [`MAX_EXPR_DEPTH`]); a rule is matched by the program.
    fn end<E>(&mut self, e: &X, p: usize) -> Result<Option<usize>, Stop<E>> {
        self.step()?;
        let s = self.s;
        Ok(match e {
            X::Str(lit) => s[p..].starts_with(lit).then(|| p + lit.len()),
            X::Insens(lit) => s
                .get(p..p + lit.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(lit))
                .then(|| p + lit.len()),
            X::Range(a, b) => self.char_at(p, &[(*a, *b)]),
            X::Rule(r) => return self.rule_end(*r, p),
            X::Builtin(Builtin::Any) => self.input[p..].chars().next().map(|c| p + c.len_utf8()),
            X::Builtin(Builtin::Soi) => (p == 0).then_some(p),
            X::Builtin(Builtin::Newline) => ["\n", "\r\n", "\r"]
                .iter()
                .find(|n| s[p..].starts_with(n.as_bytes()))
                .map(|n| p + n.len()),
            X::Builtin(Builtin::Ranges(ranges)) => self.char_at(p, ranges),
            X::Eoi => (p == s.len()).then_some(p),
            X::Pos(e) => self.end(e, p)?.map(|_| p),
            X::Neg(e) => match self.end(e, p)? {
                Some(_) => None,
                None => Some(p),
            },
            X::Seq(a, b) => match self.end(a, p)? {
                Some(q) => self.end(b, q)?,
                None => None,
            },
            X::Choice(a, b) => match self.end(a, p)? {
                Some(q) => Some(q),
                None => self.end(b, p)?,
            },
            X::Opt(e) => Some(self.end(e, p)?.unwrap_or(p)),
            X::Rep(e) => {
                let mut q = p;
                while let Some(r) = self.end(e, q)? {
                    if r <= q {
                        break;
                    }
                    q = r;
                }
                Some(q)
            }
            X::Skip(strings) => Some(self.skip(strings, p)),
        })
    }

    /// The end of one character at `p` in one of `ranges`.
    fn char_at(&self, p: usize, ranges: &[(char, char)]) -> Option<usize> {
        let c = self.input[p..].chars().next()?;
        ranges
            .iter()
            .any(|&(a, b)| a <= c && c <= b)
            .then(|| p + c.len_utf8())
    }

    /// Where the first of `strings` starts at or after `p`, or the end of the input (pest's
    /// `skip_until`).
    fn skip(&mut self, strings: &[Box<[u8]>], p: usize) -> usize {
        let rest = &self.s[p..];
        (0..rest.len())
            .find(|&i| strings.iter().any(|t| rest[i..].starts_with(t)))
            .map_or(self.s.len(), |i| {
                self.steps = self.steps.saturating_sub(i as u64);
                p + i
            })
    }

    /// Walks `top`, known to match... or not: the tree of its match at byte 0, if any.
    fn walk<E>(
        &mut self,
        top: &'w X,
        on_node: &mut impl FnMut(TreeNodeRef<'g>) -> Result<(), E>,
    ) -> Result<(), Stop<E>> {
        if self.end(top, 0)?.is_none() {
            return Ok(());
        }
        let mut stack = vec![Task::Walk(top)];
        let mut p = 0;
        let mut depth = 0;
        while let Some(task) = stack.pop() {
            let e = match task {
                Task::Walk(e) => e,
                Task::More(body) => {
                    match self.end(body, p)? {
                        Some(q) if q > p => {
                            stack.push(Task::More(body));
                            stack.push(Task::Walk(body));
                        }
                        _ => {}
                    }
                    continue;
                }
                Task::Close => {
                    depth -= 1;
                    continue;
                }
            };
            match e {
                X::Rule(r) => {
                    let Some(end) = self.rule_end(*r, p)? else {
                        // The program and the walk disagree (they never should): cut.
                        return Err(Stop::Cut);
                    };
                    let rule = &self.walk.rules[*r];
                    on_node(TreeNodeRef {
                        rule: rule.name,
                        start: p,
                        end,
                        depth,
                    })
                    .map_err(Stop::Caller)?;
                    depth += 1;
                    stack.push(Task::Close);
                    stack.push(Task::Walk(&rule.body));
                }
                X::Eoi => on_node(TreeNodeRef {
                    rule: "EOI",
                    start: p,
                    end: p,
                    depth,
                })
                .map_err(Stop::Caller)?,
                X::Seq(a, b) => {
                    stack.push(Task::Walk(b));
                    stack.push(Task::Walk(a));
                }
                X::Choice(a, b) => {
                    self.step()?;
                    let taken = if self.end(a, p)?.is_some() { a } else { b };
                    stack.push(Task::Walk(taken));
                }
                X::Opt(e) => {
                    if self.end(e, p)?.is_some() {
                        stack.push(Task::Walk(e));
                    }
                }
                X::Rep(body) => stack.push(Task::More(body)),
                // No node inside: where it ends is all there is to know.
                X::Pos(_) | X::Neg(_) => {}
                leaf => {
                    let Some(q) = self.end(leaf, p)? else {
                        return Err(Stop::Cut);
                    };
                    p = q;
                }
            }
            // A rule's node moves on to its end once its walk is done: its end is where its body's
            // walk left `p`, as the program found.
        }
        Ok(())
    }
}
