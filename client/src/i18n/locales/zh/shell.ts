import type { shell as en } from '../en/shell.ts';

export const shell: Record<keyof typeof en, string> = {
  'shell.confirm.title': '确定吗？',
  'shell.confirm.remove': '移除',
  'shell.confirm.leave': '退出',
  'shell.confirm.deactivate': '停用',
  'shell.confirm.cancelMessage': '取消消息',
  'shell.confirm.deactivateUser': '停用 @{username}？其所有会话将立即结束。',
  'shell.confirm.cancelScheduled': '取消这条定时消息？',
  'shell.confirm.deleteMessage': '删除这条消息？',
  'shell.confirm.removeMember': '将 {name} 移出 {group}？',
  'shell.confirm.deleteRole': '删除角色 {name}？其成员将失去该角色。',
  'shell.confirm.removeEmoji': '移除 :{name}:？',
  'shell.confirm.deleteUserGroup': '删除 @{handle}？',
  'shell.confirm.deleteGroup': '为所有人删除 {name}？',
  'shell.confirm.leaveGroup': '退出 {name}？',
  'shell.confirm.deletePanel': '删除 #{name} 及其所有消息？',
  'shell.notice.panelDeleted': '#{name} 已被删除。',
  'shell.notice.groupDeleted': '{name} 已被删除。',
  'shell.notice.removed': '你已被移出 {name}。',
};
