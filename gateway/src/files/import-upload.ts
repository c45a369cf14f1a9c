import type { IncomingMessage, ServerResponse } from 'node:http';
import { call, type AppContext, noFileStorage } from '@im/sdk';
import type { ImportJob, ImportKind } from '@im/protocol';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { readQuery } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import { storageKey, uploadSource } from './upload.ts';

/**
 * POST /api/admin/imports?kind=&owner=: a server admin's export, streamed
 * into object storage (no size limit: exports are as large as the history
 * they hold, and only server admins may send one), then handed to the import
 * service, which answers 202 with the queued job. Who may, which kind and
 * whose group are checked before a byte is stored.
 */
export function createImportUploadHandler(app: AppContext, broker: ServiceBroker, auth: Authenticator) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const userId = await auth.fromRequest(req);
    const meta = { meta: { user: { id: userId } } };
    const query = readQuery(req.url);
    const params = { kind: query.kind ?? '', ...(query.owner ? { owner: query.owner } : {}) };
    const { ownerId } = await call(broker, 'import.prepare', params, meta);
    const storage = app.storage;
    if (!storage) throw noFileStorage();
    const { stream, name, complete } = await uploadSource(req);
    const key = storageKey('imports');
    try {
      await storage.put(key, stream, 'application/octet-stream');
      await complete;
    } catch (err) {
      await storage.remove(key).catch(() => undefined);
      res.setHeader('connection', 'close');
      throw err;
    }
    try {
      const job: ImportJob = await call(
        broker,
        'import.start',
        { kind: params.kind as ImportKind, ownerId, storageKey: key, fileName: [...name].slice(0, 255).join('') },
        meta,
      );
      sendJson(res, 202, job);
    } catch (err) {
      await storage.remove(key).catch(() => undefined);
      throw err;
    }
  };
}
