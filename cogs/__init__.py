"""One Cog per game or tool; thin: parse the interaction, call an engine, store, render, reply."""
