#!/usr/bin/env python3
"""Side-by-side benchmark: rfc3986_strict against the Python URI validators users have today.

    python bench/bench.py [FILE] [--repeat N] [--cli PATH] [--markdown]

FILE has one URI reference per line (default: the repository's data/real-uris-sample.txt). For every
validator it prints the time per URI (best of N runs after a warm-up that is not timed, runs for at least
WARM_UP_SECONDS, one process, the GIL held unless said) and how many lines it accepts, then every line on
which a peer's verdict differs from ours, grouped by the reason our parser gives (an RFC 3986 ABNF rule),
so that who is right can be checked against the RFC.

Peers (pip install rfc3986 rfc3986-validator rfc3987 rfc3987-syntax):

- python-hyper ``rfc3986``: ``uri_reference(s).is_valid()``
- ``rfc3986-validator``: ``validate_rfc3986(s, rule="URI_reference")`` (a regular expression)
- ``rfc3987``: ``parse(s, rule="URI_reference")`` (a regular expression; raises ValueError)
- ``rfc3987-syntax``: ``is_valid_syntax_iri_reference(s)`` (a Lark grammar of RFC 3987, IRIs), compared
  with our ``IRI-reference`` verdicts

The batch rows run ``rfc3986_strict.arrow.check`` on one pyarrow array of all lines, on 1 thread and on
all cores (RAYON_NUM_THREADS, in a child process each). ``--cli`` also compares every verdict with the
Rust CLI's (``rfc3986 check --format json``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[1] / "data" / "real-uris-sample.txt"


def read_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line]


# Every validator runs untimed for at least this long (and at least once) before it is timed: about one
# run of the fastest peer on the corpus. A peer's run calls it once per line, so it is warm after its
# first lines; a batch run is one call, and a process's first calls of it are slower (the thread pool
# starts; the allocator's heaps and the page tables grow to the result's buffers: hundreds of page
# faults a call over the first few calls). Timed, they made the best of 3 runs of the explained batch
# check vary by a third from run to run.
WARM_UP_SECONDS = 0.25


def warm_up(fn, lines):
    """Runs `fn(lines)` untimed until WARM_UP_SECONDS have passed, at least once."""
    start = time.perf_counter()
    fn(lines)
    while time.perf_counter() - start < WARM_UP_SECONDS:
        fn(lines)


def best_time(fn, lines, repeat, warm=True):
    """Best wall time and best CPU time (this process, all threads) of `repeat` runs, and the result;
    with `warm`, after `warm_up`, as for the batch rows (see `batch_child`)."""
    best = best_cpu = float("inf")
    result = None
    if warm:
        warm_up(fn, lines)
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        result = fn(lines)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return (best, best_cpu), result


def peers():
    found = {}
    try:
        import rfc3986 as hyper

        found["python-hyper rfc3986 uri_reference(s).is_valid()"] = (
            "URI-reference",
            lambda lines: [hyper.uri_reference(s).is_valid() for s in lines],
        )
    except ImportError:
        pass
    try:
        from rfc3986_validator import validate_rfc3986

        found["rfc3986-validator validate_rfc3986(s, 'URI_reference')"] = (
            "URI-reference",
            lambda lines: [bool(validate_rfc3986(s, rule="URI_reference")) for s in lines],
        )
    except ImportError:
        pass
    try:
        import rfc3987

        def rfc3987_parse(lines):
            out = []
            for s in lines:
                try:
                    rfc3987.parse(s, rule="URI_reference")
                    out.append(True)
                except ValueError:
                    out.append(False)
            return out

        found["rfc3987 parse(s, rule='URI_reference')"] = ("URI-reference", rfc3987_parse)
    except ImportError:
        pass
    try:
        from rfc3987_syntax import is_valid_syntax_iri_reference

        found["rfc3987-syntax is_valid_syntax_iri_reference(s)"] = (
            "IRI-reference",
            lambda lines: [bool(is_valid_syntax_iri_reference(s)) for s in lines],
        )
    except ImportError:
        pass
    return found


def batch_child(path: str, threads: str, repeat: int, explain: bool) -> dict:
    """`check` on the whole file in a child process with `threads` threads: best of `repeat` calls after
    calls on the whole array (not a few rows) for WARM_UP_SECONDS, as for every validator."""
    env = dict(os.environ, RAYON_NUM_THREADS=threads)
    code = (
        "import json,sys,time;import pyarrow as pa;from rfc3986_strict import arrow as A;"
        "lines=[l for l in open(sys.argv[1],encoding='utf-8').read().splitlines() if l];arr=pa.array(lines);"
        "s=time.perf_counter();A.check(arr,explain=sys.argv[3]=='1')\n"
        f"while time.perf_counter()-s<{WARM_UP_SECONDS}: A.check(arr,explain=sys.argv[3]=='1')\n"
        "best=cpu=1e9\n"
        "for _ in range(int(sys.argv[2])):\n"
        " c=time.process_time();t=time.perf_counter();out=A.check(arr,explain=sys.argv[3]=='1')\n"
        " best=min(best,time.perf_counter()-t);cpu=min(cpu,time.process_time()-c)\n"
        "print(json.dumps({'seconds':best,'cpu':cpu,'valid':out.field('valid').true_count,'threads':__import__('rfc3986_strict._native',fromlist=['x']).batch_threads()}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, path, str(repeat), "1" if explain else "0"],
        env=env, capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the best counts (default 3)")
    ap.add_argument("--cli", help="the Rust CLI binary, to compare every verdict with the crate's")
    ap.add_argument("--examples", type=int, default=3, help="example lines per disagreement group")
    ap.add_argument(
        "--slow-lines", type=int, default=1000,
        help="rfc3987-syntax (a Lark parser, ~10 ms per URI) runs on the first N lines only (default 1000)",
    )
    args = ap.parse_args()

    import rfc3986_strict as r

    path = Path(args.file)
    lines = read_lines(path)
    n = len(lines)
    cores = os.cpu_count() or 1
    print(f"{path}: {n} lines; Python {sys.version.split()[0]}; {cores} cores; rfc3986_strict {r.__version__}")

    ours_ref = [r.is_valid(s) for s in lines]
    ours_iri = [r.is_valid_iri(s) for s in lines]

    rows = []  # (name, seconds, accepted, note)

    def scalar_is_valid(lines):
        is_valid = r.is_valid
        return [is_valid(s) for s in lines]

    def scalar_validate(lines, read=None):
        """validate() on every line; `read(e)` on each ParseError (str, to pay for its text)."""
        out = []
        validate, error = r.validate, r.ParseError
        for s in lines:
            try:
                validate(s)
                out.append(True)
            except error as e:
                if read is not None:
                    read(e)
                out.append(False)
        return out

    t, v = best_time(scalar_is_valid, lines, args.repeat)
    assert v == ours_ref
    rows.append(("rfc3986_strict is_valid(s) [scalar]", t, sum(v), "1 core"))
    t, v = best_time(scalar_validate, lines, args.repeat)
    assert v == ours_ref
    rows.append(("rfc3986_strict validate(s), ParseError raised (diagnosed; its text made when read) [scalar]", t, sum(v), "1 core"))
    t, v = best_time(lambda lines: scalar_validate(lines, read=str), lines, args.repeat)
    assert v == ours_ref
    rows.append(("rfc3986_strict validate(s) and str(e) of each ParseError [scalar]", t, sum(v), "1 core"))
    for explain in (False, True):
        for threads in ("1", str(cores)):
            res = batch_child(str(path), threads, args.repeat, explain)
            label = "check(array, explain=True)" if explain else "check(array, explain=False)"
            rows.append((f"rfc3986_strict arrow.{label} [batch]", (res["seconds"], res["cpu"]), res["valid"], f"{res['threads']} thread(s)"))

    verdicts = {}
    for name, (rule, fn) in peers().items():
        subset = lines[: args.slow_lines] if "syntax" in name else lines
        slow = "syntax" in name  # one run, not warmed up: ~10 ms per URI
        t, v = best_time(fn, subset, 1 if slow else args.repeat, warm=not slow)
        t = (t[0] * n / len(subset), t[1] * n / len(subset))  # per-URI times scaled to the whole file
        verdicts[name] = (rule, v)
        note = "1 core" + ("; IRI grammar" if rule == "IRI-reference" else "")
        if len(subset) < n:
            note += f"; first {len(subset):,} lines only"
        rows.append((name, t, sum(v), note))

    # The fastest peer that is strict (same verdicts as ours on this file: see the disagreements below).
    strict = [t for name, t, acc, _ in rows if name in verdicts and "hyper" not in name and "syntax" not in name]
    peer_wall = min((t[0] for t in strict), default=None)
    peer_cpu = min((t[1] for t in strict), default=None)
    print()
    print("Wall: best elapsed time; CPU: best CPU time of the process, all threads (what a busy machine")
    print("does not distort). Ratios: the fastest strict peer's time / ours.")
    print()
    print("| validator | wall us/URI | CPU us/URI | accepted | wall ratio | CPU ratio | note |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, (wall, cpu), acc, note in rows:
        ours = name.startswith("rfc3986_strict") and peer_wall
        wr = f"{peer_wall / wall:.1f}x" if ours else ""
        cr = f"{peer_cpu / cpu:.1f}x" if ours else ""
        print(f"| {name} | {wall / n * 1e6:.3f} | {cpu / n * 1e6:.3f} | {acc:,} | {wr} | {cr} | {note} |")
    print()
    print(f"ours: {sum(ours_ref):,} of {n:,} valid URI-reference (RFC 3986 4.1); {sum(ours_iri):,} valid IRI-reference (RFC 3987 2.2)")

    for name, (rule, v) in verdicts.items():
        ours = ours_iri if rule == "IRI-reference" else ours_ref
        check = r.validate_iri if rule == "IRI-reference" else r.validate
        extra = collections.defaultdict(list)  # peer accepts, we reject: grouped by our error kind
        missing = []  # peer rejects, we accept
        for s, mine, theirs in zip(lines[: len(v)], ours, v):
            if mine == theirs:
                continue
            if theirs:
                try:
                    check(s, rule)
                except r.ParseError as e:
                    extra[e.kind].append((s, e))
            else:
                missing.append(s)
        total = sum(len(x) for x in extra.values()) + len(missing)
        print()
        print(f"## {name}: {total} disagreements on {rule} over {len(v):,} lines")
        for kind, items in sorted(extra.items(), key=lambda kv: -len(kv[1])):
            print(f"- it accepts, we reject ({kind}): {len(items)}")
            for s, e in items[: args.examples]:
                print(f"    {s!r}: {e}")
        if missing:
            print(f"- it rejects, we accept: {len(missing)}")
            for s in missing[: args.examples]:
                print(f"    {s!r}")

    if args.cli:
        done = subprocess.run([args.cli, "check", "--format", "json", str(path)], capture_output=True, text=True)
        cli = [json.loads(x) for x in done.stdout.splitlines()]
        cli_valid = {}
        for rec in cli:
            cli_valid.setdefault(rec["input"], rec["valid"])
        differ = [s for s, mine in zip(lines, ours_ref) if cli_valid.get(s) != mine]
        print()
        print(f"Rust CLI: {len(cli)} records; verdicts that differ from the Python package's: {len(differ)}")
        for s in differ[: args.examples]:
            print(f"    {s!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
