"""English from Python: ZebraLogic's dev puzzles read to their published
grids (shared data), the example files read by extension as the CLI reads
them, English written in every style reading back to the puzzle's own
solution, positioned diagnostics, and generate's English lines equal to the
CLI's bytes."""

import json
import subprocess
import tempfile
from pathlib import Path

import pytest

import bitfd
from conftest import EXAMPLES, data_file
from test_cli_agreement import BIN

STYLES = ["zebralogic", "reasoning-gym", "classic"]


def cells_equal(got, want):
    """Grids compared as the data's README says: cells ignoring case."""
    return len(got) == len(want) and all(
        len(g) == len(w) and all(a.lower() == b.lower() for a, b in zip(g, w)) for g, w in zip(got, want)
    )


def test_zebralogic_dev_puzzles_read_to_their_published_grids():
    puzzles = data_file("english/zebralogic_dev.json")["puzzles"]
    assert len(puzzles) == 50
    texts = [p["text"] for p in puzzles]
    checks = bitfd.check_many(texts, format="english")
    for p, c in zip(puzzles, checks):
        assert c.verdict == "unique", p["id"]
        grid = bitfd.parse_english(p["text"]).answer_grid()
        assert len(grid["header"]) == len(p["solution"]["header"]), p["id"]
        assert cells_equal(grid["rows"], p["solution"]["rows"]), p["id"]


def test_the_example_files_read_by_extension_as_the_cli_reads_them():
    for name in ("zebralogic-example.txt", "classic.txt", "reasoning-gym.txt"):
        path = EXAMPLES / name
        by_extension = bitfd.read_puzzle(path)
        said = bitfd.Puzzle.parse(path.read_text(encoding="utf-8"), format="english")
        assert str(by_extension) == str(said)
        assert bitfd.check(by_extension).verdict == "unique"
    zebra = bitfd.read_puzzle(EXAMPLES / "zebra.zebra")
    assert zebra.houses == 5
    # An English file named otherwise needs the format said.
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "puzzle.zebra")
        path.write_text((EXAMPLES / "classic.txt").read_text(encoding="utf-8"), encoding="utf-8")
        with pytest.raises(bitfd.ParseError):
            bitfd.read_puzzle(path)
        assert bitfd.read_puzzle(path, format="english").houses == bitfd.read_puzzle(EXAMPLES / "classic.txt").houses


def test_zebralogic_example_answers_the_questions_of_its_source():
    # The shared data's ZebraLogic example states its answer: Arnold drinks tea... read
    # from the .json, not from bitfd.
    data = data_file("zebra/zebralogic_example.json")
    puzzle = data["puzzles"][0]
    expected = puzzle["expected"]["solution"]
    grid = bitfd.read_puzzle(EXAMPLES / "zebralogic-example.txt").answer_grid()
    for value, house in expected.items():
        row = grid["rows"][house - 1]
        assert any(cell.lower() == value.lower() for cell in row[1:]), (value, house)


@pytest.mark.parametrize("style", STYLES)
def test_english_in_every_style_reads_back_to_the_generators_solution(style):
    for p in bitfd.generate_many(5, 4, seed=11, count=5):
        text = p.to_english(style)
        back = bitfd.parse_english(text)
        assert back.houses == p.houses and back.clue_count >= 1
        # Same values in the same houses: the .zebra puzzle's unique solution
        # (the generator's) is the English one's.
        original = bitfd.check(p)
        reread = bitfd.check(back)
        assert original.verdict == reread.verdict == "unique"
        houses = lambda s: sorted((k.split(".")[-1].lower(), v) for k, v in s.items())
        assert houses(original.solutions[0]) == houses(reread.solutions[0])


def test_a_relation_with_no_sentence_raises_english_error():
    p = bitfd.Puzzle.parse("houses 4\ncolor: red green blue white\nred = 1\ngreen = red + 2\n")
    with pytest.raises(bitfd.EnglishError, match="clue 2 has no English sentence") as info:
        p.to_english()
    assert info.value.clue == 1
    with pytest.raises(ValueError, match="unknown style"):
        p.to_english("shakespeare")


def test_an_unreadable_sentence_is_a_parse_error_at_its_line_and_column():
    base = (EXAMPLES / "classic.txt").read_text(encoding="utf-8").rstrip("\n") + "\n"
    line = base.count("\n") + 1
    bad = base + "99. The fox sleeps soundly.\n"
    with pytest.raises(bitfd.ParseError) as info:
        bitfd.parse_english(bad)
    e = info.value
    assert (e.line, e.code) == (line, "unreadable-sentence")
    # The column of the sentence, after its number and the space.
    assert e.column == len("99. ") + 1
    d = e.diagnostics[0]
    assert (d.line, d.column, d.code) == (e.line, e.column, e.code)
    assert "`sleeps`" in d.message or "sleeps" in str(d)
    assert str(d) in str(e)
    # check and check_many read English text when told so, and say where.
    with pytest.raises(bitfd.ParseError):
        bitfd.check(bad, format="english")
    with pytest.raises(bitfd.ParseError, match=r"^puzzle #1: "):
        bitfd.check_many([base, bad], format="english")
    with pytest.raises(ValueError, match="unknown format"):
        bitfd.check(base, format="latin")


def test_answer_grid_of_a_puzzle_without_solution_is_none():
    text = (EXAMPLES / "nosolution.zebra").read_text(encoding="utf-8")
    assert bitfd.check(text).verdict == "no solution"
    assert bitfd.Puzzle.parse(text).answer_grid() is None


def cli(*args):
    if not BIN.exists():
        pytest.skip(f"no bitfd binary at {BIN}")
    return subprocess.run([str(BIN), *args], capture_output=True, check=True).stdout.decode("utf-8")


@pytest.mark.parametrize("style", STYLES)
def test_generate_english_is_the_clis_bytes(style):
    args = ["--houses", "5", "--groups", "4", "--seed", "3", "--count", "4"]
    expected = cli("generate", "--english", "--style", style, *args, "--jobs", "2")
    for threads in (1, 2, 3):
        lines = bitfd.generate_english(5, 4, seed=3, count=4, style=style, threads=threads)
        assert "".join(lines) == expected
    for line in lines:
        record = json.loads(line)
        assert record["style"] == style
        # The grid in the line is the solution of the text in the line.
        grid = bitfd.parse_english(record["text"]).answer_grid()
        assert grid["rows"] == record["solution"]["rows"]


def test_generate_files_are_the_clis_files(tmp_path):
    for english in (False, True):
        ours, theirs = tmp_path / f"py{english}", tmp_path / f"cli{english}"
        flags = ["--english", "--style", "classic"] if english else []
        cli("generate", "--houses", "4", "--groups", "3", "--seed", "5", "--count", "3", "--out", str(theirs), *flags)
        paths = bitfd.generate_files(4, 3, ours, seed=5, count=3, english=english, style="classic")
        assert [p.name for p in paths] == sorted(p.name for p in theirs.iterdir())
        for p in paths:
            assert p.read_bytes() == (theirs / p.name).read_bytes()


def test_generate_with_controls_is_the_clis_bytes_and_keeps_to_them():
    # The controls as the CLI takes them, byte for byte on any number of
    # threads; and, read back from the text itself, every puzzle keeps to
    # them: only the allowed kinds (the structured reading of each clue
    # sentence), a rating in range.
    kinds = ["at", "next-to", "same", "left-of"]
    expected = cli(
        "generate", "--english", "--style", "classic", "--houses", "5", "--groups", "4",
        "--seed", "11", "--count", "4", "--kinds", ",".join(kinds), "--guessing", "no",
        "--max-nodes", "5",
    )
    controls = bitfd.Controls(kinds=kinds, guessing=False, max_nodes=5)
    for threads in (1, 2):
        lines = bitfd.generate_english(
            5, 4, seed=11, count=4, style="classic", threads=threads, controls=controls
        )
        assert "".join(lines) == expected
    for line in lines:
        record = json.loads(line)
        check = bitfd.check(record["text"], format="english", rate=True)
        assert check.verdict == "unique"
        assert check.rating.propagation_only and check.rating.nodes <= 5


def test_controls_reject_what_no_puzzle_can_meet():
    with pytest.raises(ValueError, match='unknown clue kind "beside"'):
        bitfd.Controls(kinds=["at", "beside"])
    with pytest.raises(ValueError, match="no clue kind"):
        bitfd.Controls(kinds=[])
    with pytest.raises(ValueError, match="range is empty"):
        bitfd.Controls(min_nodes=9, max_nodes=3)
    with pytest.raises(ValueError, match="cannot make the solution unique"):
        bitfd.generate(4, 3, seed=1, controls=bitfd.Controls(kinds=["same", "not-same"]))
    with pytest.raises(ValueError, match="difficulty range"):
        bitfd.generate(3, 2, seed=1, controls=bitfd.Controls(min_nodes=10**9, attempts=3))
    assert bitfd.Controls().kinds == [
        "same", "at", "not-at", "next-to", "directly-left", "left-of",
        "one-between", "two-between", "not-same",
    ]
