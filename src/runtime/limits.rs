//! Limits on a grammar loaded at run time, checked on its text before pest_meta sees it (feature
//! `runtime-grammar`).
//!
//! pest_meta and pest_vm trust their grammar: a repetition count is unrolled into that many copies
//! (`{0,4294967295}` panics, `{0,100000}` builds an expression 100,000 levels deep), their checks and
//! their optimizer recurse on the machine stack once per expression level and follow rule references
//! without memoizing (a chain of rules costs time cubic in its length; a chain of rules each used twice
//! costs exponential time). This module bounds all of that, in one linear pass over the text with an
//! explicit stack (no recursion), and reports each problem at its line and column:
//!
//! | limit | value |
//! | --- | --- |
//! | grammar text | [`MAX_GRAMMAR_BYTES`] bytes |
//! | rules | [`MAX_RULES`] |
//! | repetition count `{n}`, `{n,}`, `{,m}`, `{n,m}` | 1 to [`MAX_REPEAT`] (0 only as the `n` of `{n,m}`) |
//! | nesting of parentheses, prefix and suffix operators | [`MAX_NESTING`] levels |
//! | one rule, unrolled as pest_meta unrolls repetitions | [`MAX_RULE_NODES`] nodes, [`MAX_RULE_DEPTH`] levels |
//! | the optimizer's work, nodes x depth squared summed over the rules | [`MAX_WORK`] |
//! | the whole grammar, unrolled | [`MAX_GRAMMAR_NODES`] nodes |
//! | rule-reference chains (`a` uses `b` uses `c` ...) | [`MAX_CHAIN`] rules deep |
//! | the expressions walked when following every reference chain | [`MAX_WALK`] nodes |
//! | the optimizer's walks through the rules a rule reaches, nodes x the nodes x depth of those rules | [`MAX_REACH_WORK`] |
//! | nested `/* */` comments | [`MAX_NESTING`] levels, each closed |
//!
//! Refused outright: the stack operations `PUSH`, `PUSH_LITERAL`, `POP`, `POP_ALL`, `PEEK`, `PEEK_ALL`,
//! `DROP` (a URI grammar needs none; `PEEK_ALL` makes matching quadratic in the input), and `\u{...}`
//! escapes that are not a Unicode scalar value of 1 to 6 hex digits.
//!
//! Matching is bounded separately: pest checks the remaining native stack on every rule, sequence,
//! repetition, option and lookahead and stops with an error of kind
//! [`LimitReached`](crate::ParseErrorKind::LimitReached) instead of overflowing it; the per-rule depth
//! limit above keeps the unchecked recursion between two such checks small.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use crate::runtime::{GrammarError, GrammarIssue};

/// The largest grammar text accepted, in bytes (1 MiB; `uri.pest` is about 12 KiB).
pub const MAX_GRAMMAR_BYTES: usize = 1 << 20;
/// The most rules a grammar may define.
pub const MAX_RULES: usize = 2000;
/// The largest count in a repetition `{n}`, `{n,}`, `{,m}` or `{n,m}`.
pub const MAX_REPEAT: u64 = 255;
/// The deepest nesting of parentheses and prefix / suffix operators in one expression, and of `/* */`
/// comments.
pub const MAX_NESTING: usize = 64;
/// The most expression nodes of one rule once pest_meta has unrolled its repetitions.
pub const MAX_RULE_NODES: u64 = 20_000;
/// The deepest expression of one rule once unrolled (each `~` or `|` term and each unrolled copy is a
/// level in pest_meta's tree).
pub const MAX_RULE_DEPTH: u64 = 256;
/// The most optimizer work in the whole grammar, counted as the sum over its rules of unrolled nodes
/// times unrolled depth squared (pest_meta's optimizer takes time cubic in the length of a `|` chain:
/// 250 alternatives take a third of a second, 1,000 take half a minute).
pub const MAX_WORK: u64 = 32_000_000;
/// The most expression nodes of the whole grammar once unrolled.
pub const MAX_GRAMMAR_NODES: u64 = 400_000;
/// The longest chain of rule references (`a` refers to `b`, which refers to `c`, ...; a chain stops at a
/// rule already in it).
pub const MAX_CHAIN: usize = 64;
/// The most expression nodes walked when every reference chain from every rule is followed without
/// memoizing, as pest_meta's checks do.
pub const MAX_WALK: u64 = 1_000_000;

/// The most work of pest_meta's `restore_on_err` pass in the whole grammar, counted as the sum over
/// the rules of a rule's unrolled nodes times the unrolled nodes x depth of every rule it reaches
/// (itself included when it is recursive): for each `?`, `|` and `*` the pass walks the expression and
/// every rule it reaches, cloning each node with its subtree, so a recursive rule with nested `+`
/// costs the square of its unrolled size: `a = { "x" ~ !a+++++++++? }` (9 `+`) counts 52 million and
/// takes 0.8 s to load, 10 `+` 227 million and 4.4 s. `uri.pest` counts 1.6 million, `iri.pest` 2.1
/// million.
pub const MAX_REACH_WORK: u64 = 40_000_000;

/// Built-in rules and keywords of pest that are not references to a rule of the grammar.
const STACK_OPS: &[&str] = &[
    "PUSH",
    "PUSH_LITERAL",
    "POP",
    "POP_ALL",
    "PEEK",
    "PEEK_ALL",
    "DROP",
];

/// Reads a grammar file: a regular file only (a FIFO, a device or a directory would block or never
/// end), at most [`MAX_GRAMMAR_BYTES`] bytes, UTF-8.
///
/// The file's type is checked on its metadata before it is opened, and again on the opened handle
/// (the name may have been replaced in between); on Unix it is opened with `O_NONBLOCK`, so that even a
/// FIFO swapped in at that moment cannot block the open.
///
/// # Errors
/// [`GrammarError::Io`] when the file cannot be read, is not a regular file, is longer than the limit
/// or is not UTF-8.
pub fn read_grammar_file(path: &Path) -> Result<String, GrammarError> {
    let io = |source: std::io::Error| GrammarError::Io {
        path: path.to_path_buf(),
        source,
    };
    let not_regular = || {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ))
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK (the same value on every Unix Rust supports would be nicer; Linux and the BSDs
        // differ): only used so that the open itself cannot wait on a FIFO.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        const O_NONBLOCK: i32 = 0o4000;
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        const O_NONBLOCK: i32 = 0x0004;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    let too_long = || {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("longer than {MAX_GRAMMAR_BYTES} bytes"),
        ))
    };
    if meta.len() > MAX_GRAMMAR_BYTES as u64 {
        return Err(too_long());
    }
    let mut bytes = Vec::new();
    file.take(MAX_GRAMMAR_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > MAX_GRAMMAR_BYTES {
        return Err(too_long());
    }
    String::from_utf8(bytes).map_err(|e| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}

/// The stack of the thread that runs pest_meta on a grammar within the limits (its checks, its optimizer
/// and the drop of its trees recurse once per expression level and per rule reference). Only the pages
/// used are backed by memory.
const LOAD_STACK: usize = 256 << 20;

/// The name of the thread that runs pest_meta on a grammar. A panic there (pest_meta on a shape the
/// limits do not know) becomes a [`GrammarError`] at line 1, column 1 with the panic's message; a program
/// that installs a panic hook can leave such panics unprinted by this name, as the command line does.
pub const LOADER_THREAD: &str = "rfc3986 grammar loader";

/// Runs `load` on a thread of its own with a [`LOAD_STACK`] stack, so that a grammar within the limits
/// loads the same on the main thread (8 MiB) and on a worker thread (2 MiB by default). A panic in
/// pest_meta becomes an error, not a crash of the caller.
pub(crate) fn on_big_stack<T: Send>(
    load: impl FnOnce() -> Result<T, GrammarError> + Send,
) -> Result<T, GrammarError> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name(LOADER_THREAD.into())
            .stack_size(LOAD_STACK)
            .spawn_scoped(scope, load);
        match handle {
            Ok(handle) => handle.join().unwrap_or_else(|panic| {
                // The panic's own message, when it has one, says what pest_meta tripped on.
                let said = (panic.downcast_ref::<&str>().copied())
                    .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("no message");
                Err(GrammarError::Invalid {
                    path: None,
                    issues: vec![GrammarIssue::new(
                        1,
                        1,
                        format!("pest_meta failed on this grammar (it panicked: {said})"),
                    )],
                })
            }),
            Err(source) => Err(GrammarError::Io {
                path: "<grammar loader thread>".into(),
                source,
            }),
        }
    })
}

/// The text of a URI before its fragment and the `#` that introduces it. `fragment` is the fragment as a
/// loaded grammar found it: a slice of `text`, normally at its end; wherever a grammar put it, the cut is
/// at its start (never a panic, never inside a character).
pub(crate) fn before_fragment<'t>(text: &'t str, fragment: Option<&str>) -> &'t str {
    let Some(fragment) = fragment else {
        return text;
    };
    let base = text.as_ptr() as usize;
    let start = (fragment.as_ptr() as usize).wrapping_sub(base);
    if start > text.len() || !text.is_char_boundary(start) {
        return text;
    }
    let cut = if start > 0 && text.as_bytes()[start - 1] == b'#' {
        start - 1
    } else {
        start
    };
    text.get(..cut).unwrap_or(text)
}

/// The size of an expression once unrolled: nodes and depth (saturating).
#[derive(Clone, Copy, Debug, Default)]
struct Size {
    nodes: u64,
    depth: u64,
}

impl Size {
    const ATOM: Size = Size { nodes: 1, depth: 1 };

    /// One operator around the expression (`!e`, `e?`, `(e)`).
    fn wrap(self, levels: u64) -> Size {
        Size {
            nodes: self.nodes.saturating_add(levels),
            depth: self.depth.saturating_add(levels),
        }
    }
}

/// A parenthesized group (or a rule body) being scanned.
#[derive(Debug, Default)]
struct Group {
    /// Sum of the finished terms.
    nodes: u64,
    /// Deepest finished term.
    depth: u64,
    /// Finished terms and their separators.
    terms: u64,
    /// The current term, once its primary is known.
    term: Option<Size>,
    /// Prefix operators waiting for the current term's primary.
    prefixes: u64,
    /// Suffix operators and repetitions on the current term so far.
    suffixes: u64,
}

impl Group {
    /// Ends the current term (at a `~`, a `|`, a `)` or the end of the body).
    fn finish_term(&mut self) {
        if let Some(term) = self.term.take() {
            let term = term.wrap(self.prefixes);
            self.nodes = self.nodes.saturating_add(term.nodes);
            self.depth = self.depth.max(term.depth);
            self.terms = self.terms.saturating_add(1);
        }
        self.prefixes = 0;
        self.suffixes = 0;
    }

    /// Starts a term with a primary (a string, a name): the prefixes seen so far apply to it.
    fn start_term(&mut self) {
        if self.term.is_some() {
            self.finish_term();
        }
        self.term = Some(Size::ATOM);
    }

    /// The whole group: a right-nested chain of binary `~` / `|` nodes over its terms.
    fn size(mut self) -> Size {
        self.finish_term();
        let links = self.terms.saturating_sub(1);
        Size {
            nodes: self.nodes.saturating_add(links),
            depth: self.depth.saturating_add(links),
        }
    }

    /// Nesting of operators on the current term so far.
    fn operators(&self) -> u64 {
        self.prefixes.saturating_add(self.suffixes)
    }
}

/// A rule seen in the text.
#[derive(Debug)]
struct RuleInfo {
    name: String,
    line: usize,
    column: usize,
    size: Size,
    /// The rules it refers to (indices resolved after the scan), with repeats.
    calls: Vec<String>,
}

/// The scanner's position in the text: byte offset, 1-based line and column in characters.
struct Cursor<'t> {
    bytes: &'t [u8],
    pos: usize,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
        Some(b)
    }

    fn starts_with(&self, s: &[u8]) -> bool {
        self.bytes[self.pos..].starts_with(s)
    }
}

/// Collects the issues found; stops adding after a few hundred (the first ones are what matters).
#[derive(Default)]
struct Issues(Vec<GrammarIssue>);

impl Issues {
    fn push(&mut self, line: usize, column: usize, message: String) {
        if self.0.len() < 100 {
            self.0.push(GrammarIssue::new(line, column, message));
        }
    }
}

/// Checks `text` against every limit of this module. Runs in time linear in the text (the reference walk
/// is capped at [`MAX_WALK`] steps) and never recurses.
///
/// # Errors
/// [`GrammarError::Invalid`] with one issue per problem, at its line and column. Syntax errors are left to
/// pest_meta, which reports them after this check passes.
pub fn check(text: &str) -> Result<(), GrammarError> {
    let mut issues = Issues::default();
    if text.len() > MAX_GRAMMAR_BYTES {
        issues.push(
            1,
            1,
            format!(
                "the grammar is {} bytes long; the limit is {MAX_GRAMMAR_BYTES}",
                text.len()
            ),
        );
        return Err(finish(issues));
    }
    let rules = scan(text, &mut issues);
    if issues.0.is_empty() {
        walk(&rules, &mut issues);
    }
    if issues.0.is_empty() {
        reach_work(&rules, &mut issues);
    }
    if issues.0.is_empty() {
        Ok(())
    } else {
        Err(finish(issues))
    }
}

fn finish(issues: Issues) -> GrammarError {
    let mut issues = issues.0;
    issues.sort_by_key(|i| (i.line(), i.column()));
    GrammarError::Invalid { path: None, issues }
}

/// The linear scan: rules, their unrolled sizes and references, and the lexical limits.
fn scan(text: &str, issues: &mut Issues) -> Vec<RuleInfo> {
    let mut c = Cursor {
        bytes: text.as_bytes(),
        pos: 0,
        line: 1,
        column: 1,
    };
    let mut rules: Vec<RuleInfo> = Vec::new();
    let mut total_nodes: u64 = 0;
    let mut total_work: u64 = 0;
    let mut work_reported = false;
    // Outside a rule body: the last identifier (the name of the rule about to be defined).
    let mut pending_name: Option<(String, usize, usize)> = None;
    // Inside a body: the stack of open groups (the body itself at the bottom).
    let mut groups: Vec<Group> = Vec::new();
    let mut current: Option<RuleInfo> = None;
    while let Some(b) = c.peek() {
        let (line, column) = (c.line, c.column);
        // Comments and white space, anywhere.
        if b.is_ascii_whitespace() {
            c.bump();
            continue;
        }
        if c.starts_with(b"//") {
            while c.peek().is_some_and(|b| b != b'\n') {
                c.bump();
            }
            continue;
        }
        if c.starts_with(b"/*") {
            block_comment(&mut c, issues);
            continue;
        }
        if groups.is_empty() {
            // Between rules: `name = modifier? {`, or a `#tag`-free top level.
            match b {
                b'{' => {
                    c.bump();
                    let (name, l, col) = pending_name
                        .take()
                        .unwrap_or_else(|| (String::new(), line, column));
                    if rules.len() == MAX_RULES {
                        issues.push(
                            l,
                            col,
                            format!("more than {MAX_RULES} rules; the limit is {MAX_RULES}"),
                        );
                    }
                    current = Some(RuleInfo {
                        name,
                        line: l,
                        column: col,
                        size: Size::default(),
                        calls: Vec::new(),
                    });
                    groups.push(Group::default());
                }
                _ if is_ident_start(b) => {
                    let word = identifier(&mut c);
                    // `_` before `{` is the silent modifier, not a name.
                    if word != "_" {
                        pending_name = Some((word.to_string(), line, column));
                    }
                }
                b'"' | b'\'' => {
                    c.bump();
                    quoted(&mut c, b, issues);
                }
                _ => {
                    c.bump();
                }
            }
            continue;
        }
        let depth = groups.len();
        let Some(group) = groups.last_mut() else {
            continue;
        };
        match b {
            b'}' => {
                c.bump();
                // The end of the body (a `}` never closes anything else in an expression).
                let mut size = Size::default();
                while let Some(g) = groups.pop() {
                    let s = g.size();
                    size = if groups.is_empty() { s } else { s.wrap(1) };
                    if let Some(parent) = groups.last_mut() {
                        parent.term = Some(size);
                    }
                }
                if let Some(mut rule) = current.take() {
                    rule.size = size;
                    if size.nodes > MAX_RULE_NODES {
                        issues.push(
                            rule.line,
                            rule.column,
                            format!(
                                "rule `{}` unrolls into more than {MAX_RULE_NODES} expression \
                                 nodes (repetition counts multiply); the limit is {MAX_RULE_NODES}",
                                rule.name
                            ),
                        );
                    } else if size.depth > MAX_RULE_DEPTH {
                        issues.push(
                            rule.line,
                            rule.column,
                            format!(
                                "rule `{}` unrolls into an expression more than {MAX_RULE_DEPTH} \
                                 levels deep (each term of a `~` or `|` chain and each repeated copy \
                                 is a level); the limit is {MAX_RULE_DEPTH}",
                                rule.name
                            ),
                        );
                    }
                    total_nodes = total_nodes.saturating_add(size.nodes);
                    total_work = total_work.saturating_add(
                        size.nodes
                            .saturating_mul(size.depth)
                            .saturating_mul(size.depth),
                    );
                    if total_work > MAX_WORK && !work_reported {
                        work_reported = true;
                        issues.push(
                            rule.line,
                            rule.column,
                            format!(
                                "the rules up to `{}` are too large for pest_meta's optimizer \
                                 (nodes x depth squared, summed over the rules, exceeds \
                                 {MAX_WORK}; long `|` or `~` chains cost the most)",
                                rule.name
                            ),
                        );
                    }

                    rules.push(rule);
                }
            }
            b'(' => {
                c.bump();
                let operators = group.operators();
                if depth as u64 + operators >= MAX_NESTING as u64 {
                    issues.push(
                        line,
                        column,
                        format!("expression nested more than {MAX_NESTING} levels deep"),
                    );
                    skip_body(&mut c);
                    groups.clear();
                    current = None;
                    continue;
                }
                groups.push(Group::default());
            }
            b')' => {
                c.bump();
                if groups.len() > 1 {
                    if let Some(g) = groups.pop() {
                        let s = g.size().wrap(1);
                        if let Some(parent) = groups.last_mut() {
                            parent.term = Some(s);
                        }
                    }
                }
            }
            b'~' | b'|' => {
                c.bump();
                // pest's grammar lets a choice open with `|`, but pest_meta reads that only at the
                // top of a rule: inside parentheses, `(| a)` makes it panic (found by fuzzing).
                let opens_group =
                    depth > 1 && group.terms == 0 && group.term.is_none() && group.prefixes == 0;
                if b == b'|' && opens_group {
                    issues.push(
                        line,
                        column,
                        "a `|` that opens a parenthesized choice is not supported (pest_meta \
                         reads a leading `|` only at the top of a rule); remove it"
                            .to_string(),
                    );
                    skip_body(&mut c);
                    groups.clear();
                    current = None;
                    continue;
                }
                group.finish_term();
            }
            b'!' | b'&' => {
                c.bump();
                if group.term.is_some() {
                    group.finish_term();
                }
                group.prefixes += 1;
                if depth as u64 + group.operators() > MAX_NESTING as u64 {
                    issues.push(
                        line,
                        column,
                        format!("more than {MAX_NESTING} nested operators"),
                    );
                    skip_body(&mut c);
                    groups.clear();
                    current = None;
                }
            }
            b'?' | b'*' | b'+' => {
                c.bump();
                let levels = if b == b'+' { 2 } else { 1 };
                let term = group.term.unwrap_or(Size::ATOM);
                // `e+` is unrolled to `e ~ e*`: two copies.
                let nodes = if b == b'+' {
                    term.nodes.saturating_mul(2)
                } else {
                    term.nodes
                };
                let grown = Size {
                    nodes: nodes.saturating_add(levels),
                    depth: term.depth.saturating_add(levels),
                };
                group.suffixes += 1;
                if depth as u64 + group.operators() > MAX_NESTING as u64 {
                    issues.push(
                        line,
                        column,
                        format!("more than {MAX_NESTING} nested operators"),
                    );
                    skip_body(&mut c);
                    groups.clear();
                    current = None;
                    continue;
                }
                group.term = Some(grown);
            }
            b'{' => {
                c.bump();
                match repetition(&mut c) {
                    Ok((min, max)) => {
                        group.suffixes += 1;
                        if depth as u64 + group.operators() > MAX_NESTING as u64 {
                            issues.push(
                                line,
                                column,
                                format!("more than {MAX_NESTING} nested operators"),
                            );
                        }
                        let count = max.unwrap_or(min.saturating_add(1));
                        let term = group.term.unwrap_or(Size::ATOM);
                        group.term = Some(Size {
                            nodes: term.nodes.saturating_mul(count).saturating_add(count),
                            depth: term.depth.saturating_add(count),
                        });
                    }
                    Err(message) => issues.push(line, column, message),
                }
            }
            b'"' | b'\'' => {
                c.bump();
                quoted(&mut c, b, issues);
                group.start_term();
                // A range `'a'..'z'` is one node: skip its second half here.
            }
            b'^' => {
                c.bump();
            }
            b'.' => {
                c.bump();
            }
            b'[' => {
                // `PEEK[..]` (already refused): skip to the `]`.
                while c.peek().is_some_and(|b| b != b']' && b != b'}') {
                    c.bump();
                }
                if c.peek() == Some(b']') {
                    c.bump();
                }
            }
            b'#' => {
                // A tag `#name =`: the name and `=` are not a term.
                c.bump();
                if c.peek().is_some_and(is_ident_start) {
                    identifier(&mut c);
                }
            }
            b'=' => {
                c.bump();
            }
            _ if is_ident_start(b) => {
                let word = identifier(&mut c).to_string();
                if STACK_OPS.contains(&word.as_str()) {
                    issues.push(
                        line,
                        column,
                        format!(
                            "the stack operation `{word}` is not supported in a grammar loaded at \
                             run time"
                        ),
                    );
                }
                if let Some(group) = groups.last_mut() {
                    group.start_term();
                }
                if let Some(rule) = current.as_mut() {
                    rule.calls.push(word);
                }
            }
            _ => {
                c.bump();
            }
        }
    }
    if total_nodes > MAX_GRAMMAR_NODES {
        issues.push(
            1,
            1,
            format!(
                "the grammar unrolls into more than {MAX_GRAMMAR_NODES} expression nodes; the \
                 limit is {MAX_GRAMMAR_NODES}"
            ),
        );
    }
    rules
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn identifier<'t>(c: &mut Cursor<'t>) -> &'t str {
    let start = c.pos;
    while c
        .peek()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        c.bump();
    }
    // Only ASCII bytes were taken.
    std::str::from_utf8(&c.bytes[start..c.pos]).unwrap_or("")
}

/// Skips to the `}` that ends the current body (after a nesting problem, to report it once).
fn skip_body(c: &mut Cursor<'_>) {
    while let Some(b) = c.peek() {
        match b {
            b'}' => {
                c.bump();
                return;
            }
            b'"' | b'\'' => {
                c.bump();
                quoted(c, b, &mut Issues::default());
            }
            _ => {
                c.bump();
            }
        }
    }
}

/// A `/* */` comment (they nest in pest), with the cursor on its `/*`.
fn block_comment(c: &mut Cursor<'_>, issues: &mut Issues) {
    let (line, column) = (c.line, c.column);
    let mut depth = 0usize;
    let mut reported = false;
    while c.peek().is_some() {
        if c.starts_with(b"/*") {
            let (line, column) = (c.line, c.column);
            c.bump();
            c.bump();
            depth += 1;
            if depth > MAX_NESTING && !reported {
                issues.push(
                    line,
                    column,
                    format!("comments nested more than {MAX_NESTING} levels deep"),
                );
                reported = true;
            }
        } else if c.starts_with(b"*/") {
            c.bump();
            c.bump();
            depth -= 1;
            if depth == 0 {
                return;
            }
        } else {
            c.bump();
        }
    }
    // pest_meta would refuse it too, but only after backtracking through every nested `/*` (time
    // exponential in the nesting: 30 s for 10 KB of unclosed `/*!` found by fuzzing).
    issues.push(
        line,
        column,
        "this comment is not closed: a `/*` without its `*/`".to_string(),
    );
}

/// A quoted string or character, with the cursor after its opening quote; checks `\u{...}` escapes.
fn quoted(c: &mut Cursor<'_>, quote: u8, issues: &mut Issues) {
    while let Some(b) = c.peek() {
        if b == quote {
            c.bump();
            return;
        }
        if b == b'\n' && quote == b'\'' {
            return;
        }
        if b != b'\\' {
            c.bump();
            continue;
        }
        let (line, column) = (c.line, c.column);
        c.bump();
        if c.peek() == Some(b'u') && c.peek_at(1) == Some(b'{') {
            c.bump();
            c.bump();
            let start = c.pos;
            while c.peek().is_some_and(|b| b.is_ascii_hexdigit()) {
                c.bump();
            }
            let digits = &c.bytes[start..c.pos];
            let closed = c.peek() == Some(b'}');
            let value = std::str::from_utf8(digits)
                .ok()
                .filter(|d| !d.is_empty() && d.len() <= 6)
                .and_then(|d| u32::from_str_radix(d, 16).ok())
                .and_then(char::from_u32);
            if !closed || value.is_none() {
                issues.push(
                    line,
                    column,
                    "a `\\u{...}` escape needs 1 to 6 hex digits naming a Unicode scalar value \
                     (not a surrogate, at most 10FFFF)"
                        .to_string(),
                );
            }
            if closed {
                c.bump();
            }
        } else {
            c.bump();
        }
    }
}

/// A repetition `{n}`, `{n,}`, `{,m}` or `{n,m}`, with the cursor after its `{`: `(min, max)`.
fn repetition(c: &mut Cursor<'_>) -> Result<(u64, Option<u64>), String> {
    let mut numbers: [Option<u64>; 2] = [None, None];
    let mut slot = 0;
    let mut text = String::new();
    while let Some(b) = c.peek() {
        match b {
            b'}' => {
                c.bump();
                break;
            }
            b'0'..=b'9' => {
                c.bump();
                let n = numbers[slot].get_or_insert(0);
                *n = n.saturating_mul(10).saturating_add(u64::from(b - b'0'));
                text.push(b as char);
            }
            b',' if slot == 0 => {
                c.bump();
                slot = 1;
                text.push(',');
            }
            b if b.is_ascii_whitespace() => {
                c.bump();
            }
            // Not a repetition: leave the rest to pest_meta's syntax check.
            _ => return Ok((0, Some(1))),
        }
    }
    let bad = |why: &str| {
        Err(format!(
            "repetition {{{text}}}: {why} (counts are 1 to {MAX_REPEAT}; 0 only as the minimum of \
             {{min,max}})"
        ))
    };
    let (min, max) = match (slot, numbers) {
        (0, [Some(n), _]) => (n, Some(n)),
        (1, [Some(n), None]) => (n, None),
        (1, [None, Some(m)]) => (0, Some(m)),
        (1, [Some(n), Some(m)]) => (n, Some(m)),
        _ => return Ok((0, Some(1))),
    };
    if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT) {
        return bad("count too large");
    }
    match (slot, max) {
        (0, Some(0)) => return bad("exactly 0 times"),
        (1, Some(0)) => return bad("at most 0 times"),
        (_, Some(m)) if m < min => return bad("maximum below minimum"),
        _ => {}
    }
    Ok((min, max))
}

/// Follows every reference chain from every rule, as pest_meta's checks do (a chain stops at a rule
/// already in it), counting the expression nodes walked; reports a chain longer than [`MAX_CHAIN`] and a
/// walk longer than [`MAX_WALK`]. Iterative, with an explicit stack, and stops at the walk limit.
fn walk(rules: &[RuleInfo], issues: &mut Issues) {
    let calls = resolved_calls(rules);
    let mut walked: u64 = 0;
    let mut on_path = vec![false; rules.len()];
    // (rule, next call to follow)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for (start, rule) in rules.iter().enumerate() {
        stack.clear();
        stack.push((start, 0));
        on_path[start] = true;
        walked = walked.saturating_add(rule.size.nodes);
        let mut reported = false;
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            let Some(&callee) = calls[node].get(next) else {
                on_path[node] = false;
                stack.pop();
                continue;
            };
            top.1 += 1;
            if on_path[callee] {
                continue;
            }
            if stack.len() >= MAX_CHAIN {
                if !reported {
                    let chain: Vec<&str> = stack
                        .iter()
                        .take(4)
                        .map(|&(r, _)| rules[r].name.as_str())
                        .collect();
                    issues.push(
                        rule.line,
                        rule.column,
                        format!(
                            "rule `{}` starts a chain of more than {MAX_CHAIN} rule references \
                             ({} -> ...); the limit is {MAX_CHAIN}",
                            rule.name,
                            chain.join(" -> ")
                        ),
                    );
                    reported = true;
                }
                continue;
            }
            walked = walked.saturating_add(rules[callee].size.nodes);
            if walked > MAX_WALK {
                for &(r, _) in &stack {
                    on_path[r] = false;
                }
                issues.push(
                    rule.line,
                    rule.column,
                    format!(
                        "following the rule references from rule `{}` walks more than {MAX_WALK} \
                         expression nodes in all (rules used in many places, in long chains); the \
                         limit is {MAX_WALK}",
                        rule.name
                    ),
                );
                return;
            }
            on_path[callee] = true;
            stack.push((callee, 0));
        }
        if reported {
            // One chain report is enough to explain the problem.
            return;
        }
    }
}

/// The rules each rule reaches through one or more references, as bit sets (`u64` words), by a
/// fixpoint over the references: as many rounds as the longest chain, which [`walk`] has bounded.
fn reach_sets(rules: &[RuleInfo]) -> Vec<Vec<u64>> {
    let mut calls = resolved_calls(rules);
    for c in &mut calls {
        c.sort_unstable();
        c.dedup();
    }
    let words = rules.len().div_ceil(64);
    let mut reach = vec![vec![0u64; words]; rules.len()];
    let mut grown = vec![0u64; words];
    loop {
        let mut changed = false;
        for r in 0..rules.len() {
            grown.copy_from_slice(&reach[r]);
            for &c in &calls[r] {
                grown[c / 64] |= 1 << (c % 64);
                for (w, &x) in grown.iter_mut().zip(&reach[c]) {
                    *w |= x;
                }
            }
            if grown != reach[r] {
                reach[r].copy_from_slice(&grown);
                changed = true;
            }
        }
        if !changed {
            return reach;
        }
    }
}

/// The rules each rule refers to, by index, with repeats (a name defined twice: its first definition,
/// as pest_meta reports the second).
fn resolved_calls(rules: &[RuleInfo]) -> Vec<Vec<usize>> {
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(rules.len());
    for (i, r) in rules.iter().enumerate() {
        index.entry(r.name.as_str()).or_insert(i);
    }
    rules
        .iter()
        .map(|r| {
            r.calls
                .iter()
                .filter_map(|name| index.get(name.as_str()).copied())
                .collect()
        })
        .collect()
}

/// Each rule's part of the [`MAX_REACH_WORK`] count: its unrolled nodes times the nodes x depth of
/// every rule it reaches.
fn reach_counts(rules: &[RuleInfo]) -> impl Iterator<Item = u64> + '_ {
    let reach = reach_sets(rules);
    let weight: Vec<u64> = rules
        .iter()
        .map(|r| r.size.nodes.saturating_mul(r.size.depth))
        .collect();
    rules.iter().enumerate().map(move |(r, rule)| {
        let mut reached: u64 = 0;
        for (w, &bits) in reach[r].iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let s = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                reached = reached.saturating_add(weight[s]);
            }
        }
        rule.size.nodes.saturating_mul(reached)
    })
}

/// Reports a grammar whose [`MAX_REACH_WORK`] is exceeded, at the rule that crosses the limit.
fn reach_work(rules: &[RuleInfo], issues: &mut Issues) {
    let mut total: u64 = 0;
    for (rule, count) in rules.iter().zip(reach_counts(rules)) {
        total = total.saturating_add(count);
        if total > MAX_REACH_WORK {
            issues.push(
                rule.line,
                rule.column,
                format!(
                    "the rules up to `{}` are too large for pest_meta's optimizer (nodes x the \
                     nodes x depth of the rules each reaches, summed over the rules, exceeds \
                     {MAX_REACH_WORK}; a rule that refers to itself inside nested repetitions \
                     costs the most)",
                    rule.name
                ),
            );
            return;
        }
    }
}

/// The [`reach_work`] count of `text` (for calibration in tests).
#[cfg(test)]
fn reach_work_of(text: &str) -> u64 {
    let mut issues = Issues::default();
    let rules = scan(text, &mut issues);
    reach_counts(&rules).fold(0, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    /// The count of [`super::reach_work`] for the shipped grammars and for a recursive rule with
    /// nested `+`, printed (`--nocapture`) for calibrating [`super::MAX_REACH_WORK`].
    #[test]
    fn reach_work_of_shipped_and_hostile_grammars() {
        for (name, text) in [
            ("uri.pest", include_str!("../../uri.pest")),
            ("iri.pest", include_str!("../../grammars/iri.pest")),
            (
                "ipv6-zone-id.pest",
                include_str!("../../grammars/ipv6-zone-id.pest"),
            ),
            (
                "uri-template.pest",
                include_str!("../../grammars/uri-template.pest"),
            ),
        ] {
            let work = super::reach_work_of(text);
            println!("{name}: {work}");
            assert!(work < super::MAX_REACH_WORK / 4, "{name}: {work}");
        }
        for k in 6..=12 {
            let text = format!("a = {{ \"x\" ~ !a{}? }}", "+".repeat(k));
            println!("recursive, {k} nested +: {}", super::reach_work_of(&text));
        }
    }

    /// A panic on the loader thread (pest_meta on a shape the limits do not know) is an error at 1:1 that
    /// carries the panic's message, and the caller goes on.
    #[test]
    fn a_panic_while_loading_is_an_error_with_its_message() {
        let result: Result<(), _> = super::on_big_stack(|| panic!("Expected prefix, found |"));
        let error = result.unwrap_err();
        let issue = &error.issues()[0];
        assert_eq!((issue.line(), issue.column()), (1, 1));
        assert_eq!(
            issue.message(),
            "pest_meta failed on this grammar (it panicked: Expected prefix, found |)"
        );
    }
}
