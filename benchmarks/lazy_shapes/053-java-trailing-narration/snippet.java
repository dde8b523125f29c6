    // ... existing code ...
    public Money times(int factor) {
        return new Money(amount.multiply(BigDecimal.valueOf(factor)), currency);
    }

    public Money percent(int percent) {
        return new Money(amount.multiply(BigDecimal.valueOf(percent)).movePointLeft(2), currency);
    }
    // New percent() helper used by the discount code

    // ... existing code ...
