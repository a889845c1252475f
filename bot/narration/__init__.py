"""Each game's words: its events told as lines and the texts of its board from a view, in the
reader's language (one module per game; the game's table plug-in, its ``GameSpec``, is in
:mod:`bot.play.specs`), the W6 words (:mod:`.w6`, :mod:`.combat_text`) and the dice cog's
texts and images (:mod:`.dice`). Felsenfeuer's module still holds its spec until it moves to
:mod:`bot.play.specs` as well; Telperinquár's still reads and writes decks (a deck service is
to come)."""
