"""Random hand generators for the differential tests, biased towards interesting hands.

Hands are built from random sets and a head (so many are complete), then a card is removed
(tenpai-heavy 3k+1 hands) or swapped for a random card (near misses). Some draws favour momo cards
(wild runs) and pictures (heads and picture sets).
"""

from __future__ import annotations

import random

import numpy as np

from simcore.momojan import reference as ref
from simcore.momojan.cards import N_KINDS, N_NUMBER_KINDS
from simcore.momojan.shapes import HandRules, build_heads, build_sets

KINDS = range(N_KINDS)


class HandGenerator:
    """Plain Python lists and :mod:`random` inside (a numpy call per card costs more than the
    reference's check of the hand); ``rng`` is a numpy generator for the callers' own draws."""

    def __init__(self, rules: HandRules, seed: int):
        self.rules = rules
        self.rng = np.random.default_rng(seed)
        self._r = random.Random(int(self.rng.integers(2**63)))
        self.sets = [tuple(int(k) for k in row) for row in build_sets(rules)[:, :3]]
        self.heads = [tuple(int(k) for k in row) for row in build_heads(rules)[:, :2]]
        self.deck = [int(n) for n in ref.deck_counts(rules)]
        momo = [1 if k < 9 else 0 for k in KINDS]
        pics = [1 if k >= N_NUMBER_KINDS else 0 for k in KINDS]
        self.weights = {
            "plain": [float(n) for n in self.deck],
            "momo": [n + 6.0 * m for n, m in zip(self.deck, momo)],
            "pictures": [n * (1.0 + 3 * p) for n, p in zip(self.deck, pics)],
        }

    def _draw_group(self, rows, left, bias):
        """A random catalogue row whose cards are still in ``left``; favours the bias."""
        r = self._r
        for _ in range(50):
            row = rows[r.randrange(len(rows))]
            if bias == "momo" and not any(k < 9 for k in row) and r.random() < 0.6:
                continue
            if bias == "pictures" and all(k < N_NUMBER_KINDS for k in row) and r.random() < 0.6:
                continue
            if all(left[k] >= row.count(k) for k in row):
                return list(row)
        return None

    def _random_cards(self, n, left, bias):
        weights = self.weights[bias]
        out = []
        for _ in range(n):
            k = self._r.choices(KINDS, [w if c > 0 else 0.0 for w, c in zip(weights, left)])[0]
            left[k] -= 1
            out.append(k)
        return out

    def hand(self, n_concealed: int):
        """(concealed, revealed_cards, n_revealed) with ``n_concealed`` concealed cards."""
        r = self._r
        bias = r.choice(["plain", "momo", "pictures"])
        left = list(self.deck)
        n_rev = r.randrange(4)
        revealed = []
        for _ in range(n_rev):
            g = self._draw_group(self.sets, left, bias)
            if g is None:
                break
            for k in g:
                left[k] -= 1
            revealed += g
        n_rev = len(revealed) // 3
        style = r.random()
        if style < 0.2:
            return self._random_cards(n_concealed, left, bias), revealed, n_rev
        # Build a complete 3k+2 shape, then trim or perturb to the requested size.
        target = n_concealed + (1 if n_concealed % 3 == 1 else 0)
        cards = []
        head = self._draw_group(self.heads, left, bias)
        if head:
            for k in head:
                left[k] -= 1
            cards += head
        while len(cards) + 3 <= target:
            g = self._draw_group(self.sets, left, bias)
            if g is None:
                break
            for k in g:
                left[k] -= 1
            cards += g
        cards += self._random_cards(max(target - len(cards), 0), left, bias)
        r.shuffle(cards)
        while len(cards) > n_concealed:
            left[cards.pop()] += 1
        if style > 0.75 and cards:  # swap one card for a random other one
            left[cards.pop()] += 1
            cards += self._random_cards(1, left, bias)
        return sorted(cards), revealed, n_rev
