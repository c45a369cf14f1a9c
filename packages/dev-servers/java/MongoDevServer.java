import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import org.h2.mvstore.MVStore;

/**
 * Serves the MongoDB wire protocol on HOST:PORT (PORT 0 picks a free one):
 * from memory, or with a third argument from that file (an H2 MVStore).
 * Prints "listening HOST:PORT" once bound and stops when its standard input
 * closes, so it never outlives the process that started it.
 */
public final class MongoDevServer {
  /**
   * How often changes reach the file. Like MongoDB's default write concern
   * (journal written every 100 ms), a write acknowledged just before this
   * process itself dies may be lost; when its parent dies it closes the file
   * cleanly and loses nothing. Committing on every write was measured: the
   * file grew to 0.5 GB for 10,000 messages.
   */
  static final int COMMIT_EVERY_MS = 100;

  /**
   * Pages are compressed (Deflate): the backend stores documents as Java
   * serialized objects, about 3.6 KB each on disk; compressed, the 100,000
   * message capacity dataset takes 131 MB instead of 1.3 GB, written as fast.
   */
  static MongoBackend fileBackend(String file) {
    MVStore store = new MVStore.Builder().fileName(file).compressHigh().cacheSize(cacheMegabytes()).open();
    store.setAutoCommitDelay(COMMIT_EVERY_MS);
    return new H2Backend(store);
  }

  /**
   * Half the heap holds pages already read and decoded. Queries on
   * non-unique indexes scan their collection: with the default 16 MB a scan
   * decompressed and decoded every page again, and 100 simulated users on the
   * 100,000-message dataset timed out (history and unread took 10 s); with a
   * cache that holds the dataset they took 136 and 148 ms.
   */
  static int cacheMegabytes() {
    return (int) Math.max(16, Runtime.getRuntime().maxMemory() / 2 / (1024 * 1024));
  }

  public static void main(String[] args) throws Exception {
    String host = args.length > 0 ? args[0] : "127.0.0.1";
    int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    String file = args.length > 2 ? args[2] : null;
    MongoBackend backend;
    try {
      backend = file == null ? new MemoryBackend() : fileBackend(file);
    } catch (RuntimeException e) {
      // One line the starter can show: a locked file means another server has it open.
      System.out.println("error: cannot open " + file + ": " + e.getMessage());
      System.out.flush();
      System.exit(2);
      return;
    }
    MongoServer server = new MongoServer(backend);
    // On SIGTERM as on EOF: close the backend, so the file gets its last changes.
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    server.bind(host, port);
    InetSocketAddress address = server.getLocalAddress();
    System.out.println("listening " + address.getHostString() + ":" + address.getPort());
    System.out.flush();
    while (System.in.read() != -1) {
      // Drain until EOF: the parent closed the pipe or died.
    }
    System.exit(0);
  }
}
