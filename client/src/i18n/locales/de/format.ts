import type { format as en } from '../en/format.ts';

export const format: Record<keyof typeof en, string> = {
  'format.today': 'Heute',
  'format.yesterday': 'Gestern',
  'format.bytes': '{count, number} B',
  'format.number': '{value, number}',
};
