import { endpoint, type Endpoint } from '@im/sdk';
import { personalParams } from './personal-params.ts';

/** Polls, submessages and saved messages (shared/API.md, "Notifications and personal organisation"). */
export const personalEndpoints: Endpoint[] = [
  endpoint({
    method: 'PUT',
    path: '/api/messages/:messageId/poll/votes',
    action: 'chat.vote',
    params: personalParams.vote,
    input: 'body',
    summary:
      "Vote in a message's poll: my choice replaces my earlier one, an empty list withdraws it (a closed poll: 409)",
    tag: 'messages',
    response: 'Message',
  }),
  endpoint({
    method: 'POST',
    path: '/api/messages/:messageId/poll/close',
    action: 'chat.closePoll',
    params: personalParams.closePoll,
    input: 'none',
    summary: 'Close my poll before its time (the author only)',
    tag: 'messages',
    response: 'Message',
  }),
  endpoint({
    method: 'POST',
    path: '/api/messages/:messageId/submessages',
    action: 'chat.postSubmessage',
    params: personalParams.postSubmessage,
    input: 'body',
    status: 201,
    summary:
      "A widget's event on a message (a JSON object as text, at most 4,096 characters), relayed to the converse as message:submessage",
    tag: 'messages',
    response: 'Submessage',
  }),
  endpoint({
    method: 'GET',
    path: '/api/messages/:messageId/submessages',
    action: 'chat.submessages',
    params: personalParams.submessages,
    input: 'none',
    summary: "A message's submessages in the order they came",
    tag: 'messages',
    response: 'Submessage[]',
  }),
  endpoint({
    method: 'PUT',
    path: '/api/messages/:messageId/saved',
    action: 'chat.save',
    params: personalParams.save,
    input: 'none',
    status: 204,
    summary: 'Save a message for later (again: nothing changes)',
    tag: 'messages',
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/messages/:messageId/saved',
    action: 'chat.unsave',
    params: personalParams.save,
    input: 'none',
    status: 204,
    summary: 'Remove a message from my saved ones',
    tag: 'messages',
  }),
  endpoint({
    method: 'GET',
    path: '/api/saved',
    action: 'chat.saved',
    params: personalParams.saved,
    input: 'query',
    summary:
      'My saved messages, newest saved first, only those I can still read (a page may hold fewer than the limit)',
    tag: 'messages',
    response: 'SavedPage',
  }),
];
