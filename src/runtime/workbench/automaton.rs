//! Finite automata over Unicode scalar values for the workbench: a rule whose reachable part has no
//! recursion, read as a regular expression (`|` as union, repetitions as Kleene closures), and the
//! product searches that tell where PEG's ordered, committed choice and greedy repetition accept less
//! than that regular reading.
//!
//! Edges carry ranges of code points; [`END`] is one more symbol that stands for the end of the input
//! (`&EOI`, and the end of a whole-input match, after which only [`END`] follows). Every search has a
//! budget of visited states and gives up (`None`) past it rather than taking unbounded time.

use std::collections::{HashMap, HashSet, VecDeque};

use super::syntax::{Kind, Node};

/// The symbol standing for the end of the input.
pub(crate) const END: u32 = 0x11_0000;
/// The largest Unicode scalar value.
pub(crate) const MAX_CHAR: u32 = 0x10_FFFF;

/// The most states an automaton may have.
pub(crate) const MAX_STATES: usize = 1 << 19;
/// The most states one product search may visit.
pub(crate) const SEARCH_BUDGET: usize = 1 << 18;

/// The most states all the searches of one lint or export may visit, and build (a grammar within the
/// load limits can still make many large searches: a choice of thousands of alternatives).
pub(crate) const WORK_BUDGET: u64 = 10_000_000;

thread_local! {
    /// What is left of the work budget of the lint or export running on this thread.
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(WORK_BUDGET) };
}

/// Gives this thread's searches a fresh [`WORK_BUDGET`].
pub(crate) fn reset_budget() {
    WORK.with(|w| w.set(WORK_BUDGET));
}

/// Whether the work budget of this thread ran out.
pub(crate) fn budget_spent() -> bool {
    WORK.with(|w| w.get() == 0)
}

/// Takes one unit of work; `Err` when the budget is spent.
fn work() -> Result<(), ()> {
    work_n(1)
}

/// Takes `n` units of work; `Err` (and the budget spent) when fewer are left.
fn work_n(n: u64) -> Result<(), ()> {
    WORK.with(|w| match w.get().checked_sub(n) {
        Some(left) if w.get() > 0 => {
            w.set(left);
            Ok(())
        }
        _ => {
            w.set(0);
            Err(())
        }
    })
}

/// A nondeterministic automaton: char edges `(lo, hi, to)` and empty edges.
#[derive(Debug, Default)]
pub(crate) struct Nfa {
    pub(crate) edges: Vec<Vec<(u32, u32, usize)>>,
    pub(crate) eps: Vec<Vec<usize>>,
}

/// A piece of an automaton, entered at `start`, left at `end`. Paths from `start` stay inside the piece
/// until they reach `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frag {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// Where a PEG construct was met while building, for the searches.
#[derive(Clone, Debug)]
pub(crate) enum Site {
    /// An ordered choice: its alternatives' pieces.
    Choice {
        rule: String,
        line: usize,
        column: usize,
        alts: Vec<Frag>,
    },
    /// An optional or repeated part, taken greedily: one iteration's piece, and the state after the
    /// part (where what follows it begins).
    Greedy {
        rule: String,
        line: usize,
        column: usize,
        body: Frag,
        exit: usize,
    },
}

/// Why a rule cannot be read as a regular expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) rule: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) why: String,
}

/// The code point ranges of a builtin rule of pest, `None` for one the workbench does not know.
pub(crate) fn builtin_ranges(name: &str) -> Option<Vec<(u32, u32)>> {
    let r = |s: &[(char, char)]| s.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
    Some(match name {
        "ANY" => vec![(0, MAX_CHAR)],
        "ASCII_DIGIT" => r(&[('0', '9')]),
        "ASCII_NONZERO_DIGIT" => r(&[('1', '9')]),
        "ASCII_BIN_DIGIT" => r(&[('0', '1')]),
        "ASCII_OCT_DIGIT" => r(&[('0', '7')]),
        "ASCII_HEX_DIGIT" => r(&[('0', '9'), ('A', 'F'), ('a', 'f')]),
        "ASCII_ALPHA_LOWER" => r(&[('a', 'z')]),
        "ASCII_ALPHA_UPPER" => r(&[('A', 'Z')]),
        "ASCII_ALPHA" => r(&[('A', 'Z'), ('a', 'z')]),
        "ASCII_ALPHANUMERIC" => r(&[('0', '9'), ('A', 'Z'), ('a', 'z')]),
        "ASCII" => vec![(0, 0x7F)],
        _ => return None,
    })
}

/// The ranges of one character of `^"..."`: both ASCII cases of a letter.
pub(crate) fn insensitive(c: char) -> Vec<(u32, u32)> {
    if c.is_ascii_alphabetic() {
        let (u, l) = (c.to_ascii_uppercase() as u32, c.to_ascii_lowercase() as u32);
        vec![(u, u), (l, l)]
    } else {
        vec![(c as u32, c as u32)]
    }
}

impl Nfa {
    pub(crate) fn state(&mut self) -> Result<usize, ()> {
        if self.edges.len() >= MAX_STATES {
            return Err(());
        }
        work()?;
        self.edges.push(Vec::new());
        self.eps.push(Vec::new());
        Ok(self.edges.len() - 1)
    }

    /// The states reachable from `from` by empty moves, not going on from `stop`.
    fn empty_closure(&self, from: &[usize], stop: usize) -> Vec<usize> {
        let mut seen: HashSet<usize> = from.iter().copied().collect();
        let mut todo: Vec<usize> = from.to_vec();
        while let Some(s) = todo.pop() {
            if s == stop || work().is_err() {
                continue;
            }
            for &t in &self.eps[s] {
                if seen.insert(t) {
                    todo.push(t);
                }
            }
        }
        let mut v: Vec<usize> = seen.into_iter().collect();
        v.sort_unstable();
        v
    }
}

/// Builds automata from inlined expressions (see [`super::inline`]): `Kind::Ident` only for builtins,
/// each rule's body under a `Kind::Rule` node.
pub(crate) struct Builder {
    pub(crate) nfa: Nfa,
    /// Sites are recorded when true.
    pub(crate) record: bool,
    pub(crate) sites: Vec<Site>,
    /// Lookaheads other than `&EOI` met (read as matching the empty string): rule, line, column.
    pub(crate) lookaheads: Vec<(String, usize, usize)>,
}

impl Builder {
    pub(crate) fn new(record: bool) -> Builder {
        Builder {
            nfa: Nfa::default(),
            record,
            sites: Vec::new(),
            lookaheads: Vec::new(),
        }
    }

    fn too_big(rule: &str, node: &Node) -> Refusal {
        Refusal {
            rule: rule.to_string(),
            line: node.line,
            column: node.column,
            why: format!(
                "the automaton would have more than {MAX_STATES} states, or the work budget of \
                 {WORK_BUDGET} steps ran out"
            ),
        }
    }

    /// A piece matching `ranges` once.
    fn class(&mut self, ranges: &[(u32, u32)], rule: &str, node: &Node) -> Result<Frag, Refusal> {
        let start = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
        let end = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
        for &(lo, hi) in ranges {
            if lo <= hi {
                self.nfa.edges[start].push((lo, hi, end));
            }
        }
        Ok(Frag { start, end })
    }

    fn empty(&mut self, rule: &str, node: &Node) -> Result<Frag, Refusal> {
        let s = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
        Ok(Frag { start: s, end: s })
    }

    fn chain(&mut self, parts: Vec<Frag>, rule: &str, node: &Node) -> Result<Frag, Refusal> {
        let Some(first) = parts.first().copied() else {
            return self.empty(rule, node);
        };
        let mut end = first.end;
        for p in &parts[1..] {
            self.nfa.eps[end].push(p.start);
            end = p.end;
        }
        Ok(Frag {
            start: first.start,
            end,
        })
    }

    /// The piece of `node`, in rule `rule`.
    pub(crate) fn build(&mut self, rule: &str, node: &Node) -> Result<Frag, Refusal> {
        match &node.kind {
            Kind::Str(s) => {
                let parts = s
                    .chars()
                    .map(|c| self.class(&[(c as u32, c as u32)], rule, node))
                    .collect::<Result<Vec<_>, _>>()?;
                self.chain(parts, rule, node)
            }
            Kind::Insens(s) => {
                let parts = s
                    .chars()
                    .map(|c| self.class(&insensitive(c), rule, node))
                    .collect::<Result<Vec<_>, _>>()?;
                self.chain(parts, rule, node)
            }
            Kind::Range(lo, hi) => self.class(&[(*lo as u32, *hi as u32)], rule, node),
            Kind::Ident(name) => match name.as_str() {
                "EOI" => self.class(&[(END, END)], rule, node),
                "SOI" => self.empty(rule, node),
                _ => match builtin_ranges(name) {
                    Some(ranges) => self.class(&ranges, rule, node),
                    None => Err(Refusal {
                        rule: rule.to_string(),
                        line: node.line,
                        column: node.column,
                        why: format!(
                            "`{name}` is not a rule of the grammar or a builtin the export reads"
                        ),
                    }),
                },
            },
            Kind::Rule(name, body) => self.build(name, body),
            Kind::Pos(inner) if matches!(&inner.kind, Kind::Ident(n) if n == "EOI") => {
                self.class(&[(END, END)], rule, node)
            }
            Kind::Pos(_) | Kind::Neg(_) => {
                self.lookaheads
                    .push((rule.to_string(), node.line, node.column));
                self.empty(rule, node)
            }
            Kind::Seq(items) => {
                let parts = items
                    .iter()
                    .map(|i| self.build(rule, i))
                    .collect::<Result<Vec<_>, _>>()?;
                self.chain(parts, rule, node)
            }
            Kind::Choice(alts) => {
                let start = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
                let end = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
                let mut frags = Vec::new();
                for a in alts {
                    let f = self.build(rule, a)?;
                    self.nfa.eps[start].push(f.start);
                    self.nfa.eps[f.end].push(end);
                    frags.push(f);
                }
                if self.record {
                    self.sites.push(Site::Choice {
                        rule: rule.to_string(),
                        line: node.line,
                        column: node.column,
                        alts: frags,
                    });
                }
                Ok(Frag { start, end })
            }
            Kind::Rep(inner, min, max) => {
                let mut parts = Vec::new();
                for _ in 0..*min {
                    parts.push(self.build(rule, inner)?);
                }
                match max {
                    None => {
                        // loop state L: L -> body -> L, L -> exit.
                        let l = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
                        let exit = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
                        let body = self.build(rule, inner)?;
                        self.nfa.eps[l].push(body.start);
                        self.nfa.eps[body.end].push(l);
                        self.nfa.eps[l].push(exit);
                        self.greedy(rule, node, body, exit);
                        parts.push(Frag {
                            start: l,
                            end: exit,
                        });
                    }
                    Some(max) => {
                        // (body (body (...)?)?)? for the max - min optional copies.
                        let optional = max.saturating_sub(*min);
                        let exit = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
                        let mut entries = Vec::new();
                        let mut prev: Option<usize> = None;
                        for _ in 0..optional {
                            let body = self.build(rule, inner)?;
                            let s = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
                            self.nfa.eps[s].push(body.start);
                            self.nfa.eps[s].push(exit);
                            if let Some(p) = prev {
                                self.nfa.eps[p].push(s);
                            }
                            self.greedy(rule, node, body, exit);
                            prev = Some(body.end);
                            entries.push(s);
                        }
                        if let Some(p) = prev {
                            self.nfa.eps[p].push(exit);
                        }
                        match entries.first() {
                            Some(&s) => parts.push(Frag {
                                start: s,
                                end: exit,
                            }),
                            None => parts.push(Frag {
                                start: exit,
                                end: exit,
                            }),
                        }
                    }
                }
                self.chain(parts, rule, node)
            }
            Kind::Other(text) => Err(Refusal {
                rule: rule.to_string(),
                line: node.line,
                column: node.column,
                why: format!("`{text}` (stack operations and tags) has no regular reading"),
            }),
        }
    }

    fn greedy(&mut self, rule: &str, node: &Node, body: Frag, exit: usize) {
        if self.record {
            self.sites.push(Site::Greedy {
                rule: rule.to_string(),
                line: node.line,
                column: node.column,
                body,
                exit,
            });
        }
    }

    /// A whole-input match of `node`: the piece, then [`END`], then only [`END`]; returns the start and
    /// the accepting state.
    pub(crate) fn whole(&mut self, rule: &str, node: &Node) -> Result<Frag, Refusal> {
        let f = self.build(rule, node)?;
        let fin = self.nfa.state().map_err(|()| Self::too_big(rule, node))?;
        self.nfa.edges[f.end].push((END, END, fin));
        self.nfa.edges[fin].push((END, END, fin));
        Ok(Frag {
            start: f.start,
            end: fin,
        })
    }
}

/// A witness string of a search: code points, [`END`] included.
pub(crate) type Witness = Vec<u32>;

/// `w` for a message: the characters as written, control and non-ASCII characters escaped, the end
/// of input as `<end>`.
pub(crate) fn show(w: &[u32]) -> String {
    let mut s = String::new();
    for &c in w {
        if c == END {
            continue;
        }
        match char::from_u32(c) {
            Some(ch) if (' '..='~').contains(&ch) => s.push(ch),
            Some(ch) => s.extend(ch.escape_unicode()),
            None => s.push('?'),
        }
    }
    s
}

fn overlap(a: (u32, u32), b: (u32, u32)) -> Option<u32> {
    let lo = a.0.max(b.0);
    (lo <= a.1.min(b.1)).then_some(lo)
}

/// A breadth-first search over pairs of states with a path back to the start.
struct Search<K> {
    seen: HashMap<K, (Option<K>, Option<u32>)>,
    queue: VecDeque<K>,
}

impl<K: Copy + Eq + std::hash::Hash> Search<K> {
    fn new(start: K) -> Search<K> {
        let mut seen = HashMap::new();
        seen.insert(start, (None, None));
        Search {
            seen,
            queue: VecDeque::from([start]),
        }
    }

    /// Visits `k` (reached from `from` by `c`, `None` for an empty move); `Err` past the budget.
    fn visit(&mut self, k: K, from: K, c: Option<u32>) -> Result<(), ()> {
        if !self.seen.contains_key(&k) {
            if self.seen.len() >= SEARCH_BUDGET {
                return Err(());
            }
            work()?;
            self.seen.insert(k, (Some(from), c));
            self.queue.push_back(k);
        }
        Ok(())
    }

    fn path(&self, mut k: K) -> Witness {
        let mut w = Vec::new();
        while let Some(&(Some(prev), c)) = self.seen.get(&k) {
            if let Some(c) = c {
                w.push(c);
            }
            k = prev;
        }
        w.reverse();
        w
    }
}

/// Whether a walk from `end`'s piece can reach `target` reading at least one character: the states
/// from which `target` is reachable with one or more characters read.
fn reach_with_char(nfa: &Nfa, within: Frag) -> HashSet<usize> {
    // States of the piece, found forward from its start (not past its end).
    let mut states = vec![within.start];
    let mut seen: HashSet<usize> = states.iter().copied().collect();
    let mut i = 0;
    while i < states.len() {
        let s = states[i];
        i += 1;
        if s == within.end {
            continue;
        }
        let nexts = nfa.eps[s]
            .iter()
            .copied()
            .chain(nfa.edges[s].iter().map(|e| e.2));
        for t in nexts.collect::<Vec<_>>() {
            if seen.insert(t) {
                states.push(t);
            }
        }
    }
    // Backward, in linear time: `reach` can reach the end; a state reads something on its way there
    // when it can reach a character edge whose target is in `reach`.
    let mut back: HashMap<usize, Vec<usize>> = HashMap::new();
    for &s in &states {
        if s == within.end {
            continue;
        }
        for t in nfa.eps[s]
            .iter()
            .copied()
            .chain(nfa.edges[s].iter().map(|e| e.2))
        {
            back.entry(t).or_default().push(s);
        }
    }
    let walk_back = |seeds: Vec<usize>| {
        let mut seen: HashSet<usize> = seeds.iter().copied().collect();
        let mut todo = seeds;
        while let Some(t) = todo.pop() {
            for &s in back.get(&t).map_or(&[][..], Vec::as_slice) {
                if seen.insert(s) {
                    todo.push(s);
                }
            }
        }
        seen
    };
    let reach = walk_back(vec![within.end]);
    let seeds: Vec<usize> = states
        .iter()
        .copied()
        .filter(|&s| s != within.end && nfa.edges[s].iter().any(|e| reach.contains(&e.2)))
        .collect();
    walk_back(seeds)
}

/// Ordered choice in context: alternative `a` (earlier) and alternative `b` (later) of one choice, in
/// an automaton where `b.end` leads on to what follows the choice. `Some(Some(w))` when some input
/// `w` starts with a match of `a` and is a match of `b` followed by what follows, with `a`'s match
/// shorter than `b`'s, or longer by characters other than the end (PEG then commits to `a` where the
/// regular reading would take `b`); `Some(None)` when there is none; `None` past the budget.
pub(crate) fn choice_conflict(nfa: &Nfa, a: Frag, b: Frag) -> Option<Option<(Witness, usize)>> {
    let b_more = reach_with_char(nfa, b);
    // State: (a state, b-side state, b finished, a character other than END read since).
    type K = (usize, usize, bool, bool);
    let start: K = (a.start, b.start, false, false);
    let mut search = Search::new(start);
    while let Some(k @ (sa, sb, done, moved)) = search.queue.pop_front() {
        if sa == a.end {
            let conflict = if done { moved } else { b_more.contains(&sb) };
            if conflict {
                let w = search.path(k);
                let cut = w.len();
                return Some(Some((w, cut)));
            }
            continue;
        }
        for &t in &nfa.eps[sa] {
            search.visit((t, sb, done, moved), k, None).ok()?;
        }
        for &t in &nfa.eps[sb] {
            let d = done || t == b.end;
            let m = if !done && t == b.end { false } else { moved };
            search.visit((sa, t, d, m), k, None).ok()?;
        }
        for &(lo, hi, ta) in &nfa.edges[sa] {
            for &(lo2, hi2, tb) in &nfa.edges[sb] {
                if let Some(c) = overlap((lo, hi), (lo2, hi2)) {
                    let d = done || tb == b.end;
                    let m = if !done && tb == b.end {
                        false
                    } else {
                        moved || (done && c != END)
                    };
                    search.visit((ta, tb, d, m), k, Some(c)).ok()?;
                }
            }
        }
    }
    Some(None)
}

/// Greedy repetition in context: `Some(Some(w))` when a non-empty match `w` of `body` is a prefix of
/// some input that can follow from `exit` (PEG would take another iteration where the regular reading
/// may stop); `Some(None)` when none is; `None` past the budget.
pub(crate) fn greedy_conflict(nfa: &Nfa, body: Frag, exit: usize) -> Option<Option<Witness>> {
    type K = (usize, usize, bool);
    let start: K = (body.start, exit, false);
    let mut search = Search::new(start);
    while let Some(k @ (sa, sb, read)) = search.queue.pop_front() {
        if sa == body.end {
            if read {
                return Some(Some(search.path(k)));
            }
            continue;
        }
        for &t in &nfa.eps[sa] {
            search.visit((t, sb, read), k, None).ok()?;
        }
        for &t in &nfa.eps[sb] {
            search.visit((sa, t, read), k, None).ok()?;
        }
        for &(lo, hi, ta) in &nfa.edges[sa] {
            for &(lo2, hi2, tb) in &nfa.edges[sb] {
                if let Some(c) = overlap((lo, hi), (lo2, hi2)) {
                    if c != END {
                        search.visit((ta, tb, true), k, Some(c)).ok()?;
                    }
                }
            }
        }
    }
    Some(None)
}

/// `Some(Some((w, n)))` when a match `w[..n]` of `a` is a proper prefix of a match `w` of `b` (each
/// piece read on its own); `Some(None)` when none is; `None` past the budget.
pub(crate) fn proper_prefix(nfa: &Nfa, a: Frag, b: Frag) -> Option<Option<(Witness, usize)>> {
    let b_more = reach_with_char(nfa, b);
    type K = (usize, usize);
    let mut search = Search::new((a.start, b.start));
    while let Some(k @ (sa, sb)) = search.queue.pop_front() {
        if sa == a.end && b_more.contains(&sb) {
            let w = search.path(k);
            let n = w.len();
            // Complete it with a shortest way from sb to b.end.
            let rest = shortest(nfa, sb, b.end, true)?;
            let mut full = w;
            full.extend(rest);
            return Some(Some((full, n)));
        }
        if sa != a.end {
            for &t in &nfa.eps[sa] {
                search.visit((t, sb), k, None).ok()?;
            }
        }
        if sb != b.end {
            for &t in &nfa.eps[sb] {
                search.visit((sa, t), k, None).ok()?;
            }
        }
        if sa == a.end || sb == b.end {
            continue;
        }
        for &(lo, hi, ta) in &nfa.edges[sa] {
            for &(lo2, hi2, tb) in &nfa.edges[sb] {
                if let Some(c) = overlap((lo, hi), (lo2, hi2)) {
                    let key: K = (ta, tb);
                    search.visit(key, k, Some(c)).ok()?;
                }
            }
        }
    }
    Some(None)
}

/// A shortest input from `from` to `to` (with at least one character when `some`).
fn shortest(nfa: &Nfa, from: usize, to: usize, some: bool) -> Option<Witness> {
    let mut search = Search::new((from, false));
    while let Some(k @ (s, read)) = search.queue.pop_front() {
        if s == to && (read || !some) {
            return Some(search.path(k));
        }
        if s == to {
            continue;
        }
        for &t in &nfa.eps[s] {
            search.visit((t, read), k, None).ok()?;
        }
        for &(lo, _, t) in &nfa.edges[s] {
            search.visit((t, true), k, Some(lo)).ok()?;
        }
    }
    None
}

/// Whether every match of `a` is a match of `b` (`prefix`: or has a prefix that is one):
/// `Some(None)` when so, `Some(Some(w))` with a match `w` of `a` that is not, `None` past the budget.
pub(crate) fn included(nfa: &Nfa, a: Frag, b: Frag, prefix: bool) -> Option<Option<Witness>> {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut ids: HashMap<Vec<usize>, usize> = HashMap::new();
    // A set of states costs its size in work (the subsets of a large automaton can be large).
    let mut intern = |set: Vec<usize>, sets: &mut Vec<Vec<usize>>| -> Option<usize> {
        work_n(set.len() as u64 + 1).ok()?;
        if let Some(&i) = ids.get(&set) {
            return Some(i);
        }
        sets.push(set.clone());
        ids.insert(set, sets.len() - 1);
        Some(sets.len() - 1)
    };
    let first = intern(nfa.empty_closure(&[b.start], b.end), &mut sets)?;
    type K = (usize, usize);
    let mut search = Search::new((a.start, first));
    while let Some(k @ (sa, set)) = search.queue.pop_front() {
        let covered = sets[set].binary_search(&b.end).is_ok();
        if prefix && covered {
            continue;
        }
        if sa == a.end && !covered {
            return Some(Some(search.path(k)));
        }
        if sa == a.end {
            continue;
        }
        for &t in &nfa.eps[sa] {
            search.visit((t, set), k, None).ok()?;
        }
        for &(lo, hi, ta) in &nfa.edges[sa] {
            // Cut [lo, hi] at the bounds of the set's edges.
            let mut cuts = vec![lo, hi.saturating_add(1)];
            for &s in &sets[set] {
                if s == b.end {
                    continue;
                }
                for &(l, h, _) in &nfa.edges[s] {
                    if l > lo && l <= hi {
                        cuts.push(l);
                    }
                    if h >= lo && h < hi {
                        cuts.push(h + 1);
                    }
                }
            }
            cuts.sort_unstable();
            cuts.dedup();
            for w in cuts.windows(2) {
                let (p, q) = (w[0], w[1] - 1);
                let mut next = Vec::new();
                for &s in &sets[set] {
                    if s == b.end {
                        continue;
                    }
                    for &(l, h, t) in &nfa.edges[s] {
                        if l <= p && q <= h {
                            next.push(t);
                        }
                    }
                }
                let closed = nfa.empty_closure(&next, b.end);
                let id = intern(closed, &mut sets)?;
                let key: K = (ta, id);
                search.visit(key, k, Some(p)).ok()?;
            }
        }
    }
    Some(None)
}
