package io.eeoutbox.sample.application;

import jakarta.ejb.ApplicationException;

/** Thrown on purpose by {@link ProbeService#recordThenFail}: the container rolls the transaction back. */
@ApplicationException(rollback = true)
public class ProbeFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProbeFailure(String message) {
        super(message);
    }
}
