"""The reporting service."""
