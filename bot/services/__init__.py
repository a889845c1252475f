"""The services beside the game service (``bot.games``): what the cogs call between parsing
and replying, apart from Discord — W6 campaigns, characters and their log
(``campaigns``), saved rolls and the characters a roll reads (``dice``), Telperinquár decks
and a server's cards (``decks``). The W6 sheets' writes are ``bot.sheets``, a W6 combat's
``bot.combat``. A cog imports neither the store nor engine internals
(``tests/unit/test_layers.py``)."""
