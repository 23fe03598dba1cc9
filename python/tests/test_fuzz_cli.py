"""Random bytes, as every kind of string array the batch API takes, through every batch function,
compared row by row with the Rust command line's verdicts on the same lines (issue 32).

The rows are random runs of URI characters, characters no URI has, control characters, valid UTF-8
and bytes that are not UTF-8, after prefixes that reach the scheme, the userinfo password and the
host. They hold no line break (the command line reads lines) and none is empty (`check` skips blank
lines). RFC3986_FUZZ_SEED changes the seed (default 3986), RFC3986_FUZZ_ROWS the number of rows.
"""

from __future__ import annotations

import json
import os
import random
import subprocess

import pyarrow as pa
import pytest

from rfc3986_strict import arrow as A

SEED = int(os.environ.get("RFC3986_FUZZ_SEED", "3986"))
ROWS = int(os.environ.get("RFC3986_FUZZ_ROWS", "3000"))
BASE = "http://a/b/c/d;p?q"

PREFIXES = [b"", b"http://", b"http://u:p", b"https://user:pa", b"//", b"a:", b"http://[", b"mailto:", b"../", b"#"]
PIECES = (
    [bytes([c]) for c in b"abcXYZ0189-._~:/?#[]@!$&'()*+,;=%"]
    + [b"%41", b"%7e", b"%zz", b"%", b"::1]", b"v1.x]", b"1.2.3.4", b":80", b"/./", b"/../", b"@"]
    + [b" ", b"{", b"}", b"<", b"|", b"\\", b"^", b"`", b'"', b"\x00", b"\x01", b"\x7f", b"\x1b"]
    + ["\u00e9".encode(), "\U0001f600".encode(), "\u202e".encode(), "\ue000".encode(), "\ufeff".encode()]
    + [b"\xff", b"\xfe", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"]
)


def _rows() -> list[bytes]:
    rng = random.Random(SEED)
    rows = []
    while len(rows) < ROWS:
        row = rng.choice(PREFIXES) + b"".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 24)))
        if row:
            rows.append(row)
    # Repeats, so that the dictionary-encoded arrays share values between rows.
    return rows + rows[: ROWS // 4]


def _arrays(rows: list[bytes]) -> dict[str, object]:
    distinct = sorted(set(rows))
    index = {v: i for i, v in enumerate(distinct)}
    padded = [b"\xff\xfe"] + rows + [b"pad"]
    half = len(rows) // 2
    return {
        "string (binary viewed)": pa.array(rows, pa.binary()).view(pa.string()),
        "large_string": pa.array(rows, pa.large_binary()).view(pa.large_string()),
        "string_view": pa.array(rows, pa.binary_view()).view(pa.string_view()),
        "sliced": pa.array(padded, pa.binary()).view(pa.string()).slice(1, len(rows)),
        "dictionary": pa.DictionaryArray.from_arrays(
            pa.array([index[v] for v in rows], pa.int32()), pa.array(distinct, pa.binary()).view(pa.string())
        ),
        "chunked": pa.chunked_array(
            [pa.array(rows[:half], pa.binary()).view(pa.string()), pa.array(rows[half:], pa.binary()).view(pa.string())]
        ),
    }


def _cli_json(cli: list[str], args: list[str], stdin: bytes) -> dict[int, dict]:
    done = subprocess.run([*cli, *args], input=stdin, capture_output=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return {record["line"]: record for record in records}


def _chars(row: bytes, byte_offset: int) -> int:
    # The error is at or before the first byte that is not UTF-8: the prefix is text.
    return len(row[:byte_offset].decode("utf-8"))


def _verdicts(records: dict[int, dict], rows: list[bytes]) -> list[dict]:
    out = []
    for number, row in enumerate(rows, 1):
        record = records[number]
        if record["valid"]:
            out.append({"valid": True, "offset": None, "kind": None, "message": None})
        else:
            error = record["error"]
            out.append(
                {
                    "valid": False,
                    "offset": _chars(row, error["offset"]),
                    "kind": error["kind"],
                    "message": error["message"],
                }
            )
    return out


@pytest.fixture(scope="module")
def expected(cli, tmp_path_factory):
    rows = _rows()
    text = b"\n".join(rows) + b"\n"
    path = tmp_path_factory.mktemp("fuzz") / "rows.txt"
    path.write_bytes(text)
    pairs = tmp_path_factory.mktemp("fuzz") / "pairs.tsv"
    bases = [rows[(i * 7) % len(rows)] if i % 3 else BASE.encode() for i in range(len(rows))]
    pairs.write_bytes(b"".join(b + b"\t" + r + b"\n" for b, r in zip(bases, rows)))

    # Messages are compared with --redact: the batch `message` column masks a password as it does.
    check = _cli_json(cli, ["check", "--format", "json", "--redact", "-j", "1", str(path)], b"")
    check_iri = _cli_json(cli, ["check", "--grammar", "iri", "--format", "json", "--redact", "-j", "1", str(path)], b"")
    parsed = _cli_json(cli, ["parse", "--format", "json"], text)
    normalized = _cli_json(cli, ["normalize", "--format", "json"], text)
    resolved = _cli_json(cli, ["resolve", BASE, "--format", "json"], text)
    resolved_pairs = _cli_json(cli, ["resolve", "--pairs", str(pairs), "--format", "json"], b"")
    names = ["scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"]
    n = len(rows)
    return {
        "rows": rows,
        "bases": bases,
        "check": _verdicts(check, rows),
        "check_iri": _verdicts(check_iri, rows),
        "parse_components": [
            {k: parsed[i][k] for k in names} if parsed[i]["valid"] else None for i in range(1, n + 1)
        ],
        "normalize": [normalized[i]["normalized"] for i in range(1, n + 1)],
        "resolve": [resolved[i]["target"] for i in range(1, n + 1)],
        "resolve arrays": [resolved_pairs[i]["target"] for i in range(1, n + 1)],
    }


def test_the_rows_reach_every_kind_of_row(expected):
    kinds = {v["kind"] for v in expected["check"] if not v["valid"]}
    assert {"invalid-utf8", "non-ascii", "space", "brace", "invalid-percent-encoding"} <= kinds
    assert sum(v["valid"] for v in expected["check"]) > 100
    assert any("password of the userinfo (not shown)" in (v["message"] or "") for v in expected["check"])


ARRAY_KINDS = list(_arrays([b"a"]))
FUNCTIONS = {
    "check": lambda a: A.check(a),
    "check explain=False": lambda a: A.check(a, explain=False),
    "check_iri": lambda a: A.check_iri(a),
    "parse_components": lambda a: A.parse_components(a),
    "normalize": lambda a: A.normalize(a),
    "resolve": lambda a: A.resolve(BASE, a),
}


@pytest.mark.parametrize("function", list(FUNCTIONS))
@pytest.mark.parametrize("kind", ARRAY_KINDS)
def test_batch_functions_equal_the_cli_on_random_bytes(expected, kind, function):
    array = _arrays(expected["rows"])[kind]
    got = FUNCTIONS[function](array).to_pylist()
    if function == "check explain=False":
        want = [{"valid": v["valid"], "offset": None, "kind": None, "message": None} for v in expected["check"]]
    else:
        want = expected[function]
    assert len(got) == len(want)
    mismatches = [(row, g, w) for row, g, w in zip(expected["rows"], got, want) if g != w]
    assert mismatches[:5] == []


@pytest.mark.parametrize("kind", ARRAY_KINDS)
def test_resolve_arrays_of_bases_equal_the_cli_on_random_bytes(expected, kind):
    bases = _arrays(expected["bases"])[kind]
    refs = _arrays(expected["rows"])[kind]
    got = A.resolve(bases, refs).to_pylist()
    want = expected["resolve arrays"]
    mismatches = [(b, r, g, w) for b, r, g, w in zip(expected["bases"], expected["rows"], got, want) if g != w]
    assert mismatches[:5] == []
