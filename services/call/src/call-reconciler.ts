import type { Logger } from '@im/sdk';
import { closeCall, connectionLeft, type Sender } from './call-news.ts';
import type { CallStore } from './call-store.ts';
import type { LiveKit } from './livekit.ts';

/** How often the calls kept here are checked against LiveKit (and once at start). */
export const RECONCILE_INTERVAL_MS = 5 * 60_000;

/**
 * Webhooks can be lost: LiveKit drops them when its queue is full, and a
 * restart of LiveKit (the single instance's starts with the platform) ends
 * its rooms without a word. So the calls kept here are compared with
 * LiveKit's rooms at start and every few minutes: a call whose room is gone
 * ends (and a DM records it), a connection LiveKit no longer has leaves.
 * Every step is the same idempotent update a webhook makes.
 */
export async function reconcileCalls(store: CallStore, livekit: LiveKit, sender: Sender): Promise<number> {
  const calls = await store.all();
  if (calls.length === 0) return 0;
  const open = await livekit.openRooms(calls.map((c) => c._id.toHexString()));
  let changed = 0;
  for (const kept of calls) {
    const converseId = kept._id.toHexString();
    if (!open.has(converseId)) {
      const doc = await store.get(converseId);
      if (doc) await closeCall(sender, store, doc, false);
      changed += 1;
      continue;
    }
    const present = await livekit.connections(converseId);
    for (const gone of kept.participants.filter((p) => !present.has(p.sid))) {
      await connectionLeft(sender, store, converseId, gone.sid);
      changed += 1;
    }
  }
  return changed;
}

/**
 * Runs reconcileCalls once `ready` resolves (the chat service is up: a
 * call's record is written through it) and every RECONCILE_INTERVAL_MS after;
 * a failed round is logged and tried again at the next.
 */
export function startReconciling(
  store: CallStore,
  livekit: LiveKit,
  sender: Sender,
  logger: Logger,
  ready: () => Promise<unknown>,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const round = () =>
    reconcileCalls(store, livekit, sender)
      .then((n) => {
        if (n > 0) logger.info(`calls: ${n} call(s) or participant(s) LiveKit no longer had, brought up to date`);
      })
      .catch((err: unknown) => logger.warn({ err }, 'calls: could not compare the calls with LiveKit'));
  void ready().then(async () => {
    if (stopped) return;
    await round();
    if (!stopped) timer = setInterval(round, RECONCILE_INTERVAL_MS).unref();
  });
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
