import type { exports as en } from '../en/exports.ts';

export const exports: Record<keyof typeof en, string> = {
  'exports.preparing': 'Archiv wird vorbereitet …',
  'exports.download': 'Archiv herunterladen',
  'exports.size': '({size})',
  'exports.failed': 'Der Export ist fehlgeschlagen.',
};
