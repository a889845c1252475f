"""The test double of Discord and what runs on it, apart from the application code: the loopback
fake Discord (:mod:`.fake_discord`), the payload limits it enforces (:mod:`.fake_limits`) and the
terminal playground (:mod:`.playground`, ``spielleiter play``). ``spielleiter run`` never imports
this package (a test checks it)."""
