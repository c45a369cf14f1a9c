import type { saved as en } from '../en/saved.ts';

export const saved: Record<keyof typeof en, string> = {
  'saved.entry': '收藏',
  'saved.title': '收藏的消息',
  'saved.empty': '还没有收藏。在消息操作中选择“收藏”即可保存到这里。',
  'saved.more': '显示更多',
};
