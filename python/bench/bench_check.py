"""How much a uniqueness check costs from Python: the Rust bench's workload
first, then one call on a parsed puzzle, one on text, and check_many's
throughput on one thread and on every core, with the CPU time it used
(cores busy = CPU time / wall time). Run from the repository root, with
bitfd installed:

    python python/bench/bench_check.py [FILE.zebra] [--batch N]

The first line is like with like against the Rust call: `cargo bench
--bench check -- uniqueness/check/5x5/domain` times 20 generated 5x5
puzzles (seeds 0..19), each checked by a solver built once; this script
checks the same 20 puzzles through the same reused solvers, from Python
(`Solver.uniqueness()`), and prints the time per puzzle. Divide criterion's
time by 20 to compare. The default puzzle of the other lines is the classic
5x5 zebra (examples/puzzles/zebra.zebra).
"""

import argparse
import os
import threading
import time
from pathlib import Path

import bitfd
from bitfd import _bitfd

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


class ThreadCpu:
    """CPU seconds of each thread of this process while it runs, sampled
    from /proc (Linux) every 20 ms, so that threads which end between two
    samples are still counted: how the work of a batch spread over its
    threads, which a shared machine's load does not change."""

    def __init__(self):
        self.seen, self.stop = {}, threading.Event()
        self.ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def sample(self):
        for task in Path("/proc/self/task").iterdir():
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / self.ticks
            self.seen[task.name] = max(cpu, self.seen.get(task.name, 0.0))

    def run(self):
        while not self.stop.wait(0.02):
            self.sample()

    def __enter__(self):
        self.sample()
        self.before = dict(self.seen)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.sample()

    def busy(self, at_least=0.05):
        """CPU seconds of each thread that used at least `at_least` in the run."""
        used = [cpu - self.before.get(tid, 0.0) for tid, cpu in self.seen.items()]
        return sorted((u for u in used if u >= at_least), reverse=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=ROOT / "examples/puzzles/zebra.zebra")
    parser.add_argument("--batch", type=int, default=20_000)
    args = parser.parse_args()
    text = Path(args.file).read_text(encoding="utf-8")
    puzzle = bitfd.Puzzle.parse(text)
    assert bitfd.check(puzzle).verdict == "unique"

    # The Rust bench's workload: generated 5x5 puzzles, seeds 0..19, each
    # checked by its own solver, built once.
    solvers = [bitfd.Solver(p.model()) for p in bitfd.generate_many(5, 5, list(range(20)))]
    assert all(s.uniqueness().verdict == "unique" for s in solvers)

    def from_python():
        for s in solvers:
            s.uniqueness()

    def from_rust():
        _bitfd._uniqueness_rounds(solvers, 1)

    # Interleaved samples, so both sides see the same machine load.
    py_us, rust_us = [], []
    for _ in range(5):
        py_us.append(per_call(from_python, 0.5) / 20)
        rust_us.append(per_call(from_rust, 0.5) / 20)
    py_us, rust_us = sorted(py_us)[2], sorted(rust_us)[2]
    print(f"Solver.uniqueness() x20 from Python {py_us:8.2f} us a puzzle")
    print(f"the same calls from Rust            {rust_us:8.2f} us a puzzle  (this build; benches/check.rs uniqueness/check/5x5/domain / 20)")
    print(f"  ratio {py_us / rust_us:.2f}")

    solver = bitfd.Solver(puzzle.model())
    print(f"Solver.uniqueness()  {per_call(solver.uniqueness):8.2f} us  (built once: the Rust call's shape)")
    print(f"check(Puzzle)        {per_call(lambda: bitfd.check(puzzle)):8.2f} us  (builds the model each call)")
    print(f"check(text)          {per_call(lambda: bitfd.check(text)):8.2f} us")
    print(f"Puzzle.parse(text)   {per_call(lambda: bitfd.Puzzle.parse(text)):8.2f} us")
    texts = [text] * args.batch
    cores = os.cpu_count() or 1
    for threads in sorted({1, cores}):
        with ThreadCpu() as spread:
            t, cpu = time.perf_counter(), time.process_time()
            results = bitfd.check_many(texts, threads=threads)
            elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
        assert all(r.verdict == "unique" for r in results)
        print(
            f"check_many(text) x{args.batch} on {threads} thread(s): "
            f"{elapsed:.3f} s, {elapsed / args.batch * 1e6:.2f} us a puzzle, "
            f"CPU {cpu:.2f} s / wall {elapsed:.2f} s = {cpu / elapsed:.2f} cores busy; "
            f"CPU seconds by thread: {', '.join(f'{u:.2f}' for u in spread.busy())}"
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {cores} cores")


if __name__ == "__main__":
    main()
