"""Two-player riichi mahjong (spec riichi2p.md): tiles, hand analysis, scoring, the engine and
the family the harness runs."""
