package io.eeoutbox.relay.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.awt.image.BufferedImage;
import java.io.InputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ConsoleIconTest {

    /** Open Liberty's Admin Center shows a bookmark's icon at 142 by 142 pixels: the icon is a PNG of that size. */
    @Test
    void theIconIsA142PixelSquarePng() throws Exception {
        try (InputStream in = ConsoleIcon.class.getResourceAsStream("web/" + ConsoleIcon.FILE)) {
            assertNotNull(in, "web/" + ConsoleIcon.FILE + " beside the console's page");
            BufferedImage image = ImageIO.read(in);
            assertNotNull(image, "a PNG ImageIO reads");
            assertEquals(142, image.getWidth());
            assertEquals(142, image.getHeight());
        }
    }

    @Test
    void theIconIsServedBesideTheConsolesPathOutsideIt() {
        assertEquals("/outbox-admin-icon.png", ConsoleIcon.path("/outbox-admin/"));
        assertEquals("/ops/console-icon.png", ConsoleIcon.path("/ops/console/"));
    }
}
