import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes the sniffer looks at. */
export const SNIFF_BYTES = 4100;

/**
 * The content type of a file from its first bytes, never from what the
 * client claims: binary formats by signature (file-type), then HTML and SVG
 * (dangerous when rendered), then UTF-8 text, else octet-stream.
 */
export async function sniffMime(head: Buffer): Promise<string> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  if (head.length === 0) return 'application/octet-stream';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  if (/^<svg[\s>]|^<\?xml[^>]*>\s*(<!--.*?-->\s*)*<svg[\s>]/s.test(text)) return 'image/svg+xml';
  if (/^<(!doctype html|html|head|body|script|iframe|div|p|a|img|style|meta|title|table|h[1-6])[\s>/]/.test(text))
    return 'text/html';
  if (looksLikeText(head)) return 'text/plain';
  return 'application/octet-stream';
}

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  // A multi-byte character may be cut at the end of the sample.
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, Math.max(0, head.length - 3)));
  return !decoded.includes('\uFFFD');
}

/** Types a browser may show inline; everything else downloads (`Content-Disposition: attachment`). SVG never inline. */
export const isInlineSafe = (mime: string): boolean =>
  (/^(image|video|audio)\//.test(mime) && mime !== 'image/svg+xml') || mime === 'application/pdf';
