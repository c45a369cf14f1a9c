import { endpoint, type Endpoint } from '@im/sdk';
import { importParams } from './params.ts';

/** Server admins' imports (the upload itself is a streaming route of the gateway). */
export const importEndpoints: Endpoint[] = [
  endpoint({
    method: 'POST',
    path: '/api/admin/imports',
    action: 'import.start',
    operationId: 'import.upload',
    params: importParams.prepare,
    input: 'query',
    status: 202,
    raw: 'upload',
    summary:
      'Import an export (server admins): ?kind=slack|mattermost|discord|im&owner=<username> (default: me); the export as multipart/form-data field "file", or the raw bytes. Answers the queued job',
    tag: 'admin',
    response: 'ImportJob',
  }),
  endpoint({
    method: 'GET',
    path: '/api/admin/imports',
    action: 'import.list',
    params: importParams.list,
    input: 'none',
    summary: 'The latest imports, newest first, with their progress and summaries (server admins)',
    tag: 'admin',
    response: 'ImportJob[]',
  }),
  endpoint({
    method: 'GET',
    path: '/api/admin/imports/:importId',
    action: 'import.get',
    params: importParams.get,
    input: 'none',
    summary: 'One import: status, progress, summary and the reasons for what it skipped (server admins)',
    tag: 'admin',
    response: 'ImportJob',
  }),
];
