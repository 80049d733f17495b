"""Every solution set equals brute force, on random small models: 2-4
variables with random domains over 0..7 and random constraints of every
kind, at both all-different strengths and under every search order."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import bitfd

VALUES = range(8)

# (kind, arity, constant strategy, predicate over the values and constant)
BINARY = {
    "equal": (None, lambda a, b, c: a == b),
    "not_equal": (None, lambda a, b, c: a != b),
    "less": (None, lambda a, b, c: a < b),
    "less_eq": (None, lambda a, b, c: a <= b),
    "offset": (st.integers(-7, 7), lambda a, b, c: a == b + c),
    "distance": (st.integers(0, 7), lambda a, b, c: abs(a - b) == c),
    "not_distance": (st.integers(0, 7), lambda a, b, c: abs(a - b) != c),
    "less_c": (st.integers(-3, 3), lambda a, b, c: a < b + c),
}


@st.composite
def models(draw):
    n = draw(st.integers(2, 4))
    domains = [
        sorted(draw(st.sets(st.sampled_from(VALUES), min_size=1, max_size=6)))
        for _ in range(n)
    ]
    constraints = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(
            st.sampled_from(
                sorted(BINARY)
                + ["equal_value", "not_equal_value", "in_set", "all_different", "each_value_held"]
            )
        )
        if kind in BINARY:
            x, y = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            const, _ = BINARY[kind]
            c = draw(const) if const is not None else 0
            constraints.append((kind, (x, y), c))
        elif kind in ("equal_value", "not_equal_value"):
            constraints.append((kind, (draw(st.integers(0, n - 1)),), draw(st.sampled_from(VALUES))))
        elif kind == "in_set":
            values = sorted(draw(st.sets(st.sampled_from(VALUES), max_size=5)))
            constraints.append((kind, (draw(st.integers(0, n - 1)),), values))
        elif kind == "all_different":
            xs = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
            offsets = draw(st.one_of(st.none(), st.lists(st.integers(0, 3), min_size=len(xs), max_size=len(xs))))
            strength = draw(st.sampled_from(["domain", "value"]))
            constraints.append((kind, tuple(xs), (offsets, strength)))
        else:
            xs = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
            values = sorted(draw(st.sets(st.sampled_from(VALUES), max_size=len(xs))))
            constraints.append((kind, tuple(xs), values))
    return domains, constraints


def holds(constraint, values):
    kind, xs, c = constraint
    v = [values[x] for x in xs]
    if kind in BINARY:
        return BINARY[kind][1](v[0], v[1], c)
    if kind == "equal_value":
        return v[0] == c
    if kind == "not_equal_value":
        return v[0] != c
    if kind == "in_set":
        return v[0] in c
    if kind == "all_different":
        offsets, _ = c
        shifted = [a + (offsets[i] if offsets else 0) for i, a in enumerate(v)]
        return len(set(shifted)) == len(shifted)
    if kind == "each_value_held":
        return set(c) <= set(v)
    raise AssertionError(kind)


def build(domains, constraints):
    m = bitfd.Model()
    xs = [m.var_in(f"x{i}", d) for i, d in enumerate(domains)]
    for kind, args, c in constraints:
        vs = [xs[i] for i in args]
        if kind in ("offset", "distance", "not_distance"):
            getattr(m, kind)(vs[0], vs[1], c)
        elif kind == "less_c":
            m.less(vs[0], vs[1], c)
        elif kind in BINARY:
            getattr(m, kind)(vs[0], vs[1])
        elif kind in ("equal_value", "not_equal_value", "in_set"):
            getattr(m, kind)(vs[0], c)
        elif kind == "all_different":
            offsets, strength = c
            m.all_different(vs, strength, offsets)
        else:
            m.each_value_held(vs, c)
    return m


def brute_force(domains, constraints):
    return {
        values
        for values in itertools.product(*domains)
        if all(holds(c, values) for c in constraints)
    }


def as_tuples(solutions, n):
    return [tuple(s[f"x{i}"] for i in range(n)) for s in solutions]


@settings(max_examples=300, deadline=None)
@given(models())
def test_all_equals_brute_force(case):
    domains, constraints = case
    expected = brute_force(domains, constraints)
    solver = bitfd.Solver(build(domains, constraints))
    found = as_tuples(solver.all(), len(domains))
    assert len(found) == len(set(found)), "a solution was reported twice"
    assert set(found) == expected
    assert solver.status == "complete"
    assert solver.stats.solutions == len(expected)


@settings(max_examples=100, deadline=None)
@given(
    models(),
    st.sampled_from(["first-fail", "input-order", "largest-domain", "dom-wdeg"]),
    st.sampled_from(["min", "max", "split"]),
    st.booleans(),
)
def test_every_order_count_iteration_and_first_agree(case, var_order, value_order, last_conflict):
    domains, constraints = case
    expected = brute_force(domains, constraints)
    model = build(domains, constraints)
    solver = bitfd.Solver(
        model, var_order=var_order, value_order=value_order, last_conflict=last_conflict
    )
    assert solver.count() == len(expected)
    assert set(as_tuples(iter(solver), len(domains))) == expected
    first = solver.first()
    if expected:
        assert as_tuples([first], len(domains))[0] in expected
        assert solver.status == "solution limit"
    else:
        assert first is None
        assert solver.status == "complete"


@settings(max_examples=100, deadline=None)
@given(models())
def test_finished_search_counts_every_node(case):
    domains, constraints = case
    solver = bitfd.Solver(build(domains, constraints))
    solver.count()
    s = solver.stats
    assert s.nodes == s.choices + s.failures + s.solutions
