import { call, type ActionResult } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';

type Roster = ActionResult<'group.converseRoster'>;

/** How long a roster is kept at most, even when no event says it changed (a missed event heals by then). */
const KEPT_MS = 30_000;
/** Most converses whose rosters are kept (the oldest go first). */
const KEPT_MAX = 10_000;

/**
 * The small rosters a group message's `all`-level pushes need, kept per
 * converse so a busy converse's messages do not read its members each time.
 * Membership events (joins, departures, a private panel's audience) drop a
 * converse's roster on every push node at once.
 */
export class RosterCache {
  readonly #kept = new Map<string, { at: number; roster: Promise<Roster>; pushable?: Promise<Set<string>> }>();

  readonly #maxIds: number;

  constructor(maxIds: number) {
    this.#maxIds = maxIds;
  }

  get(broker: ServiceBroker, converseId: string): Promise<Roster> {
    const held = this.#kept.get(converseId);
    if (held && Date.now() - held.at < KEPT_MS) return held.roster;
    const roster = call(broker, 'group.converseRoster', { converseId, maxIds: this.#maxIds });
    // A failed read is not kept.
    roster.catch(() => this.#kept.delete(converseId));
    this.#kept.delete(converseId);
    this.#kept.set(converseId, { at: Date.now(), roster });
    if (this.#kept.size > KEPT_MAX) this.#kept.delete(this.#kept.keys().next().value!);
    return roster;
  }

  /**
   * Of a kept roster's members, those with a browser or device to push to
   * (`find` asks the database): kept with the roster, so a busy converse's
   * plain messages do not ask each time. A registration on this node drops
   * every kept answer at once; one made through another push node counts
   * once the roster is read again (at most KEPT_MS).
   */
  pushable(converseId: string, memberIds: string[], find: (ids: string[]) => Promise<string[]>): Promise<Set<string>> {
    const held = this.#kept.get(converseId);
    const ask = () => find(memberIds).then((ids) => new Set(ids));
    if (!held || Date.now() - held.at >= KEPT_MS) return ask();
    if (!held.pushable) {
      const asked = ask();
      held.pushable = asked;
      // A failed read is not kept.
      asked.catch(() => {
        if (held.pushable === asked) held.pushable = undefined;
      });
    }
    return held.pushable;
  }

  /** Someone registered (or removed) a browser or device: the kept answers of `pushable` are stale. */
  forgetPushable(): void {
    for (const held of this.#kept.values()) held.pushable = undefined;
  }

  forget(converseIds: readonly string[]): void {
    for (const id of converseIds) this.#kept.delete(id);
  }
}
