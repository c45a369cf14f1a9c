import type { join as en } from '../en/join.ts';

export const join: Record<keyof typeof en, string> = {
  'join.gone': '此邀请已无法使用：可能已过期、次数已用完或已被撤销。请索取新的邀请。',
  'join.invitedBy': '{name} 邀请你加入',
  'join.memberCount': '{count, plural, other {# 位成员}}',
  'join.title': '加入 {name}',
  'join.signup': '创建账户并加入',
  'join.join': '加入 {name}',
  'join.dialogTitle': '加入群组',
  'join.codeLabel': '邀请链接或邀请码',
  'join.joinButton': '加入',
  'join.login': '登录并加入',
};
