"""rfc3986_strict.formats: a jsonschema FormatChecker for uri, uri-reference, iri, iri-reference."""

from __future__ import annotations

import pytest

jsonschema = pytest.importorskip("jsonschema")

from rfc3986_strict.formats import FORMATS, format_checker  # noqa: E402

CHECKER = format_checker()

CASES = [
    ("uri absolute", "uri", "http://example.com/a?b#c", True),
    ("uri needs a scheme (RFC 3986 3)", "uri", "//example.com/a", False),
    ("uri with space", "uri", "http://example.com/a b", False),
    ("uri non-ascii is not a URI (2.5)", "uri", "http://example.com/é", False),
    ("uri urn", "uri", "urn:isbn:0451450523", True),
    ("uri-reference relative", "uri-reference", "../a?b", True),
    ("uri-reference empty", "uri-reference", "", True),
    ("uri-reference template braces", "uri-reference", "/a/{id}", False),
    ("uri-reference second hash", "uri-reference", "a#b#c", False),
    ("iri non-ascii path (RFC 3987 2.2)", "iri", "http://example.com/résumé", True),
    ("iri needs a scheme", "iri", "/résumé", False),
    ("iri space", "iri", "http://example.com/ é", False),
    ("iri-reference relative", "iri-reference", "/résumé#café", True),
    ("iri-reference lone percent", "iri-reference", "/a%zz", False),
]


@pytest.mark.parametrize(("fmt", "instance", "valid"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_formats(fmt, instance, valid):
    schema = {"type": "string", "format": fmt}
    assert CHECKER.conforms(instance, fmt) is valid
    errors = list(jsonschema.Draft202012Validator(schema, format_checker=CHECKER).iter_errors(instance))
    assert (errors == []) is valid


@pytest.mark.parametrize("instance", [5, 1.5, None, True, [], {"a": 1}], ids=lambda x: f"non-string {type(x).__name__}")
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_non_strings_pass_as_json_schema_says(fmt, instance):
    # JSON Schema 2020-12 7.1: a format applies to instances of its type only; others are valid.
    assert CHECKER.conforms(instance, fmt)
    jsonschema.validate(instance, {"format": fmt}, format_checker=CHECKER)


def test_error_carries_the_parse_error_as_cause():
    with pytest.raises(jsonschema.ValidationError) as info:
        jsonschema.validate("http://a/b c", {"format": "uri"}, format_checker=CHECKER)
    cause = info.value.cause
    assert cause is not None and cause.kind == "space" and cause.offset == 10


def test_format_is_annotation_only_without_a_checker():
    # Without format_checker jsonschema does not assert formats (2020-12 default).
    jsonschema.validate("not a uri", {"format": "uri"})


def test_other_formats_of_jsonschema_are_kept():
    assert "email" in CHECKER.checkers
    assert not CHECKER.conforms("not-an-email", "email")


def test_lone_surrogate_is_invalid_not_an_exception():
    assert not CHECKER.conforms("http://a/\udcff", "uri")


def test_checker_can_extend_another():
    base = jsonschema.FormatChecker(formats=["date"])
    checker = format_checker(base)
    assert checker is base
    assert set(checker.checkers) >= {"date", *FORMATS}


TEMPLATES = [
    ("RFC 6570 1.2 level 1", "http://example.com/~{username}/", True),
    ("RFC 6570 1.2 level 3 query", "http://example.com/search{?q,lang}", True),
    ("RFC 6570 level 4 prefix and explode", "{/path:6}{;list*}{+base}{#frag}", True),
    ("no expression", "http://example.com/", True),
    ("unclosed expression", "http://example.com/{a", False),
    ("lone closing brace", "a}", False),
    ("space in an expression", "{a b}", False),
    ("max-length starts with 1 to 9", "{var:0}", False),
    ("empty variable name", "{a,,b}", False),
    ("brace in a literal", "foo}bar", False),
]


@pytest.mark.parametrize(("instance", "valid"), [t[1:] for t in TEMPLATES], ids=[t[0] for t in TEMPLATES])
def test_regression_uri_template_format_rfc6570(instance, valid):
    # The crate ships the grammar of RFC 6570 section 2 (grammars/uri-template.pest).
    assert "uri-template" in FORMATS
    assert CHECKER.conforms(instance, "uri-template") is valid
    errors = list(jsonschema.Draft202012Validator({"format": "uri-template"}, format_checker=CHECKER).iter_errors(instance))
    assert (errors == []) is valid
    if not valid:
        assert type(errors[0].cause).__name__ == "TemplateError"


def test_template_error_attributes():
    import rfc3986_strict as r

    with pytest.raises(r.TemplateError) as info:
        r.validate_template("/caf\u00e9/{a")
    assert isinstance(info.value, ValueError)
    assert (info.value.offset, info.value.byte_offset) == (8, 9)  # the end: the expression is not closed
    assert info.value.input == "/caf\u00e9/{a"
