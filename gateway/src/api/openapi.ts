import type { ApiSchemaName } from '@im/protocol';
import type { Endpoint } from '@im/sdk';
import { objectSchema, ruleToJsonSchema, type JsonSchema } from './json-schema.ts';
import responseSchemas from './response-schemas.json' with { type: 'json' };

const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

/** Derived from the protocol's types by `npm run api:schemas` (a test keeps it current). */
const SCHEMAS = responseSchemas as { names: Record<ApiSchemaName, string>; components: Record<string, JsonSchema> };

/** An answer named as in the protocol's ApiSchemas -> its component. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${SCHEMAS.names[name as ApiSchemaName] ?? name}` });
const responseSchema = (response: string) =>
  response.endsWith('[]') ? { type: 'array', items: ref(response.slice(0, -2)) } : ref(response);

/** The `file` part's media types, when the route takes only some (schemathesis sends a file of one of them). */
const fileEncoding = (types: Endpoint['uploadTypes']) =>
  types ? { encoding: { file: { contentType: types.join(', ') } } } : {};

/** A multipart form with `file` and the route's own text fields (a custom emoji's `name`). */
const namedUploadBody = (fields: NonNullable<Endpoint['uploadFields']>, types: Endpoint['uploadTypes']) => ({
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file', ...Object.keys(fields)],
          properties: {
            file: { type: 'string', format: 'binary' },
            ...Object.fromEntries(
              Object.entries(fields).map(([name, f]) => [
                name,
                { type: 'string', pattern: f.pattern, description: f.description },
              ]),
            ),
          },
          additionalProperties: false,
        },
        ...fileEncoding(types),
      },
    },
  },
});

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
        schema: {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'string', format: 'binary' } },
          additionalProperties: false,
        },
      },
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    },
  },
};

/** A body checked against a signature in the Authorization header (a JWT naming the body's SHA-256). */
const SIGNED_BODY = {
  requestBody: {
    required: true,
    content: {
      'application/webhook+json': { schema: { type: 'object' } },
    },
  },
  parameters: [
    {
      name: 'Authorization',
      in: 'header',
      required: true,
      description: "The sender's signature: a JWT signed with the shared secret, carrying the body's SHA-256",
      schema: { type: 'string' },
    },
  ],
};

const DOWNLOAD_RESPONSE = {
  description:
    'The bytes, with the sniffed type, nosniff, and Content-Disposition attachment unless an image, video, audio or PDF',
  // Served with the type sniffed from the bytes at upload, whatever it is (images as WebP thumbnails).
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
};

const linksOf = (links: Record<string, Record<string, string>>) =>
  Object.fromEntries(
    Object.entries(links).map(([operationId, parameters]) => [operationId, { operationId, parameters }]),
  );

/** A JSON body; it may be left out (meaning `{}`) exactly when `{}` would do. */
const jsonBody = (schema: JsonSchema) => ({
  required: (Array.isArray(schema.required) && schema.required.length > 0) || schema.minProperties !== undefined,
  content: { 'application/json': { schema } },
});

/**
 * Query parameters of which a request uses at most one set: one object
 * parameter whose `oneOf` has a branch per set (each closed to the others).
 */
function exclusiveQueryParameter(
  exclusive: NonNullable<Endpoint['exclusiveQuery']>,
  properties: Record<string, unknown>,
): Record<string, unknown> {
  return {
    name: exclusive.name,
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    schema: {
      type: 'object',
      oneOf: exclusive.oneOf.map((set, i) => ({
        type: 'object',
        properties: Object.fromEntries(set.map((name) => [name, properties[name]])),
        additionalProperties: false,
        // The first set may be left out entirely; another is chosen by naming one of its parameters.
        ...(i > 0 ? { minProperties: 1 } : {}),
      })),
    },
  };
}

const ERROR_RESPONSE = {
  description: 'Error (see the error catalog)',
  content: { 'application/json': { schema: ref('Error') } },
};

/** The OpenAPI 3.1 document of the public HTTP API, generated from the route table. */
export function buildOpenApi(routes: readonly Endpoint[]): JsonSchema {
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
      const properties = query.properties as Record<string, unknown>;
      const exclusive = new Set(route.exclusiveQuery?.oneOf.flat());
      for (const [name, schema] of Object.entries(properties)) {
        if (!exclusive.has(name)) parameters.push({ name, in: 'query', required: required.includes(name), schema });
      }
      if (route.exclusiveQuery) parameters.push(exclusiveQueryParameter(route.exclusiveQuery, properties));
    }
    const operation: Record<string, unknown> = {
      operationId: route.operationId ?? route.action,
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth ? {} : { security: [] }),
      ...(route.input === 'body'
        ? {
            requestBody: jsonBody({
              ...objectSchema(route.params, inPath),
              ...(route.nonEmptyBody ? { minProperties: 1 } : {}),
            }),
          }
        : {}),
      ...(route.input === 'signed' ? SIGNED_BODY : {}),
      ...(route.raw === 'upload'
        ? route.uploadFields
          ? namedUploadBody(route.uploadFields, route.uploadTypes)
          : UPLOAD_BODY
        : {}),
      // After the upload body: its own parameters go beside the path's, not instead of them.
      ...(parameters.length > 0 || (route.raw === 'upload' && !route.uploadFields)
        ? {
            parameters: [
              ...parameters,
              ...(route.raw === 'upload' && !route.uploadFields ? UPLOAD_BODY.parameters : []),
            ],
          }
        : {}),
      responses: {
        [String(route.status)]:
          route.status === 204
            ? { description: 'Done' }
            : route.raw === 'download'
              ? DOWNLOAD_RESPONSE
              : route.produces
                ? { description: 'OK', content: { [route.produces]: { schema: { type: 'string' } } } }
                : {
                    description: 'OK',
                    content: { 'application/json': { schema: responseSchema(route.response ?? 'Empty') } },
                    ...(route.links ? { links: linksOf(route.links) } : {}),
                  },
        ...(route.accepted
          ? {
              '202': {
                description: route.accepted.description,
                content: { 'application/json': { schema: ref(route.accepted.response) } },
              },
            }
          : {}),
        ...(route.raw === 'cached'
          ? { '304': { description: 'Not modified (If-None-Match, If-Modified-Since)' } }
          : {}),
        ...(route.raw === 'download'
          ? {
              '206': { ...DOWNLOAD_RESPONSE, description: 'The requested byte range' },
              '304': { description: 'Not modified (If-None-Match)' },
            }
          : {}),
        ...(route.invalidWhen
          ? { '400': { ...ERROR_RESPONSE, description: `Invalid input, also when ${route.invalidWhen}` } }
          : {}),
        // A page's 404 is a page, for a browser; its other errors are the catalog's.
        '4XX':
          route.produces === 'text/html'
            ? { ...ERROR_RESPONSE, content: { ...ERROR_RESPONSE.content, 'text/html': { schema: { type: 'string' } } } }
            : ERROR_RESPONSE,
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
      schemas: SCHEMAS.components,
    },
  };
}
