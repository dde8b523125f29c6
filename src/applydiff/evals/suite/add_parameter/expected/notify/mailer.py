"""Outgoing mail, with a simple retry loop for a flaky relay."""

from __future__ import annotations

import logging
import smtplib
import time
from email.message import EmailMessage

log = logging.getLogger(__name__)

SMTP_HOST = "localhost"
SENDER = "noreply@example.com"
RETRY_DELAY_SECONDS = 2.0


def build_message(to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = SENDER
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


def send_email(to: str, subject: str, body: str, attempts: int = 3) -> bool:
    """Send one message; True once the relay accepted it."""
    msg = build_message(to, subject, body)
    for attempt in range(1, attempts + 1):
        try:
            with smtplib.SMTP(SMTP_HOST) as server:
                server.send_message(msg)
            return True
        except OSError as exc:
            log.warning("sending to %s failed (attempt %d): %s", to, attempt, exc)
            time.sleep(RETRY_DELAY_SECONDS)
    return False
