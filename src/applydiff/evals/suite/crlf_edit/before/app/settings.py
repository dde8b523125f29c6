"""Settings for the reporting service."""

import os

DEBUG = os.environ.get("REPORTS_DEBUG", "") == "1"
ALLOWED_HOSTS = ["reports.example.com", "reports.internal"]

DATABASE = {
    "host": os.environ.get("DB_HOST", "localhost"),
    "port": 5432,
    "name": "reports",
    "user": os.environ.get("DB_USER", "reports"),
}

CACHE_TTL_SECONDS = 300
LOG_LEVEL = "DEBUG" if DEBUG else "INFO"


def database_url() -> str:
    db = DATABASE
    return f"postgresql://{db['user']}@{db['host']}:{db['port']}/{db['name']}"
