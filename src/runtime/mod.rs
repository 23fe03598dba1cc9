//! Grammars loaded at run time: a `.pest` file read with pest_meta, compiled into the program the
//! built-in recognizer is printed from and interpreted, feeding the same builder as the built-in grammar
//! (feature `runtime-grammar`).
//!
//! A [`Grammar`] is loaded once ([`Grammar::from_file`], [`Grammar::load`]) and then matches any of its
//! rules against whole inputs, many times ([`Grammar::entry`] + [`Entry::parse`], or [`Grammar::parse`]).
//! As long as the file keeps the component rule names of `uri.pest` (`scheme`, `authority`, `userinfo`,
//! `host`, `ip_literal`, `ipv4address`, `ipv6address`, `ipvfuture`, `reg_name`, `port`, the five `path_*`
//! rules, `query`, `fragment`), the result is the same typed [`UriRef`] the built-in grammar gives: an
//! edited grammar, an IRI grammar (`grammars/iri.pest`) or one with IPv6 zone identifiers
//! (`grammars/ipv6-zone-id.pest`) needs no Rust change.
//!
//! [`SchemeGrammars`] checks a parsed URI against the grammar of its scheme (`schemes/*.pest`, RFC 3986
//! section 3.1: "each scheme ... may further restrict the syntax").
//!
//! # How a file is run
//!
//! - Reading: the file is read as `build.rs` reads `uri.pest` (`rfc3986_peg::read`): rule names are the ABNF
//!   spelling from the first `///` doc line of a rule (`/// URI-reference = ...`) or the pest name
//!   (`uri_reference`); the *detail* grammar is derived the same way (every rule normal, every quoted
//!   string a rule of its own, a whole-input entry `SOI ~ rule ~ EOI` per rule).
//! - Matching: the grammar is lowered into the same program `build.rs` prints as the built-in
//!   recognizer (`rfc3986_peg::program`: byte tables, folded choices, scans) and an interpreter runs it, so
//!   an edited `uri.pest` gives the built-in grammar's verdicts and components at a few times its cost.
//! - Errors: a rejected input is run again on the detail grammar with pest's record of failed attempts,
//!   as the built-in explainer does, so the offset and the expected items are those pest would
//!   report, in the same order (`check --grammar uri.pest` prints what `check` prints).
//! - Grammars the program cannot express exactly (implicit `WHITESPACE` or `COMMENT`, non-atomic rules
//!   `!{...}`, builtins other than `SOI`, `EOI`, `ANY`, `ASCII_DIGIT`, `ASCII_ALPHA`,
//!   `ASCII_HEX_DIGIT`) run on pest_vm instead, with the same results and pest_vm's speed; so does the
//!   rare match in which one component rule matches twice. pest_vm is also the reference the engine is
//!   tested against (`tests/it/runtime/engine.rs`). On pest_vm, a rejected input of up to 64 KiB
//!   (`DETAIL_LIMIT`) is explained by pest_vm running the detail grammar, as the engine explains every
//!   input; a longer one by the grammar as written, whose error names the grammar's own rules (a
//!   quoted string is then folded into the rule around it, and the offset is where that rule was
//!   attempted, which may be before the byte at fault). The limit keeps the memory of pest's record
//!   of every token of the detail grammar (hundreds of bytes per input byte) out of long lines.
//! - Limits: the interpreters nest once per node of the program, not per input byte; a match that
//!   would leave less than 128 KiB of the thread's machine stack (a recursive grammar on a deeply
//!   nested input) stops with an error of kind [`LimitReached`](crate::ParseErrorKind::LimitReached),
//!   never a stack overflow. On pest_vm, pest's stack guard does the same. A match also has a budget
//!   of steps linear in its input (see `interpreter.rs`), so that a grammar on which PEG backtracking takes
//!   exponential time stops with the same kind of error instead of running for hours. Grammars on
//!   pest_vm get the same budget, counted in pest's calls, only after [`bound_pest_vm_matches`] (pest's
//!   call limit is one setting for the whole process; the command-line tool calls it).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pest::error::LineColLocation;
use pest_meta::ast::{Expr, Rule as AstRule, RuleType};
use pest_meta::optimizer::{self, OptimizedExpr, OptimizedRule};
use pest_meta::parser::{self, Rule as MetaRule};
use pest_vm::Vm;

use crate::components;
use crate::engine::recognizer::Events;
use crate::engine::{Expected, Rule};
use crate::error::ParseError;
use crate::value::rule_match::{NotAReference, RuleMatch};

use crate::value::uri::UriRef;

// The generator's stages this engine shares with build.rs (the crate `rfc3986-peg`): one reading of
// `.pest` files, one program.
use rfc3986_peg::{explainer, program, read};

mod interpreter;
pub mod limits;
pub mod workbench;

/// The most nodes the program of a loaded grammar may have (`uri.pest` needs about 1,000).
const MAX_PROGRAM_NODES: usize = 1 << 20;

/// Inputs longer than this (in bytes) are not re-parsed by the detail VM: their error is pest_vm's on
/// the grammar as written (see the module docs, "Grammars the program cannot express").
const DETAIL_LIMIT: usize = 64 * 1024;

/// The longest input [`Entry::parse`] matches with a grammar that runs on pest_vm (see
/// [`Entry::is_compiled`]): 64 KiB. pest_vm holds about 100 bytes per input byte (its queue of pairs and
/// call stack), so a longer input is refused with an error of kind
/// [`LimitReached`](crate::ParseErrorKind::LimitReached) at this offset, and the memory of a match stays
/// bounded (about 6.5 MB) on every engine. Compiled grammars have no such limit.
pub const MAX_VM_INPUT: usize = 64 * 1024;

/// The generic grammar that scheme grammars extend (see [`SchemeGrammars`]).
const GENERIC: &str = include_str!("../../uri.pest");

/// The rule every scheme grammar defines: the whole URI (without its fragment) in that scheme.
pub const SCHEME_ENTRY_RULE: &str = "scheme_uri";

/// A rule of a loaded grammar.
#[derive(Debug)]
struct LoadedRule {
    /// The pest name (`uri_reference`).
    name: String,
    /// The ABNF spelling from the first doc line (`URI-reference`), or the pest name.
    abnf: String,
    /// The ABNF definition quoted in the first doc line, possibly empty.
    definition: String,
    /// The second doc line (`RFC 3986 section 4.1.`), possibly empty.
    source: String,
    /// The name of its whole-input entry rule in the VMs.
    entry: String,
}

/// A pest grammar loaded at run time, ready to match any of its rules against whole inputs.
///
/// Load once, parse many: loading `uri.pest` takes a few milliseconds (and a few more at the first
/// rejection, which compiles the detail grammar that explains it), a parse under a microsecond for a
/// typical URI.
/// `Grammar` is `Send + Sync`; share it between threads by reference.
///
/// ```
/// use rfc3986::runtime::Grammar;
/// let grammar = Grammar::load(include_str!("../../uri.pest"))?;
/// let uri = grammar.parse("URI", "http://example.com/a?b")?;
/// assert_eq!(uri.host_str(), Some("example.com"));
/// assert_eq!(uri.query(), Some("b"));
/// assert!(grammar.parse("URI", "http://a/b c").is_err());
/// assert!(grammar.parse("no-such-rule", "x").is_err()); // an error, not a panic
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Grammar {
    engine: Engine,
    rules: Vec<LoadedRule>,
    /// The `//!` lines at the top of the file, without the `//!`.
    header: Vec<String>,
    /// The text the rules were read from (for an overlay, the overlay and the grammar below it), for
    /// grammars laid over this one ([`SchemeGrammars::over`]).
    source: Arc<str>,
}

impl fmt::Debug for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Grammar")
            .field("header", &self.header.first())
            .field("rules", &self.rules.len())
            .field(
                "engine",
                &match self.engine {
                    Engine::Compiled(_) => "program",
                    Engine::Vm(_) => "pest_vm",
                },
            )
            .finish()
    }
}

/// How a loaded grammar is matched.
enum Engine {
    /// The grammar's program, run by `interpreter`, and its detail grammar, built at the first rejection;
    /// pest_vm, built at the first need, only for a match in which a component rule matches twice (or
    /// a detail grammar the explainer cannot run).
    Compiled(Box<Compiled>),
    /// pest_vm, for grammars the program cannot express.
    Vm(VmEngine),
}

/// A grammar compiled into a program (see [`Engine::Compiled`]).
struct Compiled {
    program: program::Program,
    read: read::Read,
    detail: OnceLock<Result<interpreter::Detail, String>>,
    vm: OnceLock<VmEngine>,
}

/// A grammar on pest_vm.
struct VmEngine {
    vm: Vm,
    /// All rules normal, literals as rules; `None` when the grammar has WHITESPACE or COMMENT.
    detail: Option<Vm>,
    /// Detail VM rule name of each quoted string -> the string.
    literals: HashMap<String, String>,
}

impl std::str::FromStr for Grammar {
    type Err = GrammarError;

    /// Same as [`Grammar::load`].
    fn from_str(text: &str) -> Result<Grammar, GrammarError> {
        Grammar::load(text)
    }
}

/// One problem in a grammar file, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarIssue {
    line: usize,
    column: usize,
    message: String,
}

impl GrammarIssue {
    pub(crate) fn new(line: usize, column: usize, message: String) -> GrammarIssue {
        GrammarIssue {
            line,
            column,
            message,
        }
    }

    /// The 1-based line in the grammar file.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column (in characters) in that line.
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong, as pest_meta says it (`expected expression`, `rule foo is undefined`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for GrammarIssue {
    /// `LINE:COL: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// A grammar file could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GrammarError {
    /// The file could not be read.
    #[error("cannot read grammar {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The text is not a usable pest grammar: syntax errors, undefined or duplicate rules, left
    /// recursion, repetitions that cannot fail (everything pest_meta checks), or a scheme grammar
    /// without its [`scheme_uri`](SCHEME_ENTRY_RULE) rule. `Display` gives one `FILE:LINE:COL: message`
    /// line per issue.
    #[error("{}", render_issues(path.as_deref(), issues))]
    Invalid {
        /// The file, when the grammar came from one.
        path: Option<PathBuf>,
        /// Every problem found, in file order.
        issues: Vec<GrammarIssue>,
    },
}

impl GrammarError {
    /// The problems with their lines and columns (empty for [`GrammarError::Io`]).
    pub fn issues(&self) -> &[GrammarIssue] {
        match self {
            GrammarError::Io { .. } => &[],
            GrammarError::Invalid { issues, .. } => issues,
        }
    }

    fn with_path(self, file: &Path) -> GrammarError {
        match self {
            GrammarError::Invalid { issues, .. } => GrammarError::Invalid {
                path: Some(file.to_path_buf()),
                issues,
            },
            other => other,
        }
    }
}

fn render_issues(path: Option<&Path>, issues: &[GrammarIssue]) -> String {
    let prefix = path
        .map(|p| format!("{}:", p.display()))
        .unwrap_or_default();
    issues
        .iter()
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn issue(e: &pest::error::Error<MetaRule>) -> GrammarIssue {
    let (line, column) = match e.line_col {
        LineColLocation::Pos(p) => p,
        LineColLocation::Span(p, _) => p,
    };
    GrammarIssue {
        line,
        column,
        message: e.variant.message().into_owned(),
    }
}

fn invalid(errors: &[pest::error::Error<MetaRule>]) -> GrammarError {
    GrammarError::Invalid {
        path: None,
        issues: errors.iter().map(issue).collect(),
    }
}

/// A rule name that the grammar does not define.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the grammar has no rule `{name}`")]
pub struct UnknownRule {
    name: String,
}

impl UnknownRule {
    /// The name that was asked for.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Why [`Grammar::parse`] failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeParseError {
    /// The rule name is not a rule of the grammar (neither an ABNF nor a pest name).
    #[error(transparent)]
    UnknownRule(#[from] UnknownRule),
    /// The input is not in the rule's language.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A URI reference was asked of a rule whose matches are not URI references
    /// ([`Entry::parse_uri_ref`]).
    #[error(transparent)]
    NotAReference(NotAReference),
}

/// A rule of a [`Grammar`], resolved once by [`Grammar::entry`], to match many inputs.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'g> {
    grammar: &'g Grammar,
    index: usize,
}

impl<'g> Entry<'g> {
    fn rule(&self) -> &'g LoadedRule {
        &self.grammar.rules[self.index]
    }

    /// The rule's ABNF name, from its first `///` doc line (`URI-reference`), or its pest name.
    pub fn abnf_name(&self) -> &'g str {
        &self.rule().abnf
    }

    /// The rule's name in the `.pest` file (`uri_reference`).
    pub fn pest_name(&self) -> &'g str {
        &self.rule().name
    }

    /// The ABNF definition quoted in the rule's first doc line (`URI / relative-ref`), or `""`.
    pub fn definition(&self) -> &'g str {
        &self.rule().definition
    }

    /// The rule's second doc line, where it comes from (`RFC 3986 section 4.1.`), or `""`.
    pub fn source(&self) -> &'g str {
        &self.rule().source
    }

    /// Matches the rule against the whole of `input` and returns the components found, as
    /// [`parse_as`](crate::parse_as) does for the built-in grammar. The match becomes a [`UriRef`] when
    /// the rule is URI-reference-like ([`yields_reference`](Self::yields_reference)); see also
    /// [`parse_uri_ref`](Self::parse_uri_ref).
    ///
    /// # Errors
    /// [`ParseError`] at the byte where the match failed, with what the grammar expected there (ABNF
    /// names of the loaded grammar); [`ParseError::rule_name`] is this rule's ABNF name.
    pub fn parse<'i>(&self, input: &'i str) -> Result<RuleMatch<'i>, ParseError> {
        self.grammar.parse_index(self.index, input)
    }

    /// Matches the rule as [`parse`](Self::parse) does, with the reference engine: pest_vm running the
    /// grammar as pest_meta optimizes it, and its detail grammar for the error (as
    /// [`Rule::validate_with_reference`](crate::Rule::validate_with_reference) does for the built-in
    /// grammar). [`parse`](Self::parse) gives the same answers, much faster; this is for comparing the
    /// two, or for pest's own answer. The first call builds pest_vm's tables (milliseconds for
    /// `uri.pest`). One difference: pest_vm names rules by string, so it lists the expected items in
    /// alphabetical order, where [`parse`](Self::parse) (like the built-in grammar and pest_derive) lists
    /// them in the grammar's order.
    ///
    /// ```
    /// use rfc3986::runtime::Grammar;
    /// let uri = Grammar::builtin("uri").unwrap()?;
    /// let entry = uri.entry("URI-reference")?;
    /// let fast = entry.parse("http://a/b c").unwrap_err();
    /// let reference = entry.parse_with_reference("http://a/b c").unwrap_err();
    /// assert_eq!((fast.offset(), fast.kind()), (reference.offset(), reference.kind()));
    /// let sorted = |e: &rfc3986::ParseError| {
    ///     let mut items: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    ///     items.sort();
    ///     items
    /// };
    /// assert_eq!(sorted(&fast), sorted(&reference));
    /// assert_eq!(fast.expected_list(), r##"expected pchar, "?", "#", "/" or end of input"##);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`parse`](Self::parse).
    pub fn parse_with_reference<'i>(&self, input: &'i str) -> Result<RuleMatch<'i>, ParseError> {
        let grammar = self.grammar;
        let rule = self.rule();
        if input.len() > components::MAX_LEN {
            return Err(ParseError::too_long(builtin_rule(rule), input).for_loaded_rule(&rule.abnf));
        }
        let vm = match &grammar.engine {
            Engine::Vm(vm) => vm,
            Engine::Compiled(compiled) => compiled
                .vm
                .get_or_init(|| VmEngine::new(&compiled.read.ast, &grammar.rules)),
        };
        vm.parse(grammar, self.index, input)
    }

    /// Whether [`parse`](Self::parse) runs the grammar's compiled program (`true`), or pest_vm because
    /// the program cannot express the grammar exactly (implicit `WHITESPACE` or `COMMENT`, non-atomic
    /// rules, some of pest's builtins; see the [module docs](self)).
    pub fn is_compiled(&self) -> bool {
        matches!(self.grammar.engine, Engine::Compiled(_))
    }

    /// Like [`parse`](Self::parse), for bytes that may not be UTF-8 (a line read from a file): the
    /// grammar's own error when the text before the first bad byte already fails, else an error of kind
    /// [`ParseErrorKind::InvalidUtf8`](crate::ParseErrorKind::InvalidUtf8) at that byte.
    ///
    /// ```
    /// use rfc3986::{runtime::Grammar, ParseErrorKind};
    /// let iri = Grammar::builtin("iri").unwrap()?;
    /// let entry = iri.start_rule().unwrap();
    /// let e = entry.parse_bytes(b"http://a/\xff").unwrap_err();
    /// assert_eq!((e.kind(), e.offset()), (ParseErrorKind::InvalidUtf8, 9));
    /// let e = entry.parse_bytes(b"http://a/ \xff").unwrap_err(); // the space comes first
    /// assert_eq!((e.kind(), e.offset()), (ParseErrorKind::Space, 9));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`parse`](Self::parse), plus the bad byte.
    pub fn parse_bytes<'i>(&self, input: &'i [u8]) -> Result<RuleMatch<'i>, ParseError> {
        match std::str::from_utf8(input) {
            Ok(text) => self.parse(text),
            Err(e) => {
                let valid = std::str::from_utf8(&input[..e.valid_up_to()]).unwrap_or_default();
                match self.parse(valid) {
                    Err(inner) if inner.offset() < valid.len() => Err(inner),
                    _ => {
                        let rule = self.rule();
                        Err(
                            ParseError::invalid_utf8(builtin_rule(rule), e.valid_up_to())
                                .for_loaded_rule(&rule.abnf),
                        )
                    }
                }
            }
        }
    }

    /// Whether matches of this rule are URI references: its ABNF name is `URI-reference`, `URI`,
    /// `relative-ref` or `absolute-URI`, or one of their IRI counterparts (`IRI-reference`, `IRI`,
    /// `irelative-ref`, `absolute-IRI`, RFC 3987 2.2), in any case.
    pub fn yields_reference(&self) -> bool {
        crate::value::rule_match::yields_reference(self.abnf_name())
    }

    /// Matches the rule against `input` and returns the match as a [`UriRef`].
    ///
    /// # Errors
    /// [`RuntimeParseError::NotAReference`] when the rule's matches are not URI references (checked
    /// before matching: a rule of the IRI grammar is refused, its matches are IRI references, see
    /// [`RuleMatch::into_iri_ref`]); [`RuntimeParseError::Parse`] when `input` is not in its language.
    pub fn parse_uri_ref<'i>(&self, input: &'i str) -> Result<UriRef<'i>, RuntimeParseError> {
        if !crate::value::rule_match::yields::<crate::UriSpec>(self.abnf_name()) {
            return Err(RuntimeParseError::NotAReference(
                crate::value::rule_match::not_a::<crate::UriSpec>(self.abnf_name().to_owned()),
            ));
        }
        self.parse(input)?
            .into_uri_ref()
            .map_err(RuntimeParseError::NotAReference)
    }
}

/// Parses and validates `text` as pest_meta's `parse_and_optimize` does, then reads it as `build.rs`
/// reads `uri.pest` (rule table, header, detail grammar).
fn read(text: &str) -> Result<read::Read, GrammarError> {
    let pairs = parser::parse(MetaRule::grammar_rules, text).map_err(|e| invalid(&[e]))?;
    pest_meta::validator::validate_pairs(pairs.clone()).map_err(|e| invalid(&e))?;
    let ast = parser::consume_rules(pairs.clone()).map_err(|e| invalid(&e))?;
    read::from_parsed(text, pairs, ast, read::Prefixes::Free).map_err(|message| {
        GrammarError::Invalid {
            path: None,
            issues: vec![GrammarIssue::new(1, 1, message)],
        }
    })
}

/// The detail grammar of a grammar read from its text, compiled for explaining rejections (built at
/// the first rejection: it is read and optimized by pest_meta, which costs more than the rest of a
/// load); a message when the explainer cannot run it.
fn compile_detail(read: &read::Read) -> Result<interpreter::Detail, String> {
    let detail_rules = read::optimized(&read.detail)?;
    let names: Vec<String> = read.rules.iter().map(|r| r.name.clone()).collect();
    let literals: HashMap<&str, &str> = read
        .literals
        .iter()
        .map(|(rule, text)| (rule.as_str(), text.as_str()))
        .collect();
    let items = explainer::items(
        &detail_rules,
        &names,
        |name| literals.get(name).map(|text| text.to_string()),
        &read.prefixes.0,
    );
    interpreter::Detail::new(
        &detail_rules,
        &items,
        &names,
        |i| read.rules[i].abnf.clone(),
        &read.prefixes.0,
    )
}

/// The whole-input entry rule of each rule: `entry NAME = _{ SOI ~ NAME ~ EOI }`. The space makes the
/// name impossible to write in a `.pest` file, so it cannot clash with the grammar's own rules.
fn entry_rules(rules: &[LoadedRule]) -> impl Iterator<Item = OptimizedRule> + '_ {
    rules.iter().map(|r| OptimizedRule {
        name: r.entry.clone(),
        ty: RuleType::Silent,
        expr: OptimizedExpr::Seq(
            Box::new(OptimizedExpr::Ident("SOI".to_string())),
            Box::new(OptimizedExpr::Seq(
                Box::new(OptimizedExpr::Ident(r.name.clone())),
                Box::new(OptimizedExpr::Ident("EOI".to_string())),
            )),
        ),
    })
}

/// Replaces every call of a silent rule that is not (and does not reach) a recursive silent rule by the
/// rule's expression. A silent rule adds nothing around its expression (no token, no attempt tracking),
/// so the language and the tokens are unchanged; what goes is pest_vm's cost of a call by name (a chain
/// of string comparisons and a hash lookup), paid several times per input character (`pchar` ->
/// `unreserved` -> `alpha`). The rules stay defined, for their entry rules.
fn inline_silent(rules: Vec<OptimizedRule>) -> Vec<OptimizedRule> {
    let silent: HashMap<&str, &OptimizedExpr> = rules
        .iter()
        .filter(|r| r.ty == RuleType::Silent)
        .map(|r| (r.name.as_str(), &r.expr))
        .collect();
    // A silent rule can be inlined when no cycle of silent rules is reachable from it.
    fn acyclic<'a>(
        name: &'a str,
        silent: &HashMap<&'a str, &'a OptimizedExpr>,
        state: &mut HashMap<&'a str, Option<bool>>,
    ) -> bool {
        match state.get(name) {
            Some(Some(known)) => return *known,
            Some(None) => return false, // on the current path: a cycle
            None => {}
        }
        state.insert(name, None);
        let ok = silent[name].iter_top_down().all(|e| match e {
            OptimizedExpr::Ident(callee) => match silent.get_key_value(callee.as_str()) {
                Some((callee, _)) => acyclic(callee, silent, state),
                None => true,
            },
            _ => true,
        });
        state.insert(name, Some(ok));
        ok
    }
    let mut state = HashMap::new();
    let inlinable: HashMap<String, OptimizedExpr> = silent
        .keys()
        .filter(|name| acyclic(name, &silent, &mut state))
        .map(|name| (name.to_string(), silent[name].clone()))
        .collect();
    let inlined: Vec<OptimizedRule> = rules
        .iter()
        .map(|r| OptimizedRule {
            name: r.name.clone(),
            ty: r.ty,
            expr: r.expr.clone().map_top_down(|e| match e {
                OptimizedExpr::Ident(ref name) => inlinable.get(name).cloned().unwrap_or(e),
                other => other,
            }),
        })
        .collect();
    inlined
}

/// The detail copy: every rule normal, every quoted string a normal rule of its own (named by its
/// quoted text, which no `.pest` file can use as a rule name). Returns the rules and the map from
/// literal rule name to the string.
fn detail_rules(ast: &[AstRule]) -> (Vec<AstRule>, HashMap<String, String>) {
    let mut literals: BTreeMap<String, Expr> = BTreeMap::new();
    let mut out: Vec<AstRule> = ast
        .iter()
        .map(|r| AstRule {
            name: r.name.clone(),
            ty: RuleType::Normal,
            expr: r.expr.clone().map_bottom_up(|e| match e {
                Expr::Str(s) => {
                    let name = format!("{s:?}");
                    literals.insert(name.clone(), Expr::Str(s));
                    Expr::Ident(name)
                }
                Expr::Insens(s) => {
                    let name = format!("^{s:?}");
                    literals.insert(name.clone(), Expr::Insens(s));
                    Expr::Ident(name)
                }
                other => other,
            }),
        })
        .collect();
    let mut names = HashMap::new();
    for (name, expr) in literals {
        if let Expr::Str(s) | Expr::Insens(s) = &expr {
            names.insert(name.clone(), s.clone());
        }
        out.push(AstRule {
            name,
            ty: RuleType::Normal,
            expr,
        });
    }
    (out, names)
}

impl Grammar {
    /// Loads a grammar from the text of a `.pest` file.
    ///
    /// # Errors
    /// [`GrammarError::Invalid`] listing every problem pest_meta finds, each with its line and column.
    pub fn load(text: &str) -> Result<Grammar, GrammarError> {
        limits::check(text)?;
        limits::on_big_stack(|| Grammar::load_checked(text))
    }

    /// [`Grammar::load`] once the text is within the [limits](crate::runtime::limits).
    fn load_checked(text: &str) -> Result<Grammar, GrammarError> {
        let read = read(text)?;
        let rules: Vec<LoadedRule> = read
            .rules
            .iter()
            .map(|r| LoadedRule {
                name: r.name.clone(),
                abnf: r.abnf.clone(),
                definition: r.definition.clone(),
                source: r.source.clone(),
                entry: format!("entry {}", r.name),
            })
            .collect();
        let header = read.header.clone();
        let engine =
            match program::lower(&read.ast, &components::COMPONENT_RULES, MAX_PROGRAM_NODES) {
                Ok(program) => Engine::Compiled(Box::new(Compiled {
                    program,
                    read,
                    detail: OnceLock::new(),
                    vm: OnceLock::new(),
                })),
                Err(_) => Engine::Vm(VmEngine::new(&read.ast, &rules)),
            };
        Ok(Grammar {
            engine,
            rules,
            header,
            source: Arc::from(text),
        })
    }

    /// Reads and loads a `.pest` file.
    ///
    /// # Errors
    /// [`GrammarError::Io`] when the file cannot be read, [`GrammarError::Invalid`] (with the path) when
    /// it is not a usable grammar.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Grammar, GrammarError> {
        let path = path.as_ref();
        let text = limits::read_grammar_file(path)?;
        Grammar::load(&text).map_err(|e| e.with_path(path))
    }

    /// Loads `text` as an *overlay* on `uri.pest`: its rules replace the rules of `uri.pest` with the same
    /// pest name, and every rule of `uri.pest` it does not define is kept. An edit of the generic syntax
    /// is then only the rules it changes: `grammars/ipv6-zone-id.pest` is `ip_literal` plus the two rules
    /// of RFC 6874 (`IPv6addrz`, `ZoneID`). Line numbers in errors are those of `text` (issues in
    /// `uri.pest` itself cannot happen: the build checks it).
    ///
    /// ```
    /// use rfc3986::runtime::Grammar;
    /// let zone = Grammar::overlay(
    ///     "ip_literal = ${ \"[\" ~ (ipv6addrz | ipv6address | ipvfuture) ~ \"]\" }\n\
    ///      ipv6addrz = ${ ipv6address ~ \"%25\" ~ zone_id }\n\
    ///      zone_id = @{ (unreserved | pct_encoded)+ }\n",
    /// )?;
    /// assert!(zone.parse("URI-reference", "http://[fe80::1%25eth0]/").is_ok());
    /// assert!(zone.parse("URI-reference", "http://[fe80::1%eth0]/").is_err()); // "%" must be "%25"
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Grammar::load`], for `text` on top of `uri.pest`.
    pub fn overlay(text: &str) -> Result<Grammar, GrammarError> {
        limits::on_big_stack(|| load_overlay(text, GENERIC))
    }

    /// The grammars shipped with the crate, by the names `rfc3986 check --grammar NAME` takes:
    /// `uri` (`uri.pest`, RFC 3986), `iri` (`grammars/iri.pest`, RFC 3987 2.2), `zone-id`
    /// (`grammars/ipv6-zone-id.pest`, RFC 6874 2, an overlay on `uri.pest`) and `uri-template`
    /// (`grammars/uri-template.pest`, RFC 6570 2, rule `URI-Template`). Names are case-insensitive;
    /// `None` for another name.
    ///
    /// ```
    /// use rfc3986::runtime::Grammar;
    /// let iri = Grammar::builtin("iri").unwrap()?;
    /// assert!(iri.parse("IRI-reference", "http://r\u{e9}sum\u{e9}.example.org/").is_ok());
    /// assert!(Grammar::builtin("nope").is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// `Some(Err(..))` only if a shipped grammar failed to load, which the crate's tests rule out.
    pub fn builtin(name: &str) -> Option<Result<Grammar, GrammarError>> {
        let (_, text, overlay) = BUILTIN_GRAMMARS
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))?;
        Some(if *overlay {
            Grammar::overlay(text)
        } else {
            Grammar::load(text)
        })
    }

    /// The names [`builtin`](Self::builtin) knows, in order.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN_GRAMMARS.iter().map(|(name, _, _)| *name)
    }

    /// The rule inputs are checked against when none is named: the first rule whose matches are URI
    /// references ([`Entry::yields_reference`]), preferring a `*-reference` rule (`URI-reference`,
    /// `IRI-reference`) to `URI`, `absolute-URI` or `relative-ref`; in a grammar without such a rule,
    /// `URI-Template` (the URI Template grammar, RFC 6570). `None` when there is none of these.
    ///
    /// ```
    /// use rfc3986::runtime::Grammar;
    /// let iri = Grammar::builtin("iri").unwrap()?;
    /// assert_eq!(iri.start_rule().unwrap().abnf_name(), "IRI-reference");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start_rule(&self) -> Option<Entry<'_>> {
        let entries = || {
            (0..self.rules.len()).map(|index| Entry {
                grammar: self,
                index,
            })
        };
        entries()
            .find(|e| {
                e.yields_reference() && e.abnf_name().to_ascii_lowercase().ends_with("-reference")
            })
            .or_else(|| entries().find(Entry::yields_reference))
            .or_else(|| entries().find(|e| e.abnf_name() == "URI-Template"))
    }

    /// Reads a grammar file (see [`from_file`](Self::from_file)) and loads it alone when it defines every
    /// rule it uses, else as an [overlay](Self::overlay) on `uri.pest` (a file that uses rules of
    /// `uri.pest` without defining them). What `rfc3986 check --grammar FILE` does.
    ///
    /// # Errors
    /// As [`from_file`](Self::from_file); for an overlay, the errors of the file on top of `uri.pest`.
    pub fn from_file_or_overlay(path: impl AsRef<Path>) -> Result<Grammar, GrammarError> {
        let path = path.as_ref();
        let text = limits::read_grammar_file(path)?;
        match Grammar::load(&text) {
            Err(GrammarError::Invalid { issues, .. })
                if !issues.is_empty()
                    && issues.iter().all(|i| i.message.ends_with("is undefined")) =>
            {
                Grammar::overlay(&text).map_err(|e| e.with_path(path))
            }
            other => other.map_err(|e| e.with_path(path)),
        }
    }

    /// The `//!` lines at the top of the file, without the `//!` (the first one names what the file is
    /// and its RFC, by the convention of this crate's grammars).
    pub fn header(&self) -> impl Iterator<Item = &str> {
        self.header.iter().map(String::as_str)
    }

    /// Every rule, in file order, as `(pest name, ABNF name)`: `("uri_reference", "URI-reference")`.
    pub fn rule_names(&self) -> impl Iterator<Item = (&str, &str)> {
        self.rules
            .iter()
            .map(|r| (r.name.as_str(), r.abnf.as_str()))
    }

    /// The rule named `name`: its ABNF spelling (`URI-reference`, `IPv6address`) or its pest name
    /// (`uri_reference`). An exact match wins; otherwise ABNF names match ASCII case-insensitively
    /// (RFC 5234 section 2.1), when that leaves exactly one rule.
    ///
    /// # Errors
    /// [`UnknownRule`] when no rule has that name.
    pub fn entry(&self, name: &str) -> Result<Entry<'_>, UnknownRule> {
        let found = self
            .rules
            .iter()
            .position(|r| r.abnf == name)
            .or_else(|| self.rules.iter().position(|r| r.name == name))
            .or_else(|| {
                let mut it = self
                    .rules
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.abnf.eq_ignore_ascii_case(name));
                match (it.next(), it.next()) {
                    (Some((i, _)), None) => Some(i),
                    _ => None,
                }
            });
        match found {
            Some(index) => Ok(Entry {
                grammar: self,
                index,
            }),
            None => Err(UnknownRule {
                name: name.to_string(),
            }),
        }
    }

    /// Matches the rule named `rule` (see [`entry`](Self::entry)) against the whole of `input`. To parse
    /// many inputs by one rule, resolve it once with [`entry`](Self::entry).
    ///
    /// # Errors
    /// [`RuntimeParseError::UnknownRule`] when the grammar has no such rule;
    /// [`RuntimeParseError::Parse`] when `input` is not in its language.
    pub fn parse<'i>(
        &self,
        rule: &str,
        input: &'i str,
    ) -> Result<RuleMatch<'i>, RuntimeParseError> {
        Ok(self.entry(rule)?.parse(input)?)
    }

    fn parse_index<'i>(&self, index: usize, input: &'i str) -> Result<RuleMatch<'i>, ParseError> {
        let rule = &self.rules[index];
        if input.len() > components::MAX_LEN {
            return Err(ParseError::too_long(builtin_rule(rule), input).for_loaded_rule(&rule.abnf));
        }
        let (program, read, detail, vm) = match &self.engine {
            Engine::Vm(_) if input.len() > MAX_VM_INPUT => {
                return Err(ParseError::limit(
                    builtin_rule(rule),
                    input,
                    MAX_VM_INPUT,
                    format!(
                        "the input is {} bytes long; a grammar that runs on pest_vm matches at most \
                         {MAX_VM_INPUT} bytes (pest_vm holds about 100 bytes per input byte)",
                        input.len()
                    ),
                )
                .for_loaded_rule(&rule.abnf));
            }
            Engine::Vm(vm) => return vm.parse(self, index, input),
            Engine::Compiled(compiled) => (
                &compiled.program,
                &compiled.read,
                &compiled.detail,
                &compiled.vm,
            ),
        };
        let reference = || vm.get_or_init(|| VmEngine::new(&read.ast, &self.rules));
        let s = input.as_bytes();
        let mut events = Events::new();
        match interpreter::run(program, index, s, &mut events) {
            interpreter::Outcome::Done(Some(end)) if end == s.len() => {
                if events.repeated() {
                    // A component matched twice: pest's pairs say which span counts.
                    return reference().parse(self, index, input);
                }
                let parts = components::combine(events.matched(), |i| events.span(i));
                return Ok(RuleMatch::loaded(&rule.abnf, input, parts));
            }
            interpreter::Outcome::Done(_) => {}
            interpreter::Outcome::Limit(at, limit) => {
                return Err(self.limit(rule, input, at, limit))
            }
        }
        let Ok(detail) = detail.get_or_init(|| compile_detail(read)) else {
            return reference().parse(self, index, input);
        };
        match detail.explain(index, s) {
            Ok(Some((offset, expected))) => Err(crate::engine::classify::classify(
                builtin_rule(rule),
                input,
                offset,
                expected,
                None,
            )
            .for_loaded_rule(&rule.abnf)),
            // The two interpreters disagree (they never should): pest_vm's answer. Debug builds (the
            // tests) stop here, so that a wrong explanation is not hidden by the fallback.
            Ok(None) => {
                debug_assert!(
                    false,
                    "the detail interpreter accepts {input:?}, the program does not"
                );
                reference().parse(self, index, input)
            }
            Err((at, limit)) => Err(self.limit(rule, input, at, limit)),
        }
    }

    /// The error of a match that nested deeper than the engine allows or took more steps than its
    /// budget.
    fn limit(
        &self,
        rule: &LoadedRule,
        input: &str,
        at: usize,
        limit: interpreter::Limit,
    ) -> ParseError {
        let message = match limit {
            interpreter::Limit::Depth => format!(
                "stack limit reached (the input nests through the grammar's rules deeper than the \
                 thread's stack allows, keeping {} KiB free)",
                interpreter::STACK_RESERVE >> 10
            ),
            interpreter::Limit::Steps => format!(
                "step limit reached (the grammar backtracks over this input more than {} steps \
                 plus {} per byte allow: matching it would take time out of proportion to its length)",
                interpreter::STEPS_FIXED,
                interpreter::STEPS_PER_BYTE
            ),
        };
        ParseError::limit(builtin_rule(rule), input, at, message).for_loaded_rule(&rule.abnf)
    }

    fn expected(&self, literals: &HashMap<String, String>, name: &str) -> Expected {
        if name == "EOI" {
            return Expected::EndOfInput;
        }
        if let Some(text) = literals.get(name) {
            return Expected::Literal(Cow::Owned(text.clone()));
        }
        let abnf = self
            .rules
            .iter()
            .find(|r| r.name == name)
            .map_or(name, |r| r.abnf.as_str());
        Expected::Rule(Cow::Owned(abnf.to_string()))
    }
}

/// pest's process-wide call limit as [`bound_pest_vm_matches`] last raised it; `None` until that is
/// called (pest_vm matches are then unbounded in time).
static VM_CALL_LIMIT: std::sync::Mutex<Option<u64>> = std::sync::Mutex::new(None);

/// Gives every match that runs on pest_vm (a grammar the compiled program cannot express: implicit
/// `WHITESPACE` or `COMMENT`, non-atomic rules, other builtins; see the module docs) a budget of calls
/// like the engine's budget of steps, so that a grammar on which PEG backtracking is exponential stops
/// with an error of kind [`LimitReached`](crate::ParseErrorKind::LimitReached) ("call limit reached")
/// instead of running for hours.
///
/// pest's call limit ([`pest::set_call_limit`]) is one setting for the whole process, read when a parse
/// begins. From this call on, each match on pest_vm first raises it, if it is lower, to the budget of
/// its input (16,384 calls plus 256 per byte, the engine's steps): the limit only grows, so no match gets
/// less than its own budget, and each gets at most the budget of the longest input matched so far. It
/// applies to every pest parser of the process, which is why it is not the default: the command-line
/// tool, which owns its process, calls it at start; a library that shares its process with other pest
/// parsers should not.
pub fn bound_pest_vm_matches() {
    let mut limit = VM_CALL_LIMIT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    limit.get_or_insert(0);
}

/// Before a match of `len` bytes on pest_vm: pest's call limit raised to its budget, when
/// [`bound_pest_vm_matches`] was called.
fn raise_vm_call_limit(len: usize) {
    let mut limit = VM_CALL_LIMIT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let Some(current) = limit.as_mut() else {
        return;
    };
    let budget = interpreter::STEPS_PER_BYTE
        .saturating_mul(len as u64)
        .saturating_add(interpreter::STEPS_FIXED);
    if budget > *current {
        *current = budget;
        let calls = usize::try_from(budget).unwrap_or(usize::MAX);
        pest::set_call_limit(std::num::NonZeroUsize::new(calls));
    }
}

impl VmEngine {
    /// The VMs of `ast` (a grammar whose rules are `rules`).
    fn new(ast: &[AstRule], rules: &[LoadedRule]) -> VmEngine {
        let plain = ast
            .iter()
            .any(|r| r.name == "WHITESPACE" || r.name == "COMMENT");
        let (detail, literals) = if plain {
            (None, HashMap::new())
        } else {
            let (detail_ast, literals) = detail_rules(ast);
            let mut detail = optimizer::optimize(detail_ast);
            detail.extend(entry_rules(rules));
            (Some(Vm::new(detail)), literals)
        };
        let mut optimized = inline_silent(optimizer::optimize(ast.to_vec()));
        optimized.extend(entry_rules(rules));
        VmEngine {
            vm: Vm::new(optimized),
            detail,
            literals,
        }
    }

    fn parse<'i>(
        &self,
        grammar: &Grammar,
        index: usize,
        input: &'i str,
    ) -> Result<RuleMatch<'i>, ParseError> {
        let rule = &grammar.rules[index];
        raise_vm_call_limit(input.len());
        let error = match self.vm.parse(&rule.entry, input) {
            Ok(pairs) => {
                let parts = components::build(pairs.flatten().filter_map(|pair| {
                    let component = components::component_index(pair.as_rule())?;
                    let span = pair.as_span();
                    Some((component, span.start(), span.end()))
                }));
                return Ok(RuleMatch::loaded(&rule.abnf, input, parts));
            }
            Err(e) => e,
        };
        Err(self.explain(grammar, rule, input, error))
    }

    /// Builds the error for an input the VM rejected, from the detail VM when it can.
    fn explain(
        &self,
        grammar: &Grammar,
        rule: &LoadedRule,
        input: &str,
        error: pest::error::Error<&str>,
    ) -> ParseError {
        let counterpart = builtin_rule(rule);
        let name = |r: &str| grammar.expected(&self.literals, r);
        if let Some(detail) = self.detail.as_ref().filter(|_| input.len() <= DETAIL_LIMIT) {
            if let Err(e) = detail.parse(&rule.entry, input) {
                return crate::engine::reference::from_pest(counterpart, input, e, name)
                    .for_loaded_rule(&rule.abnf);
            }
        }
        crate::engine::reference::from_pest(counterpart, input, error, name)
            .for_loaded_rule(&rule.abnf)
    }
}

/// The built-in rule a loaded rule stands for (same ABNF name, else same pest name), for the error
/// heuristics that depend on the rule; `URI-reference` when there is none.
fn builtin_rule(rule: &LoadedRule) -> Rule {
    Rule::from_abnf_name(&rule.abnf)
        .or_else(|| {
            Rule::all()
                .zip(crate::rule::RULES)
                .find(|(_, info)| info.name == rule.name)
                .map(|(r, _)| r)
        })
        .unwrap_or(Rule::URI_REFERENCE)
}

// -------------------------------------------------------------------------------------------------------
// Scheme grammars
// -------------------------------------------------------------------------------------------------------

/// A scheme's grammar and what to cite when a URI breaks it.
#[derive(Debug)]
struct SchemeGrammar {
    grammar: Grammar,
    /// The first `//!` line of the file (`RFC 9110 section 4.2.1 (http) and 4.2.2 (https)`).
    citation: String,
}

/// The grammars of URI schemes, which restrict the generic syntax (RFC 3986 section 3.1), to check
/// parsed URIs against.
///
/// # The convention of a scheme grammar
///
/// - One file per scheme, `SCHEME.pest` (lower case). A line `//! Schemes: http https` in the header
///   makes one file serve several schemes (`http.pest` serves `https`, RFC 9110 section 4.2.2); without
///   it the file stem is the scheme.
/// - The first `//!` line cites the RFC and sections that define the scheme's syntax; errors quote it.
/// - The grammar is loaded *on top of* the generic grammar `uri.pest`: it may use every rule of
///   `uri.pest` by name (`authority`, `path_abempty`, `pchar`, `query`, ...) and may redefine any of them
///   to restrict it (`http.pest` redefines `reg_name` so that the host cannot be empty); the rules it
///   does not define come from `uri.pest`. Line numbers in errors are those of the scheme file (issues in
///   the generic part say so).
/// - It defines a rule named [`scheme_uri`](SCHEME_ENTRY_RULE): the whole URI in that scheme, without
///   its fragment (RFC 3986 section 3.5: the fragment's meaning does not depend on the scheme; it was
///   already checked by the generic grammar). Scheme names in it are case-insensitive (`^"http"`, RFC
///   3986 section 3.1).
///
/// The grammars shipped with the crate ([`SchemeGrammars::builtin`], files in `schemes/`): `http` and
/// `https` (RFC 9110), `urn` (RFC 8141), `mailto` (RFC 6068), `file` (RFC 8089), `data` (RFC 2397).
///
/// ```
/// use rfc3986::{runtime::SchemeGrammars, UriRef};
/// let schemes = SchemeGrammars::builtin();
/// assert!(schemes.check(&UriRef::parse("https://example.com/")?).unwrap().is_ok());
/// let err = schemes.check(&UriRef::parse("http:///no-host")?).unwrap().unwrap_err();
/// assert!(err.citation().starts_with("RFC 9110"));
/// assert!(schemes.check(&UriRef::parse("foo:bar")?).is_none()); // no grammar for `foo`
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct SchemeGrammars {
    /// Lower-case scheme -> its grammar (shared by the schemes one file serves).
    by_scheme: BTreeMap<String, Arc<SchemeGrammar>>,
    /// The grammar scheme grammars are laid over; `None`: `uri.pest`.
    base: Option<Arc<str>>,
}

/// A URI does not match the grammar of its scheme.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a valid {scheme} URI ({citation}): {error}")]
pub struct SchemeError {
    scheme: String,
    citation: String,
    error: ParseError,
}

impl SchemeError {
    /// The scheme, in lower case.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The RFC and sections that define the scheme's syntax: the first `//!` line of its grammar file
    /// (`RFC 8141 section 2`).
    pub fn citation(&self) -> &str {
        &self.citation
    }

    /// Where the URI stopped matching the scheme grammar (offsets into the URI's text) and what was
    /// expected there.
    pub fn parse_error(&self) -> &ParseError {
        &self.error
    }
}

/// The grammars shipped with the crate: (name, text, whether it is an overlay on `uri.pest`).
const BUILTIN_GRAMMARS: &[(&str, &str, bool)] = &[
    ("uri", GENERIC, false),
    ("iri", include_str!("../../grammars/iri.pest"), false),
    (
        "zone-id",
        include_str!("../../grammars/ipv6-zone-id.pest"),
        true,
    ),
    ("uri-template", crate::template::GRAMMAR, false),
];

/// The scheme grammars shipped in `schemes/`: (file stem, text).
const BUILTIN_SCHEMES: &[(&str, &str)] = &[
    ("data", include_str!("../../schemes/data.pest")),
    ("file", include_str!("../../schemes/file.pest")),
    ("http", include_str!("../../schemes/http.pest")),
    ("mailto", include_str!("../../schemes/mailto.pest")),
    ("urn", include_str!("../../schemes/urn.pest")),
];

impl SchemeGrammars {
    /// No grammars: [`check`](Self::check) always gives `None`.
    pub fn new() -> SchemeGrammars {
        SchemeGrammars::default()
    }

    /// The scheme grammars shipped with the crate (`schemes/*.pest`), loaded on first use.
    pub fn builtin() -> &'static SchemeGrammars {
        static BUILTIN: OnceLock<SchemeGrammars> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let mut all = SchemeGrammars::new();
            for (stem, text) in BUILTIN_SCHEMES {
                if let Err(e) = all.add(stem, text) {
                    unreachable!("schemes/{stem}.pest is tested to load: {e}");
                }
            }
            all
        })
    }

    /// The scheme grammars shipped with the crate laid over `base` instead of `uri.pest`: a scheme
    /// grammar takes the rules it does not define (`host`, `path-abempty`, ...) from `base`, so that
    /// `http://[fe80::1%25eth0]/` is an http URI under a grammar with zone identifiers (RFC 8089 2 and
    /// RFC 9110 4.2.1 take their host from RFC 3986 as the grammar in use defines it).
    ///
    /// ```
    /// use rfc3986::{runtime::{Grammar, SchemeGrammars}, UriRef};
    /// let zone = Grammar::builtin("zone-id").unwrap()?;
    /// let schemes = SchemeGrammars::over(&zone)?;
    /// let uri = zone.entry("URI-reference")?.parse_uri_ref("http://[fe80::1%25eth0]/")?;
    /// assert!(schemes.check(&uri).unwrap().is_ok());
    /// assert!(SchemeGrammars::builtin().check(&uri).unwrap().is_err()); // over uri.pest
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A scheme grammar that does not load over `base` (it uses a rule `base` lacks).
    pub fn over(base: &Grammar) -> Result<SchemeGrammars, GrammarError> {
        let mut all = SchemeGrammars {
            by_scheme: BTreeMap::new(),
            base: Some(Arc::clone(&base.source)),
        };
        for (stem, text) in BUILTIN_SCHEMES {
            all.add(stem, text)?;
        }
        Ok(all)
    }

    /// Loads every `*.pest` file of `dir` as the grammar of the scheme(s) it serves (see the
    /// [convention](SchemeGrammars#the-convention-of-a-scheme-grammar)). Files are loaded in name order;
    /// a later file replaces an earlier one for a scheme both serve.
    ///
    /// # Errors
    /// [`GrammarError::Io`] when the directory or a file cannot be read; [`GrammarError::Invalid`] for the
    /// first file that is not a usable scheme grammar.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<SchemeGrammars, GrammarError> {
        let dir = dir.as_ref();
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| GrammarError::Io { path, source }
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io(dir))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pest") && p.is_file())
            .collect();
        files.sort();
        let mut all = SchemeGrammars::new();
        for path in files {
            let text = limits::read_grammar_file(&path)?;
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            all.add(stem, &text).map_err(|e| e.with_path(&path))?;
        }
        Ok(all)
    }

    /// Adds the grammar `text` of the file `stem.pest` (see the
    /// [convention](SchemeGrammars#the-convention-of-a-scheme-grammar)); it replaces any grammar of
    /// the schemes it serves.
    ///
    /// # Errors
    /// [`GrammarError::Invalid`] when `text` on top of `uri.pest` is not a usable grammar or has no
    /// `scheme_uri` rule.
    pub fn add(&mut self, stem: &str, text: &str) -> Result<(), GrammarError> {
        let base = self.base.as_deref().unwrap_or(GENERIC);
        let grammar = load_scheme(text, base)?;
        let citation = grammar.header.first().cloned().unwrap_or_default();
        let schemes: Vec<String> = match grammar
            .header
            .iter()
            .find_map(|l| l.strip_prefix("Schemes:"))
        {
            Some(list) => list
                .split([',', ' '])
                .filter(|s| !s.is_empty())
                .map(str::to_ascii_lowercase)
                .collect(),
            None => vec![stem.to_ascii_lowercase()],
        };
        let shared = Arc::new(SchemeGrammar { grammar, citation });
        for scheme in schemes {
            self.by_scheme.insert(scheme, Arc::clone(&shared));
        }
        Ok(())
    }

    /// The schemes that have a grammar, in lower case and in order.
    pub fn schemes(&self) -> impl Iterator<Item = &str> {
        self.by_scheme.keys().map(String::as_str)
    }

    /// The loaded grammar of `scheme` (any case), to parse with directly (its rule `scheme_uri` gives the
    /// same [`UriRef`] components as the generic grammar where the scheme keeps them).
    pub fn grammar(&self, scheme: &str) -> Option<&Grammar> {
        self.by_scheme
            .get(&scheme.to_ascii_lowercase())
            .map(|s| &s.grammar)
    }

    /// Checks a parsed URI against the grammar of its scheme (scheme names compare case-insensitively,
    /// RFC 3986 section 3.1). The text up to the fragment is matched by the rule `scheme_uri`.
    ///
    /// Returns `None` for a relative reference and for a scheme without a grammar, `Some(Ok(()))` when
    /// the URI matches.
    ///
    /// # Errors
    /// `Some(Err(SchemeError))` with the scheme's RFC citation and the byte offset into the URI where it
    /// stopped matching.
    pub fn check(&self, uri: &UriRef<'_>) -> Option<Result<(), SchemeError>> {
        let scheme = uri.scheme()?.to_ascii_lowercase();
        let found = self.by_scheme.get(&scheme)?;
        let text = limits::before_fragment(uri.as_str(), uri.fragment());
        let entry = found.grammar.entry(SCHEME_ENTRY_RULE).ok()?;
        Some(entry.parse(text).map(|_| ()).map_err(|error| SchemeError {
            scheme,
            citation: found.citation.clone(),
            error,
        }))
    }
}

/// Loads a scheme grammar: an overlay on `uri.pest` (see [`load_overlay`]) that defines
/// [`SCHEME_ENTRY_RULE`].
fn load_scheme(text: &str, base: &str) -> Result<Grammar, GrammarError> {
    let grammar = load_overlay(text, base)?;
    if grammar.entry(SCHEME_ENTRY_RULE).is_err() {
        return Err(GrammarError::Invalid {
            path: None,
            issues: vec![GrammarIssue {
                line: 1,
                column: 1,
                message: format!("a scheme grammar must define the rule `{SCHEME_ENTRY_RULE}`"),
            }],
        });
    }
    Ok(grammar)
}

/// Loads `text` on top of `uri.pest`: the text first (so that its line numbers stay those of its file),
/// then `uri.pest` without the rules the text redefines (blanked out, with their doc lines, so that its
/// line numbers stay those of `uri.pest` too).
fn load_overlay(text: &str, base: &str) -> Result<Grammar, GrammarError> {
    limits::check(text)?;
    // The scheme file alone must at least be syntactically valid; its rule names decide what to drop.
    let own = parser::parse(MetaRule::grammar_rules, text).map_err(|e| invalid(&[e]))?;
    let mut defined = std::collections::HashSet::new();
    for pair in own {
        if pair.as_rule() == MetaRule::grammar_rule {
            if let Some(first) = pair.into_inner().next() {
                if first.as_rule() == MetaRule::identifier {
                    defined.insert(first.as_str().to_string());
                }
            }
        }
    }
    let generic = match parser::parse(MetaRule::grammar_rules, base) {
        Ok(pairs) => pairs,
        // uri.pest is checked by the build; another base was loaded from this same text.
        Err(e) => return Err(invalid(&[e])),
    };
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut docs: Vec<(usize, usize)> = Vec::new();
    for pair in generic {
        let span = pair.as_span();
        let range = (span.start(), span.end());
        match pair.as_rule() {
            MetaRule::grammar_doc => blank.push(range),
            MetaRule::grammar_rule => {
                let Some(first) = pair.into_inner().next() else {
                    continue;
                };
                if first.as_rule() == MetaRule::line_doc {
                    docs.push(range);
                } else {
                    if defined.contains(first.as_str()) {
                        blank.append(&mut docs);
                        blank.push(range);
                    }
                    docs.clear();
                }
            }
            _ => {}
        }
    }
    let mut generic_text = base.as_bytes().to_vec();
    for (start, end) in blank {
        for b in &mut generic_text[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes of whole pairs were replaced by spaces; a multi-byte character inside a blanked
    // range becomes several spaces, which is still UTF-8.
    let generic_text = String::from_utf8_lossy(&generic_text);
    let combined = format!("{text}\n{generic_text}");
    let offset = text.matches('\n').count() + 1;
    let grammar = Grammar::load(&combined).map_err(|e| match e {
        GrammarError::Invalid { path, issues } => GrammarError::Invalid {
            path,
            issues: issues
                .into_iter()
                .map(|mut i| {
                    if i.line > offset {
                        i.line -= offset;
                        i.message = format!("in the generic grammar uri.pest: {}", i.message);
                    }
                    i
                })
                .collect(),
        },
        other => other,
    })?;
    Ok(grammar)
}

/// The explainer's program is lowered once, by the generator: the program this engine builds for
/// `uri.pest` is the one `build.rs` wrote as the built-in explainer, tables included.
#[cfg(test)]
mod one_explainer_program {
    #[test]
    fn the_run_time_program_of_uri_pest_is_the_one_build_rs_emitted() {
        let read = super::read(super::GENERIC).expect("uri.pest reads");
        let detail = super::compile_detail(&read).expect("uri.pest's detail grammar compiles");
        let program = detail.program();
        assert_eq!(
            program.digest(),
            crate::engine::explainer::PROGRAM_DIGEST,
            "the run-time engine's explainer program differs from build.rs's"
        );
        // Not a digest of nothing: uri.pest's repetitions step over bytes and runs.
        assert!(program.repeats.iter().any(|r| r.skip.is_some()));
        assert!(program.repeats.iter().any(|r| r.runs.is_some()));
        assert!(program.rules.iter().any(|r| r.fail.is_some()));
        assert!(!program.classes.is_empty());
    }
}
