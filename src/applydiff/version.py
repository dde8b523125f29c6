"""applydiff's version (the one in pyproject.toml; tests/test_api.py keeps them equal)."""

__version__ = "0.1.0"
