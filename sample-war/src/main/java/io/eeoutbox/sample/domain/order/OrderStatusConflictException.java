package io.eeoutbox.sample.domain.order;

import jakarta.ejb.ApplicationException;

/** The order's current status does not allow the requested one (for example DELIVERED to PAID). */
@ApplicationException(rollback = true)
public class OrderStatusConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OrderStatusConflictException(String message) {
        super(message);
    }
}
