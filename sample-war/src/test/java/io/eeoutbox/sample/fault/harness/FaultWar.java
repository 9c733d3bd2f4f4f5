package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The suite's copy of the sample WAR: the sample's WAR unchanged, plus test-only hook classes in
 * {@code WEB-INF/classes} and, when a hook is an EJB interceptor, a {@code WEB-INF/ejb-jar.xml} that
 * binds it as a default interceptor. The sample's classes and descriptors are not modified.
 */
public final class FaultWar {

    private FaultWar() {
    }

    /**
     * Writes {@code target}: {@code sampleWar} plus {@code hooks} (with their nested classes);
     * {@code interceptors} among them are bound to every EJB of the module.
     */
    public static Path build(Path sampleWar, Path target, List<Class<?>> hooks, List<Class<?>> interceptors)
            throws IOException {
        Files.createDirectories(target.getParent());
        try (ZipFile in = new ZipFile(sampleWar.toFile());
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            String existingEjbJar = null;
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.getName().equals("WEB-INF/ejb-jar.xml") && !interceptors.isEmpty()) {
                    try (InputStream s = in.getInputStream(e)) {
                        existingEjbJar = new String(s.readAllBytes(), StandardCharsets.UTF_8);
                    }
                    continue;
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                if (!e.isDirectory()) {
                    try (InputStream s = in.getInputStream(e)) {
                        s.transferTo(out);
                    }
                }
                out.closeEntry();
            }
            for (Class<?> hook : hooks) {
                for (Path file : classFiles(hook)) {
                    String name = "WEB-INF/classes/" + hook.getPackageName().replace('.', '/') + "/" + file.getFileName();
                    out.putNextEntry(new ZipEntry(name));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            if (!interceptors.isEmpty()) {
                out.putNextEntry(new ZipEntry("WEB-INF/ejb-jar.xml"));
                out.write(ejbJar(existingEjbJar, interceptors).getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return target;
    }

    /** The class file of {@code type} and of its nested classes ({@code Type$Inner.class}). */
    private static List<Path> classFiles(Class<?> type) throws IOException {
        Path file;
        try {
            file = Path.of(type.getResource(type.getSimpleName() + ".class").toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("no class file for " + type.getName(), e);
        }
        List<Path> files = new ArrayList<>();
        try (Stream<Path> siblings = Files.list(file.getParent())) {
            siblings.filter(p -> {
                String n = p.getFileName().toString();
                return n.equals(type.getSimpleName() + ".class") || n.startsWith(type.getSimpleName() + "$");
            }).forEach(files::add);
        }
        return files;
    }

    /** An ejb-jar.xml binding the interceptors to every bean; an existing descriptor is merged. */
    static String ejbJar(String existing, List<Class<?>> interceptors) {
        StringBuilder declared = new StringBuilder();
        StringBuilder bound = new StringBuilder();
        for (Class<?> i : interceptors) {
            declared.append("    <interceptor><interceptor-class>").append(i.getName())
                    .append("</interceptor-class></interceptor>\n");
            bound.append("      <interceptor-class>").append(i.getName()).append("</interceptor-class>\n");
        }
        String interceptorsXml = "  <interceptors>\n" + declared + "  </interceptors>\n";
        String bindingXml = "  <assembly-descriptor>\n    <interceptor-binding>\n      <ejb-name>*</ejb-name>\n"
                + bound + "    </interceptor-binding>\n  </assembly-descriptor>\n";
        if (existing == null || existing.isBlank()) {
            return """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <!-- written by the fault suite: its test-only interceptors on every bean of the sample -->
                    <ejb-jar xmlns="https://jakarta.ee/xml/ns/jakartaee"
                             xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                             xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/ejb-jar_4_0.xsd"
                             version="4.0">
                    """ + interceptorsXml + bindingXml + "</ejb-jar>\n";
        }
        if (java.util.regex.Pattern.compile("<(interceptors|assembly-descriptor)[\\s/>]").matcher(existing).find()) {
            throw new IllegalStateException("the sample's ejb-jar.xml already declares interceptors or an"
                    + " assembly descriptor: FaultWar cannot merge its own yet");
        }
        // schema order: ... enterprise-beans, interceptors, relationships, assembly-descriptor
        int end = existing.lastIndexOf("</ejb-jar>");
        return existing.substring(0, end) + interceptorsXml + bindingXml + existing.substring(end);
    }
}
