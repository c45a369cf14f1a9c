import { idParam, limitParam, strict } from '@im/sdk';
import { seq } from '../params.ts';
import { timeCursorParam } from '../personal/time-cursor.ts';

/** `GET /api/threads` cursor: `<lastReplyAt ms>_<follow id>`, as the previous page handed it out. */
const cursor = timeCursorParam;

/** Parameters of the thread and pin actions (fastest-validator; the API document is generated from them). */
export const threadParams = {
  thread: strict({ messageId: idParam, after: { ...seq, optional: true }, limit: limitParam }),
  threads: strict({ cursor, limit: limitParam }),
  threadAck: strict({ messageId: idParam, seq }),
  pin: strict({ messageId: idParam }),
  pins: strict({ converseId: idParam }),
} as const;
