"""Emoji mahjong (spec emoji.md): four players who draw and discard at the same time.

Built so far: tiles and notation (:mod:`.tiles`), hand analysis (:mod:`.hand`), scoring
(:mod:`.scoring`) and their pure-Python reference (:mod:`.reference`). The engine, the bots and
the family's registration with the harness come next (issue 33).
"""
