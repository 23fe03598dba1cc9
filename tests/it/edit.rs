//! Editing values (the setters `set_scheme` ... `set_fragment`, `push_segment`, `without_query`,
//! `without_fragment`) and unsetting in `UriBuilder`: each edit checked by the component's rule and the
//! structural rules of RFC 3986 3.3 and 4.2.

use proptest::prelude::*;
use rfc3986::{recompose::BuildError, Rule, Uri, UriBuilder, UriRef};
use rstest::rstest;

#[track_caller]
fn assert_invalid(result: Result<(), BuildError>, component: &str, rule: Rule, offset: usize) {
    match result {
        Err(BuildError::InvalidComponent {
            component: c,
            error,
        }) => {
            assert_eq!(c, component);
            assert_eq!(error.rule(), rule);
            assert_eq!(error.offset(), offset, "{error}");
        }
        other => panic!("expected an invalid {component}, got {other:?}"),
    }
}

#[rstest]
#[case::define_query("http://h/a", Some("x"), "http://h/a?x")]
#[case::empty_query_is_defined("http://h/a", Some(""), "http://h/a?")]
#[case::remove_query("http://h/a?x#f", None, "http://h/a#f")]
#[case::replace_keeps_fragment("/a?x#f", Some("y=/?"), "/a?y=/?#f")]
#[case::empty_reference("", Some("q"), "?q")]
fn set_query_writes(#[case] input: &str, #[case] query: Option<&str>, #[case] expected: &str) {
    let mut r = UriRef::parse(input).unwrap();
    r.set_query(query).unwrap();
    assert_eq!(r.as_str(), expected);
    assert_eq!(r.query(), query);
}

#[rstest]
#[case::query_space(Some("a b"), 1)]
#[case::query_hash(Some("a#b"), 1)]
#[case::query_bad_percent(Some("%4"), 2)]
#[case::query_non_ascii(Some("é"), 0)]
fn set_query_rejects(#[case] query: Option<&str>, #[case] offset: usize) {
    let mut r = UriRef::parse("/a?x").unwrap();
    assert_invalid(r.set_query(query), "query", Rule::QUERY, offset);
    assert_eq!(r.as_str(), "/a?x", "unchanged after an error");
}

#[rstest]
#[case::define_fragment("/a", Some("f"), "/a#f")]
#[case::empty_fragment("/a", Some(""), "/a#")]
#[case::remove_fragment("/a?q#f", None, "/a?q")]
#[case::rfc3986_3_5_slash_question("/a", Some("s?x=/y"), "/a#s?x=/y")]
fn set_fragment_writes(
    #[case] input: &str,
    #[case] fragment: Option<&str>,
    #[case] expected: &str,
) {
    let mut r = UriRef::parse(input).unwrap();
    r.set_fragment(fragment).unwrap();
    assert_eq!(r.as_str(), expected);
    assert_eq!(r.fragment(), fragment);
}

#[test]
fn set_fragment_rejects_hash() {
    let mut r = UriRef::parse("/a").unwrap();
    assert_invalid(r.set_fragment(Some("a#b")), "fragment", Rule::FRAGMENT, 1);
}

#[rstest]
#[case::with_authority_absolute("http://h/a?q", "/b/c", "http://h/b/c?q")]
#[case::with_authority_empty("http://h/a?q", "", "http://h?q")]
#[case::uri_rootless("mailto:a", "b@c", "mailto:b@c")]
#[case::uri_colon_first_segment("urn:a", "ex:b", "urn:ex:b")]
#[case::relative_dot_colon("a", "./a:b", "./a:b")]
#[case::relative_absolute("a", "/x", "/x")]
fn set_path_writes(#[case] input: &str, #[case] path: &str, #[case] expected: &str) {
    let mut r = UriRef::parse(input).unwrap();
    r.set_path(path).unwrap();
    assert_eq!(r.as_str(), expected);
    assert_eq!(r.path(), path);
}

/// RFC 3986 3.3 and 4.2: the structural rules, as in `UriBuilder`.
#[rstest]
#[case::rfc3986_3_3_authority_needs_slash("//h", "a", BuildError::RelativePathWithAuthority)]
#[case::rfc3986_3_3_no_double_slash_without_authority(
    "x:a",
    "//b",
    BuildError::PathStartsWithTwoSlashes
)]
#[case::rfc3986_3_3_no_double_slash_relative("a", "//b", BuildError::PathStartsWithTwoSlashes)]
#[case::rfc3986_4_2_colon_in_first_segment("a", "a:b", BuildError::ColonInFirstSegment)]
fn set_path_structure(#[case] input: &str, #[case] path: &str, #[case] error: BuildError) {
    let mut r = UriRef::parse(input).unwrap();
    assert_eq!(r.set_path(path), Err(error));
    assert_eq!(r.as_str(), input);
}

#[test]
fn set_path_rejects_by_rule() {
    let mut r = UriRef::parse("/a").unwrap();
    assert_invalid(r.set_path("/a b"), "path", Rule::PATH, 2);
    assert_invalid(r.set_path("/a?b"), "path", Rule::PATH, 2);
}

#[rstest]
#[case::after_authority_empty_path("http://h", "a", "http://h/a")]
#[case::after_slash("http://h/", "a", "http://h/a")]
#[case::after_segment("http://h/a", "b", "http://h/a/b")]
#[case::after_trailing_slash("http://h/a/", "b", "http://h/a/b")]
#[case::empty_segment_adds_slash("http://h/a", "", "http://h/a/")]
#[case::empty_segment_on_empty_path_with_authority("http://h?q", "", "http://h/?q")]
#[case::relative_empty("", "a", "a")]
#[case::rootless("mailto:a", "b", "mailto:a/b")]
#[case::uri_colon_first_segment("urn:", "a:b", "urn:a:b")]
#[case::encoded_slash("/a", "b%2Fc", "/a/b%2Fc")]
#[case::keeps_query_and_fragment("/a?q#f", "b", "/a/b?q#f")]
fn push_segment_writes(#[case] input: &str, #[case] segment: &str, #[case] expected: &str) {
    let mut r = UriRef::parse(input).unwrap();
    r.push_segment(segment).unwrap();
    assert_eq!(r.as_str(), expected);
}

#[rstest]
#[case::slash("a/b", 1)]
#[case::space("a b", 1)]
#[case::question_mark("?", 0)]
fn push_segment_rejects(#[case] segment: &str, #[case] offset: usize) {
    let mut r = UriRef::parse("/x").unwrap();
    assert_invalid(r.push_segment(segment), "segment", Rule::SEGMENT, offset);
}

#[test]
fn push_segment_colon_in_first_relative_segment() {
    let mut r = UriRef::parse("").unwrap();
    assert_eq!(r.push_segment("a:b"), Err(BuildError::ColonInFirstSegment));
}

#[rstest]
#[case::query_and_fragment("http://h/a?q#f", "http://h/a#f", "http://h/a?q")]
#[case::empty_query("/a?#", "/a#", "/a?")]
#[case::none("/a", "/a", "/a")]
#[case::only_fragment("#f", "#f", "")]
#[case::only_query("?q", "", "?q")]
fn without_components(#[case] input: &str, #[case] no_query: &str, #[case] no_fragment: &str) {
    let r = UriRef::parse(input).unwrap();
    let q = r.without_query();
    assert_eq!(q.as_str(), no_query);
    assert_eq!(q.query(), None);
    assert_eq!(q.fragment(), r.fragment());
    let f = r.without_fragment();
    assert_eq!(f.as_str(), no_fragment);
    assert_eq!(f.fragment(), None);
    assert_eq!(f.query(), r.query());
}

#[test]
fn uri_edits_stay_uris() {
    let mut uri = Uri::parse("http://h/a?q#f").unwrap();
    uri.set_query(None).unwrap();
    uri.set_fragment(Some("g")).unwrap();
    uri.push_segment("b").unwrap();
    assert_eq!(uri.as_str(), "http://h/a/b#g");
    assert_eq!(uri.without_fragment().as_str(), "http://h/a/b");
    assert_eq!(uri.without_query().scheme(), "http");
}

#[rstest]
#[case::scheme(UriBuilder::new().scheme("x").path("a").without_scheme(), "a")]
#[case::authority(UriBuilder::new().scheme("x").userinfo("u").host("h").port("1").path("/a").without_authority(), "x:/a")]
#[case::userinfo(UriBuilder::new().userinfo("u").host("h").without_userinfo(), "//h")]
#[case::port(UriBuilder::new().host("h").port("1").without_port(), "//h")]
#[case::query(UriBuilder::new().query("").without_query(), "")]
#[case::fragment(UriBuilder::new().fragment("").without_fragment(), "")]
fn builder_unsets(#[case] builder: UriBuilder<'_>, #[case] expected: &str) {
    assert_eq!(builder.build().unwrap().as_str(), expected);
}

/// An authority removed under a path starting with `//` is refused (3.3).
#[test]
fn builder_without_authority_keeps_structure_rules() {
    let r = UriRef::parse("x://h//a").unwrap();
    assert_eq!(
        UriBuilder::from(&r).without_authority().build(),
        Err(BuildError::PathStartsWithTwoSlashes)
    );
}

fn reference() -> impl Strategy<Value = String> {
    (
        prop::option::of("[a-z][a-z0-9+.-]{0,4}"),
        prop::option::of("[a-z0-9.]{0,6}"),
        "(/([a-z0-9:@]|%2F){0,4}){0,3}",
        prop::option::of("[a-z0-9=&/?]{0,6}"),
        prop::option::of("[a-z0-9/?]{0,6}"),
    )
        .prop_map(|(s, h, p, q, f)| {
            let mut out = String::new();
            if let Some(s) = s {
                out.push_str(&s);
                out.push(':');
            }
            if let Some(h) = h {
                out.push_str("//");
                out.push_str(&h);
            }
            out.push_str(&p);
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q);
            }
            if let Some(f) = f {
                out.push('#');
                out.push_str(&f);
            }
            out
        })
        .prop_filter("a URI reference", |s| UriRef::parse(s).is_ok())
}

proptest! {
    /// Editing the query or fragment, then parsing the text again, gives the same components: the new
    /// one where it was set and every other one as before.
    #[test]
    fn edit_then_reparse_same_components(
        input in reference(),
        query in prop::option::of("([a-z0-9=&/?]|%2[0-9]){0,6}"),
        fragment in prop::option::of("[a-z0-9/?]{0,6}"),
    ) {
        let original = UriRef::parse(&input).unwrap();
        let mut r = original.clone();
        let q = r.set_query(query.as_deref());
        if q.is_ok() {
            prop_assert_eq!(r.query(), query.as_deref());
        }
        r.set_fragment(fragment.as_deref()).unwrap();
        let text = r.as_str().to_owned();
        let again = UriRef::parse(&text).unwrap();
        prop_assert_eq!(again.scheme(), original.scheme());
        prop_assert_eq!(again.authority().map(|a| a.as_str()), original.authority().map(|a| a.as_str()));
        prop_assert_eq!(again.path(), original.path());
        prop_assert_eq!(again.query(), r.query());
        prop_assert_eq!(again.fragment(), fragment.as_deref());
    }

    /// Pushing a segment: the path's segments are the old ones (less a trailing empty one) and the new.
    #[test]
    fn push_segment_then_reparse(input in reference(), segment in "[a-z0-9@]{1,4}") {
        let mut r = UriRef::parse(&input).unwrap();
        let mut expected: Vec<String> = r.path_segments().map(str::to_owned).collect();
        if expected.last().is_some_and(|s| s.is_empty()) {
            expected.pop();
        }
        expected.push(segment.clone());
        if r.push_segment(&segment).is_ok() {
            let text = r.as_str().to_owned();
            let again = UriRef::parse(&text).unwrap();
            let got: Vec<String> = again.path_segments().map(str::to_owned).collect();
            prop_assert_eq!(got, expected);
        }
    }

    /// Removing a component never fails and keeps the rest.
    #[test]
    fn without_keeps_the_rest(input in reference()) {
        let r = UriRef::parse(&input).unwrap();
        let q = r.without_query();
        let f = r.without_fragment();
        prop_assert_eq!(UriRef::parse(q.as_str()).unwrap(), q.clone());
        prop_assert_eq!((q.path(), q.fragment(), q.authority().map(|a| a.as_str())), (r.path(), r.fragment(), r.authority().map(|a| a.as_str())));
        prop_assert_eq!((f.path(), f.query(), f.authority().map(|a| a.as_str())), (r.path(), r.query(), r.authority().map(|a| a.as_str())));
    }
}

/// The authority and scheme setters (RFC 3986 3.1, 3.2.1, 3.2.2, 3.2.3): each writes its component, keeps
/// the others, and is undone by `None` where the component may be undefined.
#[rstest]
#[case::scheme_replaced("http://h/a", |r: &mut UriRef<'_>| r.set_scheme(Some("HTTPS")), "HTTPS://h/a")]
#[case::scheme_removed("http://h/a?q", |r: &mut UriRef<'_>| r.set_scheme(None), "//h/a?q")]
#[case::scheme_added("//h/a", |r: &mut UriRef<'_>| r.set_scheme(Some("ftp")), "ftp://h/a")]
#[case::userinfo_added("http://h/", |r: &mut UriRef<'_>| r.set_userinfo(Some("u:p%40")), "http://u:p%40@h/")]
#[case::userinfo_empty("http://u@h/", |r: &mut UriRef<'_>| r.set_userinfo(Some("")), "http://@h/")]
#[case::userinfo_removed("http://u@h:1/", |r: &mut UriRef<'_>| r.set_userinfo(None), "http://h:1/")]
#[case::host_replaced_keeps_userinfo_port("http://u@a:1/p", |r: &mut UriRef<'_>| r.set_host(Some("b")), "http://u@b:1/p")]
#[case::host_added_to_absolute_path("/p?q", |r: &mut UriRef<'_>| r.set_host(Some("h")), "//h/p?q")]
#[case::host_empty("http://h/p", |r: &mut UriRef<'_>| r.set_host(Some("")), "http:///p")]
#[case::host_ipv4("http://h/", |r: &mut UriRef<'_>| r.set_host(Some("192.0.2.1")), "http://192.0.2.1/")]
#[case::host_ipvfuture("http://h/", |r: &mut UriRef<'_>| r.set_host(Some("[v7.a]")), "http://[v7.a]/")]
#[case::host_removed_with_authority("http://u@h:1/p", |r: &mut UriRef<'_>| r.set_host(None), "http:/p")]
#[case::port_added("http://h/", |r: &mut UriRef<'_>| r.set_port(Some("8080")), "http://h:8080/")]
#[case::port_empty_is_grammar("http://h/", |r: &mut UriRef<'_>| r.set_port(Some("")), "http://h:/")]
#[case::port_over_u16_is_grammar("http://h/", |r: &mut UriRef<'_>| r.set_port(Some("99999")), "http://h:99999/")]
#[case::port_removed("http://h:80/", |r: &mut UriRef<'_>| r.set_port(None), "http://h/")]
#[case::port_u16("http://h/", |r: &mut UriRef<'_>| r.set_port_u16(Some(443)), "http://h:443/")]
fn setters_write(
    #[case] input: &str,
    #[case] edit: fn(&mut UriRef<'_>) -> Result<(), BuildError>,
    #[case] expected: &str,
) {
    let mut r = UriRef::parse(input).unwrap();
    edit(&mut r).unwrap();
    assert_eq!(r.as_str(), expected);
    assert_eq!(
        UriRef::parse(expected).unwrap(),
        r,
        "the edit's components are the parse's"
    );
}

/// A rejected setter leaves the value unchanged and says why.
#[rstest]
#[case::scheme_digit_first("http://h/", |r: &mut UriRef<'_>| r.set_scheme(Some("1a")), "scheme")]
#[case::scheme_empty("http://h/", |r: &mut UriRef<'_>| r.set_scheme(Some("")), "scheme")]
#[case::userinfo_at("http://h/", |r: &mut UriRef<'_>| r.set_userinfo(Some("a@b")), "userinfo")]
#[case::host_space("http://h/", |r: &mut UriRef<'_>| r.set_host(Some("a b")), "host")]
#[case::host_unclosed_literal("http://h/", |r: &mut UriRef<'_>| r.set_host(Some("[::1")), "host")]
#[case::host_zone_id("http://h/", |r: &mut UriRef<'_>| r.set_host(Some("[fe80::1%25eth0]")), "host")]
#[case::port_letters("http://h/", |r: &mut UriRef<'_>| r.set_port(Some("80a")), "port")]
#[case::port_sign("http://h/", |r: &mut UriRef<'_>| r.set_port(Some("-1")), "port")]
fn setters_reject_by_rule(
    #[case] input: &str,
    #[case] edit: fn(&mut UriRef<'_>) -> Result<(), BuildError>,
    #[case] component: &str,
) {
    let mut r = UriRef::parse(input).unwrap();
    match edit(&mut r) {
        Err(BuildError::InvalidComponent { component: c, .. }) => assert_eq!(c, component),
        other => panic!("expected an invalid {component}, got {other:?}"),
    }
    assert_eq!(r.as_str(), input, "unchanged");
}

/// The structural rules of RFC 3986 3.2, 3.3 and 4.2 hold whichever component is set.
#[rstest]
#[case::userinfo_needs_host("/a", |r: &mut UriRef<'_>| r.set_userinfo(Some("u")), BuildError::MissingHost { component: "userinfo" })]
#[case::port_needs_host("a", |r: &mut UriRef<'_>| r.set_port(Some("1")), BuildError::MissingHost { component: "port" })]
#[case::host_before_rootless_path("a/b", |r: &mut UriRef<'_>| r.set_host(Some("h")), BuildError::RelativePathWithAuthority)]
#[case::no_authority_before_two_slashes("http://h//a", |r: &mut UriRef<'_>| r.set_host(None), BuildError::PathStartsWithTwoSlashes)]
#[case::no_scheme_before_colon_segment("urn:isbn:1", |r: &mut UriRef<'_>| r.set_scheme(None), BuildError::ColonInFirstSegment)]
fn setters_keep_structure(
    #[case] input: &str,
    #[case] edit: fn(&mut UriRef<'_>) -> Result<(), BuildError>,
    #[case] error: BuildError,
) {
    let mut r = UriRef::parse(input).unwrap();
    assert_eq!(edit(&mut r), Err(error));
    assert_eq!(r.as_str(), input, "unchanged");
}

#[test]
fn uri_setters_stay_uris() {
    let mut uri = Uri::parse("http://h/a").unwrap();
    uri.set_scheme("https").unwrap();
    uri.set_userinfo(Some("u")).unwrap();
    uri.set_host(Some("[2001:db8::1]")).unwrap();
    uri.set_port_u16(Some(8443)).unwrap();
    assert_eq!(uri.as_str(), "https://u@[2001:db8::1]:8443/a");
    assert!(uri.set_scheme("").is_err());
    assert_eq!(uri.scheme(), "https");
}

proptest! {
    /// Setting every component to the value it already has changes nothing (the setters write the
    /// component as given, and the recomposition of 5.3 is the input).
    #[test]
    fn setting_the_same_components_is_identity(input in reference()) {
        let original = UriRef::parse(&input).unwrap();
        let mut r = original.clone();
        r.set_scheme(original.scheme()).unwrap();
        if original.authority().is_some() {
            r.set_host(original.host_str()).unwrap();
            r.set_userinfo(original.userinfo()).unwrap();
            r.set_port(original.port()).unwrap();
        }
        r.set_path(original.path()).unwrap();
        r.set_query(original.query()).unwrap();
        r.set_fragment(original.fragment()).unwrap();
        prop_assert_eq!(r.as_str(), original.as_str());
    }
}
