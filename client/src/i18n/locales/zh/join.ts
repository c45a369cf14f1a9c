import type { join as en } from '../en/join.ts';

export const join: Record<keyof typeof en, string> = {
  'join.gone': '此邀请已无法使用：可能已过期、次数已用完或已被撤销。请索取新的邀请。',
  'join.invitedBy': '{name} 邀请你加入',
  'join.memberCount': '{count, plural, other {# 位成员}}',
  'join.signup': '创建账户并加入',
  'join.dialogTitle': '加入群组',
  'join.codeLabel': '邀请链接或邀请码',
  'join.joinButton': '加入',
  'join.login': '登录并加入',
  'join.prompt.private': '该群组是私密的或已不存在：需要邀请才能加入。',
  'join.prompt.title': '加入此群组？',
  'join.prompt.hint': '此群组不在你的列表中。如果它是公开的，任何人都可以加入。',
  'join.prompt.joining': '正在加入…',
  'join.prompt.join': '加入群组',
  'join.link.label': '邀请链接',
  'join.link.code': '邀请码',
  'join.link.expires': '{when} 过期',
  'join.link.uses': '{count, plural, other {可用 # 次}}',
  'join.link.copy': '复制链接',
  'join.inviteTitle': '邀请成员加入 {name}',
  'join.creatingInvite': '正在创建邀请…',
};
