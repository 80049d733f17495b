"""Every documented error path raises its documented exception: ModelError
(a ValueError) with the Rust library's message, ParseError (a ModelError)
with every diagnostic, ValueError for an unknown option, TypeError for a
wrong type; never a Rust panic."""

import pytest

import bitfd
from conftest import example


@pytest.fixture
def m():
    m = bitfd.Model()
    m.int_var("x", 0, 5)
    m.int_var("y", 0, 5)
    return m


def test_hierarchy():
    assert issubclass(bitfd.ModelError, ValueError)
    assert issubclass(bitfd.ParseError, bitfd.ModelError)


def test_duplicate_name(m):
    with pytest.raises(bitfd.ModelError, match="a variable named `x` already exists"):
        m.int_var("x", 0, 1)


def test_unknown_name(m):
    with pytest.raises(bitfd.ModelError, match="no variable is named `z`"):
        m.var("z")
    with pytest.raises(bitfd.ModelError, match="no variable is named `z`"):
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
    with pytest.raises(bitfd.ModelError, match="out of range"):
        post(m)


def test_empty_domain(m):
    with pytest.raises(bitfd.ModelError, match="empty initial domain"):
        m.int_var("z", 3, 2)
    with pytest.raises(bitfd.ModelError, match="empty initial domain"):
        m.var_in("w", [])


def test_uncoverable_values(m):
    with pytest.raises(bitfd.ModelError, match="3 values must each be held, but the group has only 2"):
        m.each_value_held(["x", "y"], [0, 1, 2])


def test_too_many_variables():
    m = bitfd.Model()
    xs = [m.int_var(f"v{i}", 0, 63) for i in range(65)]
    with pytest.raises(bitfd.ModelError, match="65 variables in one group, the limit is 64"):
        m.all_different(xs)


def test_offset_count_mismatch(m):
    with pytest.raises(bitfd.ModelError, match="2 variables but 1 offsets"):
        m.all_different(["x", "y"], "value", [1])


def test_foreign_variables_and_constraints_raise():
    a, b = bitfd.Model(), bitfd.Model()
    x = a.int_var("x", 0, 3)
    b.int_var("x", 0, 3)
    y = b.int_var("y", 0, 3)
    c = a.equal_value(x, 1)
    with pytest.raises(bitfd.ModelError, match="belongs to another model"):
        b.equal(x, y)
    with pytest.raises(bitfd.ModelError, match="belongs to another model"):
        b.all_different([y, x])
    with pytest.raises(bitfd.ModelError, match="belongs to another model"):
        b.domain(x)
    for use in (lambda: b.set_label(c, "no"), lambda: b.label(c), lambda: b.describe(c)):
        with pytest.raises(bitfd.ModelError, match="constraint #0 belongs to another model"):
            use()
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
    with pytest.raises(bitfd.ParseError, match="not JSON"):
        bitfd.Puzzle.from_json("{")
    with pytest.raises(bitfd.ParseError):
        bitfd.Puzzle.from_json('{"houses": 2}')
    with pytest.raises(bitfd.ParseError):
        bitfd.Puzzle.from_json("[]")
