import type { Endpoint } from '@im/sdk';
import type { RouteHandler } from '../http/router.ts';

/**
 * The gateway's own handlers of the table's raw endpoints (streaming
 * uploads and downloads, pages and feeds kept in memory), by the
 * endpoint's operationId in the document.
 */
export type RawHandlers = Readonly<Record<string, RouteHandler>>;

/** An endpoint's name in the document, and in the raw handlers. */
export const operationIdOf = (route: Endpoint): string => route.operationId ?? route.action;
