"""Conversions between identifier styles."""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def camel_to_snake(name: str) -> str:
    return _BOUNDARY.sub("_", name).lower()


def snake_to_title(name: str) -> str:
    return " ".join(part.capitalize() for part in name.split("_") if part)


def kebab_to_snake(name: str) -> str:
    return name.replace("-", "_")
