import { endpoint, type Endpoint } from '@im/sdk';
import { callParams } from './params.ts';

/** Voice and video: the call service's public HTTP endpoints (the gateway mounts them). */
export const callEndpoints: Endpoint[] = [
  endpoint({
    method: 'POST',
    path: '/api/converses/:converseId/call/join',
    action: 'call.join',
    params: callParams.join,
    input: 'none',
    summary:
      "A LiveKit access token (1 h) for the call of a voice panel or a DM: connect to `url` with `token` (identity: the caller's id). Not a member: 404; a text panel: 400; voice off or no LiveKit server: 503",
    tag: 'calls',
    response: 'CallJoin',
  }),
  endpoint({
    method: 'GET',
    path: '/api/converses/:converseId/call',
    action: 'call.state',
    params: callParams.state,
    input: 'none',
    summary: "Who is in the converse's call now, in the order they joined (none: no call). Not a member: 404",
    tag: 'calls',
    response: 'CallState',
  }),
  endpoint({
    method: 'GET',
    path: '/api/calls/ringing',
    action: 'call.ringing',
    params: callParams.ringing,
    input: 'none',
    summary:
      'The DM calls ringing for the caller now (started by the other member, not yet answered or declined by the caller): an app that connects while one rings shows it',
    tag: 'calls',
    response: 'CallRinging[]',
  }),
  endpoint({
    method: 'POST',
    path: '/api/converses/:converseId/call/decline',
    action: 'call.decline',
    params: callParams.decline,
    input: 'none',
    status: 204,
    summary:
      "Decline a DM call that is ringing: the call ends for everyone and the DM records it as declined. No call going on: 409; not a DM's member: 404",
    tag: 'calls',
  }),
  endpoint({
    method: 'POST',
    path: '/api/livekit/webhook',
    action: 'call.webhook',
    params: callParams.webhook,
    input: 'signed',
    auth: false,
    status: 204,
    summary:
      "LiveKit's webhook (participant joined or left, track published or unpublished, room finished), signed with the API secret; a bad signature: 401",
    tag: 'calls',
  }),
];
