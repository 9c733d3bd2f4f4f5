package io.eeoutbox.sample.setup;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code bin/jboss-cli.sh --file=...} on a WildFly install, as a user runs it; its output kept in a log file. */
record Cli(int exitCode, String output) {

    private static final long PATIENCE_MINUTES = 5;

    static Cli run(Path home, Path script, Path log, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/jboss-cli.sh").toString(), "--file=" + script));
        command.addAll(List.of(options));
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("JBOSS_HOME", home.toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(PATIENCE_MINUTES, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IllegalStateException(script.getFileName() + " did not finish within " + PATIENCE_MINUTES
                    + " minutes; see " + log);
        }
        return new Cli(p.exitValue(), Files.readString(log, StandardCharsets.ISO_8859_1));
    }
}
