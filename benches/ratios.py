#!/usr/bin/env python3
"""Ratio table for `cargo bench --bench compare`: rfc3986 time / peer time, per group.

Reads criterion's output under target/criterion: for every benchmark, `<baseline>/benchmark.json` (group and
function ids, throughput) and `<baseline>/estimates.json` (point estimates, ns per iteration). The time of a
benchmark is criterion's headline estimate (the slope of the linear regression when criterion reports one,
else the mean), divided by the number of elements of its group (`Throughput::Elements`), so ns per URI.

A ratio below 1 means rfc3986 is faster. Groups without an `rfc3986` function are listed with their times
only.

    python3 benches/ratios.py                      # the last run (criterion's `new` directory)
    python3 benches/ratios.py run1 run2 run3       # runs saved with `-- --save-baseline runN`:
                                                   # min and median over the runs
    python3 benches/ratios.py --criterion-dir DIR  # another target directory
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

OURS = "rfc3986"
GROUP_PREFIXES = (
    "parse-sample",
    "parse-corpus",
    "parse-single",
    "resolve-sample",
    "resolve-corpus",
    "resolve-alone",
    "normalize-sample",
    "normalize-corpus",
)


def load(criterion_dir: Path, baseline: str):
    """{(group, function): ns per element} for one baseline."""
    times = {}
    for meta_path in criterion_dir.glob(f"**/{baseline}/benchmark.json"):
        meta = json.loads(meta_path.read_text())
        group = meta["group_id"]
        if not group.startswith(GROUP_PREFIXES):
            continue
        # bench_function sets function_id; bench_with_input(BenchmarkId::from_parameter(..)) sets value_str
        function = meta.get("function_id") or meta.get("value_str")
        est = json.loads((meta_path.parent / "estimates.json").read_text())
        point = (est.get("slope") or est["mean"])["point_estimate"]
        elements = 1
        throughput = meta.get("throughput") or {}
        if "Elements" in throughput:
            elements = throughput["Elements"]
        times[(group, function, elements)] = point / max(elements, 1)
    return times


def fmt_ns(ns: float) -> str:
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.0f} ns" if ns >= 100 else f"{ns:.1f} ns"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baselines", nargs="*", default=["new"])
    parser.add_argument("--criterion-dir", type=Path, default=Path("target/criterion"))
    args = parser.parse_args()

    runs = [load(args.criterion_dir, b) for b in args.baselines]
    if not any(runs):
        print(f"no compare results under {args.criterion_dir} for {args.baselines}", file=sys.stderr)
        return 1

    keys = sorted(set().union(*runs), key=lambda k: (k[0], k[1] != OURS, k[1]))
    groups = {}
    for group, function, elements in keys:
        groups.setdefault(group, []).append((function, elements))

    many = len(runs) > 1
    print(f"runs: {', '.join(args.baselines)}; time per URI (or pair); ratio = {OURS} / peer, < 1: {OURS} faster")
    print()
    if many:
        print("| group | n | peer | rfc3986 (min / median) | peer (min / median) | ratio (min / median) |")
        print("| --- | ---: | --- | ---: | ---: | ---: |")
    else:
        print("| group | n | peer | rfc3986 | peer | ratio |")
        print("| --- | ---: | --- | ---: | ---: | ---: |")
    for group, functions in groups.items():
        ours_key = next(((group, f, n) for f, n in functions if f == OURS), None)
        for function, n in functions:
            if function == OURS:
                continue
            key = (group, function, n)
            peer_t = [r[key] for r in runs if key in r]
            ours_t = [r[ours_key] for r in runs if ours_key and ours_key in r]
            ratios = [r[ours_key] / r[key] for r in runs if ours_key and ours_key in r and key in r]

            def cell(values, f=fmt_ns):
                if not values:
                    return "–"
                if many:
                    return f"{f(min(values))} / {f(statistics.median(values))}"
                return f(values[0])

            print(
                f"| {group} | {n} | {function} | {cell(ours_t)} | {cell(peer_t)} | "
                f"{cell(ratios, lambda x: f'{x:.2f}')} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
