// 安全：屏蔽用户与审计日志。
import type { safety as english } from '../en/safety.ts';

export const safety: Record<keyof typeof english, string> = {
  'safety.block': '屏蔽',
  'safety.unblock': '取消屏蔽',
  'safety.blockedHint': '已屏蔽：你们之间无法私信，对方的消息会被折叠。对方不会收到提示。',
  'safety.blockedMessage': '来自已屏蔽用户的消息。',
  'safety.showMessage': '显示',
  'safety.blockedUsers.title': '已屏蔽的用户',
  'safety.blockedUsers.none': '你还没有屏蔽任何人。',
  'safety.blockedUsers.someone': '某人',
  'safety.blockedUsers.since': '@{username} · 屏蔽于 {at, date, medium}',
  'safety.audit.label': '审计日志',
  'safety.audit.empty': '尚无记录。',
  'safety.audit.loadMore': '加载更多',
  'safety.audit.someone': '某人',
  'safety.audit.inGroup': '于 {group}',
};
