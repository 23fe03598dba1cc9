"""The examples of python/README.md and of the modules' docstrings, run as doctests."""

from __future__ import annotations

import doctest
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
