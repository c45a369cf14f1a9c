import type { explore as en } from '../en/explore.ts';

export const explore: Record<keyof typeof en, string> = {
  'explore.title': '发现公开群组',
  'explore.back': '返回列表',
  'explore.search': '搜索公开群组',
  'explore.search.placeholder': '群组名称',
  'explore.loadFailed': '无法加载群组目录：{reason}',
  'explore.noMatch': '没有与“{query}”匹配的公开群组。',
  'explore.none': '还没有公开群组。所有者和管理员可以在群组设置的“可见性”中将群组设为公开。',
  'explore.list': '公开群组',
  'explore.more': '加载更多',
  'explore.notPublic': '此群组已不再公开。',
  'explore.members': '{count, plural, other {# 位成员}}',
  'explore.open': '打开',
  'explore.join': '加入',
  'explore.joining': '正在加入…',
};
