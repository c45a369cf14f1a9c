// Einstellungen: das Farbschema.
export const appearance = {
  'appearance.theme': 'Farbschema',
  'appearance.theme.system': 'Wie im System ({theme, select, light {hell} other {dunkel}})',
  'appearance.theme.light': 'Hell',
  'appearance.theme.dark': 'Dunkel',
};
