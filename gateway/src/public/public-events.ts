import { EVENTS, type EventName, type EventPayloads } from '@im/sdk';
import type { PublicRoutes } from './public-routes.ts';

type Handler<E extends EventName> = (payload: EventPayloads[E]) => void;

/**
 * What makes a kept page or feed stale, heard on every gateway node: any
 * change to a converse's messages, its panel or its group, and the
 * profiles of the users a kept render shows (their display names). Visibility changes are also pushed to every
 * gateway before they are answered (`gateway.forgetPublic`); these events
 * are the second path.
 */
export function publicInvalidations(routes: () => PublicRoutes | undefined): {
  [E in EventName]?: Handler<E>;
} {
  const forget = (...converseIds: string[]) => routes()?.cache.forget(converseIds);
  return {
    [EVENTS.messageCreated]: (p) => forget(p.message.converseId),
    [EVENTS.messageUpdated]: (p) => forget(p.message.converseId),
    [EVENTS.messageDeleted]: (p) => forget(p.converseId),
    [EVENTS.reactionUpdated]: (p) => forget(p.converseId),
    [EVENTS.groupUpdated]: (p) => forget(...p.group.panels.map((panel) => panel.converseId)),
    [EVENTS.groupDeleted]: (p) => forget(...p.converseIds),
    [EVENTS.panelUpdated]: (p) => forget(p.panel.converseId),
    [EVENTS.panelDeleted]: (p) => forget(p.converseId),
    [EVENTS.userUpdated]: (p) => routes()?.cache.forgetShowing(p.user.id),
    [EVENTS.userDeactivated]: (p) => {
      routes()?.forgetTokensOf(p.userId);
      // A deleted account (or removed bot) is shown under its new name, without its avatar.
      routes()?.cache.forgetShowing(p.userId);
    },
    [EVENTS.feedTokenReplaced]: (p) => routes()?.forgetTokensOf(p.userId),
  };
}
