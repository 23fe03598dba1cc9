//! Percent-encoding round trip: for every component, `decode(encode(s)) == s`, `encode(s)` matches the
//! component's rule, and `decode` of arbitrary text never panics and reports errors inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rfc3986_fuzz::check_percent(data));
