//! `validate_bytes` on arbitrary bytes against `validate` on the text when it is UTF-8: same verdict, same
//! error; the offset is inside the input and `annotate` never panics. The first byte picks the rule.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc3986::Rule;

fuzz_target!(|data: &[u8]| {
    if let Some((&first, rest)) = data.split_first() {
        let rules: Vec<Rule> = Rule::all().collect();
        rfc3986_fuzz::check_validate_bytes(rules[usize::from(first) % rules.len()], rest);
    }
});
