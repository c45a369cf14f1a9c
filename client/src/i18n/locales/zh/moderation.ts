import type { moderation as en } from '../en/moderation.ts';

export const moderation: Record<keyof typeof en, string> = {
  'moderation.reports': '待处理的举报',
  'moderation.reports.loading': '正在加载举报…',
  'moderation.reports.none': '没有待处理的举报。',
  'moderation.deletedAccount': '已删除的账号',
  'moderation.report.by': '{reporter} 的举报',
  'moderation.report.line': '{reporter} 举报了 {author} 的一条消息',
  'moderation.report.reason': '原因：',
  'moderation.report.dismiss': '驳回',
  'moderation.report.delete': '删除消息',
};
