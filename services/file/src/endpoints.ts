import { endpoint, type Endpoint } from '@im/sdk';
import { fileParams } from './params.ts';

/** Files (the bytes stream through the gateway's own handlers): the file service's public HTTP endpoints (the gateway mounts them). */
export const fileEndpoints: Endpoint[] = [
  endpoint({
    method: 'POST',
    path: '/api/files',
    action: 'file.register',
    params: {},
    input: 'none',
    status: 201,
    raw: 'upload',
    summary: 'Upload a file: multipart/form-data field "file", or the raw bytes with ?name=',
    tag: 'files',
    response: 'File',
    // A thumbnail is made later, and only of some images: its URL is in thumbnailUrl once it exists.
    links: { 'file.info': { fileId: '$response.body#/id' }, 'file.download': { fileId: '$response.body#/id' } },
  }),
  endpoint({
    method: 'GET',
    path: '/api/files/:fileId',
    action: 'file.access',
    operationId: 'file.download',
    params: fileParams.download,
    input: 'none',
    raw: 'download',
    summary:
      'The bytes (Range, ETag); with a bearer token of the uploader or a member of a converse where it is attached, or a signed URL (exp, sig)',
    tag: 'files',
  }),
  endpoint({
    method: 'GET',
    path: '/api/files/:fileId/thumbnail',
    action: 'file.access',
    operationId: 'file.thumbnail',
    params: fileParams.download,
    input: 'none',
    raw: 'download',
    summary: 'A WebP preview of an image (404 until made, or for other files)',
    tag: 'files',
  }),
  endpoint({
    method: 'GET',
    path: '/api/files/:fileId/info',
    action: 'file.info',
    params: fileParams.info,
    input: 'query',
    summary: "A file's metadata (thumbnailUrl once the thumbnail exists); same access as the bytes",
    tag: 'files',
    response: 'File',
  }),
  endpoint({
    method: 'GET',
    path: '/api/files/:fileId/url',
    action: 'file.url',
    params: fileParams.url,
    input: 'query',
    summary:
      'A signed URL for the bytes (or, with variant=thumbnail, the preview) that works without credentials until expiresAt',
    tag: 'files',
    response: 'SignedFileUrl',
  }),
];
