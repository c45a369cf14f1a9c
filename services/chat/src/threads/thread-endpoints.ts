import { endpoint, type Endpoint } from '@im/sdk';
import { threadParams } from './thread-params.ts';

/** Threads and pins (shared/API.md, "Additions": Conversations). */
export const threadEndpoints: Endpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/messages/:messageId/thread',
    action: 'chat.thread',
    params: threadParams.thread,
    input: 'query',
    summary: "A thread's replies by seq, ascending: after=S the limit just above S (default 50)",
    tag: 'messages',
    response: 'Message[]',
  }),
  endpoint({
    method: 'POST',
    path: '/api/messages/:messageId/thread/ack',
    action: 'chat.threadAck',
    params: threadParams.threadAck,
    input: 'body',
    status: 204,
    summary: "Mark a followed thread's replies read up to seq (never moves back)",
    tag: 'messages',
  }),
  endpoint({
    method: 'GET',
    path: '/api/threads',
    action: 'chat.threads',
    params: threadParams.threads,
    input: 'query',
    summary:
      'Threads I follow (I wrote the root, replied, or was mentioned in a reply), newest reply first, with unread replies',
    tag: 'messages',
    response: 'FollowedThreadPage',
  }),
  endpoint({
    method: 'PUT',
    path: '/api/messages/:messageId/pin',
    action: 'chat.pin',
    params: threadParams.pin,
    input: 'none',
    summary: 'Pin a message (pinMessages in a group, either member of a DM); at most 50 per converse',
    tag: 'messages',
    response: 'Message',
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/messages/:messageId/pin',
    action: 'chat.unpin',
    params: threadParams.pin,
    input: 'none',
    summary: 'Unpin a message (pinMessages in a group, either member of a DM)',
    tag: 'messages',
    response: 'Message',
  }),
  endpoint({
    method: 'GET',
    path: '/api/converses/:converseId/pins',
    action: 'chat.pins',
    params: threadParams.pins,
    input: 'none',
    summary: "A converse's pinned messages, newest pin first",
    tag: 'messages',
    response: 'Message[]',
  }),
];
