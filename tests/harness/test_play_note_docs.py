"""docs/commands.md's "Rules the bots cannot see" says what the note of compare/sweep/solve says
(issue 46: the page said MOMOJAN's ``value`` does not read the run yaku and its example note
named ittsu as unread, while ``value`` reads every ``scoring.`` value but the yaku it cannot plan
for, and the note compare prints said so)."""

import re
from pathlib import Path

from policies.momojan import POLICIES
from policies.momojan.worth import UNPLANNED_YAKU
from simcore.family import registry as families
from simcore.family.scenario.files import deep_merge, nested
from simcore.studies.notes import play_note

DOC = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
SECTION = DOC[DOC.index("**Rules the bots cannot see.**"):DOC.index("**Reopening.**")]


def _leaves(data, prefix=""):
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            yield from _leaves(v, key + ".")
        else:
            yield key


def test_the_pages_example_note_is_the_one_compare_prints():
    fam, sc = families.load("new_edition")
    over = {}
    for key in ("scoring.yaku.haitei.points", "scoring.yaku.ittsu.points"):
        over = deep_merge(over, nested(key, sc.get(key) + 1))
    note = play_note(fam, [sc, fam.SCENARIOS.with_overrides(sc, over, "b")])
    shown = re.search(r"```\n(note: .*)\n```", SECTION).group(1)
    assert shown == note


def test_value_reads_every_scoring_value_but_the_unplanned_yaku_as_the_page_says():
    fam, sc = families.load("new_edition")
    value = POLICIES.by_name["value"]
    keys = [k for k in _leaves(sc.to_dict()) if k.startswith("scoring.")]
    assert "scoring.yaku.ittsu.points" in keys and "scoring.yaku.sanshoku.points" in keys
    for k in keys:
        unplanned = any(k.startswith(f"scoring.yaku.{y}.") for y in UNPLANNED_YAKU)
        assert value.reads_rule(k) == (not unplanned), k
    text = " ".join(SECTION.split())
    assert "reads every `scoring.` value" in text and "ittsu and sanshoku included" in text
    for y in UNPLANNED_YAKU:
        assert re.search(rf"\b{y}\b", text), y
    assert "not the run yaku" not in text
