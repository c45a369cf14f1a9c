import { useEffect, useState } from 'react';
import { accountMap } from './account-state.ts';
import { api } from '../api/api.ts';

export type FileVariant = 'file' | 'thumbnail';

/** A signed URL is asked for again this long before it expires. */
const RENEW_BEFORE_MS = 60_000;

interface Signed {
  url: string;
  expiresAtMs: number;
}

// Signed links work without a token: the next account in this tab must ask for its own.
const cache = accountMap<string, Signed>('signed file links');
const pending = accountMap<string, Promise<Signed | null>>('signed file links asked for');

const fresh = (signed: Signed | undefined) =>
  signed !== undefined && signed.expiresAtMs - RENEW_BEFORE_MS > Date.now() ? signed : undefined;

/**
 * A signed URL for a file's bytes or preview (GET /api/files/:id/url): works
 * in <img src> and download links without any token in it. Shared by every
 * component showing the file, renewed shortly before it expires; null when
 * the server has none to give (no preview yet, or not ours to see).
 */
export function signedFileUrl(fileId: string, variant: FileVariant): Promise<Signed | null> {
  const key = `${fileId}:${variant}`;
  const cached = fresh(cache.get(key));
  if (cached) return Promise.resolve(cached);
  let request = pending.get(key);
  if (!request) {
    request = api
      .call('file.url', { fileId, variant })
      .then((answer) => {
        const signed = { url: answer.url, expiresAtMs: Date.parse(answer.expiresAt) };
        cache.set(key, signed);
        return signed;
      })
      .catch(() => null)
      .finally(() => pending.delete(key));
    pending.set(key, request);
  }
  return request;
}

/**
 * The current signed URL of a file (undefined while asking, null when there is
 * none), kept fresh while shown. A null variant asks for nothing (a file kind
 * with no preview).
 */
export function useFileUrl(fileId: string, variant: FileVariant | null = 'file'): string | null | undefined {
  const [url, setUrl] = useState<string | null | undefined>(() =>
    variant ? fresh(cache.get(`${fileId}:${variant}`))?.url : null,
  );
  useEffect(() => {
    if (!variant) {
      setUrl(null);
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      void signedFileUrl(fileId, variant).then((signed) => {
        if (!live) return;
        setUrl(signed?.url ?? null);
        if (signed) timer = setTimeout(load, Math.max(1_000, signed.expiresAtMs - RENEW_BEFORE_MS - Date.now()));
      });
    };
    load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [fileId, variant]);
  return url;
}
