"""The puzzle tools: the classic zebras' solutions come from the shared data
files (their sources), verdicts from the data's exact solution counts, and
check_many agrees with check, in input order."""

import json

import pytest

import bitfd
from conftest import data_file, example


def house_of_every_value(solution):
    return dict(solution)


@pytest.mark.parametrize(
    "zebra, data, puzzle_id",
    [
        ("zebra.zebra", "zebra/exercism.json", "exercism-zebra-puzzle"),
        ("oz.zebra", "zebra/mozart_oz.json", "oz-fdt-zebra"),
    ],
)
def test_classic_zebra_has_its_sources_solution(zebra, data, puzzle_id):
    (expected,) = [p for p in data_file(data)["puzzles"] if p["id"] == puzzle_id]
    result = bitfd.check(bitfd.Puzzle.parse(example(zebra)))
    assert result.verdict == "unique" and result.is_unique
    (solution,) = result.solutions
    want = expected["expected"]["solution"]
    assert {name: solution[name] for name in want} == want
    assert result.differences == [] and result.failed_at_root is None and result.limit is None


def test_classic_zebra_from_its_text_and_from_its_model():
    text = example("zebra.zebra")
    puzzle = bitfd.parse_zebra(text)
    assert puzzle.houses == 5 and len(puzzle.groups) == 5 and puzzle.clue_count == 14
    assert puzzle.groups[0][0] == "nationality"
    assert repr(puzzle).startswith("Puzzle(title='The zebra puzzle")
    solver = bitfd.Solver(puzzle.model())
    assert solver.all() == bitfd.check(text).solutions
    assert bitfd.Puzzle.parse(str(puzzle)).clue_count == 14


def test_json_puzzles_get_the_verdict_of_their_exact_counts():
    puzzles = data_file("zebra/derived_variants.json")["puzzles"]
    for p in puzzles:
        count = p["expected"]["solutions"]
        result = bitfd.check(bitfd.Puzzle.from_json(json.dumps(p)))
        want = {0: "no solution", 1: "unique"}.get(count, "not unique")
        assert result.verdict == want, p["id"]
        assert len(result.solutions) == min(count, 2)
        assert bitfd.Solver(bitfd.Puzzle.from_json(json.dumps(p)).model()).count() == count, p["id"]


def test_not_unique_reports_two_solutions_and_where_they_differ():
    result = bitfd.check(example("several.zebra"))
    assert result.verdict == "not unique"
    first, second = result.solutions
    assert first != second
    assert result.differences == [
        (name, first[name], second[name]) for name in first if first[name] != second[name]
    ]


def test_no_solution_names_the_failing_clue():
    result = bitfd.check(example("nosolution.zebra"))
    assert result.verdict == "no solution" and result.solutions == []
    if result.stats.nodes == 1:
        assert isinstance(result.failed_at_root, str) and result.failed_at_root


def test_a_limit_gives_unknown():
    result = bitfd.check(example("several.zebra"), node_limit=1, strength="value")
    assert result.verdict == "unknown" and not result.is_unique
    assert result.limit == "node limit" and result.solutions == []


def test_check_many_keeps_input_order_and_agrees_with_check():
    texts = [example(n) for n in ("zebra.zebra", "several.zebra", "nosolution.zebra", "oz.zebra")]
    texts = texts * 25
    one_by_one = [bitfd.check(t) for t in texts]
    for threads in (None, 1, 3):
        batch = bitfd.check_many(texts, threads=threads)
        assert [r.verdict for r in batch] == [r.verdict for r in one_by_one]
        assert [r.solutions for r in batch] == [r.solutions for r in one_by_one]
        assert [r.stats for r in batch] == [r.stats for r in one_by_one]
    mixed = bitfd.check_many([bitfd.Puzzle.parse(texts[0]), texts[1]])
    assert [r.verdict for r in mixed] == ["unique", "not unique"]
    assert bitfd.check_many([]) == []
    assert repr(mixed[0]).startswith("Check(verdict='unique', solutions=1")


def test_rating_is_the_whole_tree_of_a_unique_puzzle():
    text = example("zebra.zebra")
    assert bitfd.check(text).rating is None
    rating = bitfd.check(text, rate=True).rating
    solver = bitfd.Solver(bitfd.parse_zebra(text).model())
    assert solver.count() == 1
    assert (rating.nodes, rating.failures, rating.solutions) == (
        solver.stats.nodes,
        solver.stats.failures,
        1,
    )
    assert rating.propagation_only == (rating.nodes == 1)
    assert repr(rating).startswith("Rating(nodes=")
    # Only a unique puzzle is rated, in a batch as alone.
    several = example("several.zebra")
    batch = bitfd.check_many([text, several], rate=True)
    assert batch[0].rating == rating and batch[1].rating is None


def test_solver_uniqueness_is_check_on_a_reused_solver():
    for name in ("zebra.zebra", "several.zebra", "nosolution.zebra"):
        text = example(name)
        solver = bitfd.Solver(bitfd.parse_zebra(text).model())
        want = bitfd.check(text)
        for _ in range(2):
            got = solver.uniqueness()
            assert (got.verdict, got.solutions, got.differences, got.failed_at_root, got.stats) == (
                want.verdict,
                want.solutions,
                want.differences,
                want.failed_at_root,
                want.stats,
            )
        assert solver.status == ("solution limit" if want.verdict == "not unique" else "complete")
    limited = bitfd.Solver(bitfd.parse_zebra(example("several.zebra")).model(strength="value"), node_limit=1)
    assert limited.uniqueness().verdict == "unknown" and limited.status == "node limit"
