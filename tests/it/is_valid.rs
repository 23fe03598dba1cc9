//! `is_valid` (the recognizer's verdict alone) gives the verdict of `validate` on every line of the real
//! sample, for the rules the Python package checks with it, and on hostile shapes.

use rfc3986::{is_valid, validate, Rule};

const SAMPLE: &str = include_str!("../../data/real-uris-sample.txt");

#[test]
fn is_valid_agrees_with_validate_on_the_real_sample() {
    let rules = [
        Rule::URI_REFERENCE,
        Rule::URI,
        Rule::ABSOLUTE_URI,
        Rule::RELATIVE_REF,
        Rule::AUTHORITY,
        Rule::HOST,
    ];
    let mut rejected = 0;
    for line in SAMPLE.lines() {
        for rule in rules {
            let expected = validate(rule, line).is_ok();
            assert_eq!(is_valid(rule, line), expected, "{rule:?} {line:?}");
            rejected += usize::from(!expected && rule == Rule::URI_REFERENCE);
        }
    }
    assert_eq!(
        rejected, 130,
        "the sample's invalid URI-references (data/README.md)"
    );
}

#[test]
fn is_valid_agrees_with_validate_on_hostile_shapes() {
    let long = "a".repeat(1 << 20);
    let inputs = [
        "",
        "\0",
        "http://a/\0",
        "%",
        "%zz",
        "[",
        "http://[::1",
        "http://[fe80::1%25eth0]/",
        "http://1.2.3.256/",
        "a:b:c",
        ":a",
        "#a#b",
        long.as_str(),
    ];
    for input in inputs {
        for rule in [Rule::URI_REFERENCE, Rule::URI, Rule::HOST] {
            assert_eq!(
                is_valid(rule, input),
                validate(rule, input).is_ok(),
                "{rule:?} {:?}",
                &input[..input.len().min(40)]
            );
        }
    }
}
