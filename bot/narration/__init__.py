"""Each game's texts beside its renderer: narration, board texts, click labels (one module per
game, Discord-free; the game's spec for :mod:`bot.play`)."""
