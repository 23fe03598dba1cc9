//! Normalization (RFC 3986 6.2.2, 6.2.3) at the Syntax and Scheme levels: idempotent, the normal form
//! parses and is `equivalent` to the input, a URI stays a URI.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        rfc3986_fuzz::check_normalize(text);
    }
});
