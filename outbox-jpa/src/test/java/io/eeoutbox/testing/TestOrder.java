package io.eeoutbox.testing;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** A business entity for the tests: the row that must commit or roll back with its event. */
@Entity
@Table(name = "test_orders")
public class TestOrder {

    /** The table, created by tests that use this entity. */
    public static final String DDL = "CREATE TABLE test_orders (id VARCHAR(100) PRIMARY KEY, "
            + "customer_id VARCHAR(100) NOT NULL, total NUMERIC(12,2) NOT NULL)";

    @Id
    private String id;

    @Column(name = "customer_id", nullable = false)
    private String customerId;

    @Column(nullable = false)
    private BigDecimal total;

    protected TestOrder() {
    }

    public TestOrder(String id, String customerId, BigDecimal total) {
        this.id = id;
        this.customerId = customerId;
        this.total = total;
    }

    public String getId() {
        return id;
    }

    public String getCustomerId() {
        return customerId;
    }

    public BigDecimal getTotal() {
        return total;
    }
}
