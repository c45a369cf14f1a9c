import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import java.net.InetSocketAddress;

/**
 * Serves the MongoDB wire protocol on HOST:PORT (PORT 0 picks a free one):
 * from memory, or with a third argument from that file (an H2 MVStore).
 * Prints "listening HOST:PORT" once bound and stops when its standard input
 * closes, so it never outlives the process that started it.
 */
public final class MongoDevServer {
  /**
   * The H2 backend writes its changes to the file in the background about
   * once a second; this one writes them before answering, so a write that was
   * acknowledged is in the file even if this process is killed right after.
   */
  static final class DurableH2Backend extends H2Backend {
    DurableH2Backend(String file) {
      super(file);
    }

    @Override
    public Document handleCommand(Channel channel, String database, String command, Document query) {
      try {
        return super.handleCommand(channel, database, command, query);
      } finally {
        commitIfChanged();
      }
    }

    @Override
    public Document handleMessage(MongoMessage message) {
      try {
        return super.handleMessage(message);
      } finally {
        commitIfChanged();
      }
    }

    private void commitIfChanged() {
      if (getMvStore().hasUnsavedChanges()) commit();
    }
  }

  public static void main(String[] args) throws Exception {
    String host = args.length > 0 ? args[0] : "127.0.0.1";
    int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    String file = args.length > 2 ? args[2] : null;
    MongoBackend backend;
    try {
      backend = file == null ? new MemoryBackend() : new DurableH2Backend(file);
    } catch (RuntimeException e) {
      // One line the starter can show: a locked file means another server has it open.
      System.out.println("error: cannot open " + file + ": " + e.getMessage());
      System.out.flush();
      System.exit(2);
      return;
    }
    MongoServer server = new MongoServer(backend);
    server.bind(host, port);
    InetSocketAddress address = server.getLocalAddress();
    System.out.println("listening " + address.getHostString() + ":" + address.getPort());
    System.out.flush();
    while (System.in.read() != -1) {
      // Drain until EOF: the parent closed the pipe or died.
    }
    // Closes the backend too: the file gets its last changes.
    server.shutdownNow();
    System.exit(0);
  }
}
