    # ... earlier methods unchanged ...
                if not retryable or attempt == self.retry.attempts:
                    raise
                # Add logging before each retry
                logger.info("retrying payment call (attempt %d): %s", attempt, exc)
                time.sleep(self.retry.delay(attempt))
        raise AssertionError("unreachable")
