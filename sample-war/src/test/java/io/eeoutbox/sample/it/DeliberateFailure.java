package io.eeoutbox.sample.it;

import jakarta.ejb.ApplicationException;
import java.util.UUID;

/** Thrown on purpose after the order and its event were written: the container rolls both back. */
@ApplicationException(rollback = true)
public class DeliberateFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final UUID orderId;

    public DeliberateFailure(UUID orderId) {
        super("failing on purpose after writing order " + orderId + " and its event");
        this.orderId = orderId;
    }

    public UUID orderId() {
        return orderId;
    }
}
