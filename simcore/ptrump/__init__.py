"""P-style trump mahjong (トランプ麻雀【Ｐ式】): 54 playing cards, 2 or 3 players (spec:
shared/rules/ptrump.md). Everything that knows this game's cards and rules lives here."""
