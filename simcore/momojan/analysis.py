"""Hand reports for people: parse a hand string and describe it (the ``waits`` command's data)."""

from __future__ import annotations

from .cards import Hand, NotationError, card_str, parse_hand
from .tables import HandAnalyzer
from .shapes import HandRules, revealed_group_error

MAX_CONCEALED = 8


def parse_hand_for(text: str, rules: HandRules, kan_allowed: bool = True) -> Hand:
    """Parse under ``rules``: picture copies and rank-1 substitution decide what is legal."""

    def check(kind, cards):
        return revealed_group_error(kind, cards, rules.rank1_substitutes, kan_allowed, rules.momo_wild)

    hand = parse_hand(text, rules.picture_copies, check)
    for k in list(hand.concealed) + [k for g in hand.revealed for k in g.cards]:
        if not rules.in_deck(k):
            raise NotationError(f"{card_str(k)} is not in this scenario's deck (in {text.strip()!r})")
    n = len(hand.concealed)
    if n % 3 == 0 or n > MAX_CONCEALED:
        raise NotationError(f"{text.strip()!r}: a concealed hand holds 3k+1 cards between turns or "
                            f"3k+2 after a draw, at most {MAX_CONCEALED}; got {n}")
    return hand


def describe(text: str, analyzer: HandAnalyzer, hand: Hand | None = None) -> dict:
    """``{"input", "concealed", "revealed", "tenpai", "waits", "complete", "shanten"}`` for a hand.

    A 3k+1 hand reports its waits (canonical notation) and is tenpai when it has any; a 3k+2 hand
    reports whether it is complete, with no waits. Pass ``hand`` when ``text`` is already parsed.
    """
    if hand is None:
        hand = parse_hand_for(text, analyzer.rules)
    n = len(hand.concealed)
    waiting = analyzer.waits(hand) if n % 3 == 1 else []
    return {
        "input": text.strip(),
        "concealed": n,
        "revealed": hand.n_revealed,
        "tenpai": bool(waiting),
        "waits": [card_str(k) for k in waiting],
        "complete": analyzer.is_complete(hand) if n % 3 == 2 else False,
        "shanten": analyzer.shanten(hand),
    }
