import type { attention as en } from '../en/attention.ts';

export const attention: Record<keyof typeof en, string> = {
  'attention.inbox': '收件箱',
  'attention.inbox.unread': '收件箱，{count, number} 条未读',
  'attention.markAllRead': '全部标为已读',
  'attention.inbox.empty': '这里还没有内容：提及、你关注的话题中的回复和提醒会显示在这里。',
  'attention.why.mention': '{author} 提到了你',
  'attention.why.reply': '{author} 在你关注的话题中回复了',
  'attention.why.reminder': '提醒',
  'attention.why.dm': '{author} 给你发了一条消息',
  'attention.markUnread': '标为未读',
  'attention.markUnread.title': '从这里开始标为未读',
  'attention.markUnread.failed': '无法标为未读：{reason}',
  'attention.markRead': '标为已读',
  'attention.markRead.label': '将 {name} 标为已读',
  'attention.muteUntil': '直到 {time}',
  'attention.muteUntilDay': '直到 {day} {time}',
};
