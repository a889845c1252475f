"""The web companion: what Discord is bad at (filling a sheet, reading a log) in a browser, on
the bot's own store, opened from the bot with a one-time link (``/web``)."""
