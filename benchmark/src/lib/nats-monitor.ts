// What the NATS server carried, from its monitoring endpoint (nats-server -m):
// `/varz` counts every message and byte clients published (in) and the
// server delivered to subscribers (out) since it started.

export interface NatsCounters {
  inMsgs: number;
  outMsgs: number;
  inBytes: number;
  outBytes: number;
  /** Subscriptions held by all clients right now. */
  subscriptions: number;
  connections: number;
}

interface Varz {
  in_msgs: number;
  out_msgs: number;
  in_bytes: number;
  out_bytes: number;
  subscriptions: number;
  connections: number;
}

export async function readNats(monitorUrl: string): Promise<NatsCounters> {
  const res = await fetch(`${monitorUrl}/varz`);
  if (!res.ok) throw new Error(`NATS /varz answered ${res.status}`);
  const v = (await res.json()) as Varz;
  return {
    inMsgs: v.in_msgs,
    outMsgs: v.out_msgs,
    inBytes: v.in_bytes,
    outBytes: v.out_bytes,
    subscriptions: v.subscriptions,
    connections: v.connections,
  };
}

/** The traffic between two readings (subscriptions and connections: the later reading's). */
export const natsTraffic = (before: NatsCounters, after: NatsCounters): NatsCounters => ({
  inMsgs: after.inMsgs - before.inMsgs,
  outMsgs: after.outMsgs - before.outMsgs,
  inBytes: after.inBytes - before.inBytes,
  outBytes: after.outBytes - before.outBytes,
  subscriptions: after.subscriptions,
  connections: after.connections,
});

/** One client connection's counters, as `/connz` lists them. */
export interface NatsConnection {
  name: string;
  outMsgs: number;
  outBytes: number;
  subscriptions: number;
}

interface Connz {
  connections: Array<{ name?: string; out_msgs: number; out_bytes: number; subscriptions: number }>;
}

/** The named client connections (nodes name theirs), by name. */
export async function readNatsConnections(monitorUrl: string): Promise<Map<string, NatsConnection>> {
  const res = await fetch(`${monitorUrl}/connz?limit=4096`);
  if (!res.ok) throw new Error(`NATS /connz answered ${res.status}`);
  const out = new Map<string, NatsConnection>();
  for (const c of ((await res.json()) as Connz).connections) {
    if (!c.name) continue;
    out.set(c.name, { name: c.name, outMsgs: c.out_msgs, outBytes: c.out_bytes, subscriptions: c.subscriptions });
  }
  return out;
}
