// The services' own mongoose models (never a copy of their schemas), on the
// dataset's connection, and their indexes, created as each service does at
// start.
import type { Connection } from 'mongoose';
import { chatModels } from '@im/service-chat';
import { fileModel } from '@im/service-file';
import { groupModels } from '@im/service-group';
import { pushModels } from '@im/service-push';
import { userModel } from '@im/service-user';

export function serviceModels(connection: Connection) {
  const chat = chatModels(connection);
  const group = groupModels(connection);
  const push = pushModels(connection);
  return {
    users: userModel(connection),
    groups: group.groups,
    members: group.members,
    invites: group.invites,
    converses: chat.converses,
    messages: chat.messages,
    reads: chat.reads,
    reactions: chat.reactions,
    files: fileModel(connection),
    notifications: push.notifications,
    pushSubscriptions: push.subscriptions,
    pushDevices: push.devices,
    notificationSettings: push.settings,
  };
}

export type ServiceModels = ReturnType<typeof serviceModels>;

/** Every service's indexes (what their `started()` creates), so the data is written under the same constraints. */
export async function createServiceIndexes(models: ServiceModels): Promise<void> {
  for (const model of Object.values(models)) await model.createIndexes();
}
