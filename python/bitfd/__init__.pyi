"""Type stubs for bitfd: the kernel (Model, Solver) and the puzzle tools."""

from typing import Iterator, Literal, Mapping, Optional, Sequence, Union

Strength = Literal["domain", "value"]
VarOrder = Literal["first-fail", "input-order", "largest-domain", "dom-wdeg"]
ValueOrder = Literal["min", "max", "split"]
Verdict = Literal["unique", "not unique", "no solution", "unknown"]
Status = Literal["complete", "solution limit", "node limit", "time limit"]

class ModelError(ValueError):
    """Something passed to a Model is wrong; the message is the Rust library's."""

class ParseError(ModelError):
    """A puzzle's text could not be read; one diagnostic a line."""

    diagnostics: list[str]

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

class Puzzle:
    """A zebra puzzle: houses, groups of values, clues and questions."""

    @staticmethod
    def parse(text: str) -> Puzzle: ...
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
    def minimize(
        self,
        seed: int = 0,
        *,
        strength: Strength = "domain",
        node_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Puzzle:
        """A copy with a minimal set of clues; ValueError if not unique to begin with.

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
def check(
    puzzle: Union[Puzzle, str],
    *,
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
    strength: Strength = "domain",
    var_order: VarOrder = "first-fail",
    value_order: ValueOrder = "min",
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    rate: bool = False,
    threads: Optional[int] = None,
) -> list[Check]: ...
def generate(houses: int, groups: int, *, seed: int = 0) -> Puzzle:
    """A unique puzzle with a minimal set of clues; the same arguments give the same puzzle."""

def generate_many(
    houses: int, groups: int, seeds: Sequence[int], *, threads: Optional[int] = None
) -> list[Puzzle]:
    """One puzzle a seed, on every core, in the seeds' order."""
