export const common = {
  'app.name': 'Loquat',
  'common.cancel': 'Abbrechen',
  'common.close': 'Schließen',
  'common.save': 'Speichern',
  'common.delete': 'Löschen',
  'common.loading': 'Wird geladen …',
  'common.retry': 'Erneut versuchen',
  'settings.language': 'Sprache',
  'settings.language.system': 'Wie der Browser ({language})',
  'common.someone': 'Jemand',
};
