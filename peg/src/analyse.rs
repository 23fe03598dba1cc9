//! The analyses of a pest grammar that the fast path's generator (`build/emit.rs`) relies on, each exact
//! or conservative under PEG semantics: byte classes (an expression that matches exactly one ASCII byte of
//! a set, or fails), FIRST sets and whether an expression can match the empty string, the alternatives of
//! a choice flattened through rule calls, when a choice's byte classes may be folded into one table tried
//! first, and which rules can record component events.
//!
//! Used by `build.rs` through [`crate::generate`]; unit tests in `peg/tests/generator.rs`.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use pest_meta::ast::{Expr, Rule, RuleType};

/// A set of bytes.
pub type Set = [bool; 256];

/// How deep the flattening of choices follows rule calls (the grammar may be recursive).
pub const DEPTH: usize = 16;

/// The most alternatives a choice is flattened into through rule calls; past it, calls stay calls (a
/// grammar loaded at run time could otherwise double them at every level).
pub const MAX_ALTERNATIVES: usize = 256;

/// The memo of [`Grammar::class`]: a rule called in a context (quiet or not) -> its byte class.
type ClassMemo<'g> = HashMap<(&'g str, bool), Memo<Option<Set>>>;

/// A rule's analysis: being computed (a call inside it is a cycle), or known.
#[derive(Clone, Copy)]
enum Memo<T> {
    Computing,
    Known(T),
}

/// A grammar's rules by name, and which of them can record component events.
pub struct Grammar<'g> {
    pub rules: HashMap<&'g str, &'g Rule>,
    /// The rule's match can record events: it records one (`records` says so), or its body calls a rule
    /// that does outside an atomic rule.
    pub records_events: HashMap<&'g str, bool>,
    /// The byte class of each rule called in a context (quiet or not), computed once per rule, so that
    /// the analyses take time linear in the grammar however often rules are called.
    class_memo: RefCell<ClassMemo<'g>>,
    /// The FIRST set and nullability of each rule, computed once per rule.
    first_memo: RefCell<HashMap<&'g str, Memo<(Set, bool)>>>,
    /// The rules that reach themselves through rule references ([`recursive_rules`]): never inlined.
    recursive: HashSet<&'g str>,
}

impl<'g> Grammar<'g> {
    /// The analyses of `rules`, where a rule for which `records` is true records a component event.
    pub fn new(rules: &'g [Rule], records: impl Fn(&Rule) -> bool) -> Grammar<'g> {
        let mut grammar = Grammar {
            rules: rules.iter().map(|r| (r.name.as_str(), r)).collect(),
            records_events: rules.iter().map(|r| (r.name.as_str(), false)).collect(),
            class_memo: RefCell::new(HashMap::new()),
            first_memo: RefCell::new(HashMap::new()),
            recursive: recursive_rules(rules),
        };
        // Least fixed point of "can record events" over the (possibly recursive) rules.
        loop {
            let mut changed = false;
            for rule in rules {
                let records_events = records(rule)
                    || (rule.ty != RuleType::Atomic && grammar.expr_pushes(&rule.expr));
                if records_events && !grammar.records_events[rule.name.as_str()] {
                    grammar.records_events.insert(rule.name.as_str(), true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        grammar
    }

    /// Whether matching `e` outside an atomic rule can record events.
    pub fn expr_pushes(&self, e: &Expr) -> bool {
        match e {
            Expr::Ident(name) => self
                .records_events
                .get(name.as_str())
                .copied()
                .unwrap_or(false),
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
    pub fn pushes(&self, e: &Expr, quiet: bool) -> bool {
        !quiet && self.expr_pushes(e)
    }

    /// The body of rule `name` as called in this context, if the call records nothing and the rule is
    /// not recursive (so the body may be analysed or inlined in place of the call), with the quietness
    /// its body runs under. A recursive rule's body holds a call of the rule itself: inlined, lowering
    /// it would meet that body again inside itself, without end (`a = _{ "x" | "(" ~ a* ~ ")" }`).
    pub fn inlinable(&self, name: &str, quiet: bool) -> Option<(&'g Expr, bool)> {
        let rule = self.rules.get(name)?;
        if (!quiet && self.records_events[name]) || self.recursive.contains(name) {
            return None;
        }
        Some((&rule.expr, quiet || rule.ty == RuleType::Atomic))
    }

    /// The union of the byte classes among the alternatives of `e`, looking through choices,
    /// repetitions, options and rule calls; a sequence (`pct-encoded`) contributes nothing.
    pub fn single_bytes(&self, e: &Expr, depth: usize) -> Set {
        if let Some(set) = self.class(e, true) {
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
    pub fn class(&self, e: &Expr, quiet: bool) -> Option<Set> {
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
                let (&key, _) = self.rules.get_key_value(name.as_str())?;
                let (body, inner_quiet) = self.inlinable(name, quiet)?;
                if let Some(memo) = self.class_memo.borrow().get(&(key, quiet)) {
                    return match memo {
                        Memo::Known(set) => *set,
                        Memo::Computing => None, // a cycle: not one byte
                    };
                }
                self.class_memo
                    .borrow_mut()
                    .insert((key, quiet), Memo::Computing);
                let set = self.class(body, inner_quiet);
                self.class_memo
                    .borrow_mut()
                    .insert((key, quiet), Memo::Known(set));
                set
            }
            Expr::Choice(a, b) => {
                let mut set = self.class(a, quiet)?;
                union(&mut set, &self.class(b, quiet)?);
                Some(set)
            }
            _ => None,
        }
    }

    /// A superset of the bytes `e` can start with, and whether `e` can match the empty string
    /// (conservative: when in doubt, every byte and nullable).
    pub fn first(&self, e: &Expr) -> (Set, bool) {
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
                // UTF-8 keeps the order of code points in its first byte: every character from `a`
                // to `b` starts with a byte from the first byte of `a` to the first byte of `b`.
                (Ok(a), Ok(b)) if a <= b => (range(first_byte(a), first_byte(b)), false),
                (Ok(_), Ok(_)) => (empty(), false),
                _ => (full(), true),
            },
            Expr::Ident(name) => match name.as_str() {
                "SOI" | "EOI" => (empty(), true),
                "ANY" => (full(), false),
                other => {
                    if let Some(set) = builtin_class(other) {
                        return (set, false);
                    }
                    let Some((&key, rule)) = self.rules.get_key_value(other) else {
                        return (full(), true);
                    };
                    if let Some(memo) = self.first_memo.borrow().get(key) {
                        return match memo {
                            Memo::Known(first) => *first,
                            Memo::Computing => (full(), true), // a cycle: anything
                        };
                    }
                    self.first_memo.borrow_mut().insert(key, Memo::Computing);
                    let first = self.first(&rule.expr);
                    self.first_memo.borrow_mut().insert(key, Memo::Known(first));
                    first
                }
            },
            Expr::PosPred(_) | Expr::NegPred(_) => (empty(), true),
            Expr::Seq(..) => {
                let mut items = Vec::new();
                flatten_seq(e, &mut items);
                let mut set = empty();
                for item in items {
                    let (first, nullable) = self.first(item);
                    union(&mut set, &first);
                    if !nullable {
                        return (set, false);
                    }
                }
                (set, true)
            }
            Expr::Choice(a, b) => {
                let (mut set, na) = self.first(a);
                let (other, nb) = self.first(b);
                union(&mut set, &other);
                (set, na || nb)
            }
            Expr::Opt(inner) | Expr::Rep(inner) | Expr::RepMax(inner, _) => {
                (self.first(inner).0, true)
            }
            Expr::RepOnce(inner) => self.first(inner),
            Expr::RepExact(inner, n) | Expr::RepMin(inner, n) | Expr::RepMinMax(inner, n, _) => {
                let (set, nullable) = self.first(inner);
                (set, nullable || *n == 0)
            }
            #[allow(unreachable_patterns)]
            _ => (full(), true),
        }
    }

    /// The alternatives of `e` as an ordered choice, flattened through nested choices and through calls
    /// of rules that record nothing, each with the quietness it runs under.
    pub fn alternatives(
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
            Expr::Ident(name) if depth < DEPTH && out.len() < MAX_ALTERNATIVES => {
                match self.inlinable(name, quiet) {
                    Some((body @ Expr::Choice(..), inner_quiet)) => {
                        self.alternatives(body, inner_quiet, depth + 1, out)
                    }
                    _ => out.push((e, quiet)),
                }
            }
            _ => out.push((e, quiet)),
        }
    }

    /// Splits a choice into one folded byte class tried first and the other alternatives in order,
    /// when folding is exact (see the module documentation); `None` when it is not or there is no class.
    pub fn fold(&self, alternatives: &[(&'g Expr, bool)]) -> Option<(Set, Vec<(&'g Expr, bool)>)> {
        let classes: Vec<Option<Set>> = alternatives
            .iter()
            .map(|(e, quiet)| self.class(e, *quiet))
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
                let (first, nullable) = self.first(e);
                if nullable || meets(&first, &later) {
                    return None;
                }
            }
            rest.push((*e, *quiet));
        }
        Some((folded, rest))
    }

    /// For `*( C ~ X )` where `C` is a byte class and `X` is `*Z` (or a rule whose body is, recording
    /// nothing), with `Z` unable to match the empty string or to start with a byte of `C`: the class
    /// `C` and the alternatives of `Z`. Then `*( C ~ *Z )` matches exactly what "nothing, unless the
    /// next byte is in `C`, else `*( C / Z )`" matches (inside `*Z` a byte of `C` ends the run of `Z`
    /// and the outer loop takes it, just as `C / Z` does), and `*( C / Z )` folds into one table:
    /// `*( "/" segment )`, the tail of every path rule, becomes one scan over `"/" / pchar`.
    pub fn separated(&self, inner: &'g Expr, quiet: bool) -> Option<(Set, Vec<(&'g Expr, bool)>)> {
        let mut items = Vec::new();
        flatten_seq(inner, &mut items);
        let [separator, repeated] = items[..] else {
            return None;
        };
        let class = self.class(separator, quiet)?;
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
        let (first, nullable) = self.first(z);
        if nullable || meets(&first, &class) {
            return None;
        }
        let mut alternatives = vec![(separator, quiet)];
        self.alternatives(z, body_quiet, 0, &mut alternatives);
        Some((class, alternatives))
    }
}

pub fn empty() -> Set {
    [false; 256]
}

pub fn full() -> Set {
    [true; 256]
}

pub fn range(lo: u8, hi: u8) -> Set {
    let mut set = empty();
    for b in lo..=hi {
        set[b as usize] = true;
    }
    set
}

pub fn union(a: &mut Set, b: &Set) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= *y;
    }
}

pub fn meets(a: &Set, b: &Set) -> bool {
    a.iter().zip(b).any(|(x, y)| *x && *y)
}

/// The set of a builtin class rule of pest that the fast path supports.
pub fn builtin_class(name: &str) -> Option<Set> {
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

/// The first byte of `c` in UTF-8.
fn first_byte(c: char) -> u8 {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf).as_bytes()[0]
}

pub fn single_char(text: &str) -> Result<char, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(format!("range bound {text:?} is not one character")),
    }
}

pub fn flatten_seq<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Seq(a, b) => {
            flatten_seq(a, out);
            flatten_seq(b, out);
        }
        other => out.push(other),
    }
}

/// The rules that can reach themselves through rule references, in any position of their bodies
/// (directly, `a = { "(" ~ a? ~ ")" }`, or through other rules): the members of Tarjan's strongly
/// connected components of more than one rule, and the rules that call themselves. Iterative, so a
/// long chain of rules costs no machine stack; linear in the rules and their references.
pub fn recursive_rules(rules: &[Rule]) -> HashSet<&str> {
    let index: HashMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, rule)| (rule.name.as_str(), i))
        .collect();
    let calls: Vec<Vec<usize>> = rules
        .iter()
        .map(|rule| {
            rule.expr
                .iter_top_down()
                .filter_map(|e| match e {
                    Expr::Ident(name) => index.get(name.as_str()).copied(),
                    _ => None,
                })
                .collect()
        })
        .collect();
    const UNSEEN: usize = usize::MAX;
    let n = rules.len();
    let (mut order, mut low) = (vec![UNSEEN; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut next) = (Vec::new(), 0);
    let mut recursive = HashSet::new();
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        // (rule, how many of its calls were followed)
        let mut path = vec![(root, 0)];
        while let Some(top) = path.last_mut() {
            let v = top.0;
            if let Some(&w) = calls[v].get(top.1) {
                top.1 += 1;
                if w == v {
                    recursive.insert(rules[v].name.as_str());
                } else if order[w] == UNSEEN {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    path.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(u, _)) = path.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == order[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    recursive.extend(component.iter().map(|&w| rules[w].name.as_str()));
                }
            }
        }
    }
    recursive
}
