import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;

/**
 * Serves the MongoDB wire protocol from memory on HOST:PORT (PORT 0 picks a
 * free one). Prints "listening HOST:PORT" once bound and stops when its
 * standard input closes, so it never outlives the process that started it.
 */
public final class MongoDevServer {
  public static void main(String[] args) throws Exception {
    String host = args.length > 0 ? args[0] : "127.0.0.1";
    int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    MongoServer server = new MongoServer(new MemoryBackend());
    server.bind(host, port);
    InetSocketAddress address = server.getLocalAddress();
    System.out.println("listening " + address.getHostString() + ":" + address.getPort());
    System.out.flush();
    while (System.in.read() != -1) {
      // Drain until EOF: the parent closed the pipe or died.
    }
    server.shutdownNow();
    System.exit(0);
  }
}
