    // ... existing code ...

    /**
     * Orders of a customer that are still pending, newest first.
     */
    public List<Order> findPendingByCustomer(long customerId) {
        return findByCustomer(customerId).stream()
                .filter(order -> order.getStatus() == OrderStatus.PENDING)
                .toList();
    }

    @Transactional
    public Order place(long customerId, List<OrderLine> lines) {
    // ... existing code ...
