// The app's frame: rail, sidebars, settings, dialogs, confirmations and notices.
export const shell = {
  'shell.confirm.title': 'Are you sure?',
  'shell.confirm.remove': 'Remove',
  'shell.confirm.leave': 'Leave',
  'shell.confirm.deactivate': 'Deactivate',
  'shell.confirm.cancelMessage': 'Cancel message',
  'shell.confirm.deactivateUser': 'Deactivate @{username}? Their sessions end at once.',
  'shell.confirm.cancelScheduled': 'Cancel this scheduled message?',
  'shell.confirm.deleteMessage': 'Delete this message?',
  'shell.confirm.removeMember': 'Remove {name} from {group}?',
  'shell.confirm.deleteRole': 'Delete the role {name}? Its members lose it.',
  'shell.confirm.removeEmoji': 'Remove :{name}:?',
  'shell.confirm.deleteUserGroup': 'Delete @{handle}?',
  'shell.confirm.deleteGroup': 'Delete {name} for everyone?',
  'shell.confirm.leaveGroup': 'Leave {name}?',
  'shell.confirm.deletePanel': 'Delete #{name} and its messages?',
};
