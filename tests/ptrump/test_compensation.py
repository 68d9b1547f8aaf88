"""P-style's compensation variant (issue 29; tagged [V]): a starting bonus by place in the
first dealing order."""

import numpy as np


def test_p_style_start_bonus_by_dealing_order_changes_who_wins():
    """P-style's match.start_bonus: a head start for the first dealer (or the seat after it)
    shows in who wins, whichever seat deals first (first_dealer: random)."""
    from simcore.family import registry as families
    from simcore.ptrump.engine import GF_FIRST_DEALER as FD, GF_WINNERS
    fam, sc = families.load("ptrump_3p")

    def first_dealer_wins(**bonus):
        data = sc.to_dict()
        data["match"]["start_bonus"].update(bonus)
        g = fam.SIMULATOR(fam.SCENARIOS.from_dict(data, name="b")).play(np.arange(300), 5).games
        return np.mean((g[:, GF_WINNERS] >> g[:, FD]) & 1)

    base = first_dealer_wins()
    assert first_dealer_wins(first_dealer=20) > base + 0.2
    assert first_dealer_wins(second=20) < base - 0.1
