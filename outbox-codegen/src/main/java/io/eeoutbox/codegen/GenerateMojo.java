package io.eeoutbox.codegen;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Generates Java from the SQL directory (its {@code schema/} migrations and sqlc-format
 * {@code queries/}) into {@code outputDirectory}, and adds that directory as a compile source root.
 * A problem in the SQL fails the build with {@code file:line: message}.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class GenerateMojo extends CodegenMojo {

    /** Where the sources go; added to the project's compile source roots. */
    @Parameter(property = "outbox.codegen.outputDirectory",
            defaultValue = "${project.build.directory}/generated-sources/ee-outbox", required = true)
    private File outputDirectory;

    @Override
    File outputDirectory() {
        return outputDirectory;
    }

    @Override
    Generator generator(String packageName) {
        return new Generator(packageName);
    }

    @Override
    void addSourceRoot(MavenProject project, String directory) {
        project.addCompileSourceRoot(directory);
    }
}
