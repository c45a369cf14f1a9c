// The directory of public groups.
export const explore = {
  'explore.title': 'Explore public groups',
  'explore.back': 'Back to the list',
  'explore.search': 'Search public groups',
  'explore.search.placeholder': 'Group name',
  'explore.loadFailed': 'Could not load the directory: {reason}',
  'explore.noMatch': 'No public groups match “{query}”.',
  'explore.none':
    'No public groups yet. Owners and admins can make a group public in its Group settings, under Visibility.',
  'explore.list': 'Public groups',
  'explore.more': 'Load more',
  'explore.notPublic': 'This group is no longer public.',
  'explore.members': '{count, plural, one {# member} other {# members}}',
  'explore.open': 'Open',
  'explore.join': 'Join',
  'explore.joining': 'Joining…',
};
