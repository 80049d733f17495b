"""Type stubs for bitfd: the kernel (Model, Solver) and the puzzle tools."""

import os
from pathlib import Path
from typing import Iterator, Literal, Mapping, Optional, Sequence, Union

Strength = Literal["domain", "value"]
VarOrder = Literal["first-fail", "input-order", "largest-domain", "dom-wdeg"]
ValueOrder = Literal["min", "max", "split"]
Verdict = Literal["unique", "not unique", "no solution", "unknown"]
Status = Literal["complete", "solution limit", "node limit", "time limit"]
Format = Literal["zebra", "english"]
Style = Literal["zebralogic", "reasoning-gym", "classic"]
ClueKind = Literal[
    "same", "at", "not-at", "next-to", "directly-left", "left-of",
    "one-between", "two-between", "not-same",
]

class ModelError(ValueError):
    """Something passed to a Model or a puzzle tool is wrong; the message is
    the Rust library's. Every error bitfd raises on purpose is one of the
    subclasses below, or ``ValueError`` for an unknown option string,
    ``TypeError``/``OverflowError`` for an argument of the wrong type,
    ``OSError`` for a file."""

class DuplicateNameError(ModelError):
    """A variable with this name exists already."""

    name: str

class UnknownNameError(ModelError):
    """No variable has this name."""

    name: str

class ForeignIdError(ModelError):
    """A variable or constraint handle of another model."""

    kind: Literal["variable", "constraint"]
    index: int

class RangeError(ModelError):
    """A value, constant or size outside its range (``value``), or a
    variable with no value (``value`` is None)."""

    value: Optional[int]

class LimitError(ModelError):
    """More than a limit allows: variables in one group, search state."""

    found: int
    limit: int

class ShapeError(ModelError):
    """Arguments that do not fit together: offsets not one a variable, more
    values to hold than variables to hold them."""

class NotUniqueError(ModelError):
    """A puzzle that must be unique is not (``Puzzle.minimize``)."""

    verdict: Literal["no solution", "not unique", "unknown"]

class EnglishError(ModelError):
    """A puzzle that cannot be written in English: clue ``clue`` (from 0)
    has a relation no English sentence says."""

    clue: int

class Diagnostic:
    """One problem found in a puzzle's text; ``str()`` is its one-line form
    ``line:column: error[code]: message`` and its notes."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def expected(self) -> str: ...
    @property
    def notes(self) -> list[str]: ...

class ParseError(ModelError):
    """A puzzle's or a board's text could not be read; one diagnostic a line
    in the message. ``line``, ``column`` and ``code`` are the first
    diagnostic's; JSON problems have ``path`` (``clues[3].args[0]``) or, for
    text that is not JSON, ``line`` and ``column``; a sudoku line has
    ``line`` 1 and, for a bad symbol, its ``column``."""

    diagnostics: list[Diagnostic]
    line: Optional[int]
    column: Optional[int]
    code: Optional[str]
    path: Optional[str]

class Var:
    """A variable of a Model: hashable, compared by model and index."""

    @property
    def name(self) -> str: ...
    @property
    def index(self) -> int: ...

VarLike = Union[Var, str]

class Constraint:
    """A posted constraint: its kind and posting index."""

    @property
    def kind(self) -> str: ...
    @property
    def index(self) -> int: ...

class Model:
    """Named integer variables over 0..=63 and constraints on them.

    >>> m = Model()
    >>> x = m.int_var("x", 0, 3)
    >>> y = m.var_in("y", [1, 3])
    >>> _ = m.less(x, y)
    >>> len(m), m.constraint_count
    (2, 1)
    """

    def __init__(self) -> None: ...
    def __len__(self) -> int: ...
    @property
    def constraint_count(self) -> int: ...
    def int_var(self, name: str, lo: int, hi: int) -> Var: ...
    def var_in(self, name: str, values: Sequence[int]) -> Var: ...
    def var(self, name: str) -> Var: ...
    def vars(self) -> list[Var]: ...
    def domain(self, x: VarLike) -> list[int]: ...
    def constraints(self) -> list[Constraint]: ...
    def equal(self, x: VarLike, y: VarLike, *, label: Optional[str] = None) -> Constraint: ...
    def equal_value(self, x: VarLike, v: int, *, label: Optional[str] = None) -> Constraint: ...
    def not_equal(self, x: VarLike, y: VarLike, *, label: Optional[str] = None) -> Constraint: ...
    def not_equal_value(self, x: VarLike, v: int, *, label: Optional[str] = None) -> Constraint: ...
    def in_set(self, x: VarLike, values: Sequence[int], *, label: Optional[str] = None) -> Constraint: ...
    def offset(self, x: VarLike, y: VarLike, c: int, *, label: Optional[str] = None) -> Constraint:
        """Posts ``x = y + c`` (``c`` in -63..=63)."""
    def distance(self, x: VarLike, y: VarLike, c: int, *, label: Optional[str] = None) -> Constraint:
        """Posts ``|x - y| = c`` (``c`` in 0..=63)."""
    def not_distance(self, x: VarLike, y: VarLike, c: int, *, label: Optional[str] = None) -> Constraint:
        """Posts ``|x - y| != c`` (``c`` in 0..=63)."""
    def less(self, x: VarLike, y: VarLike, c: int = 0, *, label: Optional[str] = None) -> Constraint:
        """Posts ``x < y + c``: ``x < y`` by default."""
    def less_eq(self, x: VarLike, y: VarLike, *, label: Optional[str] = None) -> Constraint: ...
    def all_different(
        self,
        vars: Sequence[VarLike],
        strength: Strength = "domain",
        offsets: Optional[Sequence[int]] = None,
        *,
        label: Optional[str] = None,
    ) -> Constraint:
        """Posts that ``vars[i] + offsets[i]`` are pairwise different (at most 64 variables)."""
    def each_value_held(
        self, vars: Sequence[VarLike], values: Sequence[int], *, label: Optional[str] = None
    ) -> Constraint:
        """Posts that every value of ``values`` is taken by at least one of ``vars``."""
    def set_label(self, c: Constraint, label: str) -> None: ...
    def label(self, c: Constraint) -> Optional[str]: ...
    def describe(self, c: Constraint) -> str: ...

class Stats:
    """Search statistics, frozen: nodes = choices + failures + solutions for a finished search."""

    @property
    def nodes(self) -> int: ...
    @property
    def choices(self) -> int: ...
    @property
    def failures(self) -> int: ...
    @property
    def solutions(self) -> int: ...
    @property
    def max_depth(self) -> int: ...
    @property
    def propagations(self) -> int: ...

Solution = dict[str, int]

class SolutionIter(Iterator[Solution]):
    """The solutions of one search, found one at a time."""

    def __iter__(self) -> SolutionIter: ...
    def __next__(self) -> Solution: ...
    @property
    def stats(self) -> Stats: ...

Mode = Literal["all", "first", "count"]

class Tree:
    """A recorded search tree: ``str(tree)`` is its stable text."""

    def to_dot(self) -> str: ...
    def to_json(self) -> str: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def status(self) -> Status: ...
    @property
    def is_truncated(self) -> bool: ...

class Trace:
    """A recorded deduction trace: ``str(trace)`` is its stable text."""

    def profile(self) -> str: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def is_truncated(self) -> bool: ...

class Solver:
    """Depth-first search over a copy of a model.

    >>> m = Model()
    >>> x, y = m.int_var("x", 1, 4), m.int_var("y", 1, 4)
    >>> _ = m.distance(x, y, 3)
    >>> Solver(m).count()
    2
    >>> Solver(m, value_order="max").first()
    {'x': 4, 'y': 1}
    """

    def __init__(
        self,
        model: Model,
        *,
        var_order: VarOrder = "first-fail",
        value_order: ValueOrder = "min",
        node_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        last_conflict: bool = False,
    ) -> None: ...
    def first(self) -> Optional[Solution]: ...
    def all(self) -> list[Solution]: ...
    def count(self) -> int: ...
    def __iter__(self) -> SolutionIter: ...
    def uniqueness(self, *, rate: bool = False) -> Check:
        """Exactly one solution? Stops at the second; the solver is reused."""
    def tree(self, mode: Mode = "all") -> Tree:
        """Searches again, recording the tree (text, DOT, JSON)."""
    def trace(self, mode: Mode = "all") -> Trace:
        """Searches again, recording every deduction, guess and conflict."""
    @property
    def stats(self) -> Stats: ...
    @property
    def status(self) -> Optional[Status]: ...

# ZebraLogic's solution grid: {"header": ["House", groups...], "rows": one a house}.
AnswerGrid = dict[str, Union[list[str], list[list[str]]]]

class Puzzle:
    """A zebra puzzle: houses, groups of values, clues and questions."""

    @staticmethod
    def parse(text: str, format: Format = "zebra") -> Puzzle: ...
    @staticmethod
    def from_json(text: str) -> Puzzle: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def houses(self) -> int: ...
    @property
    def groups(self) -> list[tuple[str, list[str]]]: ...
    @property
    def clue_count(self) -> int: ...
    def model(self, strength: Strength = "domain") -> Model: ...
    def to_english(self, style: Style = "zebralogic") -> str:
        """English text that reads back to the same solutions; EnglishError
        for a clue no sentence says."""
    def answer_grid(
        self,
        *,
        strength: Strength = "domain",
        node_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Optional[AnswerGrid]:
        """The graders' grid of the first solution; None when there is none."""
    def minimize(
        self,
        seed: int = 0,
        *,
        strength: Strength = "domain",
        node_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Puzzle:
        """A copy with a minimal set of clues; NotUniqueError if not unique to begin with.

        A RuntimeWarning says when a limit cut a clue's check short (the set
        may then not be minimal)."""

class Rating:
    """A difficulty rating: the whole tree under first-fail, min value."""

    @property
    def nodes(self) -> int: ...
    @property
    def failures(self) -> int: ...
    @property
    def solutions(self) -> int: ...
    @property
    def propagation_only(self) -> bool: ...
    @property
    def root_propagations(self) -> int: ...

class Check:
    """What ``check`` found: the verdict, up to two solutions, where they differ."""

    @property
    def verdict(self) -> Verdict: ...
    @property
    def is_unique(self) -> bool: ...
    @property
    def limit(self) -> Optional[Literal["node limit", "time limit"]]: ...
    @property
    def solutions(self) -> list[Solution]: ...
    @property
    def differences(self) -> list[tuple[str, int, int]]: ...
    @property
    def failed_at_root(self) -> Optional[str]: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def rating(self) -> Optional[Rating]: ...

class Sudoku:
    """A sudoku board of 9x9 to 36x36 cells, read from one line."""

    @staticmethod
    def parse(line: str) -> Sudoku: ...
    @property
    def size(self) -> int: ...
    @property
    def box_size(self) -> int: ...
    @property
    def givens(self) -> int: ...
    @property
    def cells(self) -> list[Optional[int]]: ...
    def model(self, strength: Strength = "domain", *, box_line: bool = False) -> Model: ...
    def solve(
        self,
        *,
        strength: Strength = "domain",
        box_line: bool = False,
        var_order: VarOrder = "first-fail",
        value_order: ValueOrder = "min",
        node_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Optional[str]: ...
    def check(
        self,
        *,
        strength: Strength = "domain",
        box_line: bool = False,
        var_order: VarOrder = "first-fail",
        value_order: ValueOrder = "min",
        node_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Check: ...

def parse_zebra(text: str) -> Puzzle: ...
def parse_english(text: str) -> Puzzle:
    """English zebra text (ZebraLogic, reasoning-gym, classic) to a Puzzle."""

def read_puzzle(path: Union[str, os.PathLike[str]], format: Optional[Format] = None) -> Puzzle:
    """A puzzle file: ``.txt`` is English, anything else ``.zebra``, unless ``format`` says."""

def check(
    puzzle: Union[Puzzle, str],
    *,
    format: Format = "zebra",
    strength: Strength = "domain",
    var_order: VarOrder = "first-fail",
    value_order: ValueOrder = "min",
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    rate: bool = False,
) -> Check: ...
def check_many(
    puzzles: Sequence[Union[Puzzle, str]],
    *,
    format: Format = "zebra",
    strength: Strength = "domain",
    var_order: VarOrder = "first-fail",
    value_order: ValueOrder = "min",
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    rate: bool = False,
    threads: Optional[int] = None,
) -> list[Check]: ...
class Controls:
    """What the generator may draw and which ratings it keeps (``bitfd
    generate``'s ``--kinds``, ``--min-nodes``, ``--max-nodes``,
    ``--min-failures``, ``--max-failures``, ``--guessing``, ``--attempts``).
    ValueError for an unknown kind, no kind or an empty range."""

    def __init__(
        self,
        *,
        kinds: Optional[Sequence[ClueKind]] = None,
        min_nodes: Optional[int] = None,
        max_nodes: Optional[int] = None,
        min_failures: Optional[int] = None,
        max_failures: Optional[int] = None,
        guessing: Optional[bool] = None,
        attempts: int = 1000,
    ) -> None: ...
    @property
    def kinds(self) -> list[ClueKind]:
        """The allowed kinds, in the generator's order."""

def generate(
    houses: int, groups: int, *, seed: int = 0, controls: Optional[Controls] = None
) -> Puzzle:
    """A unique puzzle with a minimal set of clues; the same arguments give
    the same puzzle. RangeError outside 2..=10 houses, 1..=12 groups."""

def generate_many(
    houses: int,
    groups: int,
    seeds: Optional[Sequence[int]] = None,
    *,
    seed: Optional[int] = None,
    count: Optional[int] = None,
    threads: Optional[int] = None,
    controls: Optional[Controls] = None,
) -> list[Puzzle]:
    """One puzzle a seed, on every core, in the seeds' order: ``seeds``, or
    ``count`` seeds from ``seed`` (the CLI's ``--seed S --count K``)."""

def generate_english(
    houses: int,
    groups: int,
    seeds: Optional[Sequence[int]] = None,
    *,
    seed: Optional[int] = None,
    count: Optional[int] = None,
    style: Style = "zebralogic",
    threads: Optional[int] = None,
    controls: Optional[Controls] = None,
) -> list[str]:
    """The JSON lines of ``bitfd generate --english --style STYLE``, byte for byte."""

def generate_files(
    houses: int,
    groups: int,
    out: Union[str, os.PathLike[str]],
    seeds: Optional[Sequence[int]] = None,
    *,
    seed: Optional[int] = None,
    count: Optional[int] = None,
    english: bool = False,
    style: Style = "zebralogic",
    threads: Optional[int] = None,
    controls: Optional[Controls] = None,
) -> list[Path]:
    """The files of ``bitfd generate --out DIR`` (``--english``): their paths."""
