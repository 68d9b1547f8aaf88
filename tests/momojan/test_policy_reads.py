"""Which point values the seated bots read (issue 30 item 3): the note of compare/sweep/solve
names, per differing point value, whether a seated policy reads it."""

from policies.momojan import POLICIES
from simcore.family import registry as families
from simcore.family.players import with_players
from simcore.family.scenario.files import nested
from simcore.studies.notes import play_note


def test_value_declares_what_its_hand_value_reads():
    value = POLICIES.by_name["value"]
    for key in ("scoring.yaku.kerai.points", "scoring.dora_per_card", "scoring.yaku.ittsu.points",
                "scoring.yaku.tanyao.points", "scoring.double_threshold", "scoring.ron_bonus",
                "scoring.set_count_bonus.tabi", "scoring.yaku.my_new_yaku.points"):
        assert value.reads_rule(key), key
    assert not value.reads_rule("scoring.yaku.kibidango.points")
    assert not value.reads_rule("scoring.yaku.haitei.points")
    assert not POLICIES.by_name["greedy"].reads_rule("scoring.yaku.kerai.points")


def _variants(changes):
    fam, sc = families.load("new_edition")
    out = [sc]
    for key, v in changes:
        out.append(fam.SCENARIOS.with_overrides(sc, nested(key, v), f"x {key}"))
    return fam, out


def test_the_note_says_per_rule_whether_a_seated_policy_reads_it():
    fam, scs = _variants([("scoring.yaku.haitei.points", 4), ("scoring.yaku.kerai.points", 7)])
    note = play_note(fam, scs)
    assert "no seated policy (value) reads scoring.yaku.haitei.points" in note
    assert "read: scoring.yaku.kerai.points (by value)" in note
    fam, scs = _variants([("scoring.yaku.kerai.points", 7)])
    assert play_note(fam, scs) is None          # every differing point value is read
    greedy = [with_players(fam, sc, "greedy") for sc in scs]
    assert "no seated policy (greedy) reads point values" in play_note(fam, greedy)
