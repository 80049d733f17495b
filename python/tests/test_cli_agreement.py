"""Python's check gives the command line's verdicts, witnesses, statistics
and ratings on the same files (`bitfd check --json`): the examples, and
generated puzzles. Needs the release binary (`cargo test --release` or
`cargo build --release` makes it; or set BITFD_BIN)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import bitfd
from conftest import EXAMPLES, REPO

BIN = Path(os.environ.get("BITFD_BIN", REPO / "target" / "release" / "bitfd"))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"no bitfd binary at {BIN} (cargo build --release, or set BITFD_BIN)")
    tmp = tmp_path_factory.mktemp("generated")
    generated = []
    for seed, p in enumerate(bitfd.generate_many(5, 5, list(range(20)))):
        path = tmp / f"g{seed}.zebra"
        path.write_text(str(p), encoding="utf-8")
        generated.append(path)
    return sorted(EXAMPLES.glob("*.zebra")) + generated


def test_check_agrees_with_the_command_line(files):
    out = subprocess.run(
        [str(BIN), "check", "--json", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    cli = [json.loads(line) for line in out.splitlines()]
    assert len(cli) == len(files)
    mine = bitfd.check_many([f.read_text(encoding="utf-8") for f in files], rate=True)
    for path, c, r in zip(files, cli, mine):
        assert c["verdict"] == r.verdict, path
        assert c["witnesses"] == r.solutions, path
        assert (c["statistics"]["nodes"], c["statistics"]["failures"]) == (r.stats.nodes, r.stats.failures), path
        if c["rating"] is None:
            assert r.rating is None, path
        else:
            assert (c["rating"]["nodes"], c["rating"]["failures"], c["rating"]["solutions"]) == (
                r.rating.nodes,
                r.rating.failures,
                r.rating.solutions,
            ), path
