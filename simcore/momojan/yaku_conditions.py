"""Picture-set yaku as data (spec §8): checking their conditions, and naming the score slots.

A picture-set yaku's condition is a list of requirements in ``sets_of:`` (old edition also
``kans_of:``), each a picture or a list of pictures to choose from. The winning hand meets the
condition when every requirement is met by a *distinct* picture set of the hand (a kan is a set; a
``kans_of`` requirement needs a kan). The fixed picture-set yaku (dog .. moon, kerai, takaramono,
oshimai) are written this way in the scenario files, and a scenario may add more under new names in
``scoring.yaku`` (:data:`simcore.momojan.schema.NEW_YAKU`). The other yaku keep coded conditions.

The scoring kernel reads the conditions from the rules array
(:func:`simcore.momojan.rules_array.build_rules_array`); this module checks them while a scenario
is validated and names the score slots (breakdowns, the engine's yaku bits) of one scenario.
"""

from __future__ import annotations

import difflib
from typing import Any, Callable

from .rules_array import MAX_NEW_YAKU, MAX_REQUIREMENTS, YAKU_KEYS
from .schema import PICTURES, SET_BONUS_NAMES, YAKU

YAKU_TABLE_PREFIX = "scoring.yaku."
NEW_YAKU_HINT = ("; a new yaku needs a picture-set condition (sets_of: or kans_of:), the other "
                 "yaku's conditions are coded")

Fail = Callable[[str, str], None]      # fail(key path, message): raises
Describe = Callable[[Any], str]        # how an error message shows a bad value


def is_new_yaku(value: Any) -> bool:
    """Whether an unknown key of the yaku table is a new picture-set yaku (it carries a condition)."""
    return isinstance(value, dict) and ("sets_of" in value or "kans_of" in value)


def check_requirements(path: str, value: Any, fail: Fail, describe: Describe):
    """A ``sets_of``/``kans_of`` value: null, or a non-empty list of requirements, each a picture
    name or a non-empty list of distinct picture names. Returns it as plain lists."""
    if value is None:
        return None
    if not isinstance(value, list):
        fail(path, f"expected a list of pictures (each entry a picture or a list of pictures to "
             f"choose from), or null, got {describe(value)}")
    if not value:
        fail(path, "an empty list: give at least one picture (or null for no requirement; to "
             "turn the yaku off use enabled: false)")
    out = []
    for i, req in enumerate(value):
        p = f"{path}[{i}]"
        if isinstance(req, list):
            if not req:
                fail(p, "an empty choice: list at least one picture")
            for j, name in enumerate(req):
                if isinstance(name, list):
                    fail(f"{p}[{j}]", "a choice is a flat list of pictures, got a nested list")
                _check_picture(f"{p}[{j}]", name, fail, describe)
            dup = next((n for n in req if req.count(n) > 1), None)
            if dup is not None:
                fail(p, f"lists {dup} twice")
            out.append(list(req))
        else:
            _check_picture(p, req, fail, describe)
            out.append(req)
    return out


def _check_picture(path: str, name: Any, fail: Fail, describe: Describe) -> None:
    if isinstance(name, str) and name in PICTURES:
        return
    hint = difflib.get_close_matches(str(name), PICTURES, n=1) if isinstance(name, str) else []
    fail(path, f"unknown picture {describe(name)}"
         + (f" (did you mean {hint[0]!r}?)" if hint else f" (pictures: {', '.join(PICTURES)})"))


def check_yaku_table(d: dict, fail: Fail) -> None:
    """Checks across the validated yaku table (``d`` is the whole scenario data)."""
    table = d["scoring"]["yaku"]
    new = new_yaku_names(table)
    for name in new:
        if name in SET_BONUS_NAMES:
            fail(f"{YAKU_TABLE_PREFIX}{name}", f"{name} names a set-count bonus "
                 f"(scoring.set_count_bonus); give the new yaku another name")
    if len(new) > MAX_NEW_YAKU:
        fail(f"{YAKU_TABLE_PREFIX}{new[MAX_NEW_YAKU]}",
             f"at most {MAX_NEW_YAKU} new picture-set yaku per scenario (the engine records yaku in "
             f"one 63-bit field); this is number {MAX_NEW_YAKU + 1}")
    for name, y in table.items():
        if "sets_of" not in y:
            continue
        path = f"{YAKU_TABLE_PREFIX}{name}"
        n_req = len(y["sets_of"] or ()) + len(y["kans_of"] or ())
        if n_req == 0:
            fail(f"{path}.sets_of", "a picture-set yaku needs a condition: sets_of or kans_of "
                 "(to turn it off use enabled: false)")
        if n_req > MAX_REQUIREMENTS:
            fail(path, f"{n_req} requirements in sets_of and kans_of; at most {MAX_REQUIREMENTS} "
                 f"(a hand holds at most {MAX_REQUIREMENTS} picture sets)")
        if y["kans_of"] is not None and not d["kan"]["enabled"]:
            fail(f"{path}.kans_of", "kan is not played (kan.enabled: false), so no hand could "
                 "meet it; set kans_of: null or enable kan")
    kibidango = table["kibidango"]
    if kibidango["kai_counts_as_call"] and kibidango["ron_may_complete_set"]:
        fail(f"{YAKU_TABLE_PREFIX}kibidango", "kai_counts_as_call and ron_may_complete_set cannot "
             "both be true: the rulebook's first worked example (Kai sets, the ron completing a "
             "concealed set) would then have kibidango and score 18, not the rulebook's 14 (spec §8)")


def new_yaku_names(table) -> list[str]:
    """The names a scenario's yaku table adds (in scenario order)."""
    return [k for k in table if k not in YAKU]


def score_slot_names(scenario) -> tuple[str, ...]:
    """The name of each score slot of ``scenario``, in slot order: slot i is entry i of
    ``score_hand``'s ``yaku_out`` and bit i of the engine's yaku bits. The fixed yaku, the four
    set-count names, then the scenario's new picture-set yaku (unused slots are left off)."""
    return (*YAKU_KEYS, *SET_BONUS_NAMES, *new_yaku_names(scenario.get("scoring.yaku")))
