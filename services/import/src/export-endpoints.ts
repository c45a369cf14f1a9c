import { endpoint, type Endpoint } from '@im/sdk';
import { exportParams } from './export/export-params.ts';

/** The public HTTP endpoints of group and personal exports. */
export const exportEndpoints: Endpoint[] = [
  endpoint({
    method: 'POST',
    path: '/api/groups/:groupId/export',
    action: 'import.exportGroup',
    params: exportParams.group,
    input: 'none',
    status: 202,
    summary:
      'Export the group (its owner or a server admin): a zip of JSON per converse plus the files, written in the background; follow it at GET /api/exports/:exportId',
    tag: 'groups',
    response: 'ExportAccepted',
    links: { 'import.exportStatus': { exportId: '$response.body#/id' } },
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/me/export',
    action: 'import.exportMine',
    params: exportParams.mine,
    input: 'none',
    status: 202,
    summary: 'Export my own data (profile, my messages, my DMs, my files), written in the background',
    tag: 'users',
    response: 'ExportAccepted',
    links: { 'import.exportStatus': { exportId: '$response.body#/id' } },
  }),
  endpoint({
    method: 'GET',
    path: '/api/exports/:exportId',
    action: 'import.exportStatus',
    params: exportParams.status,
    input: 'none',
    summary: "An export's status, and once done a signed URL of its archive (only for the one who asked)",
    tag: 'users',
    response: 'ExportJob',
  }),
  endpoint({
    method: 'GET',
    path: '/api/exports/:exportId/archive',
    action: 'import.exportLocate',
    operationId: 'import.exportDownload',
    params: exportParams.download,
    input: 'query',
    auth: false,
    raw: 'download',
    summary: "The export's zip, through the signed URL GET /api/exports/:exportId gives (exp, sig); no token",
    tag: 'users',
  }),
];
