"""Spielleiter: the Discord application (start-up, settings, client, storage, rendering, i18n)."""
