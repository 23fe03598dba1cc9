//! Allocations, counted by a global allocator that wraps the system one: parsing a borrowed URI allocates
//! nothing (the compiled fast path keeps its events on the stack and the value borrows the text);
//! resolving and normalizing allocate exactly once, for the output string. Each count is taken on the
//! current thread only, so the test harness's own threads do not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rfc3986::{validate, Rule, Uri, UriRef};

struct Counting;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations (and reallocations) `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = COUNT.with(Cell::get);
    let value = f();
    (value, COUNT.with(Cell::get) - before)
}

const SAMPLE: &str = include_str!("../../data/real-uris-sample.txt");
const PAIRS: &str = include_str!("../../data/real-refs-sample.tsv");

#[test]
fn parsing_a_borrowed_uri_allocates_nothing() {
    let mut parsed = 0;
    for line in SAMPLE.lines() {
        let (result, count) = allocations(|| UriRef::parse(line).map(|r| r.path().len()));
        if result.is_ok() {
            assert_eq!(count, 0, "UriRef::parse({line:?})");
            let (_, count) = allocations(|| validate(Rule::URI_REFERENCE, line));
            assert_eq!(count, 0, "validate({line:?})");
            parsed += 1;
        }
    }
    assert!(parsed > 3_000, "{parsed}");
}

#[test]
fn resolving_allocates_the_target_only() {
    let mut resolved = 0;
    for line in PAIRS.lines() {
        let Some((base, reference)) = line.split_once('\t') else {
            continue;
        };
        let (Ok(base), Ok(reference)) = (Uri::parse(base), UriRef::parse(reference)) else {
            continue;
        };
        let (target, count) = allocations(|| reference.resolve_against(&base));
        let target = target.expect("resolves");
        assert_eq!(count, 1, "{reference} against {base} -> {target}");
        resolved += 1;
    }
    assert!(resolved > 2_500, "{resolved}");
}

#[test]
fn normalizing_allocates_the_normal_form_only() {
    for line in SAMPLE.lines() {
        let Ok(r) = UriRef::parse(line) else { continue };
        let (normal, count) = allocations(|| r.normalize());
        assert_eq!(count, 1, "{line:?} -> {normal}");
    }
}
