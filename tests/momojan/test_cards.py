import pytest
from hypothesis import given, strategies as st

from simcore.momojan.cards import (
    N_KINDS, NotationError, card_str, format_cards, kinds_from_mask, mask_from_kinds, parse_card,
)
from simcore.momojan.analysis import parse_hand_for
from simcore.momojan.shapes import OLD_EDITION, parse_new_edition_hand as parse_hand


def test_card_ids_and_canonical_strings():
    assert [card_str(k) for k in (0, 8, 9, 18, 27, 35, 36, 40)] == \
        ["1m", "9m", "1l", "1o", "1i", "9i", "1z", "5z"]


def test_parse_groups_prefixes_and_names():
    h = parse_hand("kai:111z chi:1l2m3l 23o 44z lemon9 moon")
    assert [g.kind for g in h.revealed] == ["kai", "chi"]
    assert format_cards(h.concealed) == "9l 23o 445z"
    assert str(h) == "kai:111z chi:1l2m3l 9l 23o 445z"
    assert parse_card("dog") == 36 and parse_card("3l") == 11 and parse_card("mikan4") == 21


@pytest.mark.parametrize("text, fragment", [
    ("12x", "unknown suit letter 'x' in '12x'"),
    ("0l", "rank 0 out of range 1-9 in '0l'"),
    ("6z", "picture rank 6 out of range 1-5 in '6z'"),
    ("1l 1l", "1l appears twice"),
    ("chi:123l 1l", "1l appears twice"),
    ("11111z", "more dog cards than the deck's 4"),
    ("chi:111z", "'chi:111z' is not a chi"),
    ("pon:123l", "'pon:123l' is not a pon"),
    ("chi:1l2o3o", "'chi:1l2o3o' is not a chi"),
    ("kai:12l", "a set has 3 cards"),
    ("pan:111z", "unknown group prefix 'pan'"),
    ("lemon", "needs a rank"),
    ("dog3", "takes no rank"),
    ("", "empty hand"),
])
def test_bad_notation_names_the_token(text, fragment):
    with pytest.raises(NotationError, match=None) as exc:
        parse_hand(text)
    assert fragment in str(exc.value)


def test_old_edition_deck_and_substitution():
    with pytest.raises(NotationError, match="more sun cards than the deck's 3"):
        parse_hand_for("4444z 1l", OLD_EDITION)
    h = parse_hand_for("pon:1l44z 5z", OLD_EDITION)  # a sun set with a rank-1 stand-in
    assert h.n_revealed == 1
    with pytest.raises(NotationError):
        parse_hand_for("pon:1l44z 5z", OLD_EDITION.__class__())  # new edition: no stand-ins


def test_concealed_size_checked():
    with pytest.raises(NotationError, match="3k\\+1"):
        parse_hand_for("123l", OLD_EDITION)


@given(st.lists(st.integers(0, N_KINDS - 1), max_size=8))
def test_mask_roundtrip(kinds):
    # pictures repeat up to 4 times; numbers at most once
    kinds = sorted(k for i, k in enumerate(kinds) if k >= 36 or k not in kinds[:i])
    kinds = [k for k in kinds if k < 36 or kinds.count(k) <= 4]
    assert kinds_from_mask(mask_from_kinds(kinds)) == kinds
    if kinds:
        assert sorted(parse_hand(format_cards(kinds)).concealed) == kinds
