import { idParam, notBlank, strict } from '@im/sdk';

/** A point in time, ISO 8601 with its offset (`2026-05-01T09:00:00Z`, `...+02:00`); the action checks it is a real one. */
export const timestampParam = {
  type: 'string',
  max: 40,
  pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/,
  messages: { stringPattern: "'{field}' must be an ISO 8601 time with its offset, e.g. 2026-05-01T09:00:00Z" },
  examples: ['2030-05-01T09:00:00Z'],
} as const;

const content = { type: 'string', min: 1, max: 4000, ...notBlank } as const;

/** Scheduled messages and reminders (shared/API.md "Notifications and personal organisation"). */
export const scheduleParams = {
  listScheduled: strict({}),
  updateScheduled: strict({
    scheduledId: idParam,
    content: { ...content, optional: true },
    sendAt: { ...timestampParam, optional: true },
  }),
  cancelScheduled: strict({ scheduledId: idParam }),
  sendScheduledNow: strict({ scheduledId: idParam }),
  remind: strict({ messageId: idParam, at: timestampParam }),
  listReminders: strict({}),
  cancelReminder: strict({ reminderId: idParam }),
} as const;
