"""Every limit on data a user can grow, in one place (each refusal message names its number).

The engine-side limits (sheet fields, fighters per combat, undo depth) live with their rules
in ``engines/``; they are re-exported here so that this module lists them all.
"""

from __future__ import annotations

from engines.core.jsontext import MAX_DEPTH as MAX_JSON_DEPTH
from engines.w6.sheet_io import MAX_ENTRIES as MAX_SHEET_ENTRIES
from engines.w6.sheet_io import MAX_SHEET_BYTES
from engines.w6.state import MAX_FIGHTERS, MAX_UNDO

# W6 campaigns
MAX_CHARACTERS_PER_PLAYER = 10  # a player's characters in one campaign
MAX_CHARACTERS_PER_CAMPAIGN = 200  # player characters and NPCs together
MAX_LOG_ENTRIES_IMPORT = 20_000  # log entries a campaign import may bring
MAX_IMPORT_BYTES = 2_000_000  # a campaign export file
DEFER_IMPORT_BYTES = 100_000  # a campaign file larger than this is answered after a defer

# saved rolls
MAX_SAVED_ROLLS = 25  # per user and per campaign: every one fits in an autocomplete list

# a server's own content files (a spell file, a card file, a scenario), checked before storing
MAX_CONTENT_BYTES = 200_000  # one uploaded file
MAX_CONTENT_FILES = 25  # named files of one kind per server (scenarios): one autocomplete list

__all__ = [
    "DEFER_IMPORT_BYTES",
    "MAX_CHARACTERS_PER_CAMPAIGN",
    "MAX_CHARACTERS_PER_PLAYER",
    "MAX_CONTENT_BYTES",
    "MAX_CONTENT_FILES",
    "MAX_FIGHTERS",
    "MAX_IMPORT_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_LOG_ENTRIES_IMPORT",
    "MAX_SAVED_ROLLS",
    "MAX_SHEET_BYTES",
    "MAX_SHEET_ENTRIES",
    "MAX_UNDO",
]
