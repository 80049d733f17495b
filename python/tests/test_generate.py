"""generate, generate_many and Puzzle.minimize: seeded, unique, minimal
clue sets, and the batch equal to one call a seed, in order."""

import pytest

import bitfd
from conftest import example


@pytest.mark.parametrize("houses, groups", [(3, 2), (4, 3), (5, 5)])
def test_generated_puzzles_are_unique_and_seeded(houses, groups):
    for seed in range(5):
        p = bitfd.generate(houses, groups, seed=seed)
        assert (p.houses, len(p.groups)) == (houses, groups)
        assert bitfd.check(p).verdict == "unique"
        assert str(bitfd.generate(houses, groups, seed=seed)) == str(p)
        # The text form reads back as the same puzzle.
        assert str(bitfd.Puzzle.parse(str(p))) == str(p)


def test_generate_many_is_generate_for_each_seed_in_order():
    seeds = [9, 3, 3, 0, 41, 7, 12, 5]
    one_by_one = [str(bitfd.generate(5, 4, seed=s)) for s in seeds]
    for threads in (None, 1, 3):
        assert [str(p) for p in bitfd.generate_many(5, 4, seeds, threads=threads)] == one_by_one
    assert bitfd.generate_many(5, 4, []) == []


@pytest.mark.parametrize(
    "call",
    [
        lambda: bitfd.generate(1, 3),
        lambda: bitfd.generate(11, 3),
        lambda: bitfd.generate(4, 0),
        lambda: bitfd.generate(4, 13),
        lambda: bitfd.generate_many(4, 3, [1, 2], threads=0),
        lambda: bitfd.generate_many(0, 3, [1]),
        lambda: bitfd.parse_zebra(example("several.zebra")).minimize(),
        lambda: bitfd.parse_zebra(example("zebra.zebra")).minimize(strength="none"),
    ],
)
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_minimize_keeps_a_unique_puzzle_with_fewer_clues():
    p = bitfd.parse_zebra(example("zebra.zebra"))
    small = p.minimize(seed=3)
    assert small.clue_count <= p.clue_count
    r = bitfd.check(small)
    assert r.verdict == "unique"
    assert r.solutions == bitfd.check(p).solutions
    assert str(p.minimize(seed=3)) == str(small)


def test_minimize_warns_when_a_limit_cuts_a_clue_check_short():
    # Three clues fix three houses; the first check is solved at the root
    # (one node), but with a clue off the check needs more than one node.
    p = bitfd.parse_zebra("houses 3\nx: a b c\na = 1\nb = 2\nc = 3\n")
    with pytest.warns(RuntimeWarning, match="may not be minimal"):
        small = p.minimize(seed=0, node_limit=1)
    assert bitfd.check(small).verdict == "unique"
    # Without the limit every kept clue is proved needed: no warning.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p.minimize(seed=0)
