package io.eeoutbox.relay.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the CPU went during a timed run: cores used by this JVM (the relay, the producers, the
 * broker) and by the whole machine (from /proc/stat; on the benchmark machine the rest is mostly
 * PostgreSQL). NaN where the platform does not tell.
 */
final class CpuMeter {

    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final double USER_HZ = 100.0;

    private final long wall0 = System.nanoTime();
    private final long jvm0 = jvmCpuNanos();
    private final long[] machine0 = machineTicks();

    /** Cores used, over the time since this meter was made. */
    record Usage(double jvmCores, double machineCores) {
        double otherCores() {
            return machineCores - jvmCores;
        }
    }

    Usage stop() {
        double wall = (System.nanoTime() - wall0) / 1e9;
        long jvm1 = jvmCpuNanos();
        long[] machine1 = machineTicks();
        double jvm = jvm0 < 0 || jvm1 < 0 ? Double.NaN : (jvm1 - jvm0) / 1e9 / wall;
        double machine = machine0 == null || machine1 == null ? Double.NaN
                : (machine1[0] - machine0[0]) / USER_HZ / wall;
        return new Usage(jvm, machine);
    }

    private static long jvmCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** {busy ticks} of all CPUs: user + nice + system + irq + softirq + steal. */
    private static long[] machineTicks() {
        try {
            String first = Files.readAllLines(PROC_STAT).get(0);
            String[] f = first.trim().split("\\s+");
            long busy = 0;
            int[] busyFields = {1, 2, 3, 6, 7, 8};
            for (int i : busyFields) {
                if (i < f.length) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return new long[] {busy};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
