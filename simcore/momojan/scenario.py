"""Scenario files: load, resolve ``extends:``, validate, and freeze (spec: all of it).

A scenario file is YAML matching :data:`simcore.momojan.schema.SCHEMA`. Keys it leaves out take
the schema's defaults; ``extends: BASE`` (a path relative to the file, or a bundled name) starts
from BASE instead, deep-merged (mappings merge, lists are replaced whole). Every problem is an
:class:`ScenarioError` naming the file and the key path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcore.family.params import check_params

from simcore.family.scenario import files as scenario_files
from ..errors import InputError, shown as _kind  # one wording of a bad value
from ..family.scenario import ScenarioLoader
from simcore.family.scenario.files import ScenarioBase, did_you_mean
from . import schema as _schema
from .schema import FRUITS, NEW_YAKU, PICTURES, SCHEMA, Field
from .shapes import HandRules
from .yaku_conditions import (
    NEW_YAKU_HINT, YAKU_TABLE_PREFIX, check_requirements, check_yaku_table, is_new_yaku,
)

BUNDLED_DIR = scenario_files.bundled_dir()
DEFAULT_SCENARIO = "new_edition"


class ScenarioError(InputError):
    """A scenario file that cannot be used; the message starts ``FILE: key.path: ...``."""


class _Checker(scenario_files.Checker):
    error = ScenarioError

    def check(self, data: Any, schema: dict, prefix: str = "") -> dict:
        if prefix == "" and isinstance(data, dict) and isinstance(data.get("game"), str):
            # `game: momojan`, as the other families name theirs: said plainly (issue 46; it
            # read 'game: expected a mapping, got "momojan"')
            try:
                self.fail("game", f"a family name, but MOMOJAN's game: holds its end-of-game "
                          f"rules (dealerships_each, ...); a scenario naming no family is "
                          f"MOMOJAN's: remove `game: {str(data['game'])[:40]}`")
            except scenario_files.Recorded:
                data = {k: v for k, v in data.items() if k != "game"}
        return super().check(data, schema, prefix)

    # the scoring.yaku table also takes new picture-set yaku (checked as NEW_YAKU)
    def extra_entry(self, prefix: str, key: str, value: Any):
        return NEW_YAKU if prefix == YAKU_TABLE_PREFIX and is_new_yaku(value) else None

    def unknown_hint(self, prefix: str) -> str:
        return NEW_YAKU_HINT if prefix == YAKU_TABLE_PREFIX else ""

    def leaf(self, path: str, f: Field, v: Any):
        if f.kind in ("int", "bool", "str"):
            return self.basic_leaf(path, f, v)
        if f.kind == "enum":
            if v is None and f.nullable:
                return None
            if v not in f.choices or isinstance(v, bool):
                self.fail(path, f"expected one of {', '.join(map(str, f.choices))}"
                          f"{' or null' if f.nullable else ''}, got {_kind(v)}")
            return v
        if f.kind == "enum_list":
            if not isinstance(v, list):
                self.fail(path, f"expected a list, got {_kind(v)}")
            for i, x in enumerate(v):
                if x not in f.choices:
                    self.fail(f"{path}[{i}]", f"expected one of {', '.join(f.choices)}, got {_kind(x)}")
            if len(set(v)) != len(v):
                self.fail(path, "lists an entry twice")
            return list(v)
        if f.kind == "requirements":
            return check_requirements(path, v, self.fail, _kind)
        if f.kind == "players":
            return self.players(path, v)
        raise AssertionError(f.kind)

    def players(self, path: str, v: Any):
        if not isinstance(v, list) or len(v) != 2:
            self.fail(path, f"expected a list of two seats, got {_kind(v) if not isinstance(v, list) else f'{len(v)} seats'}")
        seats = []
        for i, seat in enumerate(v):
            p = f"{path}[{i}]"
            self.seat_mapping(p, seat)
            name = seat.get("policy")
            specs = policy_specs()
            if name not in specs:
                self.fail(f"{p}.policy", f"unknown policy {_kind(name)}"
                          + did_you_mean(name, specs, f" (known: {', '.join(specs)})"))
            params = seat.get("params", {}) or {}
            if not isinstance(params, dict):
                self.fail(f"{p}.params", f"expected a mapping of parameter names to values, got {_kind(params)}")
            params = check_params(name, specs[name].params, params,
                                  lambda key, message: self.fail(f"{p}.params.{key}", message))
            seats.append({"policy": name, "params": params})
        return seats


def policy_specs() -> dict:
    """``{policy name: simcore.family.policy.PolicySpec}``: the names and declared parameters a seat
    may use."""
    from policies.momojan import POLICIES
    return POLICIES.by_name


def _check_consistency(d: dict, fail) -> None:
    deck = d["deck"]
    if deck["wild_fruit"] is not None and deck["wild_fruit"] not in deck["fruits"]:
        fail("deck.wild_fruit", f"{deck['wild_fruit']} is not among deck.fruits")
    if deck["wild_fruit"] not in (None, "momo"):
        fail("deck.wild_fruit", "only momo (or null) is supported as the wild fruit")
    if not deck["fruits"]:
        fail("deck.fruits", "the deck needs at least one fruit")
    n_cards = len(deck["fruits"]) * deck["ranks"] + sum(deck["picture_copies"].values())
    stock = n_cards - 2 * d["hand_size"] - d["dead_wall"]
    if stock < 1:
        fail("deck", f"a deck of {n_cards} cards cannot deal two hands of {d['hand_size']} plus a "
             f"dead wall of {d['dead_wall']} and leave a stock")
    comp = d["compensation"]
    komi_start = comp["komi"] if comp["komi_at"] == "start" else 0
    starts = {"first_dealer": d["starting_points"] + comp["start_bonus"]["first_dealer"]
              - komi_start,
              "second_dealer": d["starting_points"] + comp["start_bonus"]["second_dealer"]
              + komi_start}
    for role, points in starts.items():
        if points < 1:
            fail(f"compensation.start_bonus.{role}" if komi_start == 0 else "compensation.komi",
                 f"the {role.replace('_', ' ')} would start with {points} points (at least 1)")
    if d["ante"]["base"] > min(starts.values()):
        fail("ante.base", f"an ante of {d['ante']['base']} is larger than the starting points "
             f"({min(starts.values())})")
    if d["draw_three"]["min_stock"] < 3:
        fail("draw_three.min_stock", "a three-card draw needs at least 3 cards in the stock")
    check_yaku_table(d, fail)


@dataclass(frozen=True)
class Scenario(ScenarioBase):
    """A validated, fully resolved MOMOJAN scenario. ``data`` is a read-only nested mapping."""

    @property
    def hand_rules(self) -> HandRules:
        deck = self.data["deck"]
        return HandRules(
            momo_wild=deck["wild_fruit"] == "momo",
            rank1_substitutes=tuple(PICTURES.index(p) for p in deck["rank1_substitutes"]),
            picture_copies=tuple(deck["picture_copies"][p] for p in PICTURES),
            fruits=tuple(FRUITS.index(f) for f in deck["fruits"]),
            ranks=deck["ranks"],
        )


class Scenarios(ScenarioLoader):
    """MOMOJAN's scenario files (:class:`simcore.family.scenario.ScenarioLoader`)."""

    GAME, DEFAULT_SCENARIO, ERROR = "momojan", DEFAULT_SCENARIO, ScenarioError
    CHECKER, SCHEMA, SCENARIO = _Checker, SCHEMA, Scenario
    WORST_CASES = staticmethod(_schema.worst_cases)   # simcore.family.scenario.bounds

    def consistency(self, data: dict, fail) -> None:
        _check_consistency(data, fail)


LOADER = Scenarios()
load, from_dict, validate = LOADER.load, LOADER.from_dict, LOADER.validate
resolve_path, bundled_names = LOADER.resolve_path, LOADER.bundled_names
bundled_descriptions = LOADER.bundled_descriptions
