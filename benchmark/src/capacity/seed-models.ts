// The services' own mongoose models (never a copy of their schemas), on the
// dataset's connection, and their indexes, created as each service does at
// start.
import type { Connection } from 'mongoose';
import { chatModels } from '@im/service-chat';
import { fileModel } from '@im/service-file';
import { groupModels } from '@im/service-group';
import { pushModels } from '@im/service-push';
import { userModel } from '@im/service-user';

type ChatModels = ReturnType<typeof chatModels>;
type GroupModels = ReturnType<typeof groupModels>;
type PushModels = ReturnType<typeof pushModels>;

/** The collections the dataset writes, by the model of the service that owns each. */
export interface ServiceModels {
  users: ReturnType<typeof userModel>;
  groups: GroupModels['groups'];
  members: GroupModels['members'];
  invites: GroupModels['invites'];
  converses: ChatModels['converses'];
  messages: ChatModels['messages'];
  reads: ChatModels['reads'];
  reactions: ChatModels['reactions'];
  files: ReturnType<typeof fileModel>;
  notifications: PushModels['notifications'];
  pushSubscriptions: PushModels['subscriptions'];
  pushDevices: PushModels['devices'];
  notificationSettings: PushModels['settings'];
}

export function serviceModels(connection: Connection): ServiceModels {
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

/** Every service's indexes (what their `started()` creates), so the data is written under the same constraints. */
export async function createServiceIndexes(models: ServiceModels): Promise<void> {
  for (const model of Object.values(models)) await model.createIndexes();
}
