/**
 * Broker event names. Services broadcast them after their write succeeded;
 * gateways and other services subscribe.
 */
export const EVENTS = {
  userUpdated: 'user.updated',
  /** A user was deleted or banned: their tokens must stop working everywhere. */
  userDeactivated: 'user.deactivated',
  groupUpdated: 'group.updated',
  groupDeleted: 'group.deleted',
  memberJoined: 'group.member.joined',
  memberLeft: 'group.member.left',
  memberUpdated: 'group.member.updated',
  panelCreated: 'group.panel.created',
  panelUpdated: 'group.panel.updated',
  panelDeleted: 'group.panel.deleted',
  messageCreated: 'chat.message.created',
  messageUpdated: 'chat.message.updated',
  messageDeleted: 'chat.message.deleted',
  reactionUpdated: 'chat.reaction.updated',
  /** A user's read position moved (their other devices clear the badge). */
  converseRead: 'chat.converse.read',
  /** A DM was opened: gateways put both members' sockets in its room. */
  dmOpened: 'chat.dm.opened',
  /** A file's bytes and metadata are stored (one file node makes its thumbnail). */
  fileUploaded: 'file.uploaded',
  /** Someone is typing (not stored): every gateway tells its sockets in the converse. */
  typing: 'gateway.typing',
  /** A user came online (first socket anywhere) or went offline (last socket gone). */
  presence: 'gateway.presence',
} as const;

export type EventName = (typeof EVENTS)[keyof typeof EVENTS];

interface EventSender {
  broadcast(event: string, payload?: unknown): unknown;
  broker?: { logger: { warn(...args: unknown[]): void } };
  logger?: { warn(...args: unknown[]): void };
}

/**
 * Broadcasts an event after its write succeeded. The write stands whatever
 * happens here, so a transporter hiccup is logged, never thrown at the caller
 * nor left as an unhandled rejection.
 */
export function announce(sender: EventSender, event: EventName, payload: unknown): void {
  const warn = (err: unknown) => (sender.broker?.logger ?? sender.logger)?.warn(`could not publish ${event}`, err);
  try {
    Promise.resolve(sender.broadcast(event, payload)).catch(warn);
  } catch (err) {
    warn(err);
  }
}
