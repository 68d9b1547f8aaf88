"""Hand-shape rules of a scenario by name or path (what ``--rules`` takes on the CLI)."""

from __future__ import annotations

from . import scenario
from .shapes import HandRules


def hand_rules(name_or_path: str) -> HandRules:
    """The hand-shape rules of a bundled scenario name or a scenario file."""
    return scenario.load(name_or_path).hand_rules
