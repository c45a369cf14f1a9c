// My saved messages (the sidebar's "Saved").
export const saved = {
  'saved.entry': 'Saved',
  'saved.title': 'Saved messages',
  'saved.empty': "Nothing saved yet. Use Save in a message's actions to keep it here.",
  'saved.more': 'Show more',
};
