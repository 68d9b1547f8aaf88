"""Scenario YAML is parsed by libyaml where PyYAML has it (simcore.family.scenario.files.load_yaml) and
must read exactly as the pure-Python loader reads it: the same values, and for anything the
Python loader refuses, its error (the one the scenario messages quote)."""

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from simcore.family.scenario import files as scenario_files
from simcore.family.scenario.files import UniqueKeyLoader, load_yaml

TESTS = Path(__file__).resolve().parents[1]
FILES = sorted((TESTS.parent / "scenarios").glob("*.yaml")) + \
    sorted((TESTS / "broken_scenarios").glob("*.yaml"))


def _python(text):
    """(value, None) or (None, the Python loader's error message)."""
    try:
        return yaml.load(text, Loader=UniqueKeyLoader), None
    except yaml.YAMLError as exc:
        return None, str(exc)


def _same_as_python(text):
    value, error = _python(text)
    try:
        got = load_yaml(text)
    except yaml.YAMLError as exc:
        assert error is not None, f"only the fast path refused {text!r}: {exc}"
        assert str(exc) == error
        return
    assert error is None, f"the fast path accepted {text!r}, which PyYAML refuses: {error}"
    assert repr(got) == repr(value)   # repr: an alias can make a value contain itself


def test_the_fast_parser_is_there():
    assert scenario_files._FastLoader is not None or not yaml.__with_libyaml__


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_bundled_and_broken_file_reads_as_with_the_python_loader(path):
    _same_as_python(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n",                       # a duplicate key: the Python loader's message
    "a: {b: 1, b: 2}\n",
    "base: &b {x: 1}\nover:\n  <<: *b\n  x: 2\n",   # a merge key overrides on purpose
    "a: \x07\n",                           # a control character
    "a:\tb\n", "\ta: 1\n", "a: [1, 2\n", "a: 'x\n", "- a\nb: 1\n", "? [a]\n: 1\n",
    "a: 0x1F\nb: 1_000\nc: 0o17\nd: .inf\ne: ~\nf: 2001-12-14\ng: yes\nh: 1e3\n",
    "%YAML 1.1\n---\na: 1\n", "--- \n...\n", "a: !!str 1\n", "a: !custom 1\n",
    "a: \u2028b\n", "a: \x85\n", "\ufeffa: 1\n", "a: 😀\n", "a: |\n  x\n  y\n",
])
def test_edge_cases_read_as_with_the_python_loader(text):
    _same_as_python(text)


TOKENS = ["a", "b", "1", "-1", "0.5", "yes", "~", ":", ": ", "-", "- ", "[", "]", "{", "}", ",",
          "#", "&x", "*x", "!", "!!str", "|", ">", "'", '"', "\\", "?", "<<", "%", "@", "`",
          " ", "  ", "\t", "\n", "\n  ", "\n- ", "é", "\u2028", "\x85", '"\\N"', '"\\x41"',
          '"\\u00e9"', "'it''s'", "0o17", "0x1f", "1_000", "2001-12-14", ".nan", "+1", "1:2", "=",
          "\r\n", "\r", "\\\n", "...", "--- ", "\n---\n"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map("".join))
def test_random_yaml_reads_as_with_the_python_loader(text):
    _same_as_python(text)
