import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { call, codePointLength, ImError, sniffMime, type AppContext, invalid, noFileStorage } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { readQuery } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import { sizeText } from './size-text.ts';
import { UploadMeter } from './upload-meter.ts';

/** Multipart framing around a file is small; anything declared beyond this over the limit is refused up front. */
const MULTIPART_SLACK = 64 * 1024;

/** Longest file name (code points). */
const MAX_NAME = 255;

/** A new object key in storage: `prefix/YYYYMM/uuid` (one folder per month). */
export function storageKey(prefix: string, now = new Date()): string {
  return `${prefix}/${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
}

/** Body chunks smaller than this are left to the garbage collector. */
const RELEASE_MIN_BYTES = 16 * 1024;

/**
 * Frees a body chunk's memory as soon as storage is done with it, instead of at some
 * later garbage collection: in a process with a large heap, the collector finds them
 * in a full collection for every few dozen MB received, which costs more than hashing.
 * The HTTP parser copies each body chunk into memory of its own, and busboy passes file
 * data on as views of those chunks; nothing else keeps them (the meter copies what it
 * sniffs). Only a view of the whole of its memory is freed, never a slice of something
 * larger (Node's pool of small buffers, a chunk that also held part headers).
 */
function release(chunk: Buffer): void {
  const memory = chunk.buffer;
  if (
    memory instanceof ArrayBuffer &&
    chunk.byteOffset === 0 &&
    chunk.byteLength === memory.byteLength &&
    chunk.byteLength >= RELEASE_MIN_BYTES
  )
    memory.transfer(0);
}

export interface UploadSource {
  stream: Readable;
  name: string;
  /** Settles once the whole body is read: rejects when a multipart body has a part besides `file`. */
  complete: Promise<void>;
}

const onlyFile = () =>
  invalid('A multipart upload has exactly one part, the "file" field', [
    { field: 'file', type: 'multipartParts', message: 'Only the "file" part is accepted' },
  ]);

/** The `file` part of a multipart body (its only part), or the raw body itself, with its claimed name. */
export function uploadSource(req: IncomingMessage): Promise<UploadSource> {
  const type = req.headers['content-type'] ?? '';
  const name = readQuery(req.url).name || 'file';
  // As the API document declares it; a browser's multipart file name is cut to fit instead.
  if (codePointLength(name) > MAX_NAME)
    return Promise.reject(
      invalid('Invalid input', [
        { field: 'name', type: 'stringMax', message: `The 'name' field must be at most ${MAX_NAME} characters.` },
      ]),
    );
  if (!/^multipart\/form-data/i.test(type)) {
    if (!type)
      return Promise.reject(
        new ImError(
          'IM_ERR_UNSUPPORTED_MEDIA_TYPE',
          'Send multipart/form-data with a "file" field, or the raw bytes with a Content-Type',
        ),
      );
    return Promise.resolve({ stream: req, name, complete: Promise.resolve() });
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, parts: 20, fieldSize: 1024 } });
    } catch {
      reject(invalid('Malformed multipart body'));
      return;
    }
    let found = false;
    let extra = false;
    let refused = false;
    let settle: { resolve(): void; reject(err: unknown): void } | undefined;
    const complete = new Promise<void>((res, rej) => {
      settle = { resolve: res, reject: rej };
    });
    // Nobody may be waiting yet (the file part has not come): the failure is reported through reject below.
    complete.catch(() => undefined);
    const refuse = (err: ImError) => {
      if (found) settle!.reject(err);
      else reject(err);
      refused = true;
    };
    parser.on('file', (field, stream, info) => {
      // Once refused, the rest of the body is read and dropped.
      if (field !== 'file' || found || refused) {
        extra = true;
        stream.resume();
        refuse(onlyFile());
        return;
      }
      found = true;
      resolve({ stream, name: info.filename || 'file', complete });
    });
    parser.on('field', () => {
      extra = true;
      refuse(onlyFile());
    });
    parser.on('error', () => refuse(invalid('Malformed multipart body')));
    parser.on('close', () => {
      if (!found) reject(invalid('The multipart body has no "file" field'));
      else if (!extra) settle!.resolve();
    });
    req.pipe(parser);
  });
}

/**
 * POST /api/files: streams the body to storage under a key of the server's
 * making while counting, hashing and sniffing it; records the metadata only
 * after the bytes are stored. Over the limit: 413 at once, nothing kept.
 */
export function createUploadHandler(app: AppContext, broker: ServiceBroker, auth: Authenticator) {
  const limit = app.config.fileMaxBytes;

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const userId = await auth.fromRequest(req);
    // Not an action call until the bytes are stored: the policy's 'upload' limit is counted here.
    await app.rateLimits.consume('upload', userId);
    const storage = app.storage;
    if (!storage) throw noFileStorage();
    // The quota's room left caps this upload when it is below the size limit (the file
    // service counts the stored size again, atomically, before recording it).
    const usage = await call(broker, 'file.usage', { userId });
    const room = usage.quota - usage.used;
    const quotaBound = room < limit;
    const cap = Math.max(0, Math.min(limit, room));
    const tooLarge = () =>
      quotaBound
        ? new ImError('IM_ERR_QUOTA', `Your uploads may take at most ${sizeText(usage.quota)}; ${sizeText(cap)} left`)
        : new ImError('IM_ERR_PAYLOAD_TOO_LARGE', `Files can be at most ${sizeText(limit)}`);
    const declared = Number(req.headers['content-length'] ?? NaN);
    // Refused from the declared length before a byte of the body is read (a 413 closes the connection).
    if (declared > cap + MULTIPART_SLACK || (quotaBound && cap === 0)) throw tooLarge();

    const { stream, name, complete } = await uploadSource(req);
    const meter = new UploadMeter(cap, tooLarge);
    stream.on('error', (err) => meter.destroy(err));
    // The failure surfaces as storage.put's rejection; this keeps pipe() from rethrowing it.
    meter.on('error', () => undefined);
    const key = storageKey('f');
    try {
      await storage.put(key, stream.pipe(meter), 'application/octet-stream', { release });
    } catch (err) {
      // Nothing of a failed upload stays behind; stop reading the rest of it.
      await storage.remove(key).catch(() => undefined);
      stream.unpipe(meter);
      res.setHeader('connection', 'close');
      throw meter.destroyed && meter.bytes > cap ? tooLarge() : err;
    }
    try {
      // The rest of a multipart body is read before anything is recorded: a second part refuses the upload.
      await complete;
      const file = await call(
        broker,
        'file.register',
        {
          key,
          name: [...name].slice(0, MAX_NAME).join(''),
          size: meter.bytes,
          mime: await sniffMime(meter.head),
          sha256: meter.digest(),
        },
        { meta: { user: { id: userId } } },
      );
      sendJson(res, 201, file);
    } catch (err) {
      await storage.remove(key).catch(() => undefined);
      throw err;
    }
  };
}
