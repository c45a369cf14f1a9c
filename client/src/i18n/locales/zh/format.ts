import type { format as en } from '../en/format.ts';

export const format: Record<keyof typeof en, string> = {
  'format.today': '今天',
  'format.yesterday': '昨天',
  'format.bytes': '{count, number} B',
  'format.number': '{value, number}',
};
