//! `--default-port SCHEME=PORT` of `normalize` and `equiv`: the default-port table of scheme-based
//! normalization (RFC 3986 6.2.3), extended from the command line.

use crate::common;

use common::spawn;
use rstest::rstest;

#[rstest]
#[case::added_scheme(&["--default-port", "gopher=70"], "gopher://h:70/1", "gopher://h/1\n")]
#[case::without_it_kept(&[], "gopher://h:70/1", "gopher://h:70/1\n")]
#[case::override_builtin(&["--default-port", "http=8080"], "http://h:8080/", "http://h/\n")]
#[case::override_keeps_old_port(&["--default-port", "http=8080"], "http://h:80/", "http://h:80/\n")]
#[case::repeatable(
    &["--default-port", "gopher=70", "--default-port", "Foo=1"],
    "foo://h:1/",
    "foo://h/\n"
)]
fn normalize_default_port(#[case] flags: &[&str], #[case] uri: &str, #[case] expected: &str) {
    let mut args = vec!["normalize", "--level", "scheme"];
    args.extend_from_slice(flags);
    args.push(uri);
    let output = spawn(&args, b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}

#[test]
fn equiv_default_port() {
    let args = [
        "equiv",
        "--level",
        "scheme",
        "--default-port",
        "gopher=70",
        "gopher://h:70/1",
        "gopher://h/1",
    ];
    assert_eq!(spawn(&args, b"").status.code(), Some(0));
    assert_eq!(
        spawn(&args[..3], b"gopher://h:70/1\tgopher://h/1\n")
            .status
            .code(),
        Some(1)
    );
}

#[rstest]
#[case::not_a_scheme("1x=3")]
#[case::no_equals("gopher")]
#[case::port_too_big("gopher=65536")]
fn default_port_usage_errors(#[case] value: &str) {
    let output = spawn(&["normalize", "--default-port", value, "a"], b"");
    assert_eq!(output.status.code(), Some(2));
}
