class PaymentService:
    # ... existing code ...

    def capture(self, charge: Charge) -> Charge:
        # ... existing code ...
        charge.status = ChargeStatus.CAPTURED
        charge.captured_at = utcnow()
        self.session.commit()
        return charge

    # ... existing code ...
