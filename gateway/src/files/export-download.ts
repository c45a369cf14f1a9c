import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { call, ExportUrlSigner, OBJECT_ID, type AppContext, invalid, noFileStorage, unauthorized } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import { readQuery } from '../http/body.ts';

/**
 * GET /api/exports/:id/archive: an export's zip, for whoever holds the
 * signed URL that GET /api/exports/:id gave its asker (a browser opens it
 * as a download; no access token goes in a URL).
 */
export function createExportDownloadHandler(app: AppContext, broker: ServiceBroker) {
  const signer = new ExportUrlSigner(app.config.secret, app.config.fileUrlTtlSec);
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string | undefined>,
  ): Promise<void> => {
    const exportId = params.exportId ?? '';
    const { exp, sig } = readQuery(req.url);
    // No signature at all is a malformed request; a wrong or expired one, a credential refused.
    if (exp === undefined || sig === undefined)
      throw invalid('exp and sig are required: GET /api/exports/:id gives the link');
    if (!OBJECT_ID.test(exportId) || !signer.verify(exportId, exp, sig))
      throw unauthorized('This download link is invalid or has expired; ask for a new one');
    const storage = app.storage;
    if (!storage) throw noFileStorage();
    const archive = await call(broker, 'import.exportLocate', { exportId });
    const body = await storage.get(archive.storageKey);
    res.writeHead(200, {
      'content-type': 'application/zip',
      'content-length': archive.size,
      'content-disposition': `attachment; filename="${archive.fileName}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    await (body.sendTo ? body.sendTo(res) : pipeline(body, res)).catch(() => res.destroy());
  };
}
