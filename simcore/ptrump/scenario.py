"""P-style trump mahjong scenario files: load, resolve ``extends:``, validate, freeze.

A scenario is YAML matching :data:`simcore.ptrump.schema.SCHEMA` and saying ``game: ptrump``.
Keys it leaves out take the schema's defaults; ``extends: BASE`` (a path relative to the file, or
a bundled name such as ``ptrump_2p``) starts from BASE instead, deep-merged (mappings merge, lists
are replaced whole). Every problem is one :class:`ScenarioError` line naming the file and the key
path, e.g. ``ptrump_2p.yaml: riichi.min_stock: expected one of players, one, got "x"``.

The loader is the kit's (:class:`simcore.family.scenario.ScenarioLoader`); what is P-style's is
its checker's leaf kinds (``game``, seats of 2 or 3, ``off``/``on`` read back from YAML's bools),
the beginner preset and the cross-key checks.

What this implementation simplifies: ``beginner: true`` sets its three values (spec §10) after
the merge; a file that sets one of them to something else beside ``beginner: true`` is refused,
so nothing is silently overridden. Seat policies are checked against P-style's bot registry
(:mod:`policies.ptrump`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcore.family.scenario import files as scenario_files
from ..errors import InputError, shown as _kind  # one wording of a bad value
from simcore.family.scenario.annotated import Annotation
from ..family.scenario import ScenarioLoader, check_seat as _check_seat, has_key
from simcore.family.scenario.files import ScenarioBase, deep_merge
from simcore.family.standard import StandardChecker
from . import schema as _schema
from .schema import (
    BEGINNER_SETS, GAME, SCHEMA,
)

DEFAULT_SCENARIO = "ptrump_2p"
MIN_SEATS, MAX_SEATS = 2, 3


BUNDLED_DIR = scenario_files.bundled_dir()


class ScenarioError(InputError):
    """A scenario file that cannot be used; the message starts ``FILE: key.path: ...``."""


def _get(raw: dict, dotted: str):
    node = raw
    for k in dotted.split("."):
        node = node[k]
    return node


class _Checker(StandardChecker):
    error, game, title, policies = ScenarioError, GAME, "P-style trump mahjong", "policies.ptrump"
    seats, seats_why = (MIN_SEATS, MAX_SEATS), " (the seat count is the number of players)"


def policy_specs() -> dict:
    """``{name: simcore.family.policy.PolicySpec}`` of P-style's bots (:mod:`policies.ptrump`)."""
    from policies.ptrump import POLICIES
    return POLICIES.by_name


def policy_names() -> list[str]:
    return list(policy_specs())


def check_seat(name: Any, params: dict, fail) -> tuple[str, dict]:
    """A seat's policy and params against this family's bots (the kit's
    :func:`simcore.family.scenario.check_seat`)."""
    return _check_seat(policy_specs(), name, params, fail)


def _apply_beginner(raw: dict, fail, explicit) -> dict:
    """``beginner: true`` sets the spec §10 values over whatever it extends; a value set
    explicitly beside it (``explicit(key)``: in the file that says beginner: true or a later one,
    or in the same overrides) that differs is refused."""
    if raw.get("beginner") is not True:
        return raw
    over: dict = {}
    for key, value in BEGINNER_SETS.items():
        if has_key(raw, key) and _get(raw, key) != value and explicit(key):
            fail(key, f"beginner: true sets {key} to {_kind(value)}; drop {key} or set "
                 "beginner: false")
        node = over
        parts = key.split(".")
        for k in parts[:-1]:
            node = node.setdefault(k, {})
        node[parts[-1]] = value
    return deep_merge(raw, over)


def _check_consistency(d: dict, fail) -> None:
    """Options that combine badly, each refused with its reason."""
    n = len(d["players"])
    fd = d["match"]["first_dealer"]
    if fd != "random" and fd >= n:
        fail("match.first_dealer", f"seat {fd} does not exist with {n} players (seats 0.."
             f"{n - 1})")
    m = d["match"]
    if m["start_score"] >= m["target_score"]:
        fail("match.start_score", f"{m['start_score']} already reaches match.target_score "
             f"({m['target_score']}): the match would end before it starts")
    places = ("first_dealer", "second", "third")
    if n < 3 and m["start_bonus"]["third"]:
        fail("match.start_bonus.third", f"{n} players have no third seat in the dealing order")
    for place in places[:n]:
        if m["start_score"] + m["start_bonus"][place] >= m["target_score"]:
            fail(f"match.start_bonus.{place}", f"a start of {m['start_score']} + "
                 f"{m['start_bonus'][place]} already reaches match.target_score "
                 f"({m['target_score']}): the match would end before it starts")
    sc = d["scoring"]
    if sc["yaku"]["rinshan"]["on_nukidora"] and d["nukidora"]["mode"] == "instead_of_discard":
        fail("scoring.yaku.rinshan.on_nukidora", "nukidora.mode: instead_of_discard draws no "
             "replacement, so no win comes on a nukidora replacement")
    if sc["yakuman"]["kokushi_double"]["enabled"] and not sc["yakuman"]["kokushi"]["enabled"]:
        fail("scoring.yakuman.kokushi.enabled", "false, but scoring.yakuman.kokushi_double."
             "enabled is true: double kokushi is a kokushi (turn both off)")
    if d["tenpai"]["needs_yaku"] and not sc["yaku_required"]:
        fail("tenpai.needs_yaku", "a win needs no yaku (scoring.yaku_required: false), so "
             "tenpai cannot need one")
    if sc["yakuman"]["double_points"] < sc["yakuman"]["points"]:
        fail("scoring.yakuman.double_points", f"{sc['yakuman']['double_points']} is less than a "
             f"single yakuman ({sc['yakuman']['points']})")
    if d["riichi"]["open_riichi"] == "on" and not sc["additive"]["open_riichi"]["enabled"]:
        fail("scoring.additive.open_riichi.enabled", "riichi.open_riichi: on needs its item "
             "(set riichi.open_riichi: off instead)")
    reserve = d["stock"]["replacement_reserve"]
    stock = 54 - 7 * n - (0 if d["stock"]["indicators_in_stock"] else 2)
    if reserve >= stock - n:
        fail("stock.replacement_reserve", f"a reserve of {reserve} leaves fewer than one draw "
             f"each from a stock of {stock} with {n} players")
    if d["beginner"]:
        for key, value in BEGINNER_SETS.items():
            if _get(d, key) != value:
                fail(key, f"beginner: true needs {key}: {_kind(value)}")


@dataclass(frozen=True)
class Scenario(ScenarioBase):
    """A validated, fully resolved P-style scenario. ``data`` is a read-only nested mapping."""

    @property
    def n_players(self) -> int:
        return len(self.data["players"])

    def annotated_yaml(self) -> str:
        """The scenario as YAML with each value's tag and meaning in a comment."""
        return annotated_yaml(self.to_dict(), title=f"{self.name} (P-style trump mahjong)")


class Scenarios(ScenarioLoader):
    """P-style's scenario files (:class:`simcore.family.scenario.ScenarioLoader`): every file
    says ``game: ptrump``, and ``beginner: true`` sets its values before the schema check."""

    GAME, DEFAULT_SCENARIO, ERROR = GAME, DEFAULT_SCENARIO, ScenarioError
    # its files' `game:` is the family's name, not a rule
    RUNNER_KEYS = (*ScenarioLoader.RUNNER_KEYS, "game")
    CHECKER, SCHEMA, SCENARIO = _Checker, SCHEMA, Scenario
    WORST_CASES = staticmethod(_schema.worst_cases)   # simcore.family.scenario.bounds

    def prepare(self, raw: dict, checker, explicit) -> dict:
        if "game" not in raw:
            checker.fail("game", f"missing: a P-style trump mahjong scenario says `game: {GAME}`")
        return _apply_beginner(raw, checker.fail, explicit)

    def consistency(self, data: dict, fail) -> None:
        _check_consistency(data, fail)

    def explicit_after(self, origin: dict, files: list):
        """Keys set in the file that says ``beginner: true`` or a later one."""
        if "beginner" not in origin:
            return None
        late = set(files[files.index(origin["beginner"]):])
        return lambda key: origin.get(key) in late


LOADER = Scenarios()
load, from_dict, validate = LOADER.load, LOADER.from_dict, LOADER.validate
with_overrides, resolve_path = LOADER.with_overrides, LOADER.resolve_path  # --set: the loader's
bundled_names, bundled_descriptions = LOADER.bundled_names, LOADER.bundled_descriptions


# --------------------------------------------------------------------------------------------
# Annotated YAML (what `show` prints): each leaf followed by `# [R]/[I]/[X] doc`.
# --------------------------------------------------------------------------------------------

# show's YAML (Family.ANNOTATION): each leaf followed by its tag and meaning
ANNOTATION = dict(column=50, tag_labels={"R": "[R]", "I": "[I]", "X": "[X] reconstructed",
                                          "V": "[V] variant", "T": "[tool]"},
                  legend="# Tags: [R] stated by the source, [I] our reading (an option), "
                         "[X] reconstructed, [V] a variant for balancing (not in the "
                         "source), [tool] how the tool runs it (not a rule)")


def annotated_yaml(data: dict, title: str | None = None) -> str:
    """``data`` (a resolved scenario as plain data) as commented YAML that loads back to it."""
    from policies.ptrump import POLICIES
    return Annotation(SCHEMA, POLICIES.by_name, **ANNOTATION).yaml(data, title)
