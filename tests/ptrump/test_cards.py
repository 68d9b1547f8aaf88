"""P-style card ids and notation (simcore.ptrump.cards): the spec's examples, round trips, and every
kind of rejected input naming its token."""

import pytest
from hypothesis import given, strategies as st

from simcore.ptrump.cards import (
    FIRST_JOKER, JOKER, N_CARDS, NO_SUIT, RANK_COPIES, CardError, card_id, format_cards,
    format_rank_mask, format_ranks, parse_card, parse_cards, parse_hand, rank_counts, rank_of,
    suit_of,
)
from simcore.errors import InputError

SPEC_EXAMPLES = [
    "234 67 55 +8 tsumo dora:K",
    "pon:555 34 66 +2 ron dora:9",
    "pon:111 pon:999 5 +5 ron dora:7",
    "nuki:X 111 TTT 9 +9 tsumo riichi ippatsu dora:9 ura:X",
    "nuki:X 234 678 5 +5 ron dora:K ura:X",
    "kakan:7777 234 5 +5 tsumo rinshan dora:K",
    "223344 5 +5 ron dora:K",
]


def test_id_layout():
    assert N_CARDS == 54 and FIRST_JOKER == 52
    assert [rank_of(c) for c in (0, 3, 4, 35, 36, 51, 52, 53)] == [0, 0, 1, 8, 9, 12, 13, 13]
    assert [suit_of(c) for c in (0, 1, 2, 3, 52)] == [0, 1, 2, 3, NO_SUIT]
    assert card_id(4, 1) == 17 and parse_card("5h") == 17
    assert parse_card("A") == parse_card("1") == 0
    assert parse_card("T") == 36 and parse_card("K") == 48 and parse_card("X") == 52
    assert RANK_COPIES[JOKER] == 2 and sum(RANK_COPIES) == 54


@pytest.mark.parametrize("text", SPEC_EXAMPLES)
def test_spec_examples_parse_and_round_trip(text):
    h = parse_hand(text)
    again = parse_hand(str(h))
    assert again == h
    assert len(h.concealed) + 1 == 8 - 3 * h.k


def test_example_fields():
    h = parse_hand("nuki:X 111 TTT 9 +9 tsumo riichi ippatsu dora:9 ura:X")
    assert h.k == 0 and len(h.nuki) == 1 and rank_of(h.win) == 8
    assert h.tsumo and not h.ron and h.has("riichi") and h.has("ippatsu")
    assert rank_of(h.dora) == 8 and rank_of(h.ura) == JOKER
    assert format_ranks(h.full_counts) == "11199TTT"
    assert format_ranks(h.counts) == "1119TTT"
    assert len(set(h.all_cards)) == len(h.all_cards) == 11   # every card its own id
    h = parse_hand("pon:555 kakan:7777 A +A ron")
    assert [g.kind for g in h.revealed] == ["pon", "kakan"] and [g.rank for g in h.revealed] == [4, 6]


def test_suits_and_suitless_ids():
    h = parse_hand("234s5h5d6X +5")
    assert format_cards(h.concealed, h.suitless) == "234s 5h 5d 6X"
    assert {suit_of(c) for c in h.concealed if rank_of(c) in (1, 2, 3)} == {0}
    assert h.is_suited(card_id(4, 1)) and not h.is_suited(h.win)
    # the suit-less 5 and 6 take copies no suited card uses
    win = h.win
    assert rank_of(win) == 4 and win not in (card_id(4, 1), card_id(4, 2)) and win in h.suitless
    assert not h.suited[card_id(13, 0)]                     # jokers are never "suited"
    # a suit-less card never takes the id of a suited one written later in the string
    h = parse_hand("5 123456 +5s")
    assert h.win == card_id(4, 0) and h.win not in h.suitless
    assert [c for c in h.concealed if rank_of(c) == 4] == [card_id(4, 1), card_id(4, 2)]
    assert {card_id(4, 1), card_id(4, 2)} <= h.suitless


def test_allow_drawn_and_dealer():
    assert len(parse_hand("12345678", allow_drawn=True).concealed) == 8
    assert parse_hand("1234567 +8 tsumo first dealer").has("dealer")


@pytest.mark.parametrize("text,token", [
    ("1234567 +0", "'+0'"),            # unknown character (10 is T)
    ("123456 7z", "'7z'"),
    ("1234567 +8 hello", "'hello'"),
    ("55555 TT", "'55555'"),           # five of a rank
    ("XX 12345 +X", "'+X'"),           # three jokers
    ("5s5s 12345", "'5s5s'"),          # one suited card twice
    ("5s 123456 +5s", "'+5s'"),
    ("pon:556 1234", "'pon:556'"),     # malformed sets
    ("kan:777 1234", "'kan:777'"),
    ("ankan:XXXX 1234", "'ankan:XXXX'"),
    ("nuki:5 1234567", "'nuki:5'"),
    ("nuki:XXX 1234567", "'nuki:XXX'"),
    ("foo:1 1234567", "'foo:1'"),
    ("Xs123456", "'Xs123456'"),        # a joker with a suit
    ("s1234567", "'s1234567'"),
    ("1234567 +89", "'+89'"),
    ("1234567 +8 +9", "'+9'"),
    ("1234567 tsumo ron", "'ron'"),
    ("1234567 riichi wriichi", "'wriichi'"),
    ("1234567 dora:12", "'dora:12'"),
])
def test_rejected_with_the_token_named(text, token):
    with pytest.raises(CardError) as exc:
        parse_hand(text)
    msg = str(exc.value)
    assert token in msg and "\n" not in msg
    assert isinstance(exc.value, (ValueError, InputError))


@pytest.mark.parametrize("text", ["12345678", "123456", "pon:555 12345", "pon:555 1234 +5 +6",
                                  "pon:111 pon:222 pon:333 1", "123456 +7 +8", ""])
def test_wrong_sizes_rejected(text):
    with pytest.raises(CardError):
        parse_hand(text)


def test_rank_helpers():
    cnt = rank_counts(parse_cards("1 1 T X X"))
    assert cnt.dtype.name == "int64" and cnt.shape == (14,) and cnt[0] == 2 and cnt[13] == 2
    assert format_rank_mask((1 << 0) | (1 << 9) | (1 << 13)) == "1TX"


@given(st.lists(st.tuples(st.integers(0, N_CARDS - 1), st.booleans()), max_size=20,
                unique_by=lambda t: t[0]))
def test_format_parse_round_trip(cards):
    """format_cards then parse_cards gives the same ranks, and the same suit for suited cards."""
    ids = [c for c, _ in cards]
    suitless = {c for c, s in cards if not s}
    text = format_cards(ids, suitless)
    back = parse_cards(text)
    assert sorted(rank_of(c) for c in back) == sorted(rank_of(c) for c in ids)
    suited_in = sorted(c for c in ids if c not in suitless and c < FIRST_JOKER)
    assert sorted(c for c in back if c in set(suited_in)) == suited_in
    one_token = format_cards(ids, suitless, sep="")
    assert sorted(rank_of(c) for c in (parse_cards(one_token) if one_token else [])) == \
        sorted(rank_of(c) for c in ids)
