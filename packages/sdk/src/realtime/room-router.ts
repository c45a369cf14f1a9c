import { randomBytes } from 'node:crypto';
import { connect, Events, headers, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import type { EventPayloads } from '../events.ts';
import type { TraceCarrier, Tracing } from '../tracing/tracing.ts';
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
 * decoding the payload. With tracing on, a publication made inside a trace
 * carries its context in NATS headers (`traceparent`).
 */
export class RoomRouter {
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  /** Unique per process and connection: publication ids never collide between nodes. */
  readonly #idPrefix = randomBytes(6).toString('base64url');
  #published = 0;
  readonly #reconnectListeners = new Set<() => void>();
  #watchingStatus = false;
  readonly #tracing: Tracing | undefined;

  /** Not a room: where a node that lost its link asks every gateway to have its sockets sync. */
  readonly #resyncSubject: string;

  constructor(nc: NatsConnection, namespace: string, tracing?: Tracing) {
    this.#nc = nc;
    this.#prefix = `im.rooms.${token(namespace)}.`;
    this.#resyncSubject = `im.rooms-resync.${token(namespace)}`;
    this.#tracing = tracing;
  }

  /** A connection of its own to the transporter's NATS server. */
  static async connect(url: string, namespace: string, name: string, tracing?: Tracing): Promise<RoomRouter> {
    const nc = await connect({
      // TRANSPORTER may list several servers of one NATS cluster.
      servers: url.split(','),
      name: `${name}-rooms`,
      // Keep trying during a NATS restart instead of failing the node (as the transporter does).
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    return new RoomRouter(nc, namespace, tracing);
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
    const carrier = this.#tracing?.carrier();
    const options = carrier ? { headers: headersOf(carrier) } : undefined;
    for (const room of rooms) this.#nc.publish(this.subject(room), data, options);
  }

  /**
   * Calls `onDelivery` for every publication on `room`: `id` and `event`
   * come first, the payload is decoded only if `onDelivery` asks for it;
   * `trace` is the trace context the publication came with, if any.
   */
  subscribe(
    room: string,
    onDelivery: (id: string, event: string, payload: () => unknown, trace?: TraceCarrier) => void,
  ): Subscription {
    return this.#nc.subscribe(this.subject(room), {
      callback: (err, msg) => {
        if (err) return;
        const data = msg.data;
        const end = data.indexOf(NEWLINE);
        if (end < 0) return;
        const head = decoder.decode(data.subarray(0, end));
        const space = head.indexOf(' ');
        onDelivery(
          head.slice(0, space),
          head.slice(space + 1),
          () => JSON.parse(decoder.decode(data.subarray(end + 1))),
          msg.headers ? carrierOf(msg.headers) : undefined,
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

  /**
   * Asks every gateway to have its sockets sync: NATS delivers at most once,
   * and what this node published into a connection that was dying (its
   * server gone, before the client noticed) reached no one. Sent once the
   * connection is back.
   */
  requestResync(): void {
    if (!this.#nc.isClosed()) this.#nc.publish(this.#resyncSubject);
  }

  /** Calls `listener` for every node's `requestResync` (gateways). */
  onResyncRequest(listener: () => void): Subscription {
    return this.#nc.subscribe(this.#resyncSubject, { callback: (err) => !err && listener() });
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

function headersOf(carrier: TraceCarrier): MsgHdrs {
  const h = headers();
  for (const [key, value] of Object.entries(carrier)) h.set(key, value);
  return h;
}

function carrierOf(h: MsgHdrs): TraceCarrier | undefined {
  const traceparent = h.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = h.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
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
