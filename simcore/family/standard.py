"""What a family's scenarios share, written once: the standard schema keys, a checker for the
standard leaf kinds, a loader built from them, and the rules array a schema declares.

A new family writes only its rule options, each one :class:`~simcore.family.scenario.schema.Field`
(its kind, default, meaning, tag and range or choices). From that one declaration:

- :func:`schema` adds the keys every family has (``game``, ``name``, ``description``, ``players``
  and ``run.games|seed|workers``);
- :func:`loader` gives the family's :class:`~simcore.family.scenario.ScenarioLoader`, whose checker
  (:class:`StandardChecker`) reads the kinds ``int``, ``float``, ``bool``, ``str``, ``enum``,
  ``game`` and ``players``;
- :class:`RuleSlots` gives each rule option its slot in the engine's int64 rules array
  (``RA_WINS_MIN_POINTS``), each enum choice its code (``WINS_FURITEN_TILE``), and the array of a
  scenario; the annotated YAML of ``show`` documents each option from the same Field.

What this implementation simplifies: a rules array holds integers, so a ``float`` option is stored
times :data:`FLOAT_SCALE` (a family whose engine needs exact floats keeps its own array).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np

from simcore.errors import InputError
from simcore.family.scenario import ScenarioLoader, seats_leaf
from simcore.family.scenario.files import Checker, ScenarioBase
from simcore.family.scenario.schema import Field, iter_fields
from simcore.nb.games import REPEAT_CHOICES

FLOAT_SCALE = 1_000_000
STANDARD_TOP = ("game", "name", "description", "players", "run")


def schema(game: str, description: str, players: list, rules: dict, games: int = 10000) -> dict:
    """A family's whole schema: the standard keys around its own ``rules`` (a tree of Fields)."""
    return {
        "game": Field("game", game, "the game family", "T"),
        "name": Field("str", None, "the scenario's name (default: the file's)", "T",
                      nullable=True),
        "description": Field("str", description, "one line on the scenario", "T"),
        "players": Field("players", players, "the seats, each {policy, params}", "T"),
        **rules,
        "run": {
            "games": Field("int", games, "games per run", "T", min=1, max=2 ** 63 - 1),
            "seed": Field("int", 0, "base seed: everything of game i derives from (seed, i)",
                          "T", min=0, max=2 ** 64 - 1),
            "workers": Field("int", 0, "worker processes (0: one per core)", "T", min=0),
        },
    }


def rotation_rules(start_points: int, laps: int, max_laps: int = 8, dealer_repeat: str = "none",
                   bust_ends: bool = True, tags: str = "RRII") -> dict:
    """The options of the match :func:`simcore.nb.games.rotation_games` plays, with a family's
    defaults (``tags``: those of ``start_points``, ``match.laps``, ``match.dealer_repeat`` and
    ``match.bust_ends``): ``{"start_points": ..., "match": {...}}``, for the family's rules."""
    return {
        "start_points": Field("int", start_points, "each seat's points at the start", tags[0],
                              min=1, max=1_000_000),
        "match": {
            "dealer_repeat": Field("enum", dealer_repeat, "when the dealer deals again: never, "
                                   "after its win, or after its win or a draw",
                                   tags[2], choices=REPEAT_CHOICES),
            "laps": Field("int", laps, "laps of dealers in a game", tags[1], min=1,
                          max=max_laps),
            "bust_ends": Field("bool", bust_ends, "a seat below 0 after a round ends the game",
                               tags[3]),
        },
    }


class StandardChecker(Checker):
    """The standard leaf kinds; a family's subclass (made by :func:`loader`, or written by a
    family with kinds of its own, whose ``leaf`` ends in ``super().leaf``) sets ``game``,
    ``title``, ``policies`` (``POLICIES.by_name``, or the bots package's name, imported on the
    first ``players`` list) and ``seats`` (fewest, most; ``seats_why`` follows the count in a
    message). A bundled scenario's errors name its file, not the package's folder."""

    error = InputError
    game = title = seats_why = ""
    policies: dict | str = {}
    seats = (1, 1)

    def shown(self, where: Path) -> str:
        return str(where.name if where.is_absolute() else where)

    def leaf(self, path: str, f: Field, v: Any):
        if f.kind == "game":
            return self.game_leaf(path, v, self.game, self.title)
        if f.kind == "players":
            specs = self.policies
            if isinstance(specs, str):
                specs = importlib.import_module(specs).POLICIES.by_name
            return seats_leaf(self, path, v, specs, self.seats, self.seats_why)
        if f.kind == "enum":
            return self.enum_leaf(path, f, v)
        return self.basic_leaf(path, f, v)


def loader(game: str, title: str, default_scenario: str, schema: dict, policies, seats: tuple,
           worst_cases, error: type = InputError, **attrs) -> ScenarioLoader:
    """The family's scenario loader (``attrs``: more class attributes, such as ``NO_EFFECT`` or
    a ``consistency`` method)."""
    checker = type(f"{game.title()}Checker", (StandardChecker,),
                   {"error": error, "game": game, "title": title,
                    "policies": policies.by_name, "seats": seats})
    scenario = type(f"{game.title()}Scenario", (ScenarioBase,), {"__module__": __name__})
    cls = type(f"{game.title()}Scenarios", (ScenarioLoader,), {
        "GAME": game, "DEFAULT_SCENARIO": default_scenario, "ERROR": error, "SCHEMA": schema,
        "SCENARIO": scenario, "CHECKER": checker, "WORST_CASES": staticmethod(worst_cases),
        "RUNNER_KEYS": (*ScenarioLoader.RUNNER_KEYS, "game"), **attrs})
    return cls()


class RuleSlots:
    """Every rule option of a schema (the standard keys left out) as slots of an int64 array,
    in schema order: ``names`` (``wins_min_points``), ``keys`` (``wins.min_points``). An option
    whose default is a list takes one slot per item (``start_points`` of two seats:
    ``RA_START_POINTS0``, ``RA_START_POINTS1``).

    ``encode`` maps a key to ``(width, function)`` for an option whose value is not a number,
    a bool, an enum choice or a list of numbers (emoji's ``wall.turns``: ``auto`` or a count);
    an option of another kind without one (a table of yaku values) has no slot: the family
    reads it through an array of its own (``elsewhere`` lists them), as does one ``apart``
    (a predicate on the key) says the family keeps with such a table (MOMOJAN's yaku points).
    A family's own section named ``game`` (MOMOJAN's ``game.tie_break``) is rules, unlike the
    standard ``game`` key that names the family."""

    SLOT_KINDS = ("int", "bool", "enum", "float", "points")

    def __init__(self, schema: dict, encode: dict | None = None, apart=None):
        self.encode = dict(encode or {})
        rules = [(k, f) for k, f in iter_fields(schema, Field)
                 if k.split(".")[0] not in STANDARD_TOP or k.startswith("game.")]
        slotted = [self._slotted(k, f) and not (apart and apart(k)) for k, f in rules]
        self.fields = [kf for kf, on in zip(rules, slotted) if on]
        self.elsewhere = tuple(k for (k, _), on in zip(rules, slotted) if not on)
        self.keys = tuple(k for k, _ in self.fields)
        self.names = tuple(k.replace(".", "_") for k in self.keys)
        self.widths = tuple(self.encode[k][0] if k in self.encode
                            else len(f.default) if isinstance(f.default, list) else 1
                            for k, f in self.fields)

    def _slotted(self, key: str, f: Field) -> bool:
        return (key in self.encode or f.kind in self.SLOT_KINDS
                or isinstance(f.default, list) and bool(f.default)
                and all(isinstance(x, int) for x in f.default))

    def define(self, namespace: dict, prefix: str = "RA") -> int:
        """Bind ``PREFIX_NAME`` (the slot; ``PREFIX_NAME0`` ... for a list) and ``NAME_CHOICE``
        (an enum choice's code) in ``namespace`` (an engine module's ``globals()``); return the
        array's length."""
        i = 0
        for name, width, (_, f) in zip(self.names, self.widths, self.fields):
            for j in range(width):
                namespace[f"{prefix}_{name.upper()}{j if width > 1 else ''}"] = i + j
            i += width
            for code, choice in enumerate(f.choices):
                namespace[f"{name.upper()}_{str(choice).upper()}"] = code
        return i

    def value(self, key: str, f: Field, v) -> list:
        if key in self.encode:
            return [int(x) for x in self.encode[key][1](v)]
        if isinstance(f.default, list):
            return [int(x) for x in v]
        if f.kind == "enum":
            return [f.choices.index(v)]
        if f.kind == "float":
            return [int(round(v * FLOAT_SCALE))]
        return [int(v)]

    def array(self, sc) -> np.ndarray:
        """The rules array of a loaded scenario (or of anything with ``get(key)``: a dict of
        option values under their keys)."""
        return np.array([x for k, f in self.fields for x in self.value(k, f, sc.get(k))], np.int64)
