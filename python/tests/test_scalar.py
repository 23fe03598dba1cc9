"""The scalar API against RFC 3986's own examples and the crate's semantics."""

from __future__ import annotations

import pytest

import rfc3986_strict as r

BASE = "http://a/b/c/d;p?q"

# RFC 3986 5.4.1 "Normal Examples".
NORMAL = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 3986 5.4.2 "Abnormal Examples" (strict parser).
ABNORMAL = [
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
]


@pytest.mark.parametrize(("reference", "target"), NORMAL, ids=[f"5.4.1 {x!r}" for x, _ in NORMAL])
def test_resolve_rfc3986_5_4_1_normal_examples(reference, target):
    assert r.resolve(BASE, reference) == target


@pytest.mark.parametrize(("reference", "target"), ABNORMAL, ids=[f"5.4.2 {x!r}" for x, _ in ABNORMAL])
def test_resolve_rfc3986_5_4_2_abnormal_examples(reference, target):
    assert r.resolve(BASE, reference) == target


def test_resolve_non_strict_ignores_a_scheme_equal_to_the_bases_5_4_2():
    assert r.resolve(BASE, "http:g", strict=False) == "http://a/b/c/g"


def test_resolve_base_must_be_a_uri_5_1():
    with pytest.raises(r.ParseError) as info:
        r.resolve("//a/b", "g")
    assert info.value.rule == "URI"
    assert "scheme" in (info.value.hint or "")


def test_resolve_rejects_an_invalid_reference():
    with pytest.raises(r.ParseError) as info:
        r.resolve(BASE, "a b")
    assert info.value.kind == "space"


# RFC 3986 6.2.2 and 6.2.3.
NORMALIZE = [
    ("6.2.2 example", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "syntax", "example://a/b/c/%7Bfoo%7D"),
    ("6.2.2.1 case of scheme and host", "HTTP://www.EXAMPLE.com/", "syntax", "http://www.example.com/"),
    ("6.2.2.1 percent-encoding hex to upper case", "http://h/%3a", "syntax", "http://h/%3A"),
    ("6.2.2.2 unreserved decoded", "http://h/%7Euser/%41", "syntax", "http://h/~user/A"),
    ("6.2.2.2 reserved stays encoded", "http://h/a%2Fb", "syntax", "http://h/a%2Fb"),
    ("6.2.2.3 dot-segments", "http://h/a/./b/../c", "syntax", "http://h/a/c"),
    ("3.2.3 empty port removed", "http://h:/", "syntax", "http://h/"),
    ("6.2.3 default port removed", "http://example.com:80/", "scheme", "http://example.com/"),
    ("6.2.3 empty http path is /", "http://example.com", "scheme", "http://example.com/"),
    ("6.2.3 syntax level keeps the port", "http://example.com:80/", "syntax", "http://example.com:80/"),
    ("6.2.1 simple keeps the text", "HTTP://A/%7e", "simple", "HTTP://A/%7e"),
    ("6.2.2.3 relative keeps leading ..", "../a/./b", "syntax", "../a/b"),
]


@pytest.mark.parametrize(("text", "level", "expected"), [x[1:] for x in NORMALIZE], ids=[x[0] for x in NORMALIZE])
def test_normalize(text, level, expected):
    assert r.normalize(text, level) == expected


def test_default_level_is_scheme_based_as_the_crate():
    # RFC 3986 6.2.3 for the default-port table, as url and fluent-uri normalize; "syntax" is 6.2.2 alone.
    assert r.normalize("HTTP://Example.com:80/a/./b") == "http://example.com/a/b"
    assert r.equivalent("http://example.com", "http://example.com:80/")
    assert not r.equivalent("http://example.com", "http://example.com:80/", "syntax")


def test_normalize_ipv6_rfc5952_option():
    assert r.normalize("http://[2001:DB8:0:0::1]/") == "http://[2001:db8:0:0::1]/"
    assert r.normalize("http://[2001:DB8:0:0::1]/", ipv6_rfc5952=True) == "http://[2001:db8::1]/"


# RFC 3986 6.2.3: these four are equivalent for http.
SCHEME_EQUIVALENT = ["http://example.com", "http://example.com/", "http://example.com:/", "http://example.com:80/"]


@pytest.mark.parametrize("other", SCHEME_EQUIVALENT[1:], ids=lambda x: f"6.2.3 {x}")
def test_equivalent_scheme_based_6_2_3(other):
    assert r.equivalent(SCHEME_EQUIVALENT[0], other, "scheme")


def test_equivalent_levels_are_a_ladder():
    a, b = "HTTP://A/%7e", "http://a/~"
    assert not r.equivalent(a, b, "simple")
    assert r.equivalent(a, b, "syntax")
    assert not r.equivalent("http://example.com", "http://example.com:80/", "syntax")


def test_unknown_level_is_a_value_error():
    with pytest.raises(ValueError, match="unknown level"):
        r.normalize("http://a/", "aggressive")


# Components: None (undefined) versus "" (empty), RFC 3986 5.2.2 / 5.3.
COMPONENTS = [
    ("empty query kept", "http://h/p?", dict(scheme="http", authority="h", host="h", path="/p", query="", fragment=None)),
    ("no query is None", "http://h/p", dict(query=None, fragment=None)),
    ("empty fragment kept", "p#", dict(scheme=None, authority=None, path="p", fragment="")),
    ("empty authority", "file:///etc/hosts", dict(scheme="file", authority="", host="", path="/etc/hosts")),
    ("empty port", "http://h:/", dict(port="", host="h")),
    ("userinfo and port", "ftp://u:pw@h:21/f", dict(userinfo="u:pw", host="h", port="21")),
    ("IPv6 literal host", "http://[2001:db8::7]:8080/c=GB?objectClass?one", dict(host="[2001:db8::7]", port="8080", query="objectClass?one")),
    ("relative path", "../g;x?y#s", dict(scheme=None, authority=None, path="../g;x", query="y", fragment="s")),
    ("empty reference", "", dict(scheme=None, authority=None, path="", query=None, fragment=None)),
    ("urn", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", dict(scheme="urn", authority=None, path="oasis:names:specification:docbook:dtd:xml:4.1.2")),
]


@pytest.mark.parametrize(("text", "expected"), [x[1:] for x in COMPONENTS], ids=[x[0] for x in COMPONENTS])
def test_parse_components(text, expected):
    uri = r.parse(text)
    got = uri.to_dict()
    for key, value in expected.items():
        assert got[key] == value, key
        assert getattr(uri, key) == value, key
    assert str(uri) == text


def test_parse_host_kind_and_port_number():
    assert r.parse("http://1.2.3.4/").host_kind == "IPv4address"
    assert r.parse("http://1.2.3.256/").host_kind == "reg-name"  # 3.2.2: first match wins
    assert r.parse("http://[::1]/").host_kind == "IPv6address"
    assert r.parse("http://[v7.x]/").host_kind == "IPvFuture"
    assert r.parse("/p").host_kind is None
    assert r.parse("http://h:123456/").port_number is None  # port = *DIGIT
    assert r.parse("http://h:8080/").port_number == 8080


def test_parse_with_rule_uri_rejects_a_relative_reference():
    assert r.parse("http://a", rule="URI").is_uri
    with pytest.raises(r.ParseError):
        r.parse("//a", rule="URI")
    with pytest.raises(ValueError, match="none of"):
        r.parse("a", rule="host")


def test_uriref_value_semantics():
    assert r.parse("http://a") == r.parse("http://a")
    assert r.parse("http://a") != r.parse("http://A")
    assert len({r.parse("x"), r.parse("x")}) == 1
    assert repr(r.parse("x")) == "UriRef('x')" or repr(r.parse("x")) == 'UriRef("x")'


# ParseError: offset, kind, expected items, hint.
ERRORS = [
    ("space", "http://a/b c", 10, "space", "%20"),
    ("brace of a template", "https://{bucket}.example/", 8, "brace", "%7B"),
    ("percent-encoding cut by the end", "/a%2", 4, "invalid-percent-encoding", "two hex digits"),
    ("bad percent-encoding: offset of the first non-hex digit", "/a%zz", 3, "invalid-percent-encoding", "two hex digits"),
    ("second hash", "a#b#c", 3, "second-hash", "%23"),
    ("non-ascii", "#también", 6, "non-ascii", "%C3%A9"),
    ("invalid port", "http://host:port/", 12, "invalid-port", "digits"),
    ("zone id", "http://[fe80::1%25eth0]/", 15, "invalid-ip-literal", "RFC 6874"),
    ("colon in first segment", ":a", 0, "unexpected", None),
    ("unexpected end", "http://[::1", 11, "unexpected-end", None),
    ("NUL", "http://a/\x00", 9, "invalid-character", "%00"),
]


@pytest.mark.parametrize(("text", "offset", "kind", "hint"), [x[1:] for x in ERRORS], ids=[x[0] for x in ERRORS])
def test_parse_error_fields(text, offset, kind, hint):
    assert not r.is_valid(text)
    with pytest.raises(r.ParseError) as info:
        r.validate(text)
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.offset, e.kind) == (offset, kind)
    assert e.rule == "URI-reference"
    assert e.input == text
    assert isinstance(e.expected, list)
    assert str(e).startswith(f"at offset {offset}: ")
    if hint is None:
        assert e.expected, "a rejection names what was expected"
    else:
        assert hint in e.hint
    assert e.found == (text[offset] if offset < len(text) else None)


def test_offsets_count_characters_and_byte_offset_counts_utf8():
    # The IRI grammar accepts "é", then stops at the space: 7 characters, 8 UTF-8 bytes in.
    with pytest.raises(r.ParseError) as info:
        r.validate_iri("/é/ab c")
    assert info.value.offset == 5
    assert info.value.byte_offset == 6


RULES = [
    ("IPv4address", "192.0.2.16", True),
    ("IPv4address", "192.0.2.256", False),
    ("host", "192.0.2.256", True),
    ("URI", "//example.com/", False),
    ("absolute-URI", "http://a/b#f", False),
    ("relative-ref", "http://a", False),
    ("relative-ref", "//a/b", True),
    ("port", "123456", True),
    ("IPv6address", "2001:db8::7", True),
]


@pytest.mark.parametrize(("rule", "text", "valid"), RULES, ids=[f"{a} {b}" for a, b, _ in RULES])
def test_validate_any_rule(rule, text, valid):
    assert r.is_valid(text, rule) is valid
    if valid:
        assert r.validate(text, rule) is None
    else:
        with pytest.raises(r.ParseError) as info:
            r.validate(text, rule)
        assert info.value.rule == rule


def test_unknown_rule_is_a_value_error_not_a_parse_error():
    with pytest.raises(ValueError, match="unknown rule") as info:
        r.validate("x", "no-such-rule")
    assert not isinstance(info.value, r.ParseError)


def test_lint_findings_with_sections():
    findings = r.lint("HTTP://u:pw@a/./b")
    codes = {f.code: f for f in findings}
    assert codes["scheme-not-lowercase"].section == "3.1"
    assert (codes["scheme-not-lowercase"].start, codes["scheme-not-lowercase"].end) == (0, 4)
    assert "userinfo-password" in codes
    assert "path-dot-segments" in codes
    assert r.lint("http://example.com/") == []


IRIS = [
    ("iri with non-ascii path", "http://example.org/résumé", "IRI", True),
    ("iri-reference relative", "/日本", "IRI-reference", True),
    ("iri space", "http://ex/ a", "IRI", False),
    ("iri without scheme is not an IRI", "//ex/é", "IRI", False),
    ("iri non-ascii scheme", "é:x", "IRI", False),
]


@pytest.mark.parametrize(("text", "rule", "valid"), [x[1:] for x in IRIS], ids=[x[0] for x in IRIS])
def test_iri_rfc3987(text, rule, valid):
    assert r.is_valid_iri(text, rule) is valid
    if not valid:
        with pytest.raises(r.ParseError):
            r.validate_iri(text, rule)


# Hostile input.
def test_lone_surrogate_is_a_clear_error_not_a_panic():
    with pytest.raises(UnicodeEncodeError):
        r.validate("http://a/\udcff")
    with pytest.raises(UnicodeEncodeError):
        r.is_valid("\ud800")
    with pytest.raises(UnicodeEncodeError):
        r.parse("x\udc80")


def test_huge_strings():
    big = "http://a/" + "b" * 20_000_000
    assert r.is_valid(big)
    assert len(r.parse(big).path) == 20_000_001
    with pytest.raises(r.ParseError) as info:
        r.validate(big + " ")
    assert info.value.offset == len(big)


def test_nul_and_control_characters():
    for c in ["\x00", "\x01", "\t", "\n", "\x7f"]:
        assert not r.is_valid(f"http://a/{c}")


def test_non_str_argument_is_a_type_error():
    with pytest.raises(TypeError):
        r.is_valid(b"http://a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        r.validate(None)  # type: ignore[arg-type]
