"""Alerts sent to people when a scheduled job fails or runs late."""

from __future__ import annotations

from .mailer import send_email

ONCALL = "oncall@example.com"


def job_failed(job: str, error: str, owner: str) -> bool:
    subject = f"[failed] {job}"
    body = f"The job {job} failed:\n\n{error}\n"
    ok = send_email(owner, subject, body)
    if not ok:
        ok = send_email(ONCALL, subject, body)
    return ok


def job_late(job: str, minutes: int, owner: str) -> bool:
    return send_email(owner, f"[late] {job}", f"{job} is {minutes} minutes late.\n")


def weekly_summary(owner: str, lines: list[str]) -> bool:
    body = "\n".join(lines) + "\n"
    return send_email(to=owner, subject="Weekly job summary", body=body)
