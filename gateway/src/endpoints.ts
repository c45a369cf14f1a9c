import { endpoint, type Endpoint } from '@im/sdk';
import { gatewayParams } from './params.ts';

/** The endpoints the gateway serves itself (presence lives in its sockets). */
export const gatewayEndpoints: Endpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/presence',
    action: 'gateway.presence',
    params: gatewayParams.presence,
    input: 'query',
    summary: 'Which of up to 200 users (comma-separated ids) are online',
    tag: 'presence',
    response: 'Presence',
  }),
];
