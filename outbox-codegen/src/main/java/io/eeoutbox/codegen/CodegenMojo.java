package io.eeoutbox.codegen;

import java.io.File;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What the two goals share: read the SQL directory, generate, write, add the output as a source root. A problem
 * in the SQL fails the build with {@code file:line: message}.
 */
abstract class CodegenMojo extends AbstractMojo {

    /** The folder holding {@code schema/V*.sql}, {@code queries/<table>.sql} and {@code test-queries/<table>.sql}. */
    @Parameter(property = "outbox.codegen.sqlDirectory", required = true)
    private File sqlDirectory;

    /** The package of the generated classes. */
    @Parameter(property = "outbox.codegen.packageName", required = true)
    private String packageName;

    /** Skips generation (the output directory is still added as a source root). */
    @Parameter(property = "outbox.codegen.skip", defaultValue = "false")
    private boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** Where the sources go. */
    abstract File outputDirectory();

    /** The generator of this goal. */
    abstract Generator generator(String packageName);

    /** Adds {@code directory} to the project's main or test source roots. */
    abstract void addSourceRoot(MavenProject project, String directory);

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        File outputDirectory = outputDirectory();
        if (!skip) {
            if (!sqlDirectory.isDirectory()) {
                throw new MojoExecutionException("sqlDirectory " + sqlDirectory + " is not a directory");
            }
            Generator generator;
            try {
                generator = generator(packageName);
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
        addSourceRoot(project, outputDirectory.getAbsolutePath());
    }
}
