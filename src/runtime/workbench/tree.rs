//! `parse --tree`: the derivation of one input, as pest's pairs show it, on pest_vm.
//!
//! Every rule of the grammar is made normal for the tree (a silent or atomic rule would hide the rules
//! inside it), so each rule that matched is a node, in the order pest made them, with its byte span. For
//! a rejected input the tree is that of the longest prefix the rule matched (where pest stopped before
//! the end of the input), and the error is the grammar's own.

use pest_meta::ast::RuleType;
use pest_meta::optimizer;
use pest_vm::Vm;

use crate::error::ParseError;
use crate::runtime::{raise_vm_call_limit, Grammar, GrammarError, UnknownRule};

/// The bounds of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// The longest input given a tree, in bytes (pest makes a pair of about 80 bytes per rule match,
    /// several per input byte: a longer input is refused with an error, not parsed).
    pub max_input: usize,
    /// The most nodes of one tree (a tree with more is cut, and says so).
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

/// The tree of one input.
#[derive(Clone, Debug)]
pub struct TreeOutcome {
    /// The nodes in pre-order (a node before the nodes inside it).
    pub nodes: Vec<TreeNode>,
    /// `Some` when the rule does not match the whole input (or the input is over the limit): the error.
    pub error: Option<ParseError>,
    /// Whether the tree was cut at [`TreeLimits::max_nodes`].
    pub truncated: bool,
}

/// A grammar ready to print trees: its rules all normal, on pest_vm.
pub struct TreeGrammar<'g> {
    grammar: &'g Grammar,
    vm: Vm,
}

impl std::fmt::Debug for TreeGrammar<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeGrammar").finish_non_exhaustive()
    }
}

/// Prepares `grammar` for [`TreeGrammar::tree`].
///
/// # Errors
/// [`GrammarError`] if pest_meta refuses the grammar's all-normal copy (it accepted the grammar).
pub fn tree(grammar: &Grammar) -> Result<TreeGrammar<'_>, GrammarError> {
    let source = grammar.source.clone();
    let vm = crate::runtime_limits::on_big_stack(move || {
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
        Ok(optimizer::optimize(ast))
    })?;
    Ok(TreeGrammar {
        grammar,
        vm: Vm::new(vm),
    })
}

impl TreeGrammar<'_> {
    /// The tree of `input` under the rule named `rule`.
    ///
    /// # Errors
    /// [`UnknownRule`] when the grammar has no such rule.
    pub fn tree(
        &self,
        rule: &str,
        input: &str,
        limits: TreeLimits,
    ) -> Result<TreeOutcome, UnknownRule> {
        let entry = self.grammar.entry(rule)?;
        let name = entry.pest_name().to_string();
        let verdict = if input.len() > limits.max_input {
            return Ok(TreeOutcome {
                nodes: Vec::new(),
                error: Some(
                    ParseError::limit(
                        crate::runtime::builtin_rule(entry.rule()),
                        input,
                        0,
                        format!(
                            "the line is {} bytes, longer than the {} bytes a tree is made for",
                            input.len(),
                            limits.max_input
                        ),
                    )
                    .for_loaded_rule(entry.abnf_name()),
                ),
                truncated: false,
            });
        } else {
            entry.parse(input).err()
        };
        raise_vm_call_limit(input.len());
        let mut nodes = Vec::new();
        let mut truncated = false;
        if let Ok(pairs) = self.vm.parse(&name, input) {
            // Pre-order with an explicit stack.
            let mut stack: Vec<(pest::iterators::Pair<'_, &str>, usize)> =
                pairs.rev().map(|p| (p, 0)).collect();
            while let Some((pair, depth)) = stack.pop() {
                if nodes.len() >= limits.max_nodes {
                    truncated = true;
                    break;
                }
                let span = pair.as_span();
                let rule = pair.as_rule();
                let abnf = self
                    .grammar
                    .rule_names()
                    .find(|(pest, _)| *pest == rule)
                    .map_or(rule, |(_, abnf)| abnf);
                nodes.push(TreeNode {
                    rule: abnf.to_string(),
                    start: span.start(),
                    end: span.end(),
                    depth,
                });
                let children: Vec<_> = pair.into_inner().collect();
                stack.extend(children.into_iter().rev().map(|p| (p, depth + 1)));
            }
        }
        Ok(TreeOutcome {
            nodes,
            error: verdict,
            truncated,
        })
    }
}
