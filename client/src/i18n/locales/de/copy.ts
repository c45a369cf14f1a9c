import type { copy as en } from '../en/copy.ts';

export const copy: Record<keyof typeof en, string> = {
  'copy.copy': 'Kopieren',
  'copy.copied': 'Kopiert',
  'copy.done': 'In die Zwischenablage kopiert.',
  'copy.failed': 'Kopieren nicht möglich: Markiere den Text und kopiere ihn selbst.',
};
