import type { groups as en } from '../en/groups.ts';

export const groups: Record<keyof typeof en, string> = {
  'groups.saved': '已保存。',
  'groups.visibility.legend': '谁可以找到并加入 {group}',
  'groups.visibility.private': '私有',
  'groups.visibility.private.hint': '只有持邀请的人才能加入。',
  'groups.visibility.public': '公开',
  'groups.visibility.public.hint':
    '在“发现”中列出，任何已登录的人都能找到并无需邀请即可加入。其频道可以设为在网页上公开可读。',
  'groups.visibility.privateWarning':
    '将群组设为私有也会使其 {count, plural, other {# 个网页公开频道}}下线：它们的页面和订阅源会立即失效。',
  'groups.description': '简介',
  'groups.description.hint': '显示在“发现”和网页公开页面上。{count}/{max} 个字符。',
  'groups.language': '公开页面和订阅源的语言',
  'groups.language.hint': '网页公开页面和订阅源将使用此语言。',
};
