//! Arbitrary bytes through a rule chosen by the first byte over `Rule::all()` (so every rule of `uri.pest`,
//! down to `dec-octet` and `HEXDIG`, gets fuzzed), with the same checks as the top-rule targets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc3986::Rule;

fuzz_target!(|data: &[u8]| {
    if let Some((&first, rest)) = data.split_first() {
        let rules: Vec<Rule> = Rule::all().collect();
        rfc3986_fuzz::check_rule(rules[usize::from(first) % rules.len()], rest);
    }
});
