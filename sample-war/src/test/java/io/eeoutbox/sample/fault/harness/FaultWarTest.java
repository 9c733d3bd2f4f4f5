package io.eeoutbox.sample.fault.harness;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FaultWarTest {

    @Test
    void bindsTheInterceptorsToEveryBean() {
        String xml = FaultWar.ejbJar(null, List.of(String.class));
        assertTrue(xml.contains("<interceptor><interceptor-class>java.lang.String</interceptor-class></interceptor>"), xml);
        assertTrue(xml.contains("<ejb-name>*</ejb-name>"), xml);
        assertTrue(xml.trim().endsWith("</ejb-jar>"), xml);
    }

    @Test
    void mergesIntoTheSamplesOwnDescriptor() {
        String existing = "<ejb-jar version=\"4.0\"><enterprise-beans/></ejb-jar>";
        String xml = FaultWar.ejbJar(existing, List.of(String.class));
        assertTrue(xml.startsWith("<ejb-jar version=\"4.0\"><enterprise-beans/>  <interceptors>"), xml);
        assertTrue(xml.indexOf("<assembly-descriptor>") > xml.indexOf("</interceptors>"), xml);
    }

    @Test
    void refusesADescriptorThatHasInterceptorsAlready() {
        assertThrows(IllegalStateException.class, () -> FaultWar.ejbJar(
                "<ejb-jar><assembly-descriptor/></ejb-jar>", List.of(String.class)));
    }
}
