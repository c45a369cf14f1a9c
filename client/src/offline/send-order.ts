// Messages of one converse go to the server one after another, in the order
// they were written: a message queued offline is never overtaken by a later
// one, and the next starts only once the server answered the one before.
import { accountMap } from '../state/account-state.ts';

/** converseId → the end of its chain of sends. */
const chains = accountMap<string, Promise<void>>('send order');

/** Runs `send` after every send of the converse started before it (failed or not). */
export function inOrder(converseId: string, send: () => Promise<void>): Promise<void> {
  const next = (chains.get(converseId) ?? Promise.resolve()).then(send).catch(() => undefined);
  chains.set(converseId, next);
  void next.then(() => {
    if (chains.get(converseId) === next) chains.delete(converseId);
  });
  return next;
}
