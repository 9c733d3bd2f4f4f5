package io.eeoutbox.relay.drain;

import io.eeoutbox.relay.complete.CarriedBatch;

/**
 * The result of one batch. {@code full} when its claim stopped at the row or byte limit (more rows may be
 * due); {@code published} counts rows the broker took, {@code released} counts rows given back unpublished (held back for order, or not handed to the
 * publisher); {@code end} says why the drain should stop after it, if it should; {@code carry} is set when
 * the batch's completion is left to the next claim.
 */
record BatchOutcome(int claimed, boolean full, int published, int released, End end, CarriedBatch carry) {

    static final BatchOutcome EMPTY = new BatchOutcome(0, false, 0, 0, End.NONE, null);

    /** Why a drain stops after this batch even when it was full. */
    enum End {
        /** Nothing stops the drain (it still stops when the batch was not full). */
        NONE,
        /** Rows were released because the relay is stopping or the lease would run out. */
        CUT_SHORT,
        /** Nothing was published because the broker could not be reached: the next batch would fail the same way. */
        BROKER_UNAVAILABLE
    }

    boolean cutShort() {
        return end == End.CUT_SHORT;
    }

    boolean brokerUnavailable() {
        return end == End.BROKER_UNAVAILABLE;
    }
}
