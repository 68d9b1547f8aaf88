"""Random hand generators for the differential tests, biased towards interesting hands.

Hands are built from random sets and a head (so many are complete), then a card is removed
(tenpai-heavy 3k+1 hands) or swapped for a random card (near misses). Some draws favour momo cards
(wild runs) and pictures (heads and picture sets).
"""

from __future__ import annotations

import numpy as np

from simcore.momojan import reference as ref
from simcore.momojan.cards import N_KINDS, N_NUMBER_KINDS
from simcore.momojan.shapes import HandRules, build_heads, build_sets


class HandGenerator:
    def __init__(self, rules: HandRules, seed: int):
        self.rules = rules
        self.rng = np.random.default_rng(seed)
        self.sets = build_sets(rules)[:, :3].astype(int)
        self.heads = build_heads(rules)[:, :2].astype(int)
        self.deck = np.array(ref.deck_counts(rules))
        momo = np.zeros(N_KINDS)
        momo[:9] = 1
        pics = np.zeros(N_KINDS)
        pics[N_NUMBER_KINDS:] = 1
        self.weights = {
            "plain": self.deck / self.deck.sum(),
            "momo": (self.deck + 6 * momo) / (self.deck + 6 * momo).sum(),
            "pictures": (self.deck * (1 + 3 * pics)) / (self.deck * (1 + 3 * pics)).sum(),
        }

    def _draw_group(self, rows, left, bias):
        """A random catalogue row whose cards are still in ``left``; favours the bias."""
        for _ in range(50):
            row = rows[self.rng.integers(len(rows))]
            if bias == "momo" and not any(k < 9 for k in row) and self.rng.random() < 0.6:
                continue
            if bias == "pictures" and all(k < N_NUMBER_KINDS for k in row) and self.rng.random() < 0.6:
                continue
            need = np.bincount(row, minlength=N_KINDS)
            if np.all(need <= left):
                return list(row)
        return None

    def _random_cards(self, n, left, bias):
        out = []
        for _ in range(n):
            w = self.weights[bias] * (left > 0)
            k = int(self.rng.choice(N_KINDS, p=w / w.sum()))
            left[k] -= 1
            out.append(k)
        return out

    def hand(self, n_concealed: int):
        """(concealed, revealed_cards, n_revealed) with ``n_concealed`` concealed cards."""
        bias = self.rng.choice(["plain", "momo", "pictures"])
        left = self.deck.copy()
        n_rev = int(self.rng.integers(0, 4))
        revealed = []
        for _ in range(n_rev):
            g = self._draw_group(self.sets, left, bias)
            if g is None:
                break
            for k in g:
                left[k] -= 1
            revealed += g
        n_rev = len(revealed) // 3
        style = self.rng.random()
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
        self.rng.shuffle(cards)
        while len(cards) > n_concealed:
            left[cards.pop()] += 1
        if style > 0.75 and cards:  # swap one card for a random other one
            left[cards.pop()] += 1
            cards += self._random_cards(1, left, bias)
        return sorted(cards), revealed, n_rev
