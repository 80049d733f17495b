"""The package's docstring examples run as doctests."""

import doctest

import bitfd


def test_package_docstring_examples_run():
    result = doctest.testmod(bitfd, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
