"""Every documented error path raises its documented exception: a subclass
of ModelError (a ValueError) with the Rust library's message and facts,
ParseError (a ModelError) with every diagnostic and its position,
ValueError for an unknown option, TypeError for a wrong type; never a Rust
panic (pyo3's PanicException, a BaseException) on any text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bitfd
from conftest import example


@pytest.fixture
def m():
    m = bitfd.Model()
    m.int_var("x", 0, 5)
    m.int_var("y", 0, 5)
    return m


SUBCLASSES = [
    "DuplicateNameError",
    "UnknownNameError",
    "ForeignIdError",
    "RangeError",
    "LimitError",
    "ShapeError",
    "NotUniqueError",
    "EnglishError",
    "ParseError",
]


def test_hierarchy():
    assert issubclass(bitfd.ModelError, ValueError)
    for name in SUBCLASSES:
        cls = getattr(bitfd, name)
        assert cls.__bases__ == (bitfd.ModelError,), name
        assert cls.__module__ == "bitfd" and cls.__doc__, name


def test_duplicate_name(m):
    with pytest.raises(bitfd.DuplicateNameError, match="a variable named `x` already exists") as info:
        m.int_var("x", 0, 1)
    assert info.value.name == "x"


def test_unknown_name(m):
    with pytest.raises(bitfd.UnknownNameError, match="no variable is named `z`") as info:
        m.var("z")
    assert info.value.name == "z"
    with pytest.raises(bitfd.UnknownNameError, match="no variable is named `z`"):
        m.equal("x", "z")


@pytest.mark.parametrize(
    "post",
    [
        lambda m: m.int_var("z", 0, 64),
        lambda m: m.int_var("z", -1, 3),
        lambda m: m.var_in("z", [1, 99]),
        lambda m: m.equal_value("x", 64),
        lambda m: m.not_equal_value("x", -1),
        lambda m: m.in_set("x", [3, 64]),
        lambda m: m.offset("x", "y", 64),
        lambda m: m.distance("x", "y", -1),
        lambda m: m.not_distance("x", "y", 64),
        lambda m: m.less("x", "y", -64),
        lambda m: m.each_value_held(["x", "y"], [70]),
        lambda m: m.all_different(["x", "y"], "domain", [0, 64]),
    ],
)
def test_value_out_of_range(m, post):
    with pytest.raises(bitfd.RangeError, match="out of range") as info:
        post(m)
    assert info.value.value in (64, -1, 99, -64, 70)


def test_empty_domain(m):
    with pytest.raises(bitfd.RangeError, match="empty initial domain") as info:
        m.int_var("z", 3, 2)
    assert info.value.value is None
    with pytest.raises(bitfd.RangeError, match="empty initial domain"):
        m.var_in("w", [])


def test_uncoverable_values(m):
    with pytest.raises(bitfd.ShapeError, match="3 values must each be held, but the group has only 2"):
        m.each_value_held(["x", "y"], [0, 1, 2])


def test_too_many_variables():
    m = bitfd.Model()
    xs = [m.int_var(f"v{i}", 0, 63) for i in range(65)]
    with pytest.raises(bitfd.LimitError, match="65 variables in one group, the limit is 64") as info:
        m.all_different(xs)
    assert (info.value.found, info.value.limit) == (65, 64)


def test_offset_count_mismatch(m):
    with pytest.raises(bitfd.ShapeError, match="2 variables but 1 offsets"):
        m.all_different(["x", "y"], "value", [1])


@pytest.mark.parametrize("houses, groups, value", [(1, 3, 1), (11, 3, 11), (4, 0, 0), (4, 13, 13)])
def test_generate_sizes_out_of_range(houses, groups, value):
    for call in (
        lambda: bitfd.generate(houses, groups),
        lambda: bitfd.generate_many(houses, groups, [1]),
        lambda: bitfd.generate_english(houses, groups, seed=1),
    ):
        with pytest.raises(bitfd.RangeError, match="generated puzzles have") as info:
            call()
        assert info.value.value == value


def test_generate_seed_runs_and_argument_mixes():
    with pytest.raises(bitfd.RangeError, match="runs past the largest seed") as info:
        bitfd.generate_many(3, 2, seed=2**64 - 2, count=3)
    assert info.value.value == 2**64
    with pytest.raises(ValueError, match="either seeds or seed and count"):
        bitfd.generate_many(3, 2, [1], seed=1)
    with pytest.raises(ValueError, match="unknown style"):
        bitfd.generate_english(3, 2, style="haiku")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        bitfd.generate_english(3, 2, threads=0)
    with pytest.raises(OverflowError):
        bitfd.generate(300, 2)
    assert bitfd.generate_many(3, 2, seed=5, count=0) == []


def test_generate_files_into_a_file_raises_os_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OSError, match="cannot make the folder"):
        bitfd.generate_files(3, 2, blocker / "sub", count=1)


def test_minimize_a_puzzle_that_is_not_unique():
    for text, verdict in ((example("several.zebra"), "not unique"), (example("nosolution.zebra"), "no solution")):
        assert bitfd.check(text).verdict == verdict
        with pytest.raises(bitfd.NotUniqueError, match="not unique to begin with") as info:
            bitfd.Puzzle.parse(text).minimize()
        assert info.value.verdict == verdict


def test_foreign_variables_and_constraints_raise():
    a, b = bitfd.Model(), bitfd.Model()
    x = a.int_var("x", 0, 3)
    b.int_var("x", 0, 3)
    y = b.int_var("y", 0, 3)
    c = a.equal_value(x, 1)
    with pytest.raises(bitfd.ForeignIdError, match="belongs to another model") as info:
        b.equal(x, y)
    assert (info.value.kind, info.value.index) == ("variable", 0)
    with pytest.raises(bitfd.ModelError, match="belongs to another model"):
        b.all_different([y, x])
    with pytest.raises(bitfd.ModelError, match="belongs to another model"):
        b.domain(x)
    for use in (lambda: b.set_label(c, "no"), lambda: b.label(c), lambda: b.describe(c)):
        with pytest.raises(bitfd.ForeignIdError, match="constraint #0 belongs to another model") as info:
            use()
        assert (info.value.kind, info.value.index) == ("constraint", 0)
    # A puzzle's model is a model of its own too.
    p = bitfd.parse_zebra(example("zebra.zebra")).model()
    with pytest.raises(bitfd.ModelError, match="belongs to another model"):
        p.less(x, "red")


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.all_different(["x", "y"], "strong"),
        lambda m: bitfd.Solver(m, var_order="random"),
        lambda m: bitfd.Solver(m, value_order="median"),
        lambda m: bitfd.Solver(m, time_limit=-1.0),
        lambda m: bitfd.Solver(m, time_limit=float("nan")),
        lambda m: bitfd.check(example("zebra.zebra"), strength="bounds"),
        lambda m: bitfd.check_many([example("zebra.zebra")], threads=0),
        lambda m: bitfd.Puzzle.parse(example("zebra.zebra")).model("weak"),
    ],
)
def test_unknown_options_raise_value_error_not_model_error(m, make):
    with pytest.raises(ValueError) as info:
        make(m)
    assert not isinstance(info.value, bitfd.ModelError)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.int_var(3, 0, 1),
        lambda m: m.equal(1.5, "y"),
        lambda m: bitfd.Solver("not a model"),
        lambda m: bitfd.Solver(m, node_limit=-1),
        lambda m: bitfd.check(42),
    ],
)
def test_wrong_types_raise_type_or_overflow_errors(m, call):
    with pytest.raises((TypeError, OverflowError)):
        call(m)


def test_parse_error_lists_every_diagnostic():
    with pytest.raises(bitfd.ParseError) as info:
        bitfd.Puzzle.parse("houses 3\nname: Peter Eric\nPeterr = 4\n")
    diagnostics = info.value.diagnostics
    assert len(diagnostics) == 2
    assert str(diagnostics[0]).startswith("3:1: error[unknown-name]")
    assert (diagnostics[0].line, diagnostics[0].column, diagnostics[0].code) == (3, 1, "unknown-name")
    assert (info.value.line, info.value.column, info.value.code) == (3, 1, "unknown-name")
    assert "did you mean `Peter`?" in str(info.value)
    with pytest.raises(bitfd.ParseError):
        bitfd.check("houses 99\n")
    with pytest.raises(bitfd.ParseError):
        bitfd.parse_zebra("nonsense")


def test_check_many_names_the_bad_puzzle():
    good = example("zebra.zebra")
    with pytest.raises(bitfd.ParseError, match=r"^puzzle #2: ") as info:
        bitfd.check_many([good, good, "houses", good])
    assert info.value.diagnostics


def test_bad_json_raises_parse_error():
    with pytest.raises(bitfd.ParseError, match="not JSON") as info:
        bitfd.Puzzle.from_json('{\n  "houses": ]')
    # serde_json points at the stray bracket: line 2, its column from 1.
    assert (info.value.line, info.value.column, info.value.path) == (2, '  "houses": ]'.index("]") + 1, None)
    with pytest.raises(bitfd.ParseError) as info:
        bitfd.Puzzle.from_json('{"houses": 3, "groups": [{"name": "color", "values": ["red", 7]}], "clues": []}')
    assert info.value.path and info.value.path.startswith("groups[0]"), info.value.path
    assert info.value.line is None
    with pytest.raises(bitfd.ParseError):
        bitfd.Puzzle.from_json('{"houses": 2}')
    with pytest.raises(bitfd.ParseError):
        bitfd.Puzzle.from_json("[]")


def test_sudoku_line_errors_carry_their_column():
    with pytest.raises(bitfd.ParseError, match="found 3") as info:
        bitfd.Sudoku.parse("123")
    assert (info.value.line, info.value.column) == (1, None)
    line = "." * 40 + "x" + "." * 40
    with pytest.raises(bitfd.ParseError, match="column 41") as info:
        bitfd.Sudoku.parse(line)
    assert (info.value.line, info.value.column) == (1, 41)


@given(st.text(max_size=300))
def test_no_text_makes_a_panic_cross_the_boundary(text):
    # Any exception other than ParseError (a PanicException among them,
    # which is no Exception) fails the test.
    for read in (
        bitfd.parse_zebra,
        bitfd.parse_english,
        bitfd.Puzzle.from_json,
        bitfd.Sudoku.parse,
        lambda t: bitfd.check(t, format="english"),
    ):
        try:
            read(text)
        except bitfd.ParseError:
            pass
