package io.eeoutbox.codegen;

import java.io.File;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
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
public class GenerateMojo extends AbstractMojo {

    /** The folder holding {@code schema/V*.sql} and {@code queries/<table>.sql}. */
    @Parameter(property = "outbox.codegen.sqlDirectory", required = true)
    private File sqlDirectory;

    /** The package of the generated classes. */
    @Parameter(property = "outbox.codegen.packageName", required = true)
    private String packageName;

    /** Where the sources go; added to the project's compile source roots. */
    @Parameter(property = "outbox.codegen.outputDirectory",
            defaultValue = "${project.build.directory}/generated-sources/ee-outbox", required = true)
    private File outputDirectory;

    /** Skips generation (the output directory is still added as a source root). */
    @Parameter(property = "outbox.codegen.skip", defaultValue = "false")
    private boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (!skip) {
            if (!sqlDirectory.isDirectory()) {
                throw new MojoExecutionException("sqlDirectory " + sqlDirectory + " is not a directory");
            }
            Generator generator;
            try {
                generator = new Generator(packageName);
            } catch (IllegalArgumentException e) {
                throw new MojoExecutionException(e.getMessage(), e);
            }
            Map<String, String> files;
            try {
                files = generator.generate(sqlDirectory.toPath());
            } catch (CodegenException e) {
                for (CodegenException.Problem p : e.problems()) {
                    getLog().error(p.toString());
                }
                throw new MojoFailureException("ee-outbox codegen found " + e.problems().size() + " problem(s) in "
                        + sqlDirectory + ":\n" + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new MojoExecutionException(e.getMessage(), e);
            }
            Generator.WriteResult result = Generator.write(files, outputDirectory.toPath());
            getLog().info("ee-outbox codegen: " + files.size() + " files in " + outputDirectory + " ("
                    + result.written() + " written, " + result.unchanged() + " unchanged, " + result.deleted()
                    + " stale deleted)");
        }
        project.addCompileSourceRoot(outputDirectory.getAbsolutePath());
    }
}
