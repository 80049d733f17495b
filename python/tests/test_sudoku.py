"""Sudoku boards: solutions and verdicts from the shared data (computed by
the collection's checking script and an independent exact-cover counter,
never by bitfd)."""

import pytest

import bitfd
from conftest import data_file


def test_norvig_top95_solutions_match_the_data():
    for p in data_file("sudoku/norvig_top95.json")["puzzles"][:15]:
        s = bitfd.Sudoku.parse(p["puzzle"])
        assert (s.size, s.box_size, s.givens) == (9, 3, p["givens"])
        assert s.solve() == p["solution"], p["id"]
        r = s.check()
        assert r.verdict == "unique", p["id"]
        (solution,) = r.solutions
        assert "".join(str(solution[f"r{i // 9 + 1}c{i % 9 + 1}"]) for i in range(81)) == p["solution"]


def test_non_unique_boards_are_not_unique():
    puzzles = data_file("sudoku/serg_first200_nonunique.json")["puzzles"][:10]
    for p in puzzles:
        want = "unique" if p["solutions"] == 1 else "not unique" if p["solutions"] else "no solution"
        r = bitfd.Sudoku.parse(p["puzzle"]).check()
        assert r.verdict == want, p["id"]
        if want == "not unique":
            assert r.differences and len(r.solutions) == 2
        if p["solutions"] <= 5000:
            assert bitfd.Solver(bitfd.Sudoku.parse(p["puzzle"]).model()).count() == p["solutions"], p["id"]


def test_cells_model_and_box_line_agree():
    line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    s = bitfd.Sudoku.parse(line)
    assert s.cells[:3] == [5, 3, None] and repr(s) == "Sudoku(size=9, givens=30)"
    m = s.model()
    assert len(m) == 81 and m.domain("r1c1") == [5]
    assert bitfd.Solver(m).count() == 1
    assert s.solve(box_line=True) == s.solve(strength="value")


@pytest.mark.parametrize("line", ["", "123", "5" * 80 + "x", "z" * 81])
def test_bad_boards_raise_parse_error(line):
    with pytest.raises(bitfd.ParseError):
        bitfd.Sudoku.parse(line)
