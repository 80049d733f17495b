"""bitfd: a finite-domain constraint solver for small domains, from Python.

Every variable takes integer values in 0..=63; the Rust kernel keeps each
domain as one 64-bit mask, propagates to a fixpoint and searches depth-first
with binary branching, counting every node of its tree.

>>> import bitfd
>>> m = bitfd.Model()
>>> cat, dog, bird = (m.int_var(n, 1, 3) for n in ("cat", "dog", "bird"))
>>> m.all_different([cat, dog, bird])
Constraint('all-different', index=0)
>>> m.less(cat, dog, label="The cat lives left of the dog.")
Constraint('less', index=1)
>>> m.not_distance(bird, cat, 1)
Constraint('not-distance', index=2)
>>> solver = bitfd.Solver(m)
>>> solver.all()
[{'cat': 1, 'dog': 2, 'bird': 3}]
>>> solver.stats.solutions
1

Puzzles in the ``.zebra`` format:

>>> text = '''
... houses 3
... name: Peter Eric Arnold
... drink: tea water milk
... "Peter is in the second house."  Peter = 2
... water = Arnold + 1
... milk = water + 1
... '''
>>> result = bitfd.check(text)
>>> result.verdict
'unique'
>>> result.solutions[0]["tea"] == result.solutions[0]["Arnold"]
True

Errors raise a subclass of ``ModelError`` (a ``ValueError``) with the Rust
library's message: ``DuplicateNameError``, ``UnknownNameError``,
``ForeignIdError``, ``RangeError``, ``LimitError``, ``ShapeError``,
``NotUniqueError``, ``EnglishError``, and ``ParseError`` with the line and
column of every diagnostic:

>>> m.int_var("cat", 0, 1)
Traceback (most recent call last):
    ...
bitfd.DuplicateNameError: a variable named `cat` already exists
>>> try:
...     m.int_var("fish", 0, 64)
... except RangeError as e:
...     e.value
64
"""

import os
from pathlib import Path
from typing import Optional, Union

from ._bitfd import (
    Check,
    Controls,
    Constraint,
    Diagnostic,
    DuplicateNameError,
    EnglishError,
    ForeignIdError,
    LimitError,
    Model,
    ModelError,
    NotUniqueError,
    ParseError,
    Puzzle,
    RangeError,
    Rating,
    ShapeError,
    SolutionIter,
    Solver,
    Stats,
    Sudoku,
    Trace,
    Tree,
    UnknownNameError,
    Var,
    check,
    check_many,
    generate,
    generate_english,
    generate_files,
    generate_many,
    parse_english,
    parse_zebra,
)


def read_puzzle(path: Union[str, "os.PathLike[str]"], format: Optional[str] = None) -> Puzzle:
    r"""Reads a puzzle file as the command line does: a ``.txt`` file is
    English, any other ``.zebra`` text, unless ``format`` (``"zebra"`` or
    ``"english"``) says which. Raises ``ParseError`` (with the line and
    column of each problem) or ``OSError``.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "tiny.txt")
    ...     _ = path.write_text("There are 2 houses.\nColors: red, blue\n1. The red house is in the second house.\n")
    ...     read_puzzle(path).answer_grid()["rows"]
    [['1', 'blue'], ['2', 'red']]
    """
    path = Path(path)
    if format is None:
        format = "english" if path.suffix.lower() == ".txt" else "zebra"
    return Puzzle.parse(path.read_text(encoding="utf-8"), format=format)


__all__ = [
    "Check",
    "Controls",
    "Constraint",
    "Diagnostic",
    "DuplicateNameError",
    "EnglishError",
    "ForeignIdError",
    "LimitError",
    "Model",
    "ModelError",
    "NotUniqueError",
    "ParseError",
    "Puzzle",
    "RangeError",
    "Rating",
    "ShapeError",
    "SolutionIter",
    "Solver",
    "Stats",
    "Sudoku",
    "Trace",
    "Tree",
    "UnknownNameError",
    "Var",
    "check",
    "check_many",
    "generate",
    "generate_english",
    "generate_files",
    "generate_many",
    "parse_english",
    "parse_zebra",
    "read_puzzle",
]
