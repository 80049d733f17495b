"""The Ray example (python/examples/ray_batch.py) on a local Ray instance:
3,000 puzzles generated, checked and rated as JSON lines on 1, 2 and 3
concurrent workers give the bytes of a run in one process; the records are
the CLI's English lines plus a check of their own text that finds each
unique. In CI (CI=true) a missing Ray fails the test rather than skipping
it: .ci/run installs it."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO
from test_cli_agreement import BIN

sys.path.insert(0, str(REPO / "python" / "examples"))
import ray_batch  # noqa: E402

COUNT, HOUSES, GROUPS, SEED = 3000, 5, 4, 17


def need_ray():
    try:
        import ray

        # A folder named ray on the path (Ray's own /tmp/ray, when the tests
        # run from /tmp) imports as an empty namespace package: not Ray.
        ray.init
    except (ImportError, AttributeError):
        if os.environ.get("CI") == "true":
            pytest.fail("ray is not installed: .ci/run installs it in its venv")
        pytest.skip("ray is not installed (pip install ray)")
    return ray


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    out = tmp_path_factory.mktemp("single") / "puzzles.jsonl"
    ray_batch.run(HOUSES, GROUPS, SEED, COUNT, out, shard_size=250, workers=0)
    return out.read_bytes()


@pytest.fixture(scope="module")
def local_ray():
    ray = need_ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_ray_gives_the_single_process_bytes_on_any_number_of_workers(local_ray, single, tmp_path, workers):
    out = tmp_path / "puzzles.jsonl"
    ray_batch.run(HOUSES, GROUPS, SEED, COUNT, out, shard_size=250, workers=workers)
    assert out.read_bytes() == single


def test_the_shard_size_does_not_change_the_bytes(single, tmp_path):
    out = tmp_path / "puzzles.jsonl"
    ray_batch.run(HOUSES, GROUPS, SEED, COUNT, out, shard_size=777, workers=0)
    assert out.read_bytes() == single


def test_the_records_are_the_clis_lines_with_a_check_of_their_text(single):
    records = [json.loads(line) for line in single.decode("utf-8").splitlines()]
    assert [r["seed"] for r in records] == list(range(SEED, SEED + COUNT))
    assert all(r["check"]["verdict"] == "unique" for r in records)
    # The rating of the English text is the generator's rating of its puzzle.
    assert all(r["check"]["ratingNodes"] == r["rating"]["nodes"] for r in records)
    if not BIN.exists():
        pytest.skip(f"no bitfd binary at {BIN}")
    cli = subprocess.run(
        [str(BIN), "generate", "--english", "--houses", str(HOUSES), "--groups", str(GROUPS), "--seed", str(SEED), "--count", "300"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    for record, line in zip(records, cli.splitlines()):
        record = dict(record)
        del record["check"]
        assert record == json.loads(line)


def test_the_command_line_runs_without_ray(tmp_path):
    out = tmp_path / "p.jsonl"
    ray_batch.main(["--houses", "3", "--groups", "2", "--count", "7", "--shard-size", "3", "--workers", "0", "--out", str(out)])
    assert len(out.read_text(encoding="utf-8").splitlines()) == 7
    assert not (tmp_path / "p.jsonl.shards").exists()
