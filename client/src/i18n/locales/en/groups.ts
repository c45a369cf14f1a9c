// Group settings tabs and group dialogs (components/groups, except dialogs.tsx, InviteLink.tsx and GroupSettingsDialog.tsx).
export const groups = {
  'groups.saved': 'Saved.',
  'groups.visibility.legend': 'Who can find and join {group}',
  'groups.visibility.private': 'Private',
  'groups.visibility.private.hint': 'Only people with an invite can join.',
  'groups.visibility.public': 'Public',
  'groups.visibility.public.hint':
    'Listed in Explore, where anyone signed in can find it and join without an invite. Its panels can be made readable on the web.',
  'groups.visibility.privateWarning':
    'Making the group private also takes its {count, plural, one {web-public panel} other {# web-public panels}} off the web: their pages and feeds stop working at once.',
  'groups.description': 'Description',
  'groups.description.hint': 'Shown in Explore and on web-public pages. {count}/{max} characters.',
  'groups.language': 'Language of public pages and feeds',
  'groups.language.hint': 'Web-public pages and feeds are written in it.',
};
