//! `grammar diff`: how the verdict (and, optionally, the component split) of each input changes between
//! two grammars. Each input is checked once under each side's rule, as `check` would check it: the cost
//! is the two checks.

use crate::runtime::Entry;
use crate::{ParseErrorKind, RuleMatch};

/// What is compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiffOptions {
    /// Also report inputs valid on both sides whose components (scheme, authority, userinfo, host, port,
    /// path, query, fragment) differ.
    pub components: bool,
}

/// The kind of a change.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeKind {
    /// Rejected by the old rule, accepted by the new one.
    NowValid,
    /// Accepted by the old rule, rejected by the new one.
    NowInvalid,
    /// Valid on both sides, split differently: the components that differ, in URI order.
    Split(Vec<&'static str>),
    /// A parser limit stopped one side and not the other.
    Limit,
}

impl ChangeKind {
    /// A short label: `now-valid`, `now-invalid`, `split: host, path`, `limit` (see [`Change::group`]).
    pub fn label(&self) -> String {
        match self {
            ChangeKind::NowValid => "now-valid".to_string(),
            ChangeKind::NowInvalid => "now-invalid".to_string(),
            ChangeKind::Split(parts) => format!("split: {}", parts.join(", ")),
            ChangeKind::Limit => "limit".to_string(),
        }
    }
}

/// One side's verdict on an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the rule matched the whole input (`None`: a parser limit stopped it).
    pub valid: Option<bool>,
    /// For an invalid input: the byte offset where it stopped matching, the message, and what was
    /// expected there (`pchar, "/" or end of input`).
    pub error: Option<(usize, String, String)>,
    /// For a valid input: each component by name, `None` when undefined.
    pub components: Vec<(&'static str, Option<String>)>,
}

/// A changed input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// How it changed.
    pub kind: ChangeKind,
    /// The old side.
    pub old: Verdict,
    /// The new side.
    pub new: Verdict,
}

impl Change {
    /// The group a report puts the change in: its kind, and for a verdict that changed, what the
    /// rejecting side expected (`now-invalid: expected scheme`).
    pub fn group(&self) -> String {
        let expected = match self.kind {
            ChangeKind::NowInvalid => self.new.error.as_ref(),
            ChangeKind::NowValid => self.old.error.as_ref(),
            _ => None,
        };
        match expected {
            Some((_, _, e)) if !e.is_empty() => format!("{}: {e}", self.kind.label()),
            _ => self.kind.label(),
        }
    }
}

/// Two rules to compare inputs under.
#[derive(Clone, Copy, Debug)]
pub struct Diff<'o, 'n> {
    old: Entry<'o>,
    new: Entry<'n>,
    options: DiffOptions,
}

/// The rules `old` and `new` compared with `options`.
pub fn diff<'o, 'n>(old: Entry<'o>, new: Entry<'n>, options: DiffOptions) -> Diff<'o, 'n> {
    Diff { old, new, options }
}

const NAMES: [&str; 8] = [
    "scheme",
    "authority",
    "userinfo",
    "host",
    "port",
    "path",
    "query",
    "fragment",
];

fn components(m: &RuleMatch<'_>) -> Vec<(&'static str, Option<String>)> {
    let values = [
        m.scheme(),
        m.authority(),
        m.userinfo(),
        m.host_str(),
        m.port(),
        m.path(),
        m.query(),
        m.fragment(),
    ];
    NAMES
        .iter()
        .zip(values)
        .map(|(n, v)| (*n, v.map(str::to_string)))
        .collect()
}

fn verdict(entry: &Entry<'_>, input: &str, with_components: bool) -> Verdict {
    match entry.parse(input) {
        Ok(m) => Verdict {
            valid: Some(true),
            error: None,
            components: if with_components {
                components(&m)
            } else {
                Vec::new()
            },
        },
        Err(e) => Verdict {
            valid: (e.kind() != ParseErrorKind::LimitReached).then_some(false),
            error: Some((e.offset(), e.detail(), e.expected_list())),
            components: Vec::new(),
        },
    }
}

impl Diff<'_, '_> {
    /// How `input` changes from the old rule to the new one; `None` when it does not.
    pub fn input(&self, input: &str) -> Option<Change> {
        let old = verdict(&self.old, input, self.options.components);
        let new = verdict(&self.new, input, self.options.components);
        let kind = match (old.valid, new.valid) {
            (Some(false), Some(true)) => ChangeKind::NowValid,
            (Some(true), Some(false)) => ChangeKind::NowInvalid,
            (None, Some(_)) | (Some(_), None) => ChangeKind::Limit,
            (Some(true), Some(true)) if self.options.components => {
                let parts: Vec<&'static str> = old
                    .components
                    .iter()
                    .zip(&new.components)
                    .filter(|(a, b)| a.1 != b.1)
                    .map(|(a, _)| a.0)
                    .collect();
                if parts.is_empty() {
                    return None;
                }
                ChangeKind::Split(parts)
            }
            _ => return None,
        };
        Some(Change { kind, old, new })
    }
}
