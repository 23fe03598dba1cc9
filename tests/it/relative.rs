//! Making a reference relative (the inverse of RFC 3986 5.2): the law `make_relative(base, target)`
//! resolves back to `target`, on the RFC's examples, on the real (base, reference) pairs shipped in
//! `data/`, and on generated pairs; plus the shortest forms on hand-checked cases.

use proptest::prelude::*;
use rfc3986::resolve::make_relative;
use rfc3986::{Uri, UriRef};
use rstest::rstest;

/// Resolves `reference` against `base`, then checks that `make_relative(base, target)` exists and
/// resolves to the same target text.
#[track_caller]
fn assert_round_trip(base: &str, reference: &str) {
    let base = Uri::parse(base).unwrap();
    let target = UriRef::parse(reference)
        .unwrap()
        .resolve_against(&base)
        .unwrap();
    let relative = make_relative(&base, &target)
        .unwrap_or_else(|| panic!("no reference from {base} to {target} (from {reference:?})"));
    let back = relative.resolve_against(&base).unwrap();
    assert_eq!(
        back.as_str(),
        target.as_str(),
        "base {base}, reference {reference:?}, made {relative}"
    );
}

/// RFC 3986 5.4.1 and 5.4.2: every example's target can be reached back from the base.
#[rstest]
fn make_relative_inverts_rfc3986_5_4_examples(
    #[values(
        "g:h",
        "g",
        "./g",
        "g/",
        "/g",
        "//g",
        "?y",
        "g?y",
        "#s",
        "g#s",
        "g?y#s",
        ";x",
        "g;x",
        "g;x?y#s",
        "",
        ".",
        "./",
        "..",
        "../",
        "../g",
        "../..",
        "../../",
        "../../g",
        "../../../g",
        "../../../../g",
        "/./g",
        "/../g",
        "g.",
        ".g",
        "g..",
        "..g",
        "./../g",
        "./g/.",
        "g/./h",
        "g/../h",
        "g;x=1/./y",
        "g;x=1/../y",
        "g?y/./x",
        "g?y/../x",
        "g#s/./x",
        "g#s/../x",
        "http:g"
    )]
    reference: &str,
) {
    assert_round_trip("http://a/b/c/d;p?q", reference);
}

/// The shortest form, checked by hand against 5.2.2 (each resolves back to the target).
#[rstest]
#[case::same("http://a/b/c/d;p?q", "http://a/b/c/d;p?q", "")]
#[case::fragment_only("http://a/b/c/d;p?q", "http://a/b/c/d;p?q#", "#")]
#[case::query("http://a/b/c/d;p?q", "http://a/b/c/d;p?", "?")]
#[case::no_query_needs_a_path("http://a/b/c/d;p?q", "http://a/b/c/d;p", "d;p")]
#[case::no_query_last_segment_empty("http://a/b/?q", "http://a/b/", "./")]
#[case::sibling("http://a/b/c/d;p?q", "http://a/b/c/g", "g")]
#[case::tie_goes_to_relative("http://a/b/c/d;p?q", "http://a/b/", "../")]
#[case::absolute_is_shorter("http://a/b/c/d;p?q", "http://a/g", "/g")]
#[case::colon_in_first_segment("http://a/b/c/d;p?q", "http://a/b/c/g:h", "./g:h")]
#[case::empty_first_segment("http://a/b/c", "http://a/b//g", ".//g")]
#[case::authority("http://a/b", "http://g", "//g")]
#[case::authority_userinfo_port("http://a/b", "http://u@a:8/b", "//u@a:8/b")]
#[case::scheme("http://a/b", "https://a/b", "https://a/b")]
#[case::scheme_case_is_text("http://a/b", "HTTP://a/b", "HTTP://a/b")]
#[case::base_empty_path("http://a", "http://a/x", "x")]
#[case::target_without_authority("http://a/b", "http:/b", "http:/b")]
#[case::rootless("mailto:a@example.org", "mailto:b@example.org", "b@example.org")]
#[case::rootless_with_colon("urn:a:b", "urn:a:c", "urn:a:c")]
#[case::file(
    "file:///usr/share/doc/a.html",
    "file:///usr/share/img/b.png",
    "../img/b.png"
)]
fn make_relative_shortest_form(#[case] base: &str, #[case] target: &str, #[case] expected: &str) {
    let base = Uri::parse(base).unwrap();
    let target = Uri::parse(target).unwrap();
    let r = make_relative(&base, &target).unwrap();
    assert_eq!(r.as_str(), expected);
    assert_eq!(r.resolve_against(&base).unwrap().as_str(), target.as_str());
    assert_eq!(base.make_relative(&target), Some(r));
}

/// Targets no resolution against the base can produce: a dot-segment left in the path (5.2.4 removes
/// them) that the base's own path does not hold.
#[rstest]
#[case::dot_dot("http://a/b/c", "http://a/b/../c")]
#[case::dot("http://a/b/c", "http://a/./c")]
#[case::other_authority("http://a/b/c", "http://g/x/../y")]
fn make_relative_none_for_unreachable_targets(#[case] base: &str, #[case] target: &str) {
    let base = Uri::parse(base).unwrap();
    let target = Uri::parse(target).unwrap();
    assert_eq!(make_relative(&base, &target), None);
}

/// Every real (base, reference) pair of `data/real-refs-sample.tsv` whose base is a URI: the resolved
/// target is reached back.
#[test]
fn make_relative_inverts_real_pairs() {
    let mut checked = 0;
    for line in include_str!("../../data/real-refs-sample.tsv").lines() {
        let Some((base, reference)) = line.split_once('\t') else {
            continue;
        };
        let (Ok(_), Ok(_)) = (Uri::parse(base), UriRef::parse(reference)) else {
            continue;
        };
        assert_round_trip(base, reference);
        checked += 1;
    }
    assert!(checked > 2500, "only {checked} pairs checked");
}

fn segment() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["a", "b", ".", "..", "", "g;x", "x:y", "%2E", "c=5"])
}

fn path(absolute: bool) -> impl Strategy<Value = String> {
    prop::collection::vec(segment(), 0..5).prop_map(move |segments| {
        let joined = segments.join("/");
        if absolute {
            format!("/{joined}")
        } else {
            joined
        }
    })
}

fn opt(values: Vec<&'static str>) -> impl Strategy<Value = Option<&'static str>> {
    prop::option::of(prop::sample::select(values))
}

fn text(
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> String {
    let mut s = String::new();
    if let Some(x) = scheme {
        s = format!("{x}:");
    }
    if let Some(x) = authority {
        s += "//";
        s += x;
    }
    s += path;
    if let Some(x) = query {
        s += "?";
        s += x;
    }
    if let Some(x) = fragment {
        s += "#";
        s += x;
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The law over generated bases and references: whatever a resolution produced, make_relative
    /// finds a reference back to it.
    #[test]
    fn make_relative_inverts_resolution(
        base in (opt(vec!["h", "", "u@h:8"]), any::<bool>(), path(true), path(false), opt(vec!["q", ""]))
            .prop_map(|(a, abs, p, r, q)| {
                let p = if a.is_some() || abs { p } else { r };
                let p = if a.is_none() && p.starts_with("//") { format!("/.{p}") } else { p };
                text(Some("f"), a, &p, q, None)
            }),
        reference in (opt(vec!["f", "g"]), opt(vec!["h", "g", ""]), any::<bool>(), path(true), path(false), opt(vec!["y", ""]), opt(vec!["s", ""]))
            .prop_map(|(s, a, abs, p, r, q, f)| {
                let p = if a.is_some() || abs { p } else { r };
                text(s, a, &p, q, f)
            }),
    ) {
        prop_assume!(Uri::parse(&base).is_ok() && UriRef::parse(&reference).is_ok());
        assert_round_trip(&base, &reference);
    }
}
