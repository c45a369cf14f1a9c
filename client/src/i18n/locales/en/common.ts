// Words used all over the app.
export const common = {
  'app.name': 'Loquat',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.save': 'Save',
  'common.delete': 'Delete',
  'common.loading': 'Loading…',
  'common.retry': 'Try again',
  'settings.language': 'Language',
  'settings.language.system': 'Same as the browser ({language})',
  'common.someone': 'Someone',
};
