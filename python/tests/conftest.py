"""Shared fixtures: the test data folder and the `arena` program (for the tests that compare
the package with `arena apply`)."""

import json
import os
import pathlib
import subprocess
from typing import Any, Callable, Iterator, List

import pytest

DATA = pathlib.Path(__file__).parent / "data"
ROOT = pathlib.Path(__file__).resolve().parents[2]


def load(name: str) -> List[Any]:
    """The records of a JSON-lines file of the test data (the shared vectors, copied)."""
    with open(DATA / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def find_arena() -> pathlib.Path:
    """$ARENA, else the repository's target/release/arena or target/debug/arena."""
    env = os.environ.get("ARENA")
    if env:
        return pathlib.Path(env)
    for profile in ("release", "debug"):
        p = ROOT / "target" / profile / "arena"
        if p.exists():
            return p
    return ROOT / "target" / "debug" / "arena"


@pytest.fixture(scope="session")
def arena() -> Iterator[Callable[..., List[str]]]:
    """Runs `arena ARGS...` and returns its output lines; fails the test if it exits non-zero.
    The program must be built (`cargo build -p plyforge-arena`, or set ARENA): a test that
    needs it fails without it, it is never skipped."""
    path = find_arena()
    if not path.exists():
        pytest.fail(f"no arena program at {path}: run `cargo build -p plyforge-arena` or set ARENA")

    def run(*args: str) -> List[str]:
        out = subprocess.run([str(path), *args], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, f"arena {' '.join(args)}: {out.stderr}"
        return out.stdout.splitlines()

    yield run
