"""Hand rules of a scenario by name or path (what ``--rules`` takes on the CLI)."""

from __future__ import annotations

from typing import NamedTuple

from . import scenario
from .shapes import HandRules


class HandInputRules(NamedTuple):
    """What decides whether a hand string is legal under a scenario."""

    hand: HandRules     # deck, wild fruit, rank-1 stand-ins
    kan_allowed: bool   # kan.enabled: may a hand show kan:... groups


def hand_rules(name_or_path: str) -> HandRules:
    """The hand-shape rules of a bundled scenario name or a scenario file."""
    return scenario.load(name_or_path).hand_rules


def hand_input_rules(name_or_path: str) -> HandInputRules:
    """Hand-shape rules plus whether kans exist, for parsing hands typed by a user."""
    sc = scenario.load(name_or_path)
    return HandInputRules(hand=sc.hand_rules, kan_allowed=sc.get("kan.enabled"))

