import type { exports as en } from '../en/exports.ts';

export const exports: Record<keyof typeof en, string> = {
  'exports.preparing': '正在准备归档…',
  'exports.download': '下载归档',
  'exports.size': '（{size}）',
  'exports.failed': '导出失败。',
};
