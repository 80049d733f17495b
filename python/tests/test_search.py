"""Search from Python: N-queens counts from the OEIS, limits, iteration,
statistics and the handles' reprs."""

import pytest

import bitfd
from conftest import data_file

# OEIS A000170: the number of ways to place n non-attacking queens.
A000170 = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92}


def queens(n, strength="domain"):
    m = bitfd.Model()
    q = [m.int_var(f"q{i}", 0, n - 1) for i in range(n)]
    m.all_different(q, strength)
    m.all_different(q, strength, offsets=list(range(n)))
    m.all_different(q, strength, offsets=[n - 1 - i for i in range(n)])
    return m


@pytest.mark.parametrize("n", sorted(A000170))
@pytest.mark.parametrize("strength", ["domain", "value"])
def test_queens_counts_match_oeis_a000170(n, strength):
    assert bitfd.Solver(queens(n, strength)).count() == A000170[n]


def test_queens_counts_agree_with_the_shared_data():
    terms = data_file("known_counts.json")["sequences"]["A000170"]["terms"]
    for n, count in A000170.items():
        assert terms[n] == count


def test_iteration_is_lazy_and_matches_all():
    solver = bitfd.Solver(queens(6))
    it = iter(solver)
    first = next(it)
    assert it.stats.solutions == 1
    rest = list(it)
    assert [first] + rest == solver.all()
    assert it.stats.solutions == 4
    assert list(it) == []


def test_node_limit_stops_the_search():
    solver = bitfd.Solver(queens(8), node_limit=5)
    assert solver.count() < 92
    assert solver.status == "node limit"
    assert solver.stats.nodes <= 6


def test_time_limit_stops_the_search():
    m = bitfd.Model()
    for i in range(7):
        m.int_var(f"x{i}", 0, 9)
    solver = bitfd.Solver(m, time_limit=0.0)
    assert solver.count() < 10**7
    assert solver.status == "time limit"


def test_stats_are_frozen_and_readable():
    solver = bitfd.Solver(queens(4))
    solver.count()
    s = solver.stats
    assert (s.solutions, s.nodes) == (2, s.choices + s.failures + s.solutions)
    assert repr(s).startswith("Stats(nodes=")
    assert "max_depth=" in repr(s) and "propagations=" in repr(s)
    with pytest.raises(AttributeError):
        s.nodes = 0
    assert s == solver.stats and hash(s) == hash(solver.stats)


def test_solver_copies_the_model():
    m = bitfd.Model()
    x = m.int_var("x", 0, 3)
    solver = bitfd.Solver(m)
    m.equal_value(x, 2)
    assert solver.count() == 4
    assert bitfd.Solver(m).all() == [{"x": 2}]


def test_handles_show_what_they_are():
    m = bitfd.Model()
    x = m.int_var("x", 0, 3)
    y = m.var_in("y", [1, 5])
    c = m.less(x, y, label="x is left of y")
    assert repr(x) == "Var('x', index=0)" and str(y) == "y" and y.index == 1
    assert repr(c) == "Constraint('less', index=0)" and c.kind == "less"
    assert m.label(c) == "x is left of y" and m.describe(c) == "x is left of y"
    d = m.not_equal("x", "y")
    assert m.label(d) is None and m.describe(d) == "not-equal(x, y)"
    m.set_label(d, "apart")
    assert m.describe(d) == "apart"
    assert m.constraints() == [c, d]
    assert m.var("y") == y and m.vars() == [x, y]
    assert m.domain(y) == [1, 5] and m.domain("x") == [0, 1, 2, 3]
    assert repr(m) == "Model(vars=2, constraints=2)" and len(m) == 2
    assert repr(bitfd.Solver(m, node_limit=3)) == (
        "Solver(var_order='first-fail', value_order='min', node_limit=3, time_limit=None)"
    )
    assert repr(bitfd.Solver(m, var_order="dom-wdeg", last_conflict=True)) == (
        "Solver(var_order='dom-wdeg', value_order='min', node_limit=None, time_limit=None, "
        "last_conflict=True)"
    )


def test_names_work_wherever_variables_do():
    m = bitfd.Model()
    m.int_var("a", 1, 3)
    m.int_var("b", 1, 3)
    m.all_different(["a", "b"], "value")
    m.distance("a", "b", 2)
    assert sorted(tuple(s.values()) for s in bitfd.Solver(m).all()) == [(1, 3), (3, 1)]


def test_each_value_held_and_offsets():
    m = bitfd.Model()
    xs = [m.int_var(f"x{i}", 0, 2) for i in range(3)]
    m.each_value_held(xs, [0, 1, 2])
    # Each value held by three variables over three values: the permutations.
    assert bitfd.Solver(m).count() == 6


def test_searches_run_with_other_threads_going():
    import threading

    results = []
    threads = [
        threading.Thread(target=lambda: results.append(bitfd.Solver(queens(8)).count()))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [92] * 4
