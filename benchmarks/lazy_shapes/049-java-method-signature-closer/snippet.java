    // ... existing code ...

    @Transactional
    public Order cancel(long orderId, String reason) {
        Order order = repository.findById(orderId)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
        if (order.getStatus() == OrderStatus.SHIPPED) {
            throw new IllegalStateException("Order " + orderId + " has already shipped");
        }
        order.setStatus(OrderStatus.CANCELLED);
        order.setCancelReason(reason);
        log.info("Cancelled order {}: {}", orderId, reason);
        return repository.save(order);
    }

    // ... existing code ...
