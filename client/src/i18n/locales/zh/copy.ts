import type { copy as en } from '../en/copy.ts';

export const copy: Record<keyof typeof en, string> = {
  'copy.copy': '复制',
  'copy.copied': '已复制',
  'copy.done': '已复制到剪贴板。',
  'copy.failed': '无法复制：请选中文本后手动复制。',
};
