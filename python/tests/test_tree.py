"""The recorded tree and trace, and the Oz tutorial's zebra built through
the kernel API: its 33-node tree under Oz's semantics, and the data file's
node counts for the other settings (never bitfd's own output)."""

import json

import pytest

import bitfd
from conftest import data_file


def oz_puzzle():
    return data_file("zebra/mozart_oz.json")["puzzles"][0]


def oz_model(puzzle, strength, alphabetical):
    """The Oz script as a kernel model: one variable a value over the houses,
    all-different for each group (no each-value-held: FD.distinct alone),
    declared alphabetically (an Oz record's features are sorted) or in
    group order."""
    m = bitfd.Model()
    names = [v for g in puzzle["groups"] for v in g["values"]]
    for name in sorted(names) if alphabetical else names:
        m.int_var(name, 1, puzzle["houses"])
    for g in puzzle["groups"]:
        m.all_different(g["values"], strength)

    def post(kind, args, text):
        if kind == "same":
            m.equal(args[0], args[1], label=text)
        elif kind == "at":
            m.equal_value(args[0], args[1], label=text)
        elif kind == "less":
            m.less(args[0], args[1], label=text)
        elif kind == "distance":
            m.distance(args[0], args[1], args[2], label=text)
        elif kind == "offset":
            m.offset(args[0], args[1], args[2], label=text)
        elif kind == "none":
            pass
        else:
            raise AssertionError(f"clue kind {kind} is not in the Oz script")

    for clue in puzzle["clues"]:
        if clue["kind"] == "all":
            for c in clue["constraints"]:
                post(c["kind"], c["args"], clue["text"])
        else:
            post(clue["kind"], clue.get("args", []), clue["text"])
    return m


def test_oz_semantics_give_the_tutorials_33_nodes():
    puzzle = oz_puzzle()
    expected = puzzle["reproducing_33_nodes"]["result"]
    solver = bitfd.Solver(oz_model(puzzle, "value", alphabetical=True))
    (solution,) = solver.all()
    assert {k: solution[k] for k in puzzle["expected"]["solution"]} == puzzle["expected"]["solution"]
    s = solver.stats
    assert s.nodes == puzzle["expected"]["search_tree_nodes"] == 33
    assert (s.choices, s.failures, s.solutions) == (expected["choice"], expected["failed"], expected["solved"])
    tree = solver.tree()
    assert tree.stats == s and tree.status == "complete" and not tree.is_truncated
    assert len(json.loads(tree.to_json())["nodes"]) == 33


@pytest.mark.parametrize(
    "setting, strength, alphabetical",
    [
        ("value-distinct, ties by group order as written", "value", False),
        ("domain-consistent all-different, alphabetical ties", "domain", True),
        ("domain-consistent all-different, ties by group order", "domain", False),
    ],
)
def test_other_settings_match_the_data_files_counts(setting, strength, alphabetical):
    puzzle = oz_puzzle()
    expected = puzzle["reproducing_33_nodes"]["other_settings_for_comparison"][setting]
    solver = bitfd.Solver(oz_model(puzzle, strength, alphabetical))
    assert solver.count() == expected["solved"]
    s = solver.stats
    assert (s.nodes, s.choices, s.failures) == (expected["nodes"], expected["choice"], expected["failed"])


def test_tree_renders_as_text_dot_and_json():
    m = bitfd.Model()
    x, y = m.int_var("x", 1, 3), m.int_var("y", 1, 3)
    m.less(x, y, label="x before y")
    solver = bitfd.Solver(m)
    tree = solver.tree()
    text = str(tree)
    assert text.count("solution") >= 3
    assert tree.to_dot().startswith("digraph")
    nodes = json.loads(tree.to_json())["nodes"]
    assert len(nodes) == tree.stats.nodes
    assert repr(tree) == f"Tree(nodes={tree.stats.nodes}, status='complete')"
    first = solver.tree("first")
    assert first.stats.solutions == 1 and first.status == "solution limit"


def test_trace_names_the_labelled_constraint():
    m = bitfd.Model()
    x, y = m.int_var("x", 1, 3), m.int_var("y", 1, 3)
    m.less(x, y, label="x before y")
    trace = bitfd.Solver(m).trace()
    assert "x before y" in str(trace)
    assert "x before y" in trace.profile()
    assert trace.stats.solutions == 3
    assert repr(trace).startswith("Trace(steps=")


def test_unknown_mode_raises_value_error():
    solver = bitfd.Solver(bitfd.Model())
    for record in (solver.tree, solver.trace):
        with pytest.raises(ValueError, match="unknown mode"):
            record("some")
