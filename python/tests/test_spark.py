"""The README's Spark recipes, on a local Spark session: a pandas_udf and mapInArrow give, row for row,
what one process gives through the batch API. Skipped when pyspark (a large download, not installed by
.ci/python) or Java is missing."""

from __future__ import annotations

import shutil

import pandas as pd  # module level: pandas_udf reads the type hints with this module's globals
import pyarrow as pa
import pytest

from rfc3986_strict import arrow as A

pyspark = pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java", allow_module_level=True)

SCHEMA = "valid boolean, offset long, kind string, message string"


@pytest.fixture(scope="module")
def spark():
    import os
    import sys

    from pyspark.sql import SparkSession

    # The Python workers run this interpreter, where rfc3986_strict is installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("rfc3986-strict-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


def _expected(rows):
    out = A.check(pa.array(rows, pa.string())).to_pylist()
    return [o if o is not None else {"valid": None, "offset": None, "kind": None, "message": None} for o in out]


def test_spark_pandas_udf_equals_one_process(spark, sample):
    from pyspark.sql.functions import pandas_udf

    from rfc3986_strict.frames import check_frame

    @pandas_udf(SCHEMA)
    def check_uri(uris: pd.Series) -> pd.DataFrame:
        return check_frame(uris.to_frame("uri"), "uri")

    rows = [None if i % 50 == 0 else s for i, s in enumerate(sample)]
    df = spark.createDataFrame([(i, s) for i, s in enumerate(rows)], "i long, uri string").repartition(4)
    got = df.select("i", check_uri("uri").alias("c")).select("i", "c.*").orderBy("i").collect()
    assert [{k: r[k] for k in ("valid", "offset", "kind", "message")} for r in got] == _expected(rows)


def test_spark_map_in_arrow_equals_one_process(spark, sample):
    from rfc3986_strict.frames import check_batch

    rows = sample[:1000]
    df = spark.createDataFrame([(s,) for s in rows], "uri string").coalesce(1)
    got = df.mapInArrow(lambda batches: (check_batch(b, "uri") for b in batches), SCHEMA).collect()
    assert [r.asDict() for r in got] == _expected(rows)
