package io.eeoutbox.ops.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy in the test JVM between a client in the server and the server's messaging engine: while it is
 * {@linkplain #open() open} it accepts connections on {@code listenPort} and copies bytes both ways to
 * {@code targetPort}; {@link #cut()} closes the listening socket and every connection through it, so the client
 * loses its broker connection and cannot make a new one (connection refused) until the proxy is opened again.
 * Used where the broker itself cannot be stopped at runtime (Open Liberty's embedded messaging engine).
 */
final class BrokerProxy implements AutoCloseable {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final int listenPort;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;

    BrokerProxy(int listenPort, int targetPort) {
        this.listenPort = listenPort;
        this.targetPort = targetPort;
    }

    /** Starts accepting connections (again). */
    synchronized void open() throws IOException {
        if (listener != null) {
            return;
        }
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(LOOPBACK, listenPort));
        listener = s;
        Thread acceptor = new Thread(() -> accept(s), "broker-proxy-accept-" + listenPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The broker goes away: no new connection is accepted, and every open one is closed. */
    synchronized void cut() throws IOException {
        ServerSocket s = listener;
        listener = null;
        if (s != null) {
            s.close();
        }
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    /** How many connections pass through the proxy now. */
    int connections() {
        return sockets.size() / 2;
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                return; // closed by cut()
            }
            Socket broker = new Socket();
            try {
                broker.connect(new InetSocketAddress(LOOPBACK, targetPort), 5_000);
            } catch (IOException e) {
                quietly(client);
                continue;
            }
            synchronized (this) {
                if (listener != s) { // cut while connecting
                    quietly(client);
                    quietly(broker);
                    return;
                }
                sockets.add(client);
                sockets.add(broker);
            }
            pump(client, broker, "up");
            pump(broker, client, "down");
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (SocketException e) {
                // closed by cut(), or by the other side
            } catch (IOException e) {
                // the connection ends either way
            } finally {
                quietly(from);
                quietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "broker-proxy-" + direction + "-" + listenPort);
        t.setDaemon(true);
        t.start();
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
