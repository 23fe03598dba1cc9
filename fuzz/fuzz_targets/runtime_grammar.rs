//! uri.pest loaded at run time (`Grammar::load`) against the built-in parser on `URI-reference`: same
//! verdict, same components.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        rfc3986_fuzz::check_runtime_grammar(text);
    }
});
