import { idParam, strict } from '@im/sdk';
import { IMPORT_KINDS } from './sources/open-source.ts';

const kind = { type: 'enum', values: [...IMPORT_KINDS] } as const;
/** A username (the accounts' rule), case-insensitive. */
const username = { type: 'string', min: 3, max: 32, pattern: /^[A-Za-z0-9_.-]+$/ } as const;

export const importParams = {
  /** The upload route's query, checked before a byte of the body is stored. */
  prepare: strict({ kind, owner: { ...username, optional: true } }),
  start: strict({
    kind,
    ownerId: idParam,
    storageKey: { type: 'string', min: 1, max: 200 },
    fileName: { type: 'string', min: 1, max: 255 },
  }),
  list: strict({}),
  get: strict({ importId: idParam }),
};
