import type { ApiRoute } from './routes.ts';
import { objectSchema, ruleToJsonSchema, type JsonSchema } from './json-schema.ts';

const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseSchema = (response: string) =>
  response.endsWith('[]') ? { type: 'array', items: ref(response.slice(0, -2)) } : ref(response);

const UPLOAD_BODY = {
  parameters: [
    {
      name: 'name',
      in: 'query',
      required: false,
      schema: { type: 'string', maxLength: 255 },
      description: 'File name, for a raw body',
    },
  ],
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
      },
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    },
  },
};

const DOWNLOAD_RESPONSE = {
  description:
    'The bytes, with the sniffed type, nosniff, and Content-Disposition attachment unless an image, video, audio or PDF',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};

const ERROR_RESPONSE = {
  description: 'Error (see the error catalog)',
  content: { 'application/json': { schema: ref('Error') } },
};

/** The OpenAPI 3.1 document of the public HTTP API, generated from the route table. */
export function buildOpenApi(routes: ApiRoute[]): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const inPath = pathParamNames(route.path);
    const parameters: unknown[] = inPath.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: ruleToJsonSchema(route.params[name]),
    }));
    if (route.input === 'query') {
      const query = objectSchema(route.params, inPath);
      const required = (query.required as string[] | undefined) ?? [];
      for (const [name, schema] of Object.entries(query.properties as Record<string, unknown>)) {
        parameters.push({ name, in: 'query', required: required.includes(name), schema });
      }
    }
    const operation: Record<string, unknown> = {
      operationId: route.action,
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth ? {} : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.input === 'body'
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: objectSchema(route.params, inPath) } },
            },
          }
        : {}),
      ...(route.raw === 'upload' ? UPLOAD_BODY : {}),
      responses: {
        [String(route.status)]:
          route.status === 204
            ? { description: 'Done' }
            : route.raw === 'download'
              ? DOWNLOAD_RESPONSE
              : {
                  description: 'OK',
                  content: { 'application/json': { schema: responseSchema(route.response ?? 'Empty') } },
                },
        ...(route.raw === 'download'
          ? {
              '206': { ...DOWNLOAD_RESPONSE, description: 'The requested byte range' },
              '304': { description: 'Not modified (If-None-Match)' },
            }
          : {}),
        '4XX': ERROR_RESPONSE,
      },
    };
    (paths[toOpenApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'im-platform API',
      version: '0.1.0',
      description: 'The public HTTP API. Errors use the codes of docs/errors.md.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: COMPONENTS,
    },
  };
}

const id = { type: 'string', pattern: '^[0-9a-f]{24}$' };
const time = { type: 'string', format: 'date-time' };
const role = { type: 'string', enum: ['owner', 'admin', 'member'] };

const COMPONENTS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', pattern: '^IM_ERR_' }, message: { type: 'string' }, details: {} },
      },
    },
  },
  User: {
    type: 'object',
    required: ['id', 'username', 'nickname', 'createdAt'],
    properties: {
      id,
      username: { type: 'string' },
      nickname: { type: 'string' },
      avatar: { type: 'string' },
      createdAt: time,
    },
  },
  AuthResult: {
    type: 'object',
    required: ['token', 'user'],
    properties: { token: { type: 'string' }, user: ref('User') },
  },
  Panel: {
    type: 'object',
    required: ['id', 'name', 'type', 'converseId'],
    properties: { id, name: { type: 'string' }, type: { type: 'string', enum: ['text'] }, converseId: id },
  },
  Group: {
    type: 'object',
    required: ['id', 'name', 'ownerId', 'panels', 'memberCount', 'myRole'],
    properties: {
      id,
      name: { type: 'string' },
      ownerId: id,
      panels: { type: 'array', items: ref('Panel') },
      memberCount: { type: 'integer' },
      myRole: role,
    },
  },
  Member: {
    type: 'object',
    required: ['user', 'role', 'joinedAt'],
    properties: { user: ref('User'), role, joinedAt: time },
  },
  MemberPage: {
    type: 'object',
    required: ['items', 'nextCursor'],
    properties: { items: { type: 'array', items: ref('Member') }, nextCursor: { type: ['string', 'null'] } },
  },
  Invite: {
    type: 'object',
    required: ['code', 'expiresAt', 'maxUses'],
    properties: { code: { type: 'string' }, expiresAt: time, maxUses: { type: ['integer', 'null'] } },
  },
  Reaction: {
    type: 'object',
    required: ['emoji', 'count', 'me'],
    properties: { emoji: { type: 'string' }, count: { type: 'integer' }, me: { type: 'boolean' } },
  },
  Message: {
    type: 'object',
    required: ['id', 'converseId', 'seq', 'authorId', 'content', 'createdAt', 'reactions', 'mentions', 'attachments'],
    properties: {
      id,
      converseId: id,
      seq: { type: 'integer' },
      authorId: id,
      content: { type: 'string' },
      createdAt: time,
      editedAt: time,
      deleted: { type: 'boolean' },
      reactions: { type: 'array', items: ref('Reaction') },
      mentions: { type: 'array', items: id },
      attachments: { type: 'array', items: id },
      replyTo: id,
      clientMsgId: { type: 'string' },
    },
  },
  DmConverse: {
    type: 'object',
    required: ['id', 'type', 'memberIds'],
    properties: { id, type: { type: 'string', enum: ['dm'] }, memberIds: { type: 'array', items: id } },
  },
  UnreadEntry: {
    type: 'object',
    required: ['converseId', 'lastSeq', 'readSeq', 'unread', 'mentions'],
    properties: {
      converseId: id,
      lastSeq: { type: 'integer' },
      readSeq: { type: 'integer' },
      unread: { type: 'integer' },
      mentions: { type: 'integer' },
    },
  },
  Presence: { type: 'object', required: ['online'], properties: { online: { type: 'array', items: id } } },
  File: {
    type: 'object',
    required: ['id', 'name', 'size', 'mime', 'url'],
    properties: {
      id,
      name: { type: 'string' },
      size: { type: 'integer' },
      mime: { type: 'string' },
      url: { type: 'string' },
      thumbnailUrl: { type: 'string' },
    },
  },
  VapidKey: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } },
  Notification: {
    type: 'object',
    required: ['id', 'kind', 'converseId', 'messageId', 'seq', 'authorId', 'preview', 'createdAt'],
    properties: {
      id,
      kind: { type: 'string', enum: ['mention', 'dm'] },
      converseId: id,
      messageId: id,
      seq: { type: 'integer' },
      authorId: id,
      preview: { type: 'string' },
      createdAt: time,
    },
  },
  NotificationPage: {
    type: 'object',
    required: ['items', 'nextCursor'],
    properties: { items: { type: 'array', items: ref('Notification') }, nextCursor: { type: ['string', 'null'] } },
  },
  NotificationSettings: {
    type: 'object',
    required: ['muteAll', 'mutedConverseIds'],
    properties: { muteAll: { type: 'boolean' }, mutedConverseIds: { type: 'array', items: id } },
  },
  Empty: { type: 'object' },
};
