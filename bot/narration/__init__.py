"""Each game's texts beside its renderer: narration, board texts, click labels (one module per
game, Discord-free; the game's spec for :mod:`bot.play`), and the dice cog's texts, images and
pools (:mod:`.dice`)."""
