"""The kit's standard scenario pieces (simcore/family/standard.py) on a made-up schema: the
standard keys, one slot per rule option with its enum codes, and the rules array of a scenario,
a float option included (Sparrow, the family that uses them, has none)."""

import numpy as np
import pytest

from simcore.errors import InputError
from simcore.family.scenario.schema import Field
from simcore.family.standard import FLOAT_SCALE, RuleSlots, loader, schema
from tests.fake_family import POLICIES

RULES = {"deal": {"size": Field("int", 5, "tiles dealt", "R", min=1, max=9),
                  "order": Field("enum", "up", "deal order", "I", choices=("up", "down"))},
         "rate": Field("float", 0.25, "a fraction", "X", min=0.0, max=1.0),
         "open": Field("bool", False, "hands face up", "I")}
SCHEMA = schema("kit", "a made-up game", [{"policy": "medium", "params": {}}] * 2, RULES)
LOADER = loader("kit", "made-up game", "kit", SCHEMA, POLICIES, (2, 3), lambda d: [])


def test_slots_codes_and_array():
    slots, ns = RuleSlots(SCHEMA), {}
    assert slots.define(ns) == 4 and slots.keys == ("deal.size", "deal.order", "rate", "open")
    assert (ns["RA_DEAL_SIZE"], ns["RA_DEAL_ORDER"], ns["RA_RATE"], ns["RA_OPEN"]) == (0, 1, 2, 3)
    assert (ns["DEAL_ORDER_UP"], ns["DEAL_ORDER_DOWN"]) == (0, 1)
    sc = LOADER.from_dict({"game": "kit", "deal": {"order": "down"}, "rate": 0.5, "open": True})
    assert np.array_equal(slots.array(sc), [5, 1, FLOAT_SCALE // 2, 1])
    assert set(SCHEMA) == {"game", "name", "description", "players", "deal", "rate", "open", "run"}


@pytest.mark.parametrize("data, says", [
    ({"deal": {"order": "sideways"}}, "deal.order: expected one of up, down"),
    ({"players": [{"policy": "medium"}]}, "players: expected a list of 2 or 3 seats, got 1 seat"),
    ({"rate": 2}, "rate: expected a number >= 0.0 and <= 1.0"),
])
def test_the_standard_checker_names_the_key(data, says):
    with pytest.raises(InputError, match=says.replace(".", r"\.")):
        LOADER.from_dict({"game": "kit", **data})
