"""Distributed and data-frame engines: Dask (a LocalCluster with worker processes) and Polars give, row
for row, what one process gives through the batch API."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rfc3986_strict import arrow as A
from rfc3986_strict.frames import check_frame, check_series, empty_check_frame


def _uris(sample: list[str]) -> list:
    # The real sample, with nulls in between, three times over: 12,000 rows.
    rows = []
    for i, line in enumerate(sample * 3):
        rows.append(None if i % 97 == 0 else line)
    return rows


def test_dask_local_cluster_with_worker_processes_equals_one_process(sample, tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    import pandas as pd

    rows = _uris(sample)
    path = tmp_path / "uris.parquet"
    pq.write_table(pa.table({"uri": pa.array(rows, pa.string())}), path, row_group_size=1000)

    expected = A.check(pa.array(rows, pa.string())).to_pylist()

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster, distributed.Client(cluster) as client:
        ddf = dd.read_parquet(str(path), split_row_groups=True)
        assert ddf.npartitions > 1
        result = ddf.map_partitions(check_frame, "uri", meta=empty_check_frame())
        # Worker processes did the work: each partition ran in a worker's process.
        pids = set(client.run(lambda: __import__("os").getpid()).values())
        assert len(pids) == 2
        frame = result.compute()

    assert isinstance(frame, pd.DataFrame)
    got = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False).to_pylist()
    flat = [
        row if row is not None else {"valid": None, "offset": None, "kind": None, "message": None}
        for row in expected
    ]
    assert len(got) == len(flat)
    assert got == flat
    assert sum(1 for g in got if g["valid"] is False) == 3 * 130 - sum(
        1 for i, line in enumerate(sample * 3) if i % 97 == 0 and not line_valid(line)
    )


def line_valid(line: str) -> bool:
    import rfc3986_strict

    return rfc3986_strict.is_valid(line)


def test_polars_map_batches_equals_one_process(sample):
    pl = pytest.importorskip("polars")
    rows = _uris(sample)
    df = pl.DataFrame({"uri": rows}, schema={"uri": pl.String})
    out = df.select(
        pl.col("uri").map_batches(check_series, return_dtype=pl.Struct({"valid": pl.Boolean, "offset": pl.Int64, "kind": pl.String, "message": pl.String}))
    )
    got = out["uri"].to_list()
    expected = A.check(pa.array(rows, pa.string())).to_pylist()
    assert got == [e if e is not None else got_none(got, i) for i, e in enumerate(expected)]


def got_none(got, i):
    # Polars represents a null struct row as a struct of nulls or as None, depending on the version.
    assert got[i] is None or all(v is None for v in got[i].values())
    return got[i]
