"""Each table game's plug-in for the shared table (``bot.play.table``): its ``GameSpec``
(``bot.play.spec``) in ``<game>.py`` — board, click labels, private hand, setup choices,
typed words — built on the game's words (``bot.narration.<game>``, pure functions of events
and views) and its drawing (``bot.render.<game>``)."""
