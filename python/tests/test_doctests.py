"""The docstring examples of the package and of its classes and functions
run as doctests."""

import doctest

import pytest

import bitfd

FUNCTIONS = (
    "check",
    "check_many",
    "generate",
    "generate_many",
    "generate_english",
    "generate_files",
    "parse_english",
    "read_puzzle",
)

# doctest.testmod finds the package's docstring and its classes' (their
# __module__ is "bitfd"); the extension's functions are looked at by name.
OBJECTS = [("bitfd", bitfd)] + [(f"bitfd.{n}", getattr(bitfd, n)) for n in FUNCTIONS]


@pytest.mark.parametrize("name, obj", OBJECTS, ids=[n for n, _ in OBJECTS])
def test_docstring_examples_run(name, obj):
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(obj, name, globs=dict(vars(bitfd))) if t.examples]
    assert tests, f"{name} has no examples"
    for t in tests:
        runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


def test_every_public_class_and_function_shows_an_example():
    names = {t.name for n, o in OBJECTS for t in doctest.DocTestFinder().find(o, n) if t.examples}
    assert {"bitfd", "bitfd.Model", "bitfd.Solver", "bitfd.Puzzle", "bitfd.check", "bitfd.check_many", "bitfd.Sudoku"} <= names
    # Every function and method added with the English tools and the
    # generator's controls shows one.
    assert {f"bitfd.{n}" for n in FUNCTIONS} <= names
    assert {"bitfd.Puzzle.to_english", "bitfd.Puzzle.answer_grid", "bitfd.Diagnostic"} <= names
