# ...
@dataclass
class RetryPolicy:
    attempts: int = 4
    backoff: float = 0.25
    retry_on: tuple[type[Exception], ...] = field(default=(PaymentError,))
# ... rest of the file unchanged ...
