import { groupParams } from '@im/service-group/params';
import { userParams } from '@im/service-user/params';

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
  tag: 'auth' | 'users' | 'groups' | 'members' | 'panels' | 'invites';
  /** OpenAPI component of the answer; `[]` suffix: an array of it. */
  response?: string;
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
];
