"""Notifications: mail sending and the alerts built on it."""
