import { chatParams } from '@im/service-chat/params';
import { fileParams } from '@im/service-file/params';
import { pushParams } from '@im/service-push/params';
import { groupParams } from '@im/service-group/params';
import { userParams } from '@im/service-user/params';

/** Declared here: the gateway serves presence itself. */
export const PRESENCE_PARAMS = {
  $$strict: true,
  userIds: { type: 'string', pattern: /^[0-9a-f]{24}(,[0-9a-f]{24}){0,199}$/ },
} as const;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One public HTTP route: which action serves it and where its parameters
 * come from. Path parameters carry the action's parameter names; they win
 * over the same name in the body or query.
 */
export interface ApiRoute {
  method: HttpMethod;
  path: string;
  action: string;
  /** The action's parameter schema (also the source of the OpenAPI document). */
  params: Record<string, unknown>;
  input: 'body' | 'query' | 'none';
  /** false: no token needed. */
  auth: boolean;
  status: 200 | 201 | 204;
  summary: string;
  tag:
    | 'auth'
    | 'users'
    | 'groups'
    | 'members'
    | 'panels'
    | 'invites'
    | 'converses'
    | 'messages'
    | 'presence'
    | 'files'
    | 'push';
  /** OpenAPI component of the answer; `[]` suffix: an array of it. */
  response?: string;
  /** Served by the gateway's own streaming handler instead of one action call. */
  raw?: 'upload' | 'download';
}

const route = (r: Omit<ApiRoute, 'auth' | 'status'> & Partial<Pick<ApiRoute, 'auth' | 'status'>>): ApiRoute => ({
  auth: true,
  status: 200,
  ...r,
});

export const API_ROUTES: ApiRoute[] = [
  route({
    method: 'POST',
    path: '/api/auth/register',
    action: 'user.register',
    params: userParams.register,
    input: 'body',
    auth: false,
    status: 201,
    summary: 'Create an account',
    tag: 'auth',
    response: 'AuthResult',
  }),
  route({
    method: 'POST',
    path: '/api/auth/login',
    action: 'user.login',
    params: userParams.login,
    input: 'body',
    auth: false,
    summary: 'Log in',
    tag: 'auth',
    response: 'AuthResult',
  }),
  route({
    method: 'GET',
    path: '/api/users/me',
    action: 'user.me',
    params: userParams.me,
    input: 'none',
    summary: 'My profile',
    tag: 'users',
    response: 'User',
  }),
  route({
    method: 'PATCH',
    path: '/api/users/me',
    action: 'user.updateMe',
    params: userParams.updateMe,
    input: 'body',
    summary: 'Update my profile',
    tag: 'users',
    response: 'User',
  }),
  route({
    method: 'DELETE',
    path: '/api/users/me',
    action: 'user.deleteMe',
    params: userParams.deleteMe,
    input: 'none',
    status: 204,
    summary: 'Delete my account (tokens stop working, the username is freed)',
    tag: 'users',
  }),
  route({
    method: 'GET',
    path: '/api/users/:userId',
    action: 'user.get',
    params: userParams.get,
    input: 'none',
    summary: 'A public profile',
    tag: 'users',
    response: 'User',
  }),
  route({
    method: 'GET',
    path: '/api/users',
    action: 'user.search',
    params: userParams.search,
    input: 'query',
    summary: 'Users whose username or nickname starts with q',
    tag: 'users',
    response: 'User[]',
  }),

  route({
    method: 'POST',
    path: '/api/groups',
    action: 'group.create',
    params: groupParams.create,
    input: 'body',
    status: 201,
    summary: 'Create a group (with a "general" text panel)',
    tag: 'groups',
    response: 'Group',
  }),
  route({
    method: 'GET',
    path: '/api/groups',
    action: 'group.list',
    params: groupParams.list,
    input: 'none',
    summary: 'Groups I belong to',
    tag: 'groups',
    response: 'Group[]',
  }),
  route({
    method: 'GET',
    path: '/api/groups/:groupId',
    action: 'group.get',
    params: groupParams.get,
    input: 'none',
    summary: 'A group (members only)',
    tag: 'groups',
    response: 'Group',
  }),
  route({
    method: 'PATCH',
    path: '/api/groups/:groupId',
    action: 'group.update',
    params: groupParams.update,
    input: 'body',
    summary: 'Rename a group (owner/admin)',
    tag: 'groups',
    response: 'Group',
  }),
  route({
    method: 'DELETE',
    path: '/api/groups/:groupId',
    action: 'group.remove',
    params: groupParams.remove,
    input: 'none',
    status: 204,
    summary: 'Delete a group with its panels, members and invites (owner)',
    tag: 'groups',
  }),

  route({
    method: 'GET',
    path: '/api/groups/:groupId/members',
    action: 'group.members',
    params: groupParams.members,
    input: 'query',
    summary: 'Members, by join order',
    tag: 'members',
    response: 'MemberPage',
  }),
  route({
    method: 'DELETE',
    path: '/api/groups/:groupId/members/:userId',
    action: 'group.removeMember',
    params: groupParams.removeMember,
    input: 'none',
    status: 204,
    summary: 'Leave (yourself) or remove a member (owner; admin for plain members)',
    tag: 'members',
  }),
  route({
    method: 'PUT',
    path: '/api/groups/:groupId/members/:userId/role',
    action: 'group.setRole',
    params: groupParams.setRole,
    input: 'body',
    summary: "Set a member's role (owner)",
    tag: 'members',
    response: 'Member',
  }),

  route({
    method: 'POST',
    path: '/api/groups/:groupId/panels',
    action: 'group.createPanel',
    params: groupParams.createPanel,
    input: 'body',
    status: 201,
    summary: 'Create a text panel (owner/admin)',
    tag: 'panels',
    response: 'Panel',
  }),
  route({
    method: 'PATCH',
    path: '/api/groups/:groupId/panels/:panelId',
    action: 'group.updatePanel',
    params: groupParams.updatePanel,
    input: 'body',
    summary: 'Rename a panel (owner/admin)',
    tag: 'panels',
    response: 'Panel',
  }),
  route({
    method: 'DELETE',
    path: '/api/groups/:groupId/panels/:panelId',
    action: 'group.deletePanel',
    params: groupParams.deletePanel,
    input: 'none',
    status: 204,
    summary: 'Delete a panel (owner/admin)',
    tag: 'panels',
  }),

  route({
    method: 'POST',
    path: '/api/groups/:groupId/invites',
    action: 'group.createInvite',
    params: groupParams.createInvite,
    input: 'body',
    status: 201,
    summary: 'Create an invite (any member)',
    tag: 'invites',
    response: 'Invite',
  }),
  route({
    method: 'POST',
    path: '/api/invites/:code/accept',
    action: 'group.acceptInvite',
    params: groupParams.acceptInvite,
    input: 'none',
    summary: 'Join the group of an invite',
    tag: 'invites',
    response: 'Group',
  }),

  route({
    method: 'POST',
    path: '/api/dms',
    action: 'chat.openDm',
    params: chatParams.openDm,
    input: 'body',
    summary: 'The DM with a user (the same one every time)',
    tag: 'converses',
    response: 'DmConverse',
  }),
  route({
    method: 'GET',
    path: '/api/converses/:converseId/messages',
    action: 'chat.history',
    params: chatParams.history,
    input: 'query',
    summary:
      'Messages by seq, ascending: before=S the limit just below S, after=S the limit just above, neither the newest',
    tag: 'messages',
    response: 'Message[]',
  }),
  route({
    method: 'POST',
    path: '/api/converses/:converseId/messages',
    action: 'chat.send',
    params: chatParams.send,
    input: 'body',
    status: 201,
    summary: 'Send a message (idempotent per clientMsgId)',
    tag: 'messages',
    response: 'Message',
  }),
  route({
    method: 'POST',
    path: '/api/converses/:converseId/ack',
    action: 'chat.ack',
    params: chatParams.ack,
    input: 'body',
    status: 204,
    summary: 'Mark read up to seq (never moves back)',
    tag: 'converses',
  }),
  route({
    method: 'GET',
    path: '/api/unread',
    action: 'chat.unread',
    params: chatParams.unread,
    input: 'none',
    summary: 'Unread and mention counts of all my converses',
    tag: 'converses',
    response: 'UnreadEntry[]',
  }),
  route({
    method: 'GET',
    path: '/api/search',
    action: 'chat.search',
    params: chatParams.search,
    input: 'query',
    summary: 'Messages I may see that contain q, newest first',
    tag: 'messages',
    response: 'Message[]',
  }),
  route({
    method: 'GET',
    path: '/api/messages/:messageId',
    action: 'chat.getMessage',
    params: chatParams.getMessage,
    input: 'none',
    summary: 'One message',
    tag: 'messages',
    response: 'Message',
  }),
  route({
    method: 'PATCH',
    path: '/api/messages/:messageId',
    action: 'chat.edit',
    params: chatParams.edit,
    input: 'body',
    summary: 'Edit my message',
    tag: 'messages',
    response: 'Message',
  }),
  route({
    method: 'DELETE',
    path: '/api/messages/:messageId',
    action: 'chat.remove',
    params: chatParams.remove,
    input: 'none',
    status: 204,
    summary: 'Delete a message (author, or group owner/admin); a tombstone keeps its seq',
    tag: 'messages',
  }),
  route({
    method: 'PUT',
    path: '/api/messages/:messageId/reactions/:emoji',
    action: 'chat.react',
    params: chatParams.react,
    input: 'none',
    summary: 'React with an emoji (once per user and emoji)',
    tag: 'messages',
    response: 'Reaction[]',
  }),
  route({
    method: 'DELETE',
    path: '/api/messages/:messageId/reactions/:emoji',
    action: 'chat.unreact',
    params: chatParams.react,
    input: 'none',
    summary: 'Take my reaction back',
    tag: 'messages',
    response: 'Reaction[]',
  }),
  route({
    method: 'GET',
    path: '/api/presence',
    action: 'gateway.presence',
    params: PRESENCE_PARAMS,
    input: 'query',
    summary: 'Which of up to 200 users (comma-separated ids) are online',
    tag: 'presence',
    response: 'Presence',
  }),
  route({
    method: 'POST',
    path: '/api/files',
    action: 'file.register',
    params: {},
    input: 'none',
    status: 201,
    raw: 'upload',
    summary: 'Upload a file: multipart/form-data field "file", or the raw bytes with ?name=',
    tag: 'files',
    response: 'File',
  }),
  route({
    method: 'GET',
    path: '/api/files/:fileId',
    action: 'file.access',
    params: fileParams.download,
    input: 'none',
    raw: 'download',
    summary: 'The bytes (Range, ETag); for the uploader and members of converses where it is attached',
    tag: 'files',
  }),
  route({
    method: 'GET',
    path: '/api/files/:fileId/thumbnail',
    action: 'file.access',
    params: fileParams.download,
    input: 'none',
    raw: 'download',
    summary: 'A WebP preview of an image (404 until made, or for other files)',
    tag: 'files',
  }),
  route({
    method: 'GET',
    path: '/api/push/vapid-public-key',
    action: 'push.vapidPublicKey',
    params: pushParams.vapidPublicKey,
    input: 'none',
    summary: 'The VAPID public key for PushManager.subscribe',
    tag: 'push',
    response: 'VapidKey',
  }),
  route({
    method: 'POST',
    path: '/api/push/subscriptions',
    action: 'push.subscribe',
    params: pushParams.subscribe,
    input: 'body',
    status: 201,
    summary: 'Register a Web Push subscription (PushSubscription.toJSON())',
    tag: 'push',
    response: 'Empty',
  }),
  route({
    method: 'DELETE',
    path: '/api/push/subscriptions',
    action: 'push.unsubscribe',
    params: pushParams.unsubscribe,
    input: 'body',
    status: 204,
    summary: 'Remove a Web Push subscription',
    tag: 'push',
  }),
  route({
    method: 'POST',
    path: '/api/push/devices',
    action: 'push.registerDevice',
    params: pushParams.registerDevice,
    input: 'body',
    status: 201,
    summary: 'Register a mobile device token (delivered through the push proxy)',
    tag: 'push',
    response: 'Empty',
  }),
  route({
    method: 'DELETE',
    path: '/api/push/devices',
    action: 'push.removeDevice',
    params: pushParams.removeDevice,
    input: 'body',
    status: 204,
    summary: 'Remove a mobile device token',
    tag: 'push',
  }),
  route({
    method: 'GET',
    path: '/api/notifications',
    action: 'push.inbox',
    params: pushParams.inbox,
    input: 'query',
    summary: 'Mentions and DMs received while offline, newest first (reading the converse clears them)',
    tag: 'push',
    response: 'NotificationPage',
  }),
  route({
    method: 'GET',
    path: '/api/notifications/settings',
    action: 'push.getSettings',
    params: pushParams.getSettings,
    input: 'none',
    summary: 'My notification settings',
    tag: 'push',
    response: 'NotificationSettings',
  }),
  route({
    method: 'PUT',
    path: '/api/notifications/settings',
    action: 'push.updateSettings',
    params: pushParams.updateSettings,
    input: 'body',
    summary: 'Mute everything or some converses',
    tag: 'push',
    response: 'NotificationSettings',
  }),
];
