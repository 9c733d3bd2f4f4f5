package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.config.ConfigLookups;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Where the relay reads its settings in a server: MicroProfile Config when the server has it (it
 * already covers system properties and environment variables), else system properties, then
 * environment variables. MicroProfile Config is reached by reflection, so the relay also runs on
 * servers without it and this module needs no compile-time dependency on it.
 */
public final class EeConfigLookup {

    private static final Logger LOG = Logger.getLogger(EeConfigLookup.class.getName());
    private static final String PROVIDER = "org.eclipse.microprofile.config.ConfigProvider";
    private static final String CONFIG = "org.eclipse.microprofile.config.Config";

    private EeConfigLookup() {
    }

    public static Function<String, Optional<String>> forApplication(ClassLoader loader) {
        return microProfileConfig(loader).orElseGet(() -> {
            LOG.fine("MicroProfile Config not available: reading system properties, then environment variables");
            return ConfigLookups.systemPropertiesThenEnvironment();
        });
    }

    static Optional<Function<String, Optional<String>>> microProfileConfig(ClassLoader loader) {
        Object config;
        Method getOptionalValue;
        try {
            Class<?> provider = Class.forName(PROVIDER, true, loader);
            Class<?> configType = Class.forName(CONFIG, true, loader);
            config = provider.getMethod("getConfig", ClassLoader.class).invoke(null, loader);
            getOptionalValue = configType.getMethod("getOptionalValue", String.class, Class.class);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warning(() -> "MicroProfile Config is present but could not be used (" + e
                    + "); reading system properties, then environment variables");
            return Optional.empty();
        }
        Object theConfig = config;
        Method method = getOptionalValue;
        return Optional.of(key -> {
            try {
                @SuppressWarnings("unchecked")
                Optional<String> value = (Optional<String>) method.invoke(theConfig, key, String.class);
                return value;
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                throw new IllegalArgumentException("invalid configuration: " + key + " could not be read: " + cause, cause);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
