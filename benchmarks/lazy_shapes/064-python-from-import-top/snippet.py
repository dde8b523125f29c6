from app.notifications import notify_failed_charge

# ... existing code ...
            logger.warning("charge for %s failed: %s", customer_id, exc)
            notify_failed_charge(charge)
        self.session.commit()
# ... existing code ...
