"""Layouts written once: every names tuple agrees with its index constants and its count."""

import pytest

from simcore.momojan import actions, engine
from simcore.momojan.cards import N_KINDS
from simcore.nb.layout import field_constants

LAYOUTS = [
    (engine, "RF", engine.ROUND_FIELDS, "N_RF"),
    (engine, "GF", engine.GAME_FIELDS, "N_GF"),
    (engine, "ST", engine.ST_FIELDS, "N_ST"),
    (engine, "EV", engine.EV_TYPES, None),
    (engine, "OUT", engine.OUTCOME_NAMES, None),
    (engine, "END", engine.END_REASON_NAMES, None),
    (engine, "KAN_KIND", engine.KAN_KIND_NAMES, None),
    (actions, "OBS", actions.OBS_FIELDS, "OBS_WORK"),
]


@pytest.mark.parametrize("module, prefix, names, count", LAYOUTS,
                         ids=[layout[1] for layout in LAYOUTS])
def test_names_tuple_and_constants_agree(module, prefix, names, count):
    consts = {k: v for k, v in vars(module).items()
              if k.startswith(prefix + "_") and k.isupper() and isinstance(v, int)}
    expected = field_constants(prefix, names)
    for name, index in expected.items():
        assert consts[name] == index
    if count is not None:
        assert getattr(module, count) == len(names)
    # every constant of the prefix comes from the tuple (an alias and two sizes excepted)
    assert set(consts) - set(expected) <= {"END_ANTE", "EV_WIDTH", "OBS_LEN", "OBS_WORK"}


def test_names_other_modules_import_still_exist():
    for name in ("RF_DRAW3_0", "RF_DRAW3_1", "RF_WINNER_CONCEALED_SETS", "RF_DRAW_PAYMENT",
                 "GF_POT_LEFT", "OUT_DRAW", "END_ANTE", "END_ROUND_LIMIT", "EV_REPLACEMENT",
                 "EV_GAME_END", "KAN_KIND_ADDED", "ST_LOG", "ST_N_EV"):
        assert isinstance(getattr(engine, name), int)
    assert engine.END_ANTE == engine.END_ANTE_UNPAYABLE
    assert actions.N_KIND == N_KINDS and actions.OBS_WORK == len(actions.OBS_FIELDS)


def test_dead_state_fields_are_gone():
    assert not hasattr(engine, "ST_N_CARDS") and not hasattr(engine, "ST_LAST_SEAT")
