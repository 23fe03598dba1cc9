"""Data-frame glue for the batch API: one function per engine idiom, all over Arrow.

- :func:`check_frame`: a pandas DataFrame partition in, a DataFrame of verdicts out (Dask's
  ``map_partitions``, Spark's ``mapInPandas`` / ``pandas_udf``).
- :func:`check_batch`: a ``pyarrow.RecordBatch`` in and out (Spark 4's ``mapInArrow``).
- :func:`check_series`: a Polars Series in, a Polars struct Series out (``map_batches``).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from .arrow import CHECK_TYPE, check

__all__ = ["CHECK_COLUMNS", "check_batch", "check_frame", "check_series", "empty_check_frame"]

#: The columns :func:`check_frame` and :func:`check_batch` return.
CHECK_COLUMNS = [f.name for f in CHECK_TYPE]


def _struct_to_table(result: pa.Array) -> pa.Table:
    if isinstance(result, pa.ChunkedArray):
        result = result.combine_chunks()
    return pa.Table.from_arrays(result.flatten(), schema=pa.schema(list(CHECK_TYPE)))


def check_frame(df: Any, column: str = "uri", rule: str = "URI-reference", explain: bool = True) -> Any:
    """Checks ``df[column]`` (a pandas DataFrame) and returns a DataFrame with the columns ``valid``,
    ``offset``, ``kind``, ``message`` (Arrow-backed dtypes, nulls kept) and ``df``'s index.

    A null input row gives nulls in every column.
    """
    import pandas as pd

    values = pa.array(df[column], type=pa.string(), from_pandas=True)
    out = _struct_to_table(check(values, rule, explain)).to_pandas(types_mapper=pd.ArrowDtype)
    out.index = df.index
    return out


def empty_check_frame() -> Any:
    """The zero-row frame :func:`check_frame` returns, for Dask's ``meta=``."""
    import pandas as pd

    return _struct_to_table(pa.array([], CHECK_TYPE)).to_pandas(types_mapper=pd.ArrowDtype)


def check_batch(batch: pa.RecordBatch, column: str = "uri", rule: str = "URI-reference", explain: bool = True) -> pa.RecordBatch:
    """Checks ``batch[column]`` and returns a RecordBatch of ``valid``, ``offset``, ``kind``, ``message``."""
    result = check(batch.column(column), rule, explain)
    return pa.RecordBatch.from_arrays(result.flatten(), schema=pa.schema(list(CHECK_TYPE)))


def check_series(series: Any, rule: str = "URI-reference", explain: bool = True) -> Any:
    """Checks a Polars Series of strings; returns a Polars struct Series (for ``Expr.map_batches``)."""
    import polars as pl

    result = check(series.to_arrow(), rule, explain)
    return pl.Series(series.name, result)
