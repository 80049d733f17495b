"""The type stubs ship with the package and name exactly what it has: every
exported class and function, and every public method and property."""

import ast
from pathlib import Path

import bitfd

PACKAGE = Path(bitfd.__file__).parent


def stub_tree():
    return ast.parse((PACKAGE / "__init__.pyi").read_text(encoding="utf-8"))


def test_stubs_and_py_typed_are_installed():
    assert (PACKAGE / "py.typed").exists()
    assert (PACKAGE / "__init__.pyi").exists()


def test_stubs_name_every_export_and_nothing_else():
    names = {n.name for n in stub_tree().body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    assert names == set(bitfd.__all__)


def test_stubs_name_every_public_member():
    for cls in (n for n in stub_tree().body if isinstance(n, ast.ClassDef)):
        obj = getattr(bitfd, cls.name)
        stubbed = {m.name for m in cls.body if isinstance(m, ast.FunctionDef)}
        stubbed |= {m.target.id for m in cls.body if isinstance(m, ast.AnnAssign)}
        public = {a for a in dir(obj) if not a.startswith("_")}
        stubbed -= {m for m in stubbed if m.startswith("_")}
        if issubclass(obj, BaseException):
            # An exception's own attributes (ParseError.diagnostics) are set
            # on each instance, not on the class.
            assert public - set(dir(ValueError)) <= stubbed, cls.name
        else:
            assert public == stubbed, cls.name
