class PaymentService:
    """Charges and refunds, recorded in the database."""

    # ... existing methods ...

    def refund(self, charge: Charge, amount: Decimal | None = None) -> Charge:
        if charge.status is not ChargeStatus.SUCCEEDED:
            raise ValueError(f"cannot refund a charge in status {charge.status.value}")
        if amount is not None and amount > charge.amount:
            raise ValueError("refund exceeds the charged amount")
        charge.refund_id = self.gateway.refund(charge.gateway_id, amount)
        if amount is None or amount == charge.amount:
            charge.status = ChargeStatus.REFUNDED
        else:
            charge.status = ChargeStatus.PARTIALLY_REFUNDED
        charge.refunded_amount = amount or charge.amount
        self.session.commit()
        return charge

    # ... existing methods ...
