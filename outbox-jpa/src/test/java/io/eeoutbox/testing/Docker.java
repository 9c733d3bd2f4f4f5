package io.eeoutbox.testing;

import org.testcontainers.DockerClientFactory;

/** Whether tests may use Testcontainers: a Docker engine answers, and {@code -Doutbox.test.testcontainers=false} is not set. */
public final class Docker {

    private Docker() {
    }

    /**
     * True when a Docker engine answers (asked quickly, once per call); otherwise prints one line saying which
     * container is skipped and what runs instead, and returns false.
     */
    public static boolean answers(String container, String instead) {
        if ("false".equalsIgnoreCase(System.getProperty("outbox.test.testcontainers"))) {
            return false;
        }
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            docker = false;
        }
        if (!docker) {
            System.out.println("[ee-outbox tests] no Docker engine answers: Testcontainers' " + container
                    + " skipped, using " + instead);
        }
        return docker;
    }
}
