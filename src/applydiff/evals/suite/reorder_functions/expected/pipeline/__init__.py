"""The nightly sales import."""
