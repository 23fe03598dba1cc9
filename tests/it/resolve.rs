//! Reference resolution (RFC 3986 section 5): the examples of 5.4, the worked examples of 5.2.4, and a
//! literal transcription of the pseudo-code of 5.2.2 (with 5.2.3 and 5.2.4) as an oracle for generated
//! inputs.

use proptest::prelude::*;
use rfc3986::{
    resolve::merge, resolve::remove_dot_segments, resolve::ResolveError, resolve::Resolver, Error,
    Uri, UriRef,
};
use rstest::rstest;

use crate::common::generate::{opt, path, reference_text};

const BASE: &str = "http://a/b/c/d;p?q";

#[track_caller]
fn assert_resolves(base: &str, reference: &str, target: &str) {
    let base = Uri::parse(base).expect("base parses");
    let r = UriRef::parse(reference).expect("reference parses");
    let t = r.resolve_against(&base).expect("reference resolves");
    assert_eq!(t.to_string(), target, "{reference:?} against {base}");
    assert_eq!(
        oracle::resolve(base.as_str(), reference, true),
        target,
        "oracle: {reference:?} against {base}"
    );
}

#[rstest]
#[case::scheme("g:h", "g:h")]
#[case::g("g", "http://a/b/c/g")]
#[case::dot_g("./g", "http://a/b/c/g")]
#[case::g_slash("g/", "http://a/b/c/g/")]
#[case::slash_g("/g", "http://a/g")]
#[case::network_path("//g", "http://g")]
#[case::query("?y", "http://a/b/c/d;p?y")]
#[case::g_query("g?y", "http://a/b/c/g?y")]
#[case::fragment("#s", "http://a/b/c/d;p?q#s")]
#[case::g_fragment("g#s", "http://a/b/c/g#s")]
#[case::g_query_fragment("g?y#s", "http://a/b/c/g?y#s")]
#[case::semicolon_x(";x", "http://a/b/c/;x")]
#[case::g_semicolon_x("g;x", "http://a/b/c/g;x")]
#[case::g_semicolon_x_query_fragment("g;x?y#s", "http://a/b/c/g;x?y#s")]
#[case::empty("", "http://a/b/c/d;p?q")]
#[case::dot(".", "http://a/b/c/")]
#[case::dot_slash("./", "http://a/b/c/")]
#[case::dot_dot("..", "http://a/b/")]
#[case::dot_dot_slash("../", "http://a/b/")]
#[case::dot_dot_g("../g", "http://a/b/g")]
#[case::dot_dot_dot_dot("../..", "http://a/")]
#[case::dot_dot_dot_dot_slash("../../", "http://a/")]
#[case::dot_dot_dot_dot_g("../../g", "http://a/g")]
fn resolve_rfc3986_5_4_1_normal(#[case] reference: &str, #[case] target: &str) {
    assert_resolves(BASE, reference, target);
}

#[rstest]
#[case::above_root_3("../../../g", "http://a/g")]
#[case::above_root_4("../../../../g", "http://a/g")]
#[case::slash_dot_g("/./g", "http://a/g")]
#[case::slash_dot_dot_g("/../g", "http://a/g")]
#[case::g_dot("g.", "http://a/b/c/g.")]
#[case::dot_g_name(".g", "http://a/b/c/.g")]
#[case::g_dot_dot("g..", "http://a/b/c/g..")]
#[case::dot_dot_g_name("..g", "http://a/b/c/..g")]
#[case::dot_dot_dot_g("./../g", "http://a/b/g")]
#[case::dot_g_dot("./g/.", "http://a/b/c/g/")]
#[case::g_dot_h("g/./h", "http://a/b/c/g/h")]
#[case::g_dot_dot_h("g/../h", "http://a/b/c/h")]
#[case::param_dot("g;x=1/./y", "http://a/b/c/g;x=1/y")]
#[case::param_dot_dot("g;x=1/../y", "http://a/b/c/y")]
#[case::query_dot("g?y/./x", "http://a/b/c/g?y/./x")]
#[case::query_dot_dot("g?y/../x", "http://a/b/c/g?y/../x")]
#[case::fragment_dot("g#s/./x", "http://a/b/c/g#s/./x")]
#[case::fragment_dot_dot("g#s/../x", "http://a/b/c/g#s/../x")]
#[case::same_scheme_strict("http:g", "http:g")]
fn resolve_rfc3986_5_4_2_abnormal(#[case] reference: &str, #[case] target: &str) {
    assert_resolves(BASE, reference, target);
}

#[rstest]
#[case::same_scheme("http:g", "http://a/b/c/g")]
#[case::same_scheme_other_case("HTTP:g", "http://a/b/c/g")]
#[case::other_scheme("g:h", "g:h")]
#[case::same_scheme_with_authority("http://x/../y", "http://x/y")]
#[case::same_scheme_query("http:?y", "http://a/b/c/d;p?y")]
#[case::same_scheme_alone("HTTP:", "http://a/b/c/d;p?q")]
fn resolve_rfc3986_5_4_2_non_strict(#[case] reference: &str, #[case] target: &str) {
    let base = Uri::parse(BASE).unwrap();
    let r = UriRef::parse(reference).unwrap();
    let t = Resolver::new().strict(false).resolve(&base, &r).unwrap();
    assert_eq!(t.to_string(), target);
    assert_eq!(oracle::resolve(BASE, reference, false), target);
}

#[rstest]
#[case::worked_example_1("/a/b/c/./../../g", "/a/g")]
#[case::worked_example_2("mid/content=5/../6", "mid/6")]
#[case::empty("", "")]
#[case::root("/", "/")]
#[case::rule_a_dot_dot_slash("../g", "g")]
#[case::rule_a_dot_slash("./g", "g")]
#[case::rule_a_repeated("./.././../g", "g")]
#[case::rule_a_then_absolute("..//g", "/g")]
#[case::rule_b_inner("/a/./b", "/a/b")]
#[case::rule_b_final("/a/.", "/a/")]
#[case::rule_b_only("/.", "/")]
#[case::rule_c_inner("/a/b/../c", "/a/c")]
#[case::rule_c_final("/a/b/..", "/a/")]
#[case::rule_c_above_root("/..", "/")]
#[case::rule_c_removes_empty_segment("/a//../b", "/a/b")]
#[case::rule_c_relative_to_root("a/../b", "/b")]
#[case::rule_d_dot(".", "")]
#[case::rule_d_dot_dot("..", "")]
#[case::rule_e_keeps_empty_segments("/a//b/", "/a//b/")]
#[case::double_slash_kept("/.//g", "//g")]
#[case::not_complete_segments("/g./.g/g../..g/", "/g./.g/g../..g/")]
#[case::pct_2e_is_not_a_dot("/a/%2E/b/%2e%2E/c", "/a/%2E/b/%2e%2E/c")]
#[case::rootless_dot_dot("a/b/../../..", "/")]
fn remove_dot_segments_rfc3986_5_2_4(#[case] path: &str, #[case] expected: &str) {
    assert_eq!(remove_dot_segments(path), expected);
    assert_eq!(oracle::remove_dot_segments(path), expected, "oracle");
}

#[rstest]
#[case::base_path("http://a/b/c/d;p?q", "g", "/b/c/g")]
#[case::authority_empty_path("http://a", "g", "/g")]
#[case::authority_empty_path_query("http://a?q", "g", "/g")]
#[case::no_slash("urn:isbn", "g", "g")]
#[case::rootless("foo:a/b", "../c", "a/../c")]
#[case::trailing_slash("http://a/b/", "g", "/b/g")]
#[case::empty_authority("file:///usr/x", "y", "/usr/y")]
fn merge_rfc3986_5_2_3(#[case] base: &str, #[case] path: &str, #[case] expected: &str) {
    assert_eq!(merge(&Uri::parse(base).unwrap(), path), expected);
}

#[rstest]
#[case::rootless_becomes_absolute("foo:a/b", "../c", "foo:/c")]
#[case::rootless_up("foo:/a/b", "..", "foo:/")]
#[case::authority_empty_path("http://h", "g", "http://h/g")]
#[case::file(
    "file:///usr/share/doc/x/index.html",
    "../y/z.html",
    "file:///usr/share/doc/y/z.html"
)]
#[case::pct_2e_kept("http://a/b/c", "%2E%2E/g", "http://a/b/%2E%2E/g")]
#[case::base_fragment_ignored("http://a/b?q#f", "g", "http://a/g")]
#[case::base_fragment_ignored_empty_ref("http://a/b?q#f", "", "http://a/b?q")]
#[case::base_fragment_replaced("http://a/b?q#f", "#s", "http://a/b?q#s")]
#[case::base_not_normalized("HTTP://A/%7e/./b", "c", "HTTP://A/%7e/c")]
#[case::base_path_kept_as_is("f:/./a", "?y", "f:/./a?y")]
#[case::empty_base_path_no_authority("urn:", "g", "urn:g")]
#[case::colon_in_first_segment("urn:a", "./b:c", "urn:b:c")]
#[case::empty_query("http://a/b?q", "?", "http://a/b?")]
#[case::empty_fragment("http://a/b?q", "#", "http://a/b?q#")]
#[case::empty_authority_reference("http://a/b", "//", "http://")]
#[case::ip_literal("http://[::1]:8/a", "b", "http://[::1]:8/b")]
fn resolve_more(#[case] base: &str, #[case] reference: &str, #[case] target: &str) {
    assert_resolves(base, reference, target);
}

/// The shapes resolution writes without a detour (checked by hand against 5.2.2, 5.2.3 and 5.2.4): a
/// merged path without dot-segment is copied as it is; one with a dot-segment is copied up to it and
/// 5.2.4 runs on the rest of the reference's path; a base path with a dot-segment (5.2.1 lets a base be
/// unnormalized) runs 5.2.4 on the whole merged path in place; a segment that merely begins with "." is
/// not a dot-segment; an empty path, an authority-only and a fragment-only reference copy runs of the base.
#[rstest]
#[case::merged_no_dot_segment(BASE, "g/h/i", "http://a/b/c/g/h/i")]
#[case::dot_segment_after_a_run(BASE, "g/h/../i", "http://a/b/c/g/i")]
#[case::dot_segments_first(BASE, "../../x/./y", "http://a/x/y")]
#[case::dot_segment_last(BASE, "x/y/..", "http://a/b/c/x/")]
#[case::segments_beginning_with_dot(BASE, ".x/..y/z.", "http://a/b/c/.x/..y/z.")]
#[case::base_segment_beginning_with_dot("http://a/.git/b", "../c", "http://a/c")]
#[case::base_dot_segment("http://a/b/./c/d", "../e", "http://a/b/e")]
#[case::base_dot_dot_segment("http://a/b/../c/d", "e", "http://a/c/e")]
#[case::rootless_base_dot("foo:a/b", "./c", "foo:a/c")]
#[case::no_slash_base_dot_dot("urn:isbn", "../x/../y", "urn:/y")]
#[case::scheme_rootless_dots(BASE, "f:a/./b/../c", "f:a/c")]
#[case::absolute_path_dots(BASE, "/x/./y/../z", "http://a/x/z")]
#[case::empty_path_no_base_path("http://a", "", "http://a")]
#[case::empty_path_query("http://a", "?y", "http://a?y")]
#[case::authority_only(BASE, "//h", "http://h")]
#[case::authority_only_query_fragment(BASE, "//h?x#f", "http://h?x#f")]
#[case::authority_path_dots(BASE, "//h/p/./q/../r", "http://h/p/r")]
#[case::fragment_only_no_query("http://a/b", "#s", "http://a/b#s")]
#[case::fragment_only_base_fragment("http://a/b?q#f", "#s", "http://a/b?q#s")]
#[case::non_ascii_escapes_kept(BASE, "%C3%A9/../%C3%BC", "http://a/b/c/%C3%BC")]
fn resolve_fast_paths(#[case] base: &str, #[case] reference: &str, #[case] target: &str) {
    assert_resolves(base, reference, target);
}

/// The cases resolution writes with one or two copies (each expected target worked out by hand from
/// 5.2.2, 5.2.3 and 5.2.4): a reference with a scheme and no dot-segment is its own target, fragment
/// included; with a dot-segment, or a segment that only begins with ".", its path goes through 5.2.4; a
/// network-path reference keeps its authority after the base's scheme; an empty path takes the base's path
/// and its query unless the reference has one; a path without dot-segment against a base path with one
/// gets the base's dot-segments removed; "." and ".." alone are merged like any path.
#[rstest]
#[case::scheme_no_dot_segment(BASE, "https://x.example/a/b.c?q#f", "https://x.example/a/b.c?q#f")]
#[case::scheme_dot_segments(BASE, "https://x/a/./b/../c?q#f", "https://x/a/c?q#f")]
#[case::scheme_segment_beginning_with_dot(
    BASE,
    "https://x/.well-known/a",
    "https://x/.well-known/a"
)]
#[case::scheme_rootless_dot_first(BASE, "f:./a", "f:a")]
#[case::scheme_rootless_dot_only(BASE, "f:.", "f:")]
#[case::scheme_other_base_ignored("f:/./a", "g:/b/../c#s", "g:/c#s")]
#[case::network_path_dots(BASE, "//h/a/./b?x#y", "http://h/a/b?x#y")]
#[case::network_path_userinfo_port(BASE, "//u@h:8/p", "http://u@h:8/p")]
#[case::network_path_base_without_authority("urn:a/b", "//h", "urn://h")]
#[case::empty_reference_no_query("http://a/b", "", "http://a/b")]
#[case::empty_reference_base_fragment("http://a/b?q#f", "", "http://a/b?q")]
#[case::fragment_only_no_base_path("http://a", "#s", "http://a#s")]
#[case::query_only_replaces_query_and_fragment("http://a/b?q#f", "?y#s", "http://a/b?y#s")]
#[case::query_only_base_without_query("urn:a/b", "?y", "urn:a/b?y")]
#[case::path_no_dots_base_dot_segment("http://a/b/./c/d", "e", "http://a/b/c/e")]
#[case::path_no_dots_base_dot_dot_segments("http://a/b/c/../../d/e", "f?q", "http://a/d/f?q")]
#[case::dot_alone_authority_empty_path("http://a", ".", "http://a/")]
#[case::dot_dot_alone_authority_empty_path("http://a?q", "..", "http://a/")]
#[case::dot_alone_no_slash_in_base("urn:isbn", ".", "urn:")]
#[case::dot_dot_alone_rootless_base("foo:a/b/c", "..", "foo:a/")]
#[case::dot_alone_query_fragment(BASE, ".?y#s", "http://a/b/c/?y#s")]
fn resolve_one_copy_cases(#[case] base: &str, #[case] reference: &str, #[case] target: &str) {
    assert_resolves(base, reference, target);
}

/// userinfo, host, port, path, query, fragment.
type Components<'a> = (
    Option<&'a str>,
    Option<&'a str>,
    Option<u16>,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
);

/// The components of a target are where resolution wrote them: those copied from the reference (a
/// network-path reference's authority after the base's scheme; the whole of a reference with a scheme)
/// and from the base (an empty-path reference), read back through the accessors.
#[rstest]
#[case::network_path(BASE, "//u@h:8/p?x#y", (Some("u"), Some("h"), Some(8), "/p", Some("x"), Some("y")))]
#[case::own_target(BASE, "s://u@h:9/p?x#y", (Some("u"), Some("h"), Some(9), "/p", Some("x"), Some("y")))]
#[case::empty_path_base_query(BASE, "#y", (None, Some("a"), None, "/b/c/d;p", Some("q"), Some("y")))]
#[case::empty_path_own_query("http://u@a:1/b?q#f", "?x", (Some("u"), Some("a"), Some(1), "/b", Some("x"), None))]
fn resolve_target_components(
    #[case] base: &str,
    #[case] reference: &str,
    #[case] expected: Components<'_>,
) {
    let base = Uri::parse(base).unwrap();
    let t = UriRef::parse(reference)
        .unwrap()
        .resolve_against(&base)
        .unwrap();
    let found = (
        t.userinfo(),
        t.host_str(),
        t.port_u16(),
        t.path(),
        t.query(),
        t.fragment(),
    );
    assert_eq!(found, expected, "{t}");
    assert_eq!(Uri::parse(t.as_str()).unwrap(), t);
}

#[test]
fn resolve_non_strict_same_scheme_fragment_only() {
    // 5.2.2, non-strict: R.scheme equal to Base.scheme is undefined, R.path is empty and R.query
    // undefined, so T is the base's path and query with R.fragment.
    let base = Uri::parse(BASE).unwrap();
    let r = UriRef::parse("HTTP:#s").unwrap();
    let t = Resolver::new().strict(false).resolve(&base, &r).unwrap();
    assert_eq!(t.as_str(), "http://a/b/c/d;p?q#s");
}

/// A dot-segment (or a segment that only begins with ".") at every offset of paths long and short, so
/// that each way of finding the first "." after a "/" (a word at a time, sixteen bytes at a time, the
/// last bytes) meets one at each position: 5.2.4 and 5.2.2 give what the oracle gives.
#[test]
fn resolve_dot_segment_at_every_offset() {
    let base = Uri::parse("http://a/b/c/d;p?q").unwrap();
    for n in 0..48 {
        let run = "x".repeat(n);
        for segment in ["/./", "/../", "/.", "/..", "/.y/", "/..y"] {
            for path in [
                format!("/{run}{segment}z"),
                format!("{run}{segment}"),
                format!("{segment}{run}"),
            ] {
                assert_eq!(
                    remove_dot_segments(&path),
                    oracle::remove_dot_segments(&path),
                    "{path:?}"
                );
                if UriRef::parse(&path).is_ok() {
                    assert_resolves(
                        base.as_str(),
                        &path,
                        &oracle::resolve(base.as_str(), &path, true),
                    );
                }
            }
        }
    }
}

/// The 5.2.2 target path `//g` has no authority, and `f://g` would read back with the authority `g`: a
/// `/.` is written before the path (the default), or an error returned.
#[rstest]
#[case::dot_slash_slash("f:/a", ".//g", "//g")]
#[case::absolute("f:/a", "/.//g", "//g")]
#[case::dot_dot("f:/a/b", "..//g", "//g")]
#[case::strict_scheme("http://a/b", "f:/.//g", "//g")]
#[case::rootless_base("f:a/b", "..//g?q#s", "//g")]
#[case::only_slashes("f:/a", "/.//", "//")]
fn resolve_ambiguous_double_slash(#[case] base: &str, #[case] reference: &str, #[case] path: &str) {
    let base = Uri::parse(base).unwrap();
    let r = UriRef::parse(reference).unwrap();
    let t = r.resolve_against(&base).unwrap();
    assert_eq!(t.authority().map(|a| a.as_str()), None);
    assert_eq!(t.path(), format!("/.{path}"));
    assert_eq!(remove_dot_segments(t.path()), path);
    // Stable: the target resolves to itself.
    let again = UriRef::from(t.clone()).resolve_against(&base).unwrap();
    assert_eq!(again, t);
    let err = Resolver::new()
        .dot_prefix(false)
        .resolve(&base, &r)
        .unwrap_err();
    assert_eq!(
        err,
        ResolveError::AmbiguousPath {
            path: path.to_string()
        }
    );
    assert!(err.to_string().contains("//"));
}

#[test]
fn resolve_error_converts_to_umbrella_error() {
    fn run() -> Result<Uri<'static>, Error> {
        let base = Uri::parse("f:/a")?;
        Ok(Resolver::new()
            .dot_prefix(false)
            .resolve(&base, &UriRef::parse(".//g")?)?)
    }
    assert!(matches!(
        run(),
        Err(Error::Resolve(ResolveError::AmbiguousPath { .. }))
    ));
}

#[test]
fn resolve_target_is_owned() {
    let t = {
        let base = String::from("http://a/b/c");
        let r = String::from("d");
        UriRef::parse(&r)
            .unwrap()
            .resolve_against(&Uri::parse(&base).unwrap())
            .unwrap()
    };
    assert_eq!(t.as_str(), "http://a/b/d");
    assert_eq!(t.scheme(), "http");
    assert_eq!(t.path(), "/b/d");
}

/// A literal transcription of RFC 3986 5.2.2, 5.2.3 and 5.2.4 over plain strings, with the split of
/// Appendix B: independent of the crate's parser and of its one-pass merge.
mod oracle {
    use regex::Regex;
    use std::sync::LazyLock;

    pub struct Components {
        pub scheme: Option<String>,
        pub authority: Option<String>,
        pub path: String,
        pub query: Option<String>,
        pub fragment: Option<String>,
    }

    /// RFC 3986 Appendix B.
    pub fn parse(s: &str) -> Components {
        static RE: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?").unwrap()
        });
        let c = RE.captures(s).unwrap();
        let get = |i: usize| c.get(i).map(|m| m.as_str().to_string());
        Components {
            scheme: get(2),
            authority: get(4),
            path: get(5).unwrap_or_default(),
            query: get(7),
            fragment: get(9),
        }
    }

    /// 5.2.4, with the two buffers.
    pub fn remove_dot_segments(path: &str) -> String {
        // 1.  The input buffer is initialized with the now-appended path components and the output buffer
        //     is initialized to the empty string.
        let mut input = path.to_string();
        let mut output = String::new();
        // 2.  While the input buffer is not empty, loop as follows:
        while !input.is_empty() {
            // A.  If the input buffer begins with a prefix of "../" or "./", then remove that prefix from
            //     the input buffer; otherwise,
            if input.starts_with("../") {
                input = input[3..].to_string();
            } else if input.starts_with("./") {
                input = input[2..].to_string();
            }
            // B.  if the input buffer begins with a prefix of "/./" or "/.", where "." is a complete path
            //     segment, then replace that prefix with "/" in the input buffer; otherwise,
            else if input.starts_with("/./") {
                input = format!("/{}", &input[3..]);
            } else if input == "/." {
                input = "/".to_string();
            }
            // C.  if the input buffer begins with a prefix of "/../" or "/..", where ".." is a complete
            //     path segment, then replace that prefix with "/" in the input buffer and remove the last
            //     segment and its preceding "/" (if any) from the output buffer; otherwise,
            else if input.starts_with("/../") || input == "/.." {
                input = format!("/{}", &input[if input == "/.." { 3 } else { 4 }..]);
                match output.rfind('/') {
                    Some(i) => output.truncate(i),
                    None => output.clear(),
                }
            }
            // D.  if the input buffer consists only of "." or "..", then remove that from the input
            //     buffer; otherwise,
            else if input == "." || input == ".." {
                input.clear();
            }
            // E.  move the first path segment in the input buffer to the end of the output buffer,
            //     including the initial "/" character (if any) and any subsequent characters up to, but
            //     not including, the next "/" character or the end of the input buffer.
            else {
                let from = usize::from(input.starts_with('/'));
                let end = input[from..].find('/').map_or(input.len(), |i| from + i);
                output.push_str(&input[..end]);
                input = input[end..].to_string();
            }
        }
        // 3.  Finally, the output buffer is returned as the result of remove_dot_segments.
        output
    }

    /// 5.2.3.
    pub fn merge(base: &Components, reference_path: &str) -> String {
        if base.authority.is_some() && base.path.is_empty() {
            format!("/{reference_path}")
        } else {
            match base.path.rfind('/') {
                Some(i) => format!("{}{reference_path}", &base.path[..=i]),
                None => reference_path.to_string(),
            }
        }
    }

    /// 5.3.
    pub fn recompose(t: &Components) -> String {
        let mut result = String::new();
        if let Some(scheme) = &t.scheme {
            result.push_str(scheme);
            result.push(':');
        }
        if let Some(authority) = &t.authority {
            result.push_str("//");
            result.push_str(authority);
        }
        result.push_str(&t.path);
        if let Some(query) = &t.query {
            result.push('?');
            result.push_str(query);
        }
        if let Some(fragment) = &t.fragment {
            result.push('#');
            result.push_str(fragment);
        }
        result
    }

    /// 5.2.2, then 5.3; the `/.` that the crate writes before a path `//...` without authority is added
    /// here as a separate, visible step. Schemes are compared ignoring case in the non-strict rule.
    pub fn resolve(base: &str, reference: &str, strict: bool) -> String {
        let base = parse(base);
        let mut r = parse(reference);
        let mut t = Components {
            scheme: None,
            authority: None,
            path: String::new(),
            query: None,
            fragment: None,
        };
        let same_scheme = match (&r.scheme, &base.scheme) {
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        };
        if !strict && same_scheme {
            r.scheme = None;
        }
        if r.scheme.is_some() {
            t.scheme = r.scheme.clone();
            t.authority = r.authority.clone();
            t.path = remove_dot_segments(&r.path);
            t.query = r.query.clone();
        } else {
            if r.authority.is_some() {
                t.authority = r.authority.clone();
                t.path = remove_dot_segments(&r.path);
                t.query = r.query.clone();
            } else {
                if r.path.is_empty() {
                    t.path = base.path.clone();
                    if r.query.is_some() {
                        t.query = r.query.clone();
                    } else {
                        t.query = base.query.clone();
                    }
                } else {
                    if r.path.starts_with('/') {
                        t.path = remove_dot_segments(&r.path);
                    } else {
                        t.path = merge(&base, &r.path);
                        t.path = remove_dot_segments(&t.path);
                    }
                    t.query = r.query.clone();
                }
                t.authority = base.authority.clone();
            }
            t.scheme = base.scheme.clone();
        }
        t.fragment = r.fragment.clone();
        // Not 5.2.2: the crate's choice for a target that 5.3 cannot write unambiguously.
        if t.authority.is_none() && t.path.starts_with("//") {
            t.path = format!("/.{}", t.path);
        }
        recompose(&t)
    }
}

/// Small alphabets: the dot-segments, their encodings and near misses, an empty segment, a parameter.
const SEGMENTS: &[&str] = &[
    "a", "b", ".", "..", "g;x", "%2E", "%2e.", "", ".g", "x:y", "c=5",
];

fn base() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["http", "f", "HTTP"]),
        opt(vec!["h", "", "u@h:8", "[::1]"]),
        path(SEGMENTS),
        opt(vec!["q", "", "a/../b"]),
        opt(vec!["f", ""]),
    )
        .prop_map(|(s, a, p, q, f)| reference_text(Some(s), a, &p, q, f))
}

fn reference() -> impl Strategy<Value = String> {
    (
        opt(vec!["http", "f", "HTTP"]),
        opt(vec!["g", "", "u@g:9"]),
        path(SEGMENTS),
        opt(vec!["y", "", "./x"]),
        opt(vec!["s", "", "s/../x"]),
    )
        .prop_map(|(s, a, p, q, f)| reference_text(s, a, &p, q, f))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The resolver agrees with the literal transcription of 5.2.2, strict and not.
    #[test]
    fn resolve_matches_rfc3986_5_2_2_pseudo_code(base in base(), reference in reference(), strict in any::<bool>()) {
        let (Ok(b), Ok(r)) = (Uri::parse(&base), UriRef::parse(&reference)) else {
            return Err(TestCaseError::reject("not a URI / URI-reference"));
        };
        let t = Resolver::new().strict(strict).resolve(&b, &r).unwrap();
        prop_assert_eq!(t.as_str(), oracle::resolve(&base, &reference, strict));
    }

    /// remove_dot_segments agrees with the two-buffer algorithm of 5.2.4 on any path.
    #[test]
    fn remove_dot_segments_matches_rfc3986_5_2_4(path in path(SEGMENTS)) {
        prop_assert_eq!(remove_dot_segments(&path), oracle::remove_dot_segments(&path));
    }

    /// The same on strings of ".", "/" and "a" up to 40 bytes: every position of a dot-segment and of a
    /// "/" relative to the eight-byte words the resolver reads them in.
    #[test]
    fn remove_dot_segments_matches_rfc3986_5_2_4_at_every_offset(path in "[./a]{0,40}") {
        prop_assert_eq!(remove_dot_segments(&path), oracle::remove_dot_segments(&path));
    }

    /// merge agrees with 5.2.3 for base paths up to 40 bytes, the last "/" anywhere in them.
    #[test]
    fn merge_matches_rfc3986_5_2_3_at_every_offset(base_path in "(/[a.]{0,12}){0,4}", path in "[a./]{0,6}") {
        let base = format!("s://h{base_path}");
        let b = Uri::parse(&base).unwrap();
        prop_assert_eq!(merge(&b, &path), oracle::merge(&oracle::parse(&base), &path));
    }

    /// merge agrees with 5.2.3.
    #[test]
    fn merge_matches_rfc3986_5_2_3(base in base(), path in path(SEGMENTS)) {
        let Ok(b) = Uri::parse(&base) else {
            return Err(TestCaseError::reject("not a URI"));
        };
        prop_assert_eq!(merge(&b, &path), oracle::merge(&oracle::parse(&base), &path));
    }

    /// The target is a URI whose components are those it was written from; its path has no dot-segments
    /// when 5.2.2 took it from remove_dot_segments (except the `/.` before a `//`), and then the target,
    /// taken as a reference, resolves to itself against the same base.
    #[test]
    fn resolve_target_laws(base in base(), reference in reference()) {
        let (Ok(b), Ok(r)) = (Uri::parse(&base), UriRef::parse(&reference)) else {
            return Err(TestCaseError::reject("not a URI / URI-reference"));
        };
        let t = r.resolve_against(&b).unwrap();
        // Parses, and to the same components.
        let again = Uri::parse(t.as_str()).unwrap();
        prop_assert_eq!(again.authority().map(|a| a.as_str()), t.authority().map(|a| a.as_str()));
        prop_assert_eq!(again.path(), t.path());
        prop_assert_eq!(t.fragment(), r.fragment());
        let from_remove_dot_segments = r.is_uri() || r.authority().is_some() || !r.path().is_empty();
        if from_remove_dot_segments {
            let path = t.path().strip_prefix("/.").filter(|p| p.starts_with("//")).unwrap_or(t.path());
            prop_assert!(
                !path.split('/').any(|s| s == "." || s == ".."),
                "dot-segment left in {}", t
            );
        } else {
            prop_assert_eq!(t.path(), b.path());
        }
        // (A path taken from the base as it is may have dot-segments, which resolving removes.)
        if from_remove_dot_segments {
            let t_again = UriRef::from(t.clone()).resolve_against(&b).unwrap();
            prop_assert_eq!(t_again.as_str(), t.as_str());
        }
        // Non-strict gives the same target whenever the schemes differ.
        if !r.scheme().is_some_and(|s| s.eq_ignore_ascii_case(b.scheme())) {
            let lenient = Resolver::new().strict(false).resolve(&b, &r).unwrap();
            prop_assert_eq!(lenient.as_str(), t.as_str());
        }
    }

    /// Resolving against a base with a fragment is the same as against the base without it.
    #[test]
    fn resolve_ignores_base_fragment(base in base(), reference in reference()) {
        let (Ok(b), Ok(r)) = (Uri::parse(&base), UriRef::parse(&reference)) else {
            return Err(TestCaseError::reject("not a URI / URI-reference"));
        };
        let without = match base.split_once('#') {
            Some((before, _)) => before.to_string(),
            None => base.clone(),
        };
        let b2 = Uri::parse_absolute(&without).unwrap();
        prop_assert_eq!(r.resolve_against(&b).unwrap(), r.resolve_against(&b2).unwrap());
    }
}

/// RFC 3986 5.2.4 on a mebibyte of `../`: every `..` climbs above the root and is dropped, so the target
/// is the root plus the last segment. (Linear time is measured in `benches/hostile.rs`,
/// `hostile-dot-segments`; this checks the answer at that size.)
#[test]
fn dot_segments_one_mebibyte() {
    let base = Uri::parse("http://a/b/c").unwrap();
    let reference = format!("{}g", "../".repeat((1 << 20) / 3));
    let target = UriRef::parse(&reference)
        .unwrap()
        .resolve_against(&base)
        .unwrap();
    assert_eq!(target.as_str(), "http://a/g");
    let uri = format!("http://a{}/x", "/.".repeat(1 << 19));
    assert_eq!(Uri::parse(&uri).unwrap().normalize().as_str(), "http://a/x");
    let mixed = format!("http://a{}", "/s/..".repeat(1 << 18));
    assert_eq!(
        Uri::parse(&mixed).unwrap().normalize().as_str(),
        "http://a/"
    );
}
