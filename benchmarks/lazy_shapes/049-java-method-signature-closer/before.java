package com.example.orders;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.orders.model.Order;
import com.example.orders.model.OrderLine;
import com.example.orders.model.OrderStatus;
import com.example.orders.repository.OrderRepository;

@Service
public class OrderService {

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);
    private static final BigDecimal FREE_SHIPPING_THRESHOLD = new BigDecimal("50.00");
    private static final BigDecimal SHIPPING_FEE = new BigDecimal("4.99");

    private final OrderRepository repository;
    private final Clock clock;

    public OrderService(OrderRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    public Optional<Order> findById(long id) {
        return repository.findById(id);
    }

    public List<Order> findByCustomer(long customerId) {
        return repository.findByCustomerIdOrderByCreatedAtDesc(customerId);
    }

    @Transactional
    public Order place(long customerId, List<OrderLine> lines) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("An order needs at least one line");
        }
        BigDecimal subtotal = subtotal(lines);
        Order order = new Order();
        order.setCustomerId(customerId);
        order.setLines(lines);
        order.setSubtotal(subtotal);
        order.setShipping(shippingFor(subtotal));
        order.setStatus(OrderStatus.PENDING);
        order.setCreatedAt(Instant.now(clock));
        Order saved = repository.save(order);
        log.info("Placed order {} for customer {}", saved.getId(), customerId);
        return saved;
    }

    @Transactional
    public Order cancel(long orderId) {
        Order order = repository.findById(orderId)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
        if (order.getStatus() == OrderStatus.SHIPPED) {
            throw new IllegalStateException("Order " + orderId + " has already shipped");
        }
        order.setStatus(OrderStatus.CANCELLED);
        return repository.save(order);
    }

    @Transactional
    public Order markShipped(long orderId, String trackingNumber) {
        Order order = repository.findById(orderId)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
        order.setStatus(OrderStatus.SHIPPED);
        order.setTrackingNumber(trackingNumber);
        order.setShippedAt(Instant.now(clock));
        return repository.save(order);
    }

    BigDecimal subtotal(List<OrderLine> lines) {
        return lines.stream()
                .map(line -> line.getUnitPrice().multiply(BigDecimal.valueOf(line.getQuantity())))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    BigDecimal shippingFor(BigDecimal subtotal) {
        if (subtotal.compareTo(FREE_SHIPPING_THRESHOLD) >= 0) {
            return BigDecimal.ZERO;
        }
        return SHIPPING_FEE;
    }

    public static class OrderNotFoundException extends RuntimeException {
        public OrderNotFoundException(long orderId) {
            super("No order with id " + orderId);
        }
    }
}
