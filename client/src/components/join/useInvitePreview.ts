import type { InvitePreview } from '@im/protocol';
import { useEffect, useState } from 'react';
import { api } from '../../api/api.ts';

/** An invite's preview: undefined while asked (or no code), null when the code is no longer good (or was never). */
export function useInvitePreview(code: string): InvitePreview | null | undefined {
  const [preview, setPreview] = useState<InvitePreview | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setPreview(undefined);
    if (!code) return;
    api.call('group.previewInvite', { code }).then(
      (p) => live && setPreview(p),
      () => live && setPreview(null),
    );
    return () => {
      live = false;
    };
  }, [code]);
  return preview;
}
