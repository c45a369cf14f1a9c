/**
 * Broker event names. Services emit them after their write succeeded; the
 * gateway and other services subscribe. Later services add theirs here.
 */
export const EVENTS = {
  nodeReady: 'im.node.ready',
} as const;

export type EventName = (typeof EVENTS)[keyof typeof EVENTS];
