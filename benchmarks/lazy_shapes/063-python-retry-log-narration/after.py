"""Payments: charge customers through the configured gateway and record the result."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol

from app.db import Session
from app.models import Charge, ChargeStatus

logger = logging.getLogger(__name__)


class PaymentError(Exception):
    """A charge the gateway refused or could not process."""

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


class Gateway(Protocol):
    def charge(self, customer_id: str, amount: Decimal, currency: str) -> str: ...

    def refund(self, charge_id: str, amount: Decimal | None = None) -> str: ...


@dataclass
class RetryPolicy:
    attempts: int = 3
    backoff: float = 0.5
    retry_on: tuple[type[Exception], ...] = field(default=(PaymentError,))

    def delay(self, attempt: int) -> float:
        return self.backoff * (2 ** (attempt - 1))


class PaymentService:
    """Charges and refunds, recorded in the database."""

    def __init__(self, gateway: Gateway, session: Session, retry: RetryPolicy | None = None):
        self.gateway = gateway
        self.session = session
        self.retry = retry or RetryPolicy()

    def charge(self, customer_id: str, amount: Decimal, currency: str = "USD") -> Charge:
        if amount <= 0:
            raise ValueError(f"amount must be positive, got {amount}")
        charge = Charge(customer_id=customer_id, amount=amount, currency=currency)
        self.session.add(charge)
        try:
            charge.gateway_id = self._with_retry(
                lambda: self.gateway.charge(customer_id, amount, currency)
            )
            charge.status = ChargeStatus.SUCCEEDED
        except PaymentError as exc:
            charge.status = ChargeStatus.FAILED
            charge.failure_reason = str(exc)
            logger.warning("charge for %s failed: %s", customer_id, exc)
        self.session.commit()
        return charge

    def refund(self, charge: Charge, amount: Decimal | None = None) -> Charge:
        if charge.status is not ChargeStatus.SUCCEEDED:
            raise ValueError(f"cannot refund a charge in status {charge.status.value}")
        if amount is not None and amount > charge.amount:
            raise ValueError("refund exceeds the charged amount")
        charge.refund_id = self.gateway.refund(charge.gateway_id, amount)
        charge.status = ChargeStatus.REFUNDED
        self.session.commit()
        return charge

    def _with_retry(self, call):
        for attempt in range(1, self.retry.attempts + 1):
            try:
                return call()
            except self.retry.retry_on as exc:
                retryable = getattr(exc, "retryable", True)
                if not retryable or attempt == self.retry.attempts:
                    raise
                # Add logging before each retry
                logger.info("retrying payment call (attempt %d): %s", attempt, exc)
                time.sleep(self.retry.delay(attempt))
        raise AssertionError("unreachable")
