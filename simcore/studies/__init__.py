"""The questions a designer asks, as library functions that return data and print nothing:
run (:mod:`.study`), compare (:mod:`.compare`, :mod:`.compare_saved`, :mod:`.pairings`), sweep,
plan, solve (:mod:`.solve`, whose method is :mod:`.solve_design`), tune, tournament and the
bots' responses; and the result directories they write (:mod:`.results`, :mod:`.directory`).

Above the family kit (:mod:`simcore.family`), below the reports and the CLI.
"""
