public final class Money implements Comparable<Money> {

    // ... existing fields and methods ...

    public boolean isNegative() {
        return amount.signum() < 0;
    }

    public Money negate() {
        return new Money(amount.negate(), currency);
    }

    // ... existing code ...
}
