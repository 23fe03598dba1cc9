"""The examples of python/README.md and of the modules' docstrings, run as doctests."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL


def test_readme_examples():
    pytest.importorskip("jsonschema")
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS, verbose=False)
    assert result.attempted > 20
    assert result.failed == 0


def test_formats_module_docstring():
    pytest.importorskip("jsonschema")
    import rfc3986_strict.formats as formats

    result = doctest.testmod(formats, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_dask_example_runs_as_a_script(tmp_path):
    pytest.importorskip("distributed")
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Dask") : text.index("### Polars")]
    (script,) = re.findall(r"```python\n(.*?)```", section, re.S)
    assert 'if __name__ == "__main__":' in script
    path = tmp_path / "dask_check.py"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    expected = re.search(r"It prints `(.*)`\.", section).group(1)
    assert done.stdout.strip().splitlines()[-1] == expected
