"""Shared paths: the repository's example puzzles and the shared test data
(``../shared/data`` beside the checkout, or ``$BITFD_DATA``)."""

import json
import os
from pathlib import Path

import pytest
from hypothesis import settings

# No example database: a run leaves no files behind, and each run draws anew.
settings.register_profile("bitfd", database=None, deadline=None)
settings.load_profile("bitfd")

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "puzzles"
DATA = Path(os.environ.get("BITFD_DATA", REPO.parent / "shared" / "data"))


def data_file(relative: str):
    """The parsed JSON of a shared data file; skips the test when absent."""
    path = DATA / relative
    if not path.exists():
        pytest.skip(f"shared test data not found: {path} (set BITFD_DATA)")
    return json.loads(path.read_text(encoding="utf-8"))


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")
