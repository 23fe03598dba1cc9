//! The explainer's *steps*, worked out when the explainer is generated: what a class rule, a rule on
//! the bytes of its fail table, or a repetition's body where its scan stops records on each byte, as
//! constants the explainer replays (`Diag::replay` in `src/engine/explainer.rs`), so that no table is
//! made at run time.
//!
//! A step is worked out by matching the rule (or body) in full from position 0 of the one-byte input
//! of that byte (or of the empty input, for the end of the input, as byte 256), outside and inside a
//! negative lookahead, with pest's record of attempts kept as `ParserState` keeps it: this module
//! transcribes `Diag`'s `enter`, `leave`, `track` and `eoi` (`src/engine/explainer.rs`) and matches
//! the program's nodes as the generated code does with no table (class rules in full, repetitions
//! stepping over nothing). The tests of `rfc3986` compare every step with the one the generated
//! step-by-step functions record at run time.

use super::lower::{Node, Program};

/// What matching a rule (or a body) on one byte does: whether it matched, and the attempts it leaves at
/// that byte's position (positive, then negative).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Whether it matched.
    pub matched: bool,
    /// The length of its match (0 or 1; 0 when it failed).
    pub width: usize,
    /// The ids recorded outside negative lookaheads, in order.
    pub positives: Vec<u16>,
    /// The ids recorded inside negative lookaheads, in order.
    pub negatives: Vec<u16>,
}

/// What is matched for a table of steps.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// Detail rule number `usize`, with its record (a class rule, or a rule with a fail table).
    Rule(usize),
    /// Node number `usize`, the body of a repetition (no record of its own).
    Body(usize),
}

/// The steps of `target` for each byte and the end of the input (256), outside and inside a negative
/// lookahead: entry `byte * 2 + negative`, 514 in all.
pub fn steps(program: &Program, target: Target) -> Vec<Step> {
    let mut steps = Vec::with_capacity(257 * 2);
    for byte in 0..=256usize {
        let input = [byte as u8];
        let s: &[u8] = if byte == 256 { &[] } else { &input };
        for negative in [false, true] {
            let mut d = Record {
                program,
                s,
                look: if negative { Look::Negative } else { Look::None },
                attempt_pos: 0,
                positives: Vec::new(),
                negatives: Vec::new(),
            };
            let end = match target {
                Target::Rule(rule) => d.call(rule, 0),
                Target::Body(body) => d.node(body, 0),
            };
            steps.push(Step {
                matched: end.is_some(),
                width: end.unwrap_or(0),
                positives: d.positives,
                negatives: d.negatives,
            });
        }
    }
    steps
}

/// Whether the whole of `s` is in the language of grammar rule number `rule` (matched by its entry).
pub fn matches(program: &Program, rule: usize, s: &[u8]) -> bool {
    let mut d = Record {
        program,
        s,
        look: Look::None,
        attempt_pos: 0,
        positives: Vec::new(),
        negatives: Vec::new(),
    };
    d.call(program.entries[rule], 0) == Some(s.len())
}

/// The ASCII characters grammar rule number `rule` accepts, as a bit set, when its language is made of
/// one-character strings only (`ALPHA`, `unreserved`, `pchar`, ...); `None` for any other rule (one
/// that accepts the empty string, no one-character string, or a longer string that starts with an
/// accepted character). What folding the expected items of an error needs (`src/engine/subsumption.rs`).
pub fn class_of_rule(program: &Program, rule: usize) -> Option<u128> {
    if matches(program, rule, b"") {
        return None;
    }
    let set = (0..128u8)
        .filter(|&b| matches(program, rule, &[b]))
        .fold(0u128, |set, b| set | 1 << b);
    if set == 0 {
        return None;
    }
    // One-character strings only: no accepted character starts a longer match.
    for b in (0..128u8).filter(|b| set & (1 << b) != 0) {
        if (0..128u8).any(|c| matches(program, rule, &[b, c])) {
            return None;
        }
    }
    Some(set)
}

/// pest's `Lookahead`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Look {
    None,
    Positive,
    Negative,
}

/// The attempt lists' lengths when a rule was entered.
#[derive(Clone, Copy)]
struct Mark {
    positives: usize,
    negatives: usize,
}

/// pest's record of attempts while matching a program on a short input.
struct Record<'a> {
    program: &'a Program,
    s: &'a [u8],
    look: Look,
    attempt_pos: usize,
    positives: Vec<u16>,
    negatives: Vec<u16>,
}

impl Record<'_> {
    fn enter(&self, p: usize) -> Mark {
        if p == self.attempt_pos {
            Mark {
                positives: self.positives.len(),
                negatives: self.negatives.len(),
            }
        } else {
            Mark {
                positives: 0,
                negatives: 0,
            }
        }
    }

    fn leave(&mut self, id: u16, p: usize, entry: Mark, r: Option<usize>) -> Option<usize> {
        if p >= self.attempt_pos && r.is_some() == (self.look == Look::Negative) {
            self.track(id, p, entry);
        }
        r
    }

    fn track(&mut self, id: u16, p: usize, entry: Mark) {
        let attempts = if p == self.attempt_pos {
            self.positives.len() + self.negatives.len()
        } else {
            0
        };
        if attempts == entry.positives + entry.negatives + 1 {
            return;
        }
        if p == self.attempt_pos {
            self.positives.truncate(entry.positives);
            self.negatives.truncate(entry.negatives);
        }
        if p > self.attempt_pos {
            self.positives.clear();
            self.negatives.clear();
            self.attempt_pos = p;
        }
        if p == self.attempt_pos {
            if self.look == Look::Negative {
                self.negatives.push(id);
            } else {
                self.positives.push(id);
            }
        }
    }

    fn call(&mut self, rule: usize, p: usize) -> Option<usize> {
        let program = self.program;
        let r = &program.rules[rule];
        if r.silent {
            return self.node(r.body, p);
        }
        let entry = self.enter(p);
        let result = self.node(r.body, p);
        self.leave(r.id, p, entry, result)
    }

    /// The character at `p` and its length (the input is one byte or none: a byte that starts a
    /// multi-byte character has no character here, as the explainer's `char_at` finds none).
    fn char_at(&self, p: usize) -> Option<(char, usize)> {
        match self.s.get(p) {
            Some(&b) if b < 0x80 => Some((char::from(b), 1)),
            Some(_) => {
                let rest = &self.s[p..];
                let len = match rest[0] {
                    b if b >= 0xF0 => 4,
                    b if b >= 0xE0 => 3,
                    _ => 2,
                };
                let c = std::str::from_utf8(rest.get(..len)?).ok()?.chars().next()?;
                Some((c, len))
            }
            None => None,
        }
    }

    fn node(&mut self, id: usize, p: usize) -> Option<usize> {
        let program = self.program;
        let s = self.s;
        match &program.nodes[id] {
            Node::Empty => Some(p),
            Node::Byte(b) => (s.get(p) == Some(b)).then_some(p + 1),
            Node::ByteRange(lo, hi) => match s.get(p) {
                Some(&b) if *lo <= b && b <= *hi => Some(p + 1),
                _ => None,
            },
            Node::Builtin(class) => match s.get(p) {
                Some(&b) if class.table()[usize::from(b)] => Some(p + 1),
                _ => None,
            },
            Node::Literal(text) => {
                let end = p + text.len();
                (s.get(p..end) == Some(&text[..])).then_some(end)
            }
            Node::LiteralCi(text) => {
                let end = p + text.len();
                s.get(p..end)?.eq_ignore_ascii_case(text).then_some(end)
            }
            Node::CharRange(lo, hi) => {
                let (c, len) = self.char_at(p)?;
                (*lo <= c && c <= *hi).then_some(p + len)
            }
            Node::Soi => (p == 0).then_some(p),
            Node::Eoi => {
                let entry = self.enter(p);
                let r = (p == s.len()).then_some(p);
                self.leave(0, p, entry, r)
            }
            Node::Any => self.char_at(p).map(|(_, len)| p + len),
            Node::Call(rule) => self.call(*rule, p),
            Node::Predicate { positive, inner } => {
                let look = self.look;
                self.look = match (positive, look) {
                    (_, Look::Negative) if *positive => Look::Negative,
                    (true, _) => Look::Positive,
                    (false, Look::Negative) => Look::Positive,
                    (false, _) => Look::Negative,
                };
                let r = self.node(*inner, p);
                self.look = look;
                match (positive, r) {
                    (true, Some(_)) | (false, None) => Some(p),
                    _ => None,
                }
            }
            Node::Seq(items) => {
                let mut q = p;
                for &item in items {
                    q = self.node(item, q)?;
                }
                Some(q)
            }
            Node::Choice(items) => {
                let last = items.len() - 1;
                for (k, &item) in items.iter().enumerate() {
                    let r = self.node(item, p);
                    if r.is_some() || k == last {
                        return r;
                    }
                }
                None
            }
            Node::Optional(inner) => Some(self.node(*inner, p).unwrap_or(p)),
            Node::Repeat { body, .. } => {
                let mut q = p;
                while let Some(r) = self.node(*body, q) {
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
