package io.eeoutbox.sample.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.Objects;
import java.util.UUID;

/**
 * One row written by the probe: through REST and the EJB, or by the message-driven bean. The id is
 * assigned here, so a caller knows it before the transaction commits.
 */
@Entity
@Table(name = "probe_items")
public class ProbeItem {

    /** Where a row came from. */
    public enum Source { REST, JMS }

    @Id
    private UUID id;

    @Column(name = "label", nullable = false, length = 200)
    private String label;

    @Column(name = "source", nullable = false, length = 20)
    private String source;

    protected ProbeItem() {
        // for JPA
    }

    public ProbeItem(UUID id, String label, Source source) {
        this.id = Objects.requireNonNull(id, "id");
        this.label = Objects.requireNonNull(label, "label");
        this.source = source.name();
    }

    public UUID getId() {
        return id;
    }

    public String getLabel() {
        return label;
    }

    public Source getSource() {
        return Source.valueOf(source);
    }
}
