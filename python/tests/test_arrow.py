"""The batch API over Apache Arrow: types, nulls, chunks, lengths, and agreement with the scalar API."""

from __future__ import annotations

import itertools
from pathlib import Path

import pyarrow as pa
import pytest

import rfc3986_strict as r
from rfc3986_strict import _native
from rfc3986_strict import arrow as A

VALUES = ["http://a/b?", "a b", None, "", "HTTP://A/%7e/./x", "//h:80", "#a#b", "../g"]


def test_check_struct_fields_and_nulls():
    out = A.check(pa.array(VALUES))
    assert out.type == A.CHECK_TYPE
    rows = out.to_pylist()
    assert rows[0] == {"valid": True, "offset": None, "kind": None, "message": None}
    assert rows[1]["valid"] is False and rows[1]["offset"] == 1 and rows[1]["kind"] == "space"
    assert rows[1]["message"].startswith("space not allowed here; percent-encode a space as %20")
    assert rows[2] is None
    assert rows[3]["valid"] is True  # the empty reference (4.1, 4.2)
    assert rows[6]["kind"] == "second-hash"
    assert out.null_count == 1


def test_check_agrees_with_scalar_validate():
    rows = A.check(VALUES).to_pylist()
    for text, row in zip(VALUES, rows):
        if text is None:
            continue
        try:
            r.validate(text)
        except r.ParseError as e:
            assert (row["valid"], row["offset"], row["kind"]) == (False, e.offset, e.kind)
            assert str(e) == f"at offset {e.offset}: {row['message']}"
        else:
            assert row["valid"] is True


def test_check_without_explanations_gives_the_same_verdicts():
    full = A.check(VALUES)
    quick = A.check(VALUES, explain=False).to_pylist()
    assert [x and x["valid"] for x in quick] == [x and x["valid"] for x in full.to_pylist()]
    assert all(x is None or x["message"] is None for x in quick)


def test_check_with_another_rule():
    rows = A.check(["http://a", "//a", None], rule="URI").to_pylist()
    assert [x and x["valid"] for x in rows] == [True, False, None]


def test_check_iri():
    rows = A.check_iri(["http://ex/é", "http://ex/ é", None]).to_pylist()
    assert [x and x["valid"] for x in rows] == [True, False, None]
    assert rows[1]["offset"] == 10


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda v: pa.array(v, pa.string()), id="string"),
        pytest.param(lambda v: pa.array(v, pa.large_string()), id="large_string"),
        pytest.param(lambda v: pa.array(v, pa.string_view()), id="string_view"),
        pytest.param(lambda v: pa.chunked_array([v[:3], v[3:]], pa.string()), id="chunked"),
        pytest.param(lambda v: pa.array(["pad"] + v + ["pad"]).slice(1, len(v)), id="sliced with offset"),
        pytest.param(lambda v: list(v), id="python list"),
    ],
)
def test_input_types_give_the_same_result(make):
    expected = A.check(pa.array(VALUES)).to_pylist()
    out = A.check(make(VALUES))
    got = out.to_pylist()
    assert got == expected


def test_pandas_series_input():
    pd = pytest.importorskip("pandas")
    series = pd.Series(VALUES, dtype=object)
    assert A.check(series).to_pylist() == A.check(VALUES).to_pylist()


def test_parse_components_none_versus_empty():
    out = A.parse_components(pa.array(["http://u@h:/p?#", "p", "a b", None]))
    assert out.type == A.COMPONENTS_TYPE
    rows = out.to_pylist()
    assert rows[0] == dict(scheme="http", authority="u@h:", userinfo="u", host="h", port="", path="/p", query="", fragment="")
    assert rows[1] == dict(scheme=None, authority=None, userinfo=None, host=None, port=None, path="p", query=None, fragment=None)
    assert rows[2] is None and rows[3] is None


def test_parse_components_agrees_with_scalar_parse(sample):
    rows = A.parse_components(sample).to_pylist()
    for text, row in zip(sample, rows):
        if r.is_valid(text):
            assert row == r.parse(text).to_dict(), text
        else:
            assert row is None


def test_normalize_batch():
    out = A.normalize(pa.array(["HTTP://A/%7e/./x", None, "a b", "http://h:80"]), "scheme")
    assert out.type == pa.string()
    assert out.to_pylist() == ["http://a/~/x", None, None, "http://h/"]


def test_resolve_scalar_base_broadcast_rfc3986_5_4_1():
    out = A.resolve("http://a/b/c/d;p?q", pa.array(["g", "../g", None, "a b", "//g", "http:g"]))
    assert out.to_pylist() == ["http://a/b/c/g", "http://a/b/g", None, None, "http://g", "http:g"]
    non_strict = A.resolve("http://a/b/c/d;p?q", ["http:g"], strict=False)
    assert non_strict.to_pylist() == ["http://a/b/c/g"]


def test_resolve_arrays_of_bases():
    bases = pa.array(["http://a/b/c/d;p?q", "//relative/base", None, "f:/a"])
    refs = pa.array(["../g", "g", "g", ".//g"])
    assert A.resolve(bases, refs).to_pylist() == ["http://a/b/g", None, None, "f:/.//g"]


def test_resolve_mismatched_lengths_is_a_value_error():
    with pytest.raises(ValueError, match="differ in length"):
        A.resolve(pa.array(["http://a/"]), pa.array(["g", "h"]))


def test_resolve_invalid_scalar_base_raises():
    with pytest.raises(r.ParseError):
        A.resolve("no-scheme/here", ["g"])


def test_resolve_agrees_with_scalar_on_real_pairs():
    pairs = [line.split("\t") for line in (Path(__file__).resolve().parents[2] / "data" / "real-refs-sample.tsv").read_text(encoding="utf-8").splitlines()]
    pairs = [p for p in pairs if len(p) == 2]
    bases, refs = zip(*pairs)
    out = A.resolve(pa.array(bases), pa.array(refs)).to_pylist()
    for base, ref, target in zip(bases, refs, out):
        try:
            expected = r.resolve(base, ref)
        except r.ParseError:
            expected = None
        assert target == expected, (base, ref)


# Hostile and degenerate arrays.
@pytest.mark.parametrize(
    "values",
    [
        pytest.param(pa.array([], pa.string()), id="empty"),
        pytest.param(pa.array([None, None]), id="null-typed"),
        pytest.param(pa.nulls(3, pa.string()), id="all-null strings"),
        pytest.param(pa.chunked_array([], pa.string()), id="no chunks"),
    ],
)
@pytest.mark.parametrize("fn", [A.check, A.parse_components, A.normalize, lambda v: A.resolve("http://a/", v)], ids=["check", "parse_components", "normalize", "resolve"])
def test_empty_and_null_arrays(values, fn):
    out = fn(values)
    assert len(out) == len(values)
    assert out.null_count == len(values)


def test_non_string_arrays_are_a_type_error():
    with pytest.raises(TypeError, match="strings"):
        A.check(pa.array([1, 2, 3]))
    with pytest.raises(TypeError, match="strings"):
        A.check(pa.array([b"http://a"], pa.binary()))


def test_huge_and_nul_rows():
    big = "http://a/" + "b" * 5_000_000
    rows = A.check(pa.array([big, big + " ", "a\x00b"])).to_pylist()
    assert rows[0]["valid"] is True
    assert (rows[1]["valid"], rows[1]["offset"]) == (False, len(big))
    assert (rows[2]["kind"], rows[2]["offset"]) == ("invalid-character", 1)


def test_large_array_in_parallel_matches_row_by_row(sample):
    many = pa.array(sample * 10)
    rows = A.check(many, explain=False).to_pylist()
    expected = [r.is_valid(s) for s in sample] * 10
    assert [x["valid"] for x in rows] == expected


def test_results_are_independent_of_the_input_buffer():
    values = pa.array(["http://u@h/p"])
    out = A.parse_components(values)
    del values
    assert out.to_pylist()[0]["host"] == "h"


def _expected_check(raw):
    """What check() says of one row (bytes or None), from the scalar API: the verdict, and for a
    rejection its offset and kind (a row that is not UTF-8: the grammar's error before its first bad
    byte, else invalid-utf8 there)."""
    if raw is None:
        return None
    try:
        text, bad = raw.decode(), None
    except UnicodeDecodeError as e:
        text, bad = raw[: e.start].decode(), e.start
    try:
        r.validate(text)
    except r.ParseError as e:
        if bad is None or e.offset < len(text):
            return (False, e.offset, e.kind)
    if bad is not None:
        return (False, len(text), "invalid-utf8")
    return (True, None, None)


def _long_rows():
    # Rejected rows, nulls and rows that are not UTF-8 on both sides of the boundaries of the bitmap
    # words (64 rows) and of the runs worked on in parallel (1,024 rows), in a column long enough to be
    # shared out between threads.
    special = {
        0: b"a b",
        63: None,
        64: b"http://a/\xff",
        1023: b"http://[::1/",
        1024: b"a b\xe2\x82",
        1025: None,
        2047: b"{x}",
        2048: b"http://a/%zz",
        4999: b"#a#b",
    }
    valid = [b"http://a/b?q", b"../g", b"", b"mailto:x@y"]
    return [special.get(i, valid[i % len(valid)]) for i in range(5000)]


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view", "sliced", "dictionary", "dictionary of more values than rows"])
@pytest.mark.parametrize("explain", [True, False])
def test_regression_long_columns_checked_in_parallel_agree_with_validate(kind, explain):
    rows = _long_rows()
    binary = pa.array(rows, pa.binary())
    if kind == "string":
        array = binary.view(pa.string())
    elif kind == "large_string":
        array = pa.array(rows, pa.large_binary()).view(pa.large_string())
    elif kind == "string_view":
        array = pa.array(rows, pa.binary_view()).view(pa.string_view())
    elif kind == "sliced":
        # An offset that is not a multiple of 64: the result's bitmaps start at row 0 all the same.
        array = pa.array([b"x"] * 5 + rows, pa.binary()).view(pa.string()).slice(5, len(rows))
    elif kind == "dictionary":
        distinct = sorted({x for x in rows if x is not None})
        indices = pa.array([None if x is None else distinct.index(x) for x in rows], pa.int32())
        array = pa.DictionaryArray.from_arrays(indices, pa.array(distinct, pa.binary()).view(pa.string()))
    else:
        # More dictionary values than rows: the rows are read one by one.
        values = pa.array(rows + rows, pa.binary()).view(pa.string())
        indices = pa.array([None if x is None else i for i, x in enumerate(rows)], pa.int32())
        array = pa.DictionaryArray.from_arrays(indices, values)
    got = A.check(array, explain=explain).to_pylist()
    assert len(got) == len(rows)
    for i, (raw, row) in enumerate(zip(rows, got)):
        expected = _expected_check(raw)
        if expected is None:
            assert row is None, i
        elif explain:
            assert (row["valid"], row["offset"], row["kind"]) == expected, i
            assert (row["message"] is None) == expected[0], i
        else:
            assert row == {"valid": expected[0], "offset": None, "kind": None, "message": None}, i


def test_regression_long_column_over_the_chunk_limit_is_chunked_at_rejected_rows():
    # Chunks of a long column (worked on in parallel) cut where a rejected row's texts would pass the
    # (lowered) limit of a string chunk; the same rows as in one chunk.
    array = pa.array(_long_rows(), pa.binary()).view(pa.string())
    whole = A.check(array)
    _native._set_max_chunk_bytes(300)
    try:
        chunked = A.check(array)
    finally:
        _native._set_max_chunk_bytes(2**31 - 1)
    assert isinstance(whole, pa.StructArray)
    assert isinstance(chunked, pa.ChunkedArray) and chunked.num_chunks > 1
    assert chunked.type == whole.type
    assert chunked.to_pylist() == whole.to_pylist()
    # Every chunk but the last ends just before a rejected row.
    ends = list(itertools.accumulate(len(c) for c in chunked.chunks))[:-1]
    assert all(whole[end]["valid"].as_py() is False for end in ends)
