//! Arbitrary bytes through the `absolute-URI` rule: verdicts of every entry point agree, accepted input splits
//! into components that recompose to it (RFC 3986 5.3), rejected input has an error inside it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc3986::Rule;

fuzz_target!(|data: &[u8]| rfc3986_fuzz::check_rule(Rule::ABSOLUTE_URI, data));
