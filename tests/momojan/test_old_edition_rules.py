"""Old edition (spec §10): rank-1 stand-ins count as the picture everywhere, in kans too."""

import pytest

from simcore.errors import InputError
from simcore.momojan import scenario
from simcore.momojan.scoring import Scorer, score_text


def _score(hand, win, dora, rules="old_edition"):
    return score_text(hand, win, "tsumo", dora_text=dora, rules=rules)


def test_stand_in_is_dora_as_its_picture():
    # pon:1l4z4z is a sun set whose 1l stands in for a sun; moon indicates sun.
    r = _score("pon:1l4z4z kai:234o 567i 9m", "9l", "5z")
    assert r.valid and r.bonuses["dora"] == 3  # two suns and the 1l standing in for one


def test_stand_in_is_not_dora_as_a_rank1_card():
    # 9o indicates rank 1: the 1l in the sun set is a sun there, so it is not dora.
    r = _score("pon:1l4z4z kai:234o 567i 9m", "9l", "9o")
    assert r.valid and r.bonuses["dora"] == 0


def test_head_stand_in_is_dora_as_its_picture():
    # head 1l + 4z read as a sun pair; concealed sets 234i 567i; indicator moon -> sun dora.
    r = _score("kai:234o kai:567o 234i 567i 4z", "1l", "5z")
    assert r.valid and r.bonuses["dora"] == 2


def test_kan_with_stand_ins_is_a_picture_kan():
    r = _score("kan:1l4z4z4z kai:234o 567i 9m", "9l", "5z")
    assert r.valid and r.yaku.get("sun") and r.yaku.get("kan") and r.bonuses["dora"] == 4


def test_four_rank1_cards_also_read_as_a_sun_kan():
    r = _score("kan:1m1l1o1i kai:234o 567i 9m", "9l", "5z")
    assert r.valid and r.yaku.get("sun") and r.bonuses["dora"] == 4


def test_kan_stand_ins_option_refuses_mixed_kans(tmp_path):
    f = tmp_path / "no_stand_in_kans.yaml"
    f.write_text("extends: old_edition\nkan:\n  rank1_stand_ins: false\n")
    with pytest.raises(InputError, match="rank1_stand_ins"):
        _score("kan:1l4z4z4z kai:234o 567i 9m", "9l", "5z", rules=str(f))
    r = _score("kan:1m1l1o1i kai:234o 567i 9m", "9l", "5z", rules=str(f))
    assert r.valid and "sun" not in r.yaku and r.bonuses["dora"] == 0
