package io.eeoutbox.sample.domain.order;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** An order's life: NEW, then PAID, SHIPPED and DELIVERED; NEW and PAID orders can be CANCELLED. */
public enum OrderStatus {
    NEW, PAID, SHIPPED, DELIVERED, CANCELLED;

    /** The statuses this one may change to; empty for a final status. */
    public Set<OrderStatus> next() {
        return switch (this) {
            case NEW -> EnumSet.of(PAID, CANCELLED);
            case PAID -> EnumSet.of(SHIPPED, CANCELLED);
            case SHIPPED -> EnumSet.of(DELIVERED);
            case DELIVERED, CANCELLED -> EnumSet.noneOf(OrderStatus.class);
        };
    }

    /**
     * The status named {@code name} (case-insensitive).
     *
     * @throws InvalidOrderException naming {@code field} when there is no such status
     */
    public static OrderStatus parse(String field, String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidOrderException(field, "is required; one of " + names());
        }
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidOrderException(field, "must be one of " + names() + ", not '" + name + "'");
        }
    }

    private static String names() {
        return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
    }
}
