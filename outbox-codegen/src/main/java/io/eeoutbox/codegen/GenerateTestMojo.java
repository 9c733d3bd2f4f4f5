package io.eeoutbox.codegen;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Generates Java for tests from the SQL directory's {@code test-queries/} (the statements only tests and the
 * benchmark run, in the same sqlc format) into {@code testOutputDirectory}, and adds that directory as a test
 * source root. The classes go into the package of goal {@code generate}'s, whose {@code SqlValues} and registry
 * records they use; their type names carry {@code Testing} ({@code OutboxEventTestingJdbc}).
 */
@Mojo(name = "generate-test", defaultPhase = LifecyclePhase.GENERATE_TEST_SOURCES, threadSafe = true)
public class GenerateTestMojo extends CodegenMojo {

    /** Where the sources go; added to the project's test compile source roots. */
    @Parameter(property = "outbox.codegen.testOutputDirectory",
            defaultValue = "${project.build.directory}/generated-test-sources/ee-outbox", required = true)
    private File testOutputDirectory;

    @Override
    File outputDirectory() {
        return testOutputDirectory;
    }

    @Override
    Generator generator(String packageName) {
        return Generator.forTests(packageName);
    }

    @Override
    void addSourceRoot(MavenProject project, String directory) {
        project.addTestCompileSourceRoot(directory);
    }
}
