//! Hostile grammar text: a `.pest` file (mutated from the shipped grammars) loaded at run time, alone and
//! as an overlay on uri.pest, then its start rule matched against an input. Loading either fails with
//! positioned issues or gives a grammar that matches without panicking or overflowing the stack.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    rfc3986_fuzz::keep_last_input(data);
    rfc3986_fuzz::check_grammar_text(data);
});
