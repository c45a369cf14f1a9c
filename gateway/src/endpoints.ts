import { endpoint, type Endpoint } from '@im/sdk';
import { gatewayParams } from './params.ts';

/** A web-public panel's page or feed, kept rendered in memory. */
const publicPanel = (
  path: string,
  operationId: string,
  produces: NonNullable<Endpoint['produces']>,
  summary: string,
): Endpoint =>
  endpoint({
    method: 'GET',
    path,
    action: 'chat.feedMessages',
    operationId,
    params: gatewayParams.publicPage,
    input: 'query',
    auth: false,
    raw: 'cached',
    produces,
    summary: `${summary}; no token. Not web-public: 404`,
    tag: 'public',
  });

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
  publicPanel(
    '/p/:panelId',
    'public.page',
    'text/html',
    "A web-public panel's newest messages as an HTML page (or those below `before`), readable without JavaScript",
  ),
  publicPanel(
    '/p/:panelId/feed.atom',
    'public.atom',
    'application/atom+xml',
    "A web-public panel's newest 50 messages as an Atom 1.0 feed",
  ),
  publicPanel(
    '/p/:panelId/feed.rss',
    'public.rss',
    'application/rss+xml',
    "A web-public panel's newest 50 messages as an RSS 2.0 feed",
  ),
  endpoint({
    method: 'GET',
    path: '/feeds/:token/converses/:converseId.atom',
    action: 'chat.access',
    operationId: 'public.personalFeed',
    params: gatewayParams.personalFeed,
    input: 'none',
    auth: false,
    raw: 'cached',
    produces: 'application/atom+xml',
    summary:
      "An Atom feed of a converse the personal feed token's owner is a member of (POST /api/feeds/token makes the token); otherwise 404",
    tag: 'feeds',
  }),
];
