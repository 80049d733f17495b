"""How much a uniqueness check costs from Python: one call on a parsed
puzzle, one on text, and check_many's throughput on one thread and on every
core. Run from the repository root, with bitfd installed:

    python python/bench/bench_check.py [FILE.zebra] [--batch N]

The default puzzle is the classic 5x5 zebra (examples/puzzles/zebra.zebra).
Compare the first line with the Rust call: `cargo bench --bench check --
uniqueness/check/5x5` reports the time per puzzle of the solver alone.
"""

import argparse
import os
import time
from pathlib import Path

import bitfd

ROOT = Path(__file__).resolve().parents[2]


def per_call(f, seconds=1.0):
    """The median time of one call of `f`, in microseconds, over ~`seconds`."""
    runs, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 10:
        f()
        runs += 1
    batch = max(1, runs)
    samples = []
    for _ in range(9):
        t = time.perf_counter()
        for _ in range(batch):
            f()
        samples.append((time.perf_counter() - t) / batch * 1e6)
    return sorted(samples)[len(samples) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=ROOT / "examples/puzzles/zebra.zebra")
    parser.add_argument("--batch", type=int, default=20_000)
    args = parser.parse_args()
    text = Path(args.file).read_text(encoding="utf-8")
    puzzle = bitfd.Puzzle.parse(text)
    assert bitfd.check(puzzle).verdict == "unique"

    solver = bitfd.Solver(puzzle.model())
    print(f"Solver.uniqueness()  {per_call(solver.uniqueness):8.2f} us  (built once: the Rust call's shape)")
    print(f"check(Puzzle)        {per_call(lambda: bitfd.check(puzzle)):8.2f} us  (builds the model each call)")
    print(f"check(text)          {per_call(lambda: bitfd.check(text)):8.2f} us")
    print(f"Puzzle.parse(text)   {per_call(lambda: bitfd.Puzzle.parse(text)):8.2f} us")
    texts = [text] * args.batch
    cores = os.cpu_count() or 1
    for threads in sorted({1, cores}):
        t, cpu = time.perf_counter(), time.process_time()
        results = bitfd.check_many(texts, threads=threads)
        elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
        assert all(r.verdict == "unique" for r in results)
        print(
            f"check_many(text) x{args.batch} on {threads} thread(s): "
            f"{elapsed:.3f} s, {elapsed / args.batch * 1e6:.2f} us a puzzle, "
            f"{cpu / elapsed:.2f} cores busy"
        )


if __name__ == "__main__":
    main()
