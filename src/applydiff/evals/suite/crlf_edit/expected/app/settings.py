"""Settings for the reporting service."""

import os

DEBUG = os.environ.get("REPORTS_DEBUG", "") == "1"
ALLOWED_HOSTS = ["reports.example.com", "reports.internal"]

DATABASE = {
    "host": os.environ.get("DB_HOST", "localhost"),
    "port": int(os.environ.get("DB_PORT", "5432")),
    "name": "reports",
    "user": os.environ.get("DB_USER", "reports"),
    "connect_timeout": 10,
}

CACHE_TTL_SECONDS = 900
LOG_LEVEL = "DEBUG" if DEBUG else "INFO"


def database_url() -> str:
    db = DATABASE
    return f"postgresql://{db['user']}@{db['host']}:{db['port']}/{db['name']}"
