import { endpoint, type Endpoint } from '@im/sdk';
import { gatewayParams } from './params.ts';

/** The endpoints the gateway serves itself (presence lives in its sockets; public reads in its memory). */
export const gatewayEndpoints: Endpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/presence',
    action: 'gateway.presence',
    params: gatewayParams.presence,
    input: 'query',
    summary:
      'Which of up to 200 users (comma-separated ids) are online; users who share no group or DM with the caller are left out',
    tag: 'presence',
    response: 'Presence',
  }),
  endpoint({
    method: 'GET',
    path: '/api/public/panels/:panelId/messages',
    action: 'chat.feedMessages',
    operationId: 'public.panelMessages',
    params: gatewayParams.publicMessages,
    input: 'query',
    auth: false,
    raw: 'cached',
    summary:
      "A web-public panel's messages as history gives them (newest page, or below `before`), deleted ones left out; no token. Not web-public: 404",
    tag: 'public',
    response: 'Message[]',
  }),
];
