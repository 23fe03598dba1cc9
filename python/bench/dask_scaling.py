#!/usr/bin/env python3
"""Dask scaling of the batch API: a Parquet file of at least 1 M URIs checked through ``map_partitions``
on a ``distributed.LocalCluster`` of 1 and then 2 worker processes (one thread each, RAYON_NUM_THREADS=1,
so that one worker uses one core).

    python bench/dask_scaling.py [FILE] [--rows 1000000] [--repeat 3]

FILE (default: data/real-uris-sample.txt) is repeated until the Parquet file has --rows rows. Prints the
best wall time of each cluster size for: read the Parquet file, check every row (explained rejections),
count the valid rows; and the speed-up of 2 workers over 1.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"  # inherited by the worker processes

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[1] / "data" / "real-uris-sample.txt"


def count_valid(df):
    from rfc3986_strict.frames import check_frame

    import pandas as pd

    out = check_frame(df, "uri")
    return pd.DataFrame({"valid": [int(out["valid"].sum())], "rows": [len(out)]})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--row-group", type=int, default=50_000)
    args = ap.parse_args()

    import dask.dataframe as dd
    import distributed
    import pandas as pd

    lines = [x for x in Path(args.file).read_text(encoding="utf-8").splitlines() if x]
    rows = (lines * (args.rows // len(lines) + 1))[: args.rows]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "uris.parquet")
        pq.write_table(pa.table({"uri": pa.array(rows, pa.string())}), path, row_group_size=args.row_group)
        print(f"{path}: {len(rows):,} rows, {os.path.getsize(path) / 1e6:.1f} MB, row groups of {args.row_group:,}")
        meta = pd.DataFrame({"valid": pd.Series([], dtype="int64"), "rows": pd.Series([], dtype="int64")})
        results = {}
        for workers in (1, 2):
            with distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
            ) as cluster, distributed.Client(cluster):
                def run():
                    ddf = dd.read_parquet(path, split_row_groups=True)
                    return ddf.map_partitions(count_valid, meta=meta).compute()

                run()  # warm-up: imports in the workers
                best = float("inf")
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    out = run()
                    best = min(best, time.perf_counter() - t0)
                results[workers] = best
                print(
                    f"{workers} worker(s): best of {args.repeat} {best:.2f} s "
                    f"({best / len(rows) * 1e6:.2f} us/URI), {int(out['valid'].sum()):,} valid of {int(out['rows'].sum()):,}"
                )
        print(f"2 workers / 1 worker speed-up: {results[1] / results[2]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
