import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ImError, invalid } from '@im/sdk';

/** A multipart form's text fields and its `file` part, read whole. */
export interface SmallImageForm {
  fields: Record<string, string>;
  bytes?: Buffer;
}

/** A part the form does not have (as the API document declares it: no other properties). */
const unknownPart = (name: string, known: readonly string[]) =>
  invalid(`Unknown part '${name}': the form has ${['file', ...known].join(' and ')}`, [
    { field: name, type: 'multipartParts', message: 'Not a part of this form' },
  ]);

/**
 * Reads a multipart body whose `file` part is a small image, into memory and
 * never past `maxBytes` (then `tooLarge()`, once the rest is drained). Its
 * parts are `file` (once) and the named text `fields`: any other part
 * refuses the form (400), once the rest is drained.
 */
export function readSmallImageForm(
  req: IncomingMessage,
  options: { maxBytes: number; tooLarge: () => ImError; fields: readonly string[]; usage: string },
): Promise<SmallImageForm> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
    return Promise.reject(new ImError('IM_ERR_UNSUPPORTED_MEDIA_TYPE', options.usage));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 5, parts: 6, fieldSize: 256, fileSize: options.maxBytes },
      });
    } catch {
      reject(invalid('Malformed multipart body'));
      return;
    }
    const form: SmallImageForm = { fields: {} };
    let failure: ImError | undefined;
    parser.on('field', (field, value) => {
      if (options.fields.includes(field)) form.fields[field] = value;
      // `file` as text, not a file part: the caller's check of the bytes says what is missing.
      else if (field !== 'file') failure ??= unknownPart(field, options.fields);
    });
    let files = 0;
    parser.on('file', (field, stream) => {
      files += 1;
      if (field !== 'file' || files > 1) {
        failure ??= unknownPart(field, options.fields);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // busboy stops at fileSize and says so: the image is refused, the rest of the body is drained.
      stream.on('limit', () => {
        failure ??= options.tooLarge();
      });
      stream.on('end', () => {
        form.bytes = Buffer.concat(chunks);
      });
    });
    // Past busboy's limits a part is dropped unseen: a second file, or more fields than the form has.
    for (const limit of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const)
      parser.on(limit, () => {
        failure ??= invalid(`The form has only ${['file', ...options.fields].join(' and ')}`);
      });
    parser.on('error', () => reject(invalid('Malformed multipart body')));
    parser.on('close', () => (failure ? reject(failure) : resolve(form)));
    req.pipe(parser);
  });
}

/** The hex SHA-256 of an image read whole, as file.register records it. */
export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
