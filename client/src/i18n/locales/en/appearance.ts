// Settings: the colour theme.
export const appearance = {
  'appearance.theme': 'Theme',
  'appearance.theme.system': 'Same as the system ({theme, select, light {light} other {dark}})',
  'appearance.theme.light': 'Light',
  'appearance.theme.dark': 'Dark',
};
