/** Every service a process can run; `SERVICES` picks a subset. */
export const SERVICE_NAMES = [
  'gateway',
  'user',
  'group',
  'chat',
  'file',
  'push',
  'moderation',
  'integration',
  'mail',
  'call',
  'import',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Services that keep their data in MongoDB (all but the gateway): a process running none of them does not connect. */
export const SERVICES_USING_MONGO: readonly ServiceName[] = SERVICE_NAMES.filter((name) => name !== 'gateway');
