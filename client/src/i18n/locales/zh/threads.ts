import type { threads as en } from '../en/threads.ts';

export const threads: Record<keyof typeof en, string> = {
  'threads.replies': '{count, plural, other {# 条回复}}',
  'threads.lastReply': '最新回复',
  'threads.title': '话题',
  'threads.buttonUnread': '{count, plural, other {话题，# 条未读}}',
  'threads.none': '还没有话题。在话题中回复即可关注它。',
  'threads.deletedRoot': '已删除的消息',
  'threads.pins': '置顶消息',
  'threads.noPins': '这里还没有置顶内容。',
  'threads.thread': '话题',
  'threads.close': '关闭话题',
  'threads.replyLabel': '在话题中回复',
  'threads.replyPlaceholder': '回复…',
};
