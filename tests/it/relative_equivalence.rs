//! Equivalence of relative references (RFC 3986 6.1, 6.2): two references are equivalent at a level
//! when, against every base URI, their targets (5.2.2) are equivalent at that level. The normal form of a
//! relative-path reference resolves, against every kind of base (an empty, rootless or `/`-rooted base
//! directory, with or without authority, shallow or deep), to a target equivalent to the original's; and
//! two references whose first segment is not popped by a `..` are equivalent exactly when their targets
//! are. Checked on the issue's example, by hand on tricky cases, and on generated paths.

use proptest::prelude::*;
use rfc3986::normalize::{equivalent, Level};
use rfc3986::{Uri, UriRef};
use rstest::rstest;

/// Bases of every shape 5.2.3 distinguishes: an empty path without authority, a path without "/", a
/// rootless path, "/"-rooted paths of several depths, an authority with an empty or deep path.
const BASES: &[&str] = &[
    "f:",
    "f:x",
    "f:b/c",
    "f:b/c/d/e/",
    "f:/",
    "f:/x",
    "f:/x/y/z/w",
    "f://h",
    "f://h/x/",
    "f://h/x/y/z/w?q",
];

/// The syntax-based normal forms of the targets of `reference` against each base.
fn targets(reference: &str) -> Vec<String> {
    let r = UriRef::parse(reference).unwrap();
    BASES
        .iter()
        .map(|b| {
            let base = Uri::parse(b).unwrap();
            r.resolve_against(&base).unwrap().normalize().to_string()
        })
        .collect()
}

#[rstest]
#[case::issue_example("././/my:sharona", ".//my:sharona")]
#[case::leading_dot("./a", "a")]
#[case::inner_dot("a/./b", "a/b")]
#[case::trailing_dot("a/.", "a/")]
#[case::dot_alone(".", "./")]
#[case::pair("a/b/../c", "a/c")]
#[case::trailing_dot_dot("a/b/..", "a/")]
#[case::encoded_dot("a/%2E/b", "a/b")]
#[case::colon_after_dot("./a:b", "./a:b")]
#[case::empty_segment_popped("a//../b", "a/b")]
#[case::all_but_first_popped("a/b/c/../..", "a/")]
#[case::first_segment_popped_kept_as_written("a/./../b", "a/../b")]
fn equivalent_relative_references(#[case] a: &str, #[case] b: &str) {
    assert!(equivalent(
        &UriRef::parse(a).unwrap(),
        &UriRef::parse(b).unwrap(),
        Level::Syntax
    ));
    assert_eq!(targets(a), targets(b), "targets differ for {a} and {b}");
}

/// Pairs that look alike but reach different targets against some base: normalization must keep them
/// apart.
#[rstest]
#[case::first_segment_popped("a/../b", "b")] // against "f:" 5.2.4 gives "/b" and "b"
#[case::after_leading_dot_dot("../a/../b", "../b")] // against "f:" a leading "../" is dropped
#[case::climbing("../a", "a")]
#[case::climbing_twice("../../a", "../a")]
#[case::empty_reference("", "./")]
fn not_equivalent_relative_references(#[case] a: &str, #[case] b: &str) {
    assert!(!equivalent(
        &UriRef::parse(a).unwrap(),
        &UriRef::parse(b).unwrap(),
        Level::Syntax
    ));
    assert_ne!(targets(a), targets(b), "{a} and {b} reach the same targets");
}

/// What the crate promises for `%2E`: comparison follows section 6, where `%2E` is `.` (2.3: a
/// percent-encoded unreserved character is the character; 6.2.2.2 decodes it before 6.2.2.3 removes
/// dot-segments), while resolution follows 5.2.4 to the letter, where only the literal `.` and `..` are
/// dot-segments. So `%2E/..` and `..` are equivalent references, yet resolve to different paths; to compare
/// what a server receives, resolve first and compare the targets.
#[test]
fn encoded_dot_is_a_dot_for_comparison_not_for_resolution() {
    let a = UriRef::parse("%2E/..").unwrap();
    let b = UriRef::parse("..").unwrap();
    assert!(equivalent(&a, &b, Level::Syntax));
    let base = Uri::parse("http://h/x/y/z").unwrap();
    assert_eq!(a.resolve_against(&base).unwrap().as_str(), "http://h/x/y/");
    assert_eq!(b.resolve_against(&base).unwrap().as_str(), "http://h/x/");
    // The same holds for URIs (the issue's example): normalization decodes, then removes.
    let uri = UriRef::parse("http://h/a/%2E%2E/../b").unwrap();
    assert_eq!(uri.normalize().as_str(), "http://h/b");
    let resolved = UriRef::parse("/a/%2E%2E/../b")
        .unwrap()
        .resolve_against(&Uri::parse("http://h/").unwrap())
        .unwrap();
    assert_eq!(resolved.as_str(), "http://h/a/b");
}

/// Whether a `..` of `path` pops the first segment that is not `..` (5.2.4 run on a stack of segments).
fn pops_first_segment(path: &str) -> bool {
    let mut plain = 0;
    for segment in path.replace("%2E", ".").split('/') {
        match segment {
            "." => {}
            ".." if plain == 1 => return true,
            ".." if plain > 1 => plain -= 1,
            ".." => {}
            _ => plain += 1,
        }
    }
    false
}

fn relative_path() -> impl Strategy<Value = String> {
    prop::collection::vec(
        // No "%2E": see `encoded_dot_is_a_dot_for_comparison_not_for_resolution`.
        prop::sample::select(vec!["a", "b", ".", "..", "", "%41", "x:y"]),
        1..7,
    )
    .prop_map(|segments| segments.join("/"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The normal form of a relative reference reaches targets equivalent to the original's against
    /// every base shape.
    #[test]
    fn normal_form_keeps_every_target(path in relative_path(), query in prop::option::of("[a-z]{0,2}")) {
        let text = match &query {
            Some(q) => format!("{path}?{q}"),
            None => path.clone(),
        };
        let Ok(r) = UriRef::parse(&text) else { return Ok(()); };
        if r.scheme().is_some() || r.authority().is_some() {
            return Ok(());
        }
        let normal = r.normalize().to_string();
        prop_assert_eq!(targets(&normal), targets(&text), "{} -> {}", text, normal);
    }

    /// Equivalent references reach equivalent targets against every base shape; and, when no first
    /// segment is popped by a `..` (kept as written, see `reduce_relative_path_at`), the converse.
    #[test]
    fn equivalent_iff_same_targets(a in relative_path(), b in relative_path()) {
        let (Ok(ra), Ok(rb)) = (UriRef::parse(&a), UriRef::parse(&b)) else { return Ok(()); };
        if ra.scheme().is_some() || rb.scheme().is_some() || ra.authority().is_some() || rb.authority().is_some() {
            return Ok(());
        }
        let same = targets(&a) == targets(&b);
        let equivalent = equivalent(&ra, &rb, Level::Syntax);
        if equivalent {
            prop_assert!(same, "{} and {} are equivalent but reach different targets", a, b);
        } else if !pops_first_segment(&a) && !pops_first_segment(&b) {
            prop_assert!(!same, "{} and {} reach the same targets but are not equivalent", a, b);
        }
    }
}
