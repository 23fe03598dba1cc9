//! The traits Rust users expect of `UriRef` and `Uri`: conversions (without a copy where the text is
//! owned), comparisons consistent with `Eq`/`Hash`/`Borrow<str>`, ordering, `Deref`, `join`, and
//! `equivalent` on either type.

use std::collections::{BTreeSet, HashSet};

use rfc3986::normalize::{equivalent, Level};
use rfc3986::{Uri, UriRef};
use rstest::rstest;

#[test]
fn try_from_string_keeps_the_buffer() {
    let text = String::from("http://a/b?q#f");
    let ptr = text.as_ptr();
    let r = UriRef::try_from(text).unwrap();
    assert_eq!(r.query(), Some("q"));
    let back = String::from(r);
    assert_eq!(back.as_ptr(), ptr, "no copy either way");

    let text = String::from("urn:a:b");
    let ptr = text.as_ptr();
    let u = Uri::try_from(text).unwrap();
    assert_eq!(u.scheme(), "urn");
    let back = String::from(u);
    assert_eq!(back.as_ptr(), ptr);
}

#[rstest]
#[case::space("http://a/b c")]
#[case::relative_is_not_a_uri("/a")]
fn try_from_string_rejects(#[case] text: &str) {
    let as_uri = Uri::try_from(text.to_owned());
    assert!(as_uri.is_err());
    if text.contains(' ') {
        assert!(UriRef::try_from(text.to_owned()).is_err());
    }
}

#[test]
fn from_str_and_try_from_str() {
    let r: UriRef<'static> = "../g".parse().unwrap();
    assert_eq!(r.path(), "../g");
    let u: Uri<'static> = "http://a/".parse().unwrap();
    assert_eq!(u.host_str(), Some("a"));
    assert!("../g".parse::<Uri<'static>>().is_err());
    assert!(UriRef::try_from("a b").is_err());
}

#[test]
fn equality_with_text_both_ways() {
    let r = UriRef::parse("http://a/%7e").unwrap();
    assert!(r == "http://a/%7e");
    assert!(r == *"http://a/%7e");
    assert!("http://a/%7e" == r);
    let owned = String::from("http://a/%7e");
    assert!(owned == r);
    assert!(r != "http://a/~"); // simple string comparison (6.2.1)
    let u = Uri::parse("http://a/%7e").unwrap();
    assert!(u == "http://a/%7e");
    assert!("http://a/%7e" == u);
    assert!(u == r);
    assert!(r == u);
}

#[test]
fn hash_sets_look_up_by_str() {
    let set: HashSet<UriRef<'static>> = ["http://a/", "../b", "http://a/"]
        .into_iter()
        .map(|s| UriRef::parse(s).unwrap().into_owned())
        .collect();
    assert_eq!(set.len(), 2);
    assert!(set.contains("../b"));
    assert!(!set.contains("http://A/"));
    let uris: HashSet<Uri<'_>> = [Uri::parse("x:y").unwrap()].into_iter().collect();
    assert!(uris.contains("x:y"));
}

#[test]
fn ordering_is_by_text() {
    let set: BTreeSet<UriRef<'_>> = ["b:", "a:z", "a:b", "/"]
        .into_iter()
        .map(|s| UriRef::parse(s).unwrap())
        .collect();
    let order: Vec<&str> = set.iter().map(|r| r.as_str()).collect();
    assert_eq!(order, ["/", "a:b", "a:z", "b:"]);
    assert!(Uri::parse("a:b").unwrap() < Uri::parse("a:c").unwrap());
}

#[test]
fn uri_derefs_to_its_reference() {
    let u = Uri::parse("http://u@h:8/p?q#f").unwrap();
    // UriRef's accessors through Deref; `scheme` stays Uri's own (not optional).
    assert_eq!(u.scheme(), "http");
    assert_eq!(
        (u.userinfo(), u.host_str(), u.port_u16(), u.path()),
        (Some("u"), Some("h"), Some(8), "/p")
    );
    let r: &UriRef<'_> = &u;
    assert_eq!(r.scheme(), Some("http"));
    assert_eq!(
        format!("{u:?}").replacen("Uri", "UriRef", 1),
        format!("{r:?}")
    );
}

/// `Uri::join` is parse + resolve (RFC 3986 5.2); the examples of 5.4.1.
#[rstest]
#[case::sibling("g", "http://a/b/c/g")]
#[case::parent("../g", "http://a/b/g")]
#[case::query("?y", "http://a/b/c/d;p?y")]
#[case::scheme("g:h", "g:h")]
#[case::empty("", "http://a/b/c/d;p?q")]
fn join(#[case] reference: &str, #[case] target: &str) {
    let base = Uri::parse("http://a/b/c/d;p?q").unwrap();
    assert_eq!(base.join(reference).unwrap(), target);
}

#[test]
fn join_reports_an_invalid_reference() {
    let base = Uri::parse("http://a/").unwrap();
    assert!(matches!(
        base.join("a b"),
        Err(rfc3986::resolve::ResolveError::Reference(_))
    ));
}

#[test]
fn equivalent_takes_either_type() {
    let u = Uri::parse("HTTP://a/").unwrap();
    let r = UriRef::parse("http://a/").unwrap();
    assert!(equivalent(&u, &r, Level::Syntax));
    assert!(equivalent(&r, &u, Level::Syntax));
    assert!(equivalent(&u, &u, Level::Simple));
    assert!(!equivalent(&u, &r, Level::Simple));
}
