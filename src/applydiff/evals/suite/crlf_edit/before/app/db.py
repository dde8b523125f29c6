"""Database connections for the reporting service."""

from __future__ import annotations

from typing import Any

from . import settings


def connect_kwargs() -> dict[str, Any]:
    """Keyword arguments for psycopg.connect(), from the settings."""
    db = settings.DATABASE
    return {key: value for key, value in db.items() if value not in (None, "")}


def describe() -> str:
    db = settings.DATABASE
    return f"{db['name']} on {db['host']}:{db['port']} as {db['user']}"
