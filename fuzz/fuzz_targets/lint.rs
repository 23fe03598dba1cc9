//! Lint never panics, its spans are inside the input on character boundaries, and no message repeats a
//! password.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        rfc3986_fuzz::check_lint(text);
    }
});
