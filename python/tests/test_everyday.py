"""The everyday functions beside validation, against values checked by hand in the RFCs: percent-encoding
(RFC 3986 2.1, 2.4, 2.5), query pairs, URI Template expansion (RFC 6570 section 3.2's examples),
make_relative (RFC 3986 5.4), IRI <-> URI (RFC 3987 3.1, 3.2.1), fix, build and the with_* edits,
and the ParseError made cheaply (its fields, pickling)."""

from __future__ import annotations

import pickle

import pytest

import rfc3986_strict as r

# ------------------------------------------------------------------------------------------------
# Percent-encoding (RFC 3986 2.1: "%" HEXDIG HEXDIG, upper case; 2.3 unreserved never encoded; 2.4 "%"
# as "%25"; 2.5 UTF-8 octets).

ENCODE = [
    ("segment", "a b/c?", "a%20b%2Fc%3F"),  # "/" and "?" are not pchar
    ("path", "a b/c?", "a%20b/c%3F"),  # "/" separates segments
    ("query", "a b/c?", "a%20b/c?"),  # 3.4: "/" and "?" allowed
    ("fragment", "x#y", "x%23y"),  # 3.5: no "#"
    ("fragment", "\u00c0", "%C3%80"),  # 2.5: UTF-8 C3 80
    ("host", "user:pw", "user%3Apw"),  # reg-name has no ":"
    ("userinfo", "user:pw@", "user:pw%40"),  # userinfo keeps ":", not "@"
    ("query", "100%", "100%25"),  # 2.4
    ("segment", "-._~", "-._~"),  # 2.3 unreserved
]


@pytest.mark.parametrize(("component", "text", "encoded"), ENCODE, ids=[f"{c} {t!r}" for c, t, _ in ENCODE])
def test_percent_encode(component, text, encoded):
    assert r.percent_encode(text, component) == encoded
    rule = {"host": "reg-name"}.get(component, component)
    r.validate(encoded, rule)  # the result is always in the component's rule
    assert r.percent_decode(encoded) == text


def test_percent_encode_unknown_component():
    with pytest.raises(ValueError, match="unknown component"):
        r.percent_encode("a", "port")


DECODE = [
    ("%7e%7E~", "~~~"),  # 2.3: %7E is "~", hex digits in either case (2.1)
    ("%41", "A"),
    ("a%20b", "a b"),
    ("a+b", "a+b"),  # "+" has no meaning in RFC 3986
    ("%C3%A9", "\u00e9"),  # 2.5
]


@pytest.mark.parametrize(("text", "decoded"), DECODE, ids=[d[0] for d in DECODE])
def test_percent_decode(text, decoded):
    assert r.percent_decode(text) == decoded
    assert r.percent_decode_bytes(text) == decoded.encode()


def test_percent_decode_errors():
    assert r.percent_decode_bytes("%FF") == b"\xff"
    with pytest.raises(ValueError, match="at offset 1"):
        r.percent_decode("x%FF")  # not UTF-8
    with pytest.raises(ValueError, match="at offset 1"):
        r.percent_decode("a%")  # no two hex digits
    with pytest.raises(ValueError):
        r.percent_decode_bytes("%zz")


# ------------------------------------------------------------------------------------------------
# Query pairs, decoded as forms are ("+" is a space).

PAIRS = [
    ("a=1&b=x%20y&c", [("a", "1"), ("b", "x y"), ("c", "")]),
    ("q=caf%C3%A9+au+lait", [("q", "caf\u00e9 au lait")]),
    ("a=%2B", [("a", "+")]),
    ("&&a=1&", [("a", "1")]),
    ("=", [("", "")]),
    ("x=a=b", [("x", "a=b")]),
    ("", []),
]


@pytest.mark.parametrize(("query", "pairs"), PAIRS, ids=[p[0] or "empty" for p in PAIRS])
def test_query_pairs(query, pairs):
    assert r.query_pairs(query) == pairs


def test_uriref_query_pairs_round_trip():
    u = r.UriRef("/search?lang=fr#top").with_query_pairs([("q", "a&b=c d"), ("\u00e9", "+")])
    # "&" %26, "=" %3D, space %20, "é" %C3%A9, "+" %2B (RFC 3986 2.1, 2.5).
    assert str(u) == "/search?lang=fr&q=a%26b%3Dc%20d&%C3%A9=%2B#top"
    assert u.query_pairs() == [("lang", "fr"), ("q", "a&b=c d"), ("\u00e9", "+")]
    assert r.UriRef("/a").query_pairs() == []


# ------------------------------------------------------------------------------------------------
# URI Templates: the examples of RFC 6570 section 3.2, with its variables (3.2, first table).

VARS = {
    "count": ["one", "two", "three"],
    "dom": ["example", "com"],
    "dub": "me/too",
    "hello": "Hello World!",
    "half": "50%",
    "var": "value",
    "who": "fred",
    "base": "http://example.com/home/",
    "path": "/foo/bar",
    "list": ["red", "green", "blue"],
    "keys": {"semi": ";", "dot": ".", "comma": ","},
    "v": "6",
    "x": "1024",
    "y": "768",
    "empty": "",
    "empty_keys": {},
    "undef": None,
}

EXPANSIONS = [
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("?{x,empty}", "?1024,"),
    ("?{x,undef}", "?1024"),
    ("?{undef,y}", "?768"),
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+half}", "50%25"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    ("O{+empty}X", "OX"),
    ("{+path}/here", "/foo/bar/here"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    ("{#var}", "#value"),
    ("{#hello}", "#Hello%20World!"),
    ("{#keys*}", "#semi=;,dot=.,comma=,"),
    ("X{.var}", "X.value"),
    ("X{.list*}", "X.red.green.blue"),
    ("{/who,who}", "/fred/fred"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&var:3}", "&var=val"),
    ("{?empty_keys*}", ""),
]


@pytest.mark.parametrize(("template", "expected"), EXPANSIONS, ids=[e[0] for e in EXPANSIONS])
def test_expand_template_rfc6570_examples(template, expected):
    r.validate_template(template)
    assert r.expand_template(template, VARS) == expected


def test_expand_template_values_and_errors():
    assert r.expand_template("/{n}{?t*}", {"n": 7, "t": ("a", "b")}) == "/7?t=a&t=b"
    for template, offset in [("{x", 2), ("/{=x}", 2)]:
        with pytest.raises(r.TemplateError) as info:
            r.expand_template(template, {"x": "1"})
        assert info.value.input == template
        assert info.value.offset == offset
    with pytest.raises(r.TemplateError):
        r.expand_template("{list:3}", VARS)  # RFC 6570 2.4.1: no prefix on a list
    with pytest.raises(ValueError, match="str or a number"):
        r.expand_template("{x}", {"x": True})
    with pytest.raises(ValueError, match="mapping"):
        r.expand_template("{x}", [("x", "1")])


# ------------------------------------------------------------------------------------------------
# make_relative: the inverse of RFC 3986 5.2, on the base of 5.4.

BASE = "http://a/b/c/d;p?q"
RELATIVE = [
    ("http://a/b/c/g", "g"),
    ("http://a/b/c/g?y", "g?y"),
    ("http://a/b/c/g?y#s", "g?y#s"),
    ("http://a/b/c/d;p?y", "?y"),
    ("http://a/b/c/d;p?q#s", "#s"),
    ("http://a/b/c/d;p?q", ""),
    ("http://a/b/c/", "./"),
    ("http://a/b/", "../"),
    ("http://a/b/g", "../g"),
    ("http://a/g", "/g"),  # shorter than "../../g" (5.4.1)
    ("http://g", "//g"),
    ("http://a/b/c/g:h", "./g:h"),  # 4.2: a ":" in the first segment would read as a scheme
    ("https://a/b", "https://a/b"),
]


@pytest.mark.parametrize(("target", "reference"), RELATIVE, ids=[t for t, _ in RELATIVE])
def test_make_relative(target, reference):
    assert r.make_relative(BASE, target) == reference
    assert r.resolve(BASE, reference) == target


def test_make_relative_inverts_every_normal_example_of_5_4_1():
    for ref in ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x",
                "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..", "../../", "../../g"]:
        target = r.resolve(BASE, ref)
        assert r.resolve(BASE, r.make_relative(BASE, target)) == target


def test_make_relative_none_and_errors():
    assert r.make_relative(BASE, "http://a/b/../c") is None  # 5.2.4 removes dot-segments
    with pytest.raises(r.ParseError):
        r.make_relative(BASE, "/relative")


# ------------------------------------------------------------------------------------------------
# IRI <-> URI (RFC 3987 3.1 step 2 and the examples of 3.1 and 3.2.1).


def test_iri_to_uri_rfc3987_3_1():
    assert r.iri_to_uri("http://r\u00e9sum\u00e9.example.org") == "http://r%C3%A9sum%C3%A9.example.org"
    assert r.iri_to_uri("http://a/%c3%a9") == "http://a/%c3%a9"  # a URI is left as it is
    r.validate(r.iri_to_uri("/\U0001f600?\u65e5#\u2014"))


def test_uri_to_iri_rfc3987_3_2_1():
    assert r.uri_to_iri("http://www.example.org/D%C3%BCrst") == "http://www.example.org/D\u00fcrst"
    assert r.uri_to_iri("http://www.example.org/D%FCrst") == "http://www.example.org/D%FCrst"
    assert r.uri_to_iri("http://xn--99zt52a.example.org/%e2%80%ae") == "http://xn--99zt52a.example.org/%E2%80%AE"
    assert r.uri_to_iri("/a%2Fb%25c") == "/a%2Fb%25c"  # reserved characters and "%" stay encoded


# ------------------------------------------------------------------------------------------------
# fix: percent-encode what no URI contains.


def test_fix_repairs():
    fixed = r.fix("/100%#a#b")  # 2.4: a lone "%" is data; 3.5: no "#" in the fragment
    assert fixed.text == str(fixed) == "/100%25#a%23b"
    assert [(x.offset, x.found, x.replacement, x.reason) for x in fixed.repairs] == [
        (4, "%", "%25", "percent-sign"),
        (7, "#", "%23", "second-hash"),
    ]
    fixed = r.fix("http://h/caf\u00e9 x")
    assert fixed.text == "http://h/caf%C3%A9%20x"
    assert [(x.offset, x.byte_offset, x.reason) for x in fixed.repairs] == [(12, 12, "non-ascii"), (13, 14, "space")]
    assert r.fix("").text == "" and r.fix("http://a/").repairs == []


@pytest.mark.parametrize(
    ("text", "cause"),
    [("http://host:port/", "syntax"), ("https://{bucket}.example/", "template"), (" http://a/", "whitespace")],
)
def test_fix_unrepairable(text, cause):
    with pytest.raises(r.UnrepairableError) as info:
        r.fix(text)
    assert info.value.cause == cause
    assert info.value.input == text
    assert isinstance(info.value, ValueError)


def test_fix_does_not_name_a_password_character():
    with pytest.raises(r.UnrepairableError) as info:
        r.fix("http://u:p{w}@h/")
    assert "'{'" not in str(info.value) and "%7B" not in str(info.value)


# ------------------------------------------------------------------------------------------------
# build and the with_* edits (RFC 3986 5.3 recomposition; 3.3 and 4.2 constraints).


def test_build():
    assert str(r.build(scheme="http", host="h", path="/p", query="q", fragment="f")) == "http://h/p?q#f"
    assert str(r.build(scheme="http", host="example.com", port=8080)) == "http://example.com:8080"
    assert str(r.build(host="h", port="0080", path="/")) == "//h:0080/"
    assert str(r.build(scheme="mailto", path="a@b")) == "mailto:a@b"
    assert str(r.build(path="")) == ""
    for bad in [dict(path="a:b"), dict(userinfo="u"), dict(host="h", path="x"), dict(scheme="1a"), dict(path="//x")]:
        with pytest.raises(r.BuildError):
            r.build(**bad)


def test_with_edits_return_new_values():
    u = r.UriRef("http://h/a")
    assert str(u.with_scheme("https")) == "https://h/a"
    assert str(u.with_scheme(None)) == "//h/a"
    assert str(u.with_port(8080)) == "http://h:8080/a"
    assert str(u.with_port("")) == "http://h:/a"
    assert str(u.with_port(8080).with_port(None)) == "http://h/a"
    assert str(u.with_host("[::1]")) == "http://[::1]/a"
    assert str(u.with_host(None)) == "http:/a"
    assert str(u.with_userinfo("user")) == "http://user@h/a"
    assert str(u.with_path("/b/c")) == "http://h/b/c"
    assert str(u.with_segment(r.percent_encode("c d/e", "segment"))) == "http://h/a/c%20d%2Fe"
    assert str(u.with_query("x=1").with_fragment("f")) == "http://h/a?x=1#f"
    assert str(u.with_query("")) == "http://h/a?"
    assert str(u) == "http://h/a"  # unchanged
    assert u.with_port(8080).port_int == 8080 and u.with_port(8080).port == "8080"


def test_with_edits_refused():
    with pytest.raises(r.BuildError):
        r.UriRef("urn:a:b").with_scheme(None)  # 4.2: "a:b" would read as a scheme
    with pytest.raises(r.BuildError):
        r.UriRef("http://h/a").with_path("b")  # 3.3: after an authority, "" or "/..."
    with pytest.raises(r.BuildError):
        r.UriRef("http://h/a").with_query("a#b")
    with pytest.raises(r.BuildError):
        r.UriRef("http://h/a").with_segment("c/d")  # one segment has no "/"
    with pytest.raises(r.BuildError) as info:
        r.UriRef("http://h/a").with_userinfo("u:p{w}")
    assert "{" not in str(info.value)


def test_port_forms():
    u = r.UriRef("http://h:8080/")
    assert (u.port, u.port_number, u.port_int) == ("8080", 8080, 8080)
    u = r.UriRef("http://h:99999/")  # port = *DIGIT (3.2.3): valid, but no TCP port
    assert (u.port, u.port_int) == ("99999", None)
    assert r.UriRef("http://h/").port_int is None


# ------------------------------------------------------------------------------------------------
# ParseError: cheap to raise, its fields worked out when read.


def test_regression_parse_error_pickles_with_its_fields():
    with pytest.raises(r.ParseError) as info:
        r.validate_iri("/\u00e9/ab c")
    e = info.value
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        clone = pickle.loads(pickle.dumps(e, protocol))
        assert type(clone) is r.ParseError
        assert (clone.offset, clone.byte_offset, clone.kind, clone.rule, clone.input, str(clone)) == (
            e.offset, e.byte_offset, e.kind, e.rule, e.input, str(e))
    with pytest.raises(r.ParseError) as info:
        r.resolve("/not-a-uri", "g")
    clone = pickle.loads(pickle.dumps(info.value))
    assert clone.rule == "URI" and clone.offset == info.value.offset


def test_parse_error_made_by_hand():
    e = r.ParseError("mine")
    assert str(e) == "mine" and isinstance(e, ValueError)
    with pytest.raises(AttributeError):
        e.offset  # noqa: B018


def test_the_type_stubs_name_every_public_function_and_class():
    import ast
    from pathlib import Path

    package = Path(r.__file__).parent
    stubbed = set()
    for path in [package / "_native.pyi", package / "_errors.py", package / "__init__.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stubbed |= {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        stubbed |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target] if isinstance(t, ast.Name)}
    missing = [name for name in r.__all__ if name not in stubbed]
    assert missing == []
    assert (package / "py.typed").exists()
