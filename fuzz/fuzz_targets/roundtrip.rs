//! Parse, then Display: `to_string() == input`, and the text re-parses to the same components, by
//! `UriRef::parse`, `Uri::parse`, the owned `FromStr` values and `UriBuilder`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        rfc3986_fuzz::check_roundtrip(text);
    }
});
