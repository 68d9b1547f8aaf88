"""What a human seat sees at a MOMOJAN decision (``momojan-sim play``): the table from the seat's
observation, as the replay writes cards (compact notation, then the pictures), and the legal
actions with the cards they move. Only what the seat may see: its hand, both players' revealed
sets and discards, the dora indicator, the scores, the pot and the stock."""

from __future__ import annotations

from .actions import (
    CALL, DISCARD, DISCARD_RIICHI, KAI, KAN_CLOSED, OBS_DEALER, OBS_DORA_INDICATOR, OBS_DRAWN,
    OBS_HAND, OBS_LAST_DISCARD, OBS_OPP_DISCARDS, OBS_OPP_HAND_SIZE, OBS_OPP_REVEALED,
    OBS_OPP_RIICHI, OBS_OPP_SCORE, OBS_OWN_DISCARDS, OBS_OWN_REVEALED, OBS_OWN_RIICHI,
    OBS_OWN_SCORE, OBS_PHASE, OBS_POT, OBS_STOCK, OBS_TURN, PHASE_NAMES, TSUMO, action_name,
)
from .cards import card_emoji, card_str, format_cards, kinds_from_kind_set, kinds_from_mask


def _cards(kinds) -> str:
    if not kinds:
        return "-"
    return f"{format_cards(kinds)}  {' '.join(card_emoji(k) for k in sorted(kinds))}"


def _label(a: int, rows) -> str:
    if KAI <= a < CALL:
        return f"kai {_cards([int(k) for k in rows[a - KAI] if k >= 0])}"
    if CALL <= a < KAN_CLOSED:
        return f"call {_cards([int(k) for k in rows[a - CALL] if k >= 0])}"
    if DISCARD <= a < TSUMO:
        k = a - (DISCARD_RIICHI if a >= DISCARD_RIICHI else DISCARD)
        return action_name(a).replace(card_str(k), f"{card_str(k)} {card_emoji(k)}")
    return action_name(a)


def seat_view(sim, seat: int, obs, mask, events=None):
    """(lines, [(action, label)]) of the decision in ``obs`` / ``mask``."""
    o = [int(x) for x in obs]
    you = "you (dealer)" if o[OBS_DEALER] == seat else "you"
    bot = "bot (dealer)" if o[OBS_DEALER] != seat else "bot"
    lines = [
        f"turn {o[OBS_TURN]} · stock {o[OBS_STOCK]} · pot {o[OBS_POT]} · dora indicator "
        f"{_cards([o[OBS_DORA_INDICATOR]])} · {PHASE_NAMES[o[OBS_PHASE]].replace('_', ' ')}",
        f"scores: {you} {o[OBS_OWN_SCORE]}, {bot} {o[OBS_OPP_SCORE]}",
        f"{bot}: {o[OBS_OPP_HAND_SIZE]} cards in hand{' · RIICHI' if o[OBS_OPP_RIICHI] else ''}"
        f" · revealed {_cards(kinds_from_mask(o[OBS_OPP_REVEALED] & (2 ** 64 - 1)))}",
        f"   discarded {_cards(kinds_from_kind_set(o[OBS_OPP_DISCARDS]))}",
        f"{you}{' · RIICHI' if o[OBS_OWN_RIICHI] else ''} · revealed "
        f"{_cards(kinds_from_mask(o[OBS_OWN_REVEALED] & (2 ** 64 - 1)))}",
        f"   discarded {_cards(kinds_from_kind_set(o[OBS_OWN_DISCARDS]))}",
        f"   hand {_cards(kinds_from_mask(o[OBS_HAND] & (2 ** 64 - 1)))}",
    ]
    if o[OBS_LAST_DISCARD] >= 0:
        lines.append(f"   on offer: the bot's discard {_cards([o[OBS_LAST_DISCARD]])}")
    if o[OBS_DRAWN] >= 0:
        lines.append(f"   drawn {_cards([o[OBS_DRAWN]])}")
    rows = sim.ET.rows
    return lines, [(int(a), _label(int(a), rows)) for a in mask.nonzero()[0]]
