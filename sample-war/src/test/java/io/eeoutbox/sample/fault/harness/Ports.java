package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.function.IntPredicate;

/** Free TCP ports on 127.0.0.1, so the suite runs beside other servers and builds on one machine. */
public final class Ports {

    private Ports() {
    }

    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first value from {@code start}, in steps of {@code step}, that {@code usable} accepts. */
    public static int first(int start, int step, IntPredicate usable) {
        for (int candidate = start, tries = 0; tries < 200; candidate += step, tries++) {
            if (usable.test(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free port found from " + start + " in steps of " + step);
    }

    /** All of {@code ports} free. */
    public static boolean allFree(int... ports) {
        for (int p : ports) {
            if (!isFree(p)) {
                return false;
            }
        }
        return true;
    }
}
