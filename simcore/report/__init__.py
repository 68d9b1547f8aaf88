"""What a person reads: the HTML and Markdown report with its figures (:mod:`.html`), the
replay pages (:mod:`.replays`) and the saving of a finished study with its report (:mod:`.save`).
"""
