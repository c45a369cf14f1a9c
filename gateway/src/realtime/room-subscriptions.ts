import { isRoutedRoom, type RoomRouter } from '@im/sdk';

type Delivery = Parameters<RoomRouter['subscribe']>[1];
type Subscription = ReturnType<RoomRouter['subscribe']>;

export interface RoomSubscriptionsOptions {
  router: RoomRouter;
  /** How long a room stays subscribed after this gateway stopped holding it (FANOUT_ROUTING_LINGER_MS). */
  lingerMs: number;
  /** How long `prepare` waits for the server's answer (NATS away): then it fails, and the socket retries. */
  confirmTimeoutMs: number;
  /** Whether this gateway holds the room now: a socket in it, or a kept public page of the converse. */
  holds(room: string): boolean;
  /** Every delivery on any subscribed room. */
  onDelivery: Delivery;
  /** Runs the linger's ends (default: setTimeout, unref'd); tests end them when they choose. */
  schedule?: (run: () => void, ms: number) => () => void;
}

const scheduleTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** The socket.io adapter's room events (socket.io's in-memory adapter emits them). */
interface RoomEvents {
  on(event: 'create-room' | 'delete-room', listener: (room: string) => void): unknown;
}

/**
 * The gateway's interest in rooms, as NATS subscriptions (FANOUT_ROUTING=
 * rooms): a room is subscribed when it appears on this gateway (a socket
 * joins it, a public page of it is kept) and unsubscribed `lingerMs` after
 * it went, unless it is held again by then, so a reconnect or a page reload
 * does not churn. `prepare` also waits until the server has processed the
 * subscriptions (one round trip, shared by the callers of an event-loop
 * turn): from then on nothing published on those rooms passes this gateway by.
 */
export class RoomSubscriptions {
  readonly #options: RoomSubscriptionsOptions;
  readonly #subscribed = new Map<string, { subscription: Subscription; confirmed: Promise<void> | undefined }>();
  readonly #lingering = new Map<string, () => void>();
  #nextFlush: Promise<void> | undefined;

  constructor(options: RoomSubscriptionsOptions) {
    this.#options = options;
  }

  /** Rooms subscribed now. */
  get size(): number {
    return this.#subscribed.size;
  }

  /** Follows the rooms of a socket.io adapter (only the routed kinds: u:, g:, c:). */
  watch(adapter: RoomEvents): void {
    adapter.on('create-room', (room) => {
      if (!isRoutedRoom(room)) return;
      try {
        this.hold(room);
      } catch {
        // The NATS connection is closing with the node: there is nothing left to hear.
      }
    });
    adapter.on('delete-room', (room) => {
      if (isRoutedRoom(room)) this.release(room);
    });
  }

  /** The room is held on this gateway: hear it (the subscription goes out at once, unconfirmed). */
  hold(room: string): void {
    const cancel = this.#lingering.get(room);
    if (cancel) {
      cancel();
      this.#lingering.delete(room);
    }
    if (!this.#subscribed.has(room)) this.#subscribe(room);
  }

  /** The room may no longer be held: stop hearing it after the linger, if it is not held again by then. */
  release(room: string): void {
    if (!this.#subscribed.has(room) || this.#lingering.has(room)) return;
    const cancel = (this.#options.schedule ?? scheduleTimer)(() => {
      this.#lingering.delete(room);
      if (this.#options.holds(room)) return;
      this.#subscribed.get(room)?.subscription.unsubscribe();
      this.#subscribed.delete(room);
    }, this.#options.lingerMs);
    this.#lingering.set(room, cancel);
  }

  /**
   * Subscribed to every routed room of `rooms`, confirmed by the server.
   * A room nobody holds once this resolves (the socket closed meanwhile) is
   * released after the linger like any other.
   */
  async prepare(rooms: readonly string[]): Promise<void> {
    const confirmations: Array<Promise<void>> = [];
    for (const room of rooms) {
      if (!isRoutedRoom(room)) continue;
      const known = this.#subscribed.get(room);
      if (known) {
        confirmations.push((known.confirmed ??= this.#confirm(room, known)));
        continue;
      }
      confirmations.push(this.#subscribe(room).confirmed!);
      if (!this.#options.holds(room)) this.release(room);
    }
    await Promise.all(confirmations);
  }

  /** Stops the linger timers (the node is stopping; its NATS connection closes with it). */
  close(): void {
    for (const cancel of this.#lingering.values()) cancel();
    this.#lingering.clear();
  }

  #subscribe(room: string) {
    const entry: { subscription: Subscription; confirmed: Promise<void> | undefined } = {
      subscription: this.#options.router.subscribe(room, this.#options.onDelivery),
      confirmed: undefined,
    };
    entry.confirmed = this.#confirm(room, entry);
    this.#subscribed.set(room, entry);
    return entry;
  }

  /**
   * The server's confirmation of the room's subscription. When it does not
   * come (NATS away), the subscription stays (the client sends it again on
   * reconnecting) and the next `prepare` asks again.
   */
  #confirm(room: string, entry: { confirmed: Promise<void> | undefined }): Promise<void> {
    const confirmed = this.#flushAfter();
    confirmed.catch(() => {
      if (this.#subscribed.get(room) === entry && entry.confirmed === confirmed) entry.confirmed = undefined;
    });
    return confirmed;
  }

  /** One round trip for every subscription made in this event-loop turn, sent after them, bounded in time. */
  #flushAfter(): Promise<void> {
    this.#nextFlush ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.#nextFlush = undefined;
        const timer = setTimeout(
          () =>
            reject(new Error(`NATS did not confirm room subscriptions within ${this.#options.confirmTimeoutMs} ms`)),
          this.#options.confirmTimeoutMs,
        );
        timer.unref();
        this.#options.router
          .flush()
          .then(resolve, reject)
          .finally(() => clearTimeout(timer));
      });
    });
    return this.#nextFlush;
  }
}
