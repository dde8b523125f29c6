import com.example.orders.shipping.ShippingRates;
// ... existing code ...

    private final OrderRepository repository;
    private final Clock clock;
    private final ShippingRates shippingRates;

    public OrderService(OrderRepository repository, Clock clock, ShippingRates shippingRates) {
        this.repository = repository;
        this.clock = clock;
        this.shippingRates = shippingRates;
    }

// ... existing code ...

    BigDecimal shippingFor(BigDecimal subtotal) {
        if (subtotal.compareTo(FREE_SHIPPING_THRESHOLD) >= 0) {
            return BigDecimal.ZERO;
        }
        return shippingRates.standardFee();
    }

// ... existing code ...
