"""The Python verdicts equal the Rust crate's (its CLI, `rfc3986 check --format json`) on every line of
data/real-uris-sample.txt: valid or not, and for an invalid line the byte offset, kind, hint and message,
the messages as `--redact` words them (none names a character of a userinfo password)."""

from __future__ import annotations

import pyarrow as pa

import rfc3986_strict as r
from rfc3986_strict import arrow as A


def test_sample_has_the_lines_data_readme_describes(sample):
    assert len(sample) == 4000


def test_scalar_verdicts_equal_the_rust_cli_on_every_line(sample, cli_verdicts, cli_verdicts_redacted):
    assert [c["input"] for c in cli_verdicts] == sample
    mismatches = []
    for text, cli in zip(sample, cli_verdicts_redacted):
        valid = r.is_valid(text)
        try:
            r.validate(text)
            got = None
        except r.ParseError as e:
            got = (e.byte_offset, e.kind, e.hint)
        expected = None if cli["valid"] else (cli["error"]["offset"], cli["error"]["kind"], cli["error"]["hint"])
        if valid != cli["valid"] or got != expected:
            mismatches.append((text, got, expected))
    assert mismatches == []
    assert sum(1 for c in cli_verdicts if not c["valid"]) == 130
    # The sample holds errors in passwords: the masking is exercised.
    assert any("password of the userinfo" in (c.get("error") or {}).get("message", "") for c in cli_verdicts_redacted)


def test_batch_verdicts_equal_the_rust_cli_on_every_line(sample, cli_verdicts_redacted):
    rows = A.check(pa.array(sample)).to_pylist()
    quick = A.check(pa.array(sample), explain=False).to_pylist()
    for text, row, q, cli in zip(sample, rows, quick, cli_verdicts_redacted):
        assert row["valid"] is cli["valid"] is q["valid"], text
        if not cli["valid"]:
            byte_offset = cli["error"]["offset"]
            assert row["offset"] == len(text.encode("utf-8")[:byte_offset].decode("utf-8")), text
            assert row["kind"] == cli["error"]["kind"]
            assert row["message"] == cli["error"]["message"]
