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

Errors raise ``ModelError`` (a ``ValueError``) with the Rust library's
message; a puzzle that does not parse raises ``ParseError`` (a
``ModelError``) with every diagnostic:

>>> m.int_var("cat", 0, 1)
Traceback (most recent call last):
    ...
bitfd.ModelError: a variable named `cat` already exists
"""

from ._bitfd import (
    Check,
    Constraint,
    Model,
    ModelError,
    ParseError,
    Puzzle,
    Rating,
    SolutionIter,
    Solver,
    Stats,
    Sudoku,
    Trace,
    Tree,
    Var,
    check,
    check_many,
    generate,
    generate_many,
    parse_zebra,
)

__all__ = [
    "Check",
    "Constraint",
    "Model",
    "ModelError",
    "ParseError",
    "Puzzle",
    "Rating",
    "SolutionIter",
    "Solver",
    "Stats",
    "Sudoku",
    "Trace",
    "Tree",
    "Var",
    "check",
    "check_many",
    "generate",
    "generate_many",
    "parse_zebra",
]
