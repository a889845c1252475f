"""Game rules: pure, deterministic Python. No discord, aiosqlite or Pillow imports here."""
