package io.eeoutbox.sample.application.order;

import jakarta.ejb.ApplicationException;

/** No order has this id. */
@ApplicationException(rollback = true)
public class OrderNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OrderNotFoundException(String id) {
        super("order " + id + " not found");
    }
}
