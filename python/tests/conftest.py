"""Shared fixtures: the repository's real sample of URIs and the Rust CLI's verdicts on it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "python"

# `python -m pytest` puts the working directory, python/, first on sys.path, where rfc3986_strict is the
# source package without its compiled module: take python/ off the path (unless a compiled module was
# put beside the source, as `maturin develop` does), so that `python -m pytest` and `pytest` both test
# the installed package.
if not any((PYTHON_DIR / "rfc3986_strict").glob("_native*.so")) and not any(
    (PYTHON_DIR / "rfc3986_strict").glob("_native*.pyd")
):
    sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != PYTHON_DIR]
SAMPLE = REPO / "data" / "real-uris-sample.txt"


def sample_lines() -> list[str]:
    return SAMPLE.read_text(encoding="utf-8").splitlines()


def _cli_command() -> list[str] | None:
    """The Rust CLI (`rfc3986`): $RFC3986_CLI, a built binary of the repository (in $CARGO_TARGET_DIR
    when it is set, else target/), or `cargo run`."""
    given = os.environ.get("RFC3986_CLI")
    if given:
        return [given]
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    if not target.is_absolute():
        target = REPO / target
    for profile in ("release", "debug"):
        binary = target / profile / "rfc3986"
        if binary.exists():
            return [str(binary)]
    if shutil.which("cargo"):
        return ["cargo", "run", "--quiet", "--manifest-path", str(REPO / "Cargo.toml"), "-p", "rfc3986-cli", "--"]
    return None


@pytest.fixture(scope="session")
def cli() -> list[str]:
    """The command that runs the Rust CLI."""
    command = _cli_command()
    if command is None:
        pytest.skip("neither the rfc3986 CLI nor cargo is available")
    return command


@pytest.fixture(scope="session")
def sample() -> list[str]:
    return sample_lines()


def _check_sample(command: list[str], *extra: str) -> list[dict]:
    done = subprocess.run(
        [*command, "check", "--format", "json", *extra, str(SAMPLE)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=900,
    )
    assert done.returncode in (0, 1), done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="session")
def cli_verdicts(cli) -> list[dict]:
    """One JSON record per line of the sample, from `rfc3986 check --format json` (the crate's verdicts)."""
    return _check_sample(cli)


@pytest.fixture(scope="session")
def cli_verdicts_redacted(cli) -> list[dict]:
    """The same with `--redact`: messages that do not name a character of a userinfo password, as the
    Python package's messages."""
    return _check_sample(cli, "--redact")
