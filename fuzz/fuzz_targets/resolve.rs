//! Base and reference split at the first NUL (or halfway): resolution (RFC 3986 5.2) never fails, the
//! target re-parses to the same components and is stable, and strict/non-strict differ only on a same scheme.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rfc3986_fuzz::check_resolve(data));
