/** What the runtime needs to know of one endpoint to call it (the generated table holds one per operationId). */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With `:name` path parameters: `/api/groups/:groupId`. */
  path: string;
  /** Where the parameters not in the path go; `none`: nowhere (only the path's are sent). */
  input: 'body' | 'query' | 'none' | 'signed';
  status: 200 | 201 | 202 | 204;
  /** Served by the gateway's own handler (streams, multipart, cached pages): only its path is built here. */
  raw?: 'upload' | 'download' | 'cached';
}
