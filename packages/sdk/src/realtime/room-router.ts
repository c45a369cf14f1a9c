import { randomBytes } from 'node:crypto';
import { connect, Events, type NatsConnection, type Subscription } from 'nats';
import type { EventPayloads } from '../events.ts';
import { roomsOf, type RoutedEventName } from './event-rooms.ts';

/** Characters a NATS subject token cannot hold (and `%`, the escape itself). */
const UNSAFE = /[.*>%\s]/g;
const token = (text: string) => text.replace(UNSAFE, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`) || '%';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NEWLINE = 10;

/**
 * Realtime events routed by room over NATS (FANOUT_ROUTING=rooms in a
 * cluster). A producer publishes an event once per room it concerns, on the
 * room's subject, under the broker namespace, so deployments and test runs
 * sharing a NATS server stay apart; a gateway subscribes to the rooms it
 * holds sockets in. The wire form is `<id> <event>\n<JSON payload>`, encoded
 * once for all the rooms, so a gateway can count and drop a repeat without
 * decoding the payload.
 */
export class RoomRouter {
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  /** Unique per process and connection: publication ids never collide between nodes. */
  readonly #idPrefix = randomBytes(6).toString('base64url');
  #published = 0;
  readonly #reconnectListeners = new Set<() => void>();
  #watchingStatus = false;

  constructor(nc: NatsConnection, namespace: string) {
    this.#nc = nc;
    this.#prefix = `im.rooms.${token(namespace)}.`;
  }

  /** A connection of its own to the transporter's NATS server. */
  static async connect(url: string, namespace: string, name: string): Promise<RoomRouter> {
    const nc = await connect({
      // TRANSPORTER may list several servers of one NATS cluster.
      servers: url.split(','),
      name: `${name}-rooms`,
      // Keep trying during a NATS restart instead of failing the node (as the transporter does).
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    return new RoomRouter(nc, namespace);
  }

  subject(room: string): string {
    return this.#prefix + token(room);
  }

  /** Publishes `payload` of `event` on each room it concerns (fire and forget, like a broadcast). */
  publish<E extends RoutedEventName>(event: E, payload: EventPayloads[E]): void {
    const rooms = roomsOf(event, payload);
    if (rooms.length === 0) return;
    this.#published += 1;
    const data = encoder.encode(
      `${this.#idPrefix}${this.#published.toString(36)} ${event}\n${JSON.stringify(payload)}`,
    );
    for (const room of rooms) this.#nc.publish(this.subject(room), data);
  }

  /**
   * Calls `onDelivery` for every publication on `room`: `id` and `event`
   * come first, the payload is decoded only if `onDelivery` asks for it.
   */
  subscribe(room: string, onDelivery: (id: string, event: string, payload: () => unknown) => void): Subscription {
    return this.#nc.subscribe(this.subject(room), {
      callback: (err, msg) => {
        if (err) return;
        const data = msg.data;
        const end = data.indexOf(NEWLINE);
        if (end < 0) return;
        const head = decoder.decode(data.subarray(0, end));
        const space = head.indexOf(' ');
        onDelivery(head.slice(0, space), head.slice(space + 1), () =>
          JSON.parse(decoder.decode(data.subarray(end + 1))),
        );
      },
    });
  }

  /**
   * Calls `listener` each time the connection comes back after it was lost
   * (a NATS server gone, the network cut): publications on this node's rooms
   * in between never arrived. Subscriptions are already renewed by then.
   */
  onReconnect(listener: () => void): void {
    this.#reconnectListeners.add(listener);
    if (this.#watchingStatus) return;
    this.#watchingStatus = true;
    void (async () => {
      for await (const status of this.#nc.status()) {
        if (status.type !== Events.Reconnect) continue;
        for (const l of this.#reconnectListeners) l();
      }
    })();
  }

  /** Resolves once the server has processed everything sent before (subscriptions included). */
  flush(): Promise<void> {
    return this.#nc.flush();
  }

  async close(): Promise<void> {
    if (this.#nc.isClosed()) return;
    await this.#nc.drain().catch(() => this.#nc.close());
  }
}

const routers = new WeakMap<object, RoomRouter>();

/** Makes `announce` on `broker` (and its contexts and services) publish routed events by room. */
export function routeEventsByRoom(broker: object, router: RoomRouter): void {
  routers.set(broker, router);
}

/** The room router of the broker behind `sender` (a broker, a context or a service), if it routes. */
export function roomRouterOf(sender: object): RoomRouter | undefined {
  const broker = (sender as { broker?: object }).broker ?? sender;
  return routers.get(broker);
}
