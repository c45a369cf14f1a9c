import { ImError, type Endpoint } from '@im/sdk';

/**
 * What a bot's token may reach: its own group, and the converse, message and
 * file routes, where membership decides (a bot is a member of its group
 * only). Everything else a person has (other groups, DMs, invites, account,
 * push, administration) answers 404 as if it did not exist.
 */
const OPEN_TO_BOTS: ReadonlyArray<{ method?: Endpoint['method']; path: RegExp }> = [
  { path: /^\/api\/converses\// },
  { path: /^\/api\/messages\// },
  { path: /^\/api\/files(\/|$)/ },
  { method: 'GET', path: /^\/api\/(presence|unread|search)$/ },
  { method: 'GET', path: /^\/api\/users(\/me|\/:userId)?$/ },
  { method: 'GET', path: /^\/api\/groups$/ },
];

/** Throws 404 unless a bot of `botGroupId` may call `route` with these path parameters. */
export function refuseOutsideBotScope(
  route: Endpoint,
  pathParams: Record<string, string | undefined>,
  botGroupId: string,
): void {
  if (route.path.startsWith('/api/groups/:groupId')) {
    if (pathParams.groupId === botGroupId) return;
  } else if (OPEN_TO_BOTS.some((open) => (!open.method || open.method === route.method) && open.path.test(route.path)))
    return;
  throw new ImError('IM_ERR_NOT_FOUND', 'Not found');
}
