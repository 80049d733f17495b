"""Generate, check and rate zebra puzzles on a Ray cluster, as JSON lines.

The seeds ``SEED .. SEED+COUNT-1`` are cut into shards of ``--shard-size``
seeds (the cut depends on the seeds alone, never on the workers). Each Ray
task takes one shard and calls bitfd's batch functions on it:

1. ``bitfd.generate_english`` writes each puzzle as English text in a JSON
   line (the record ``bitfd generate --english`` writes: id, size, style,
   text, solution grid, rating, clues, seed);
2. ``bitfd.check_many(format="english", rate=True)`` reads every text back
   and checks it, as a consumer of the data would: the verdict and the
   rating of the English text are added to the record as ``check``.

Each task writes its shard's lines to ``shards/shard-NNNNN.jsonl`` beside
the output and returns the file's name; the driver concatenates the shards
in seed order. The output is therefore the same bytes whatever the number
of workers, and the same as a run without Ray (``--workers 0``), which the
test ``python/tests/test_ray_batch.py`` checks.

    python python/examples/ray_batch.py --houses 5 --groups 4 --seed 1 \\
        --count 10000 --workers 2 --out puzzles.jsonl

``--address auto`` joins a running cluster (``ray start --head``; workers
then need bitfd installed and a shared folder for ``--out``); without it a
local Ray instance with ``--workers`` CPUs is started.
"""

import argparse
import json
import sys
from pathlib import Path

import bitfd


def shards(seed, count, shard_size):
    """The seed ranges of the shards, in order: a function of the seeds only."""
    return [range(s, min(s + shard_size, seed + count)) for s in range(seed, seed + count, shard_size)]


def run_shard(houses, groups, seeds, style, path):
    """Generates, checks and rates one shard, writing its JSON lines to
    ``path``; returns the path. One thread: Ray runs one task a CPU."""
    lines = bitfd.generate_english(houses, groups, list(seeds), style=style, threads=1)
    records = [json.loads(line) for line in lines]
    checks = bitfd.check_many([r["text"] for r in records], format="english", rate=True, threads=1)
    with open(path, "w", encoding="utf-8") as out:
        for record, c in zip(records, checks):
            record["check"] = {
                "verdict": c.verdict,
                "nodes": c.stats.nodes,
                "failures": c.stats.failures,
                "ratingNodes": c.rating.nodes if c.rating else None,
                "propagationOnly": c.rating.propagation_only if c.rating else None,
            }
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    return str(path)


def on_ray(jobs, workers, address):
    """Runs the shards as Ray tasks, at most ``workers`` at a time (every
    CPU of the cluster when 0); returns their files in the shards' order.
    Uses the Ray instance already started, else starts one (a local one
    with ``workers`` CPUs, or joins ``address``) and stops it after."""
    import ray

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    if __name__ != "__main__":
        # Imported (by a pipeline, by the test): Ray's workers may not find
        # this file, so its functions travel by value, as a script's do.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        task = ray.remote(num_cpus=1)(run_shard)
        limit = workers or len(jobs)
        pending, paths = {}, [None] * len(jobs)
        for i, job in enumerate(jobs):
            if len(pending) == limit:
                done, _ = ray.wait(list(pending), num_returns=1)
                paths[pending.pop(done[0])] = ray.get(done[0])
            pending[task.remote(*job)] = i
        for ref, i in pending.items():
            paths[i] = ray.get(ref)
        return paths
    finally:
        if started:
            ray.shutdown()


def run(houses, groups, seed, count, out, *, style="zebralogic", shard_size=250, workers=0, address=None):
    """Writes the JSON lines of ``count`` puzzles from ``seed`` to ``out``;
    ``workers=0`` runs every shard in this process, else on Ray."""
    out = Path(out)
    folder = out.parent / (out.name + ".shards")
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(houses, groups, s, style, folder / f"shard-{i:05}.jsonl") for i, s in enumerate(shards(seed, count, shard_size))]
    if workers == 0 and address is None:
        paths = [run_shard(*job) for job in jobs]
    else:
        paths = on_ray(jobs, workers, address)
    with open(out, "wb") as whole:
        for path in paths:
            whole.write(Path(path).read_bytes())
            Path(path).unlink()
    folder.rmdir()
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--houses", type=int, required=True)
    parser.add_argument("--groups", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--style", default="zebralogic", choices=["zebralogic", "reasoning-gym", "classic"])
    parser.add_argument("--shard-size", type=int, default=250)
    parser.add_argument("--workers", type=int, default=2, help="Ray tasks at once (a local instance's CPUs); 0 runs without Ray, or on every CPU of --address")
    parser.add_argument("--address", help="a running Ray cluster's address (auto: the local one)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.shard_size < 1 or args.count < 0 or args.workers < 0:
        parser.error("--shard-size must be at least 1, --count and --workers at least 0")
    run(
        args.houses,
        args.groups,
        args.seed,
        args.count,
        args.out,
        style=args.style,
        shard_size=args.shard_size,
        workers=args.workers,
        address=args.address,
    )
    print(args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
