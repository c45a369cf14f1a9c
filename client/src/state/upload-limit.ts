import { useEffect, useState } from 'react';
import { loadAuthOptions } from './auth-options.ts';

// The server says its limit in GET /api/auth/options; asked once per page load.
let known: number | undefined;
let asking: Promise<number | undefined> | undefined;

const ask = (): Promise<number | undefined> =>
  (asking ??= loadAuthOptions().then((options) => (known = options.maxUploadBytes)));

/** The largest file the server accepts, once known (undefined before, or from a server that does not say). */
export function useUploadLimit(): number | undefined {
  const [limit, setLimit] = useState(known);
  useEffect(() => {
    if (known !== undefined) return;
    let live = true;
    void ask().then((value) => live && setLimit(value));
    return () => {
      live = false;
    };
  }, []);
  return limit;
}

/** A limit as people say it: "100 MB", "1.5 GB" (1 KB = 1024 bytes, as the server counts). */
export function limitText(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} bytes`;
  return `${Number.isInteger(value) ? value : value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
}

/** Forgets what the server said (tests start each case afresh). */
export function resetUploadLimit(): void {
  known = undefined;
  asking = undefined;
}
