"""Emoji mahjong (spec emoji.md): four players who draw and discard at the same time.

Tiles and notation (:mod:`.tiles`), hand analysis (:mod:`.hand`), scoring (:mod:`.scoring`,
:mod:`.score_text`, :mod:`.calibration`) and their pure-Python reference (:mod:`.reference`); the
engine (:mod:`.engine`, :mod:`.layout`, :mod:`.rules_array`, :mod:`.simulate`), the scenario files
(:mod:`.scenario`, :mod:`.schema`), metrics, the replay (:mod:`.report`) and the family
(:mod:`.family`); its bots are in ``policies/emoji/``.
"""
