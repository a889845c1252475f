"""The Discord side every game shares: a game cog composes a :class:`~bot.play.table.GameTable`
with its :class:`~bot.play.spec.GameSpec` (``bot.play.spec``: what a game declares;
``bot.play.table``: the life cycle, in layers ``table_*``; ``bot.play.specs``: each game's
spec; ``bot.play.ui``: components and click paths; ``bot.play.commands``: the commands every
game has)."""
