// 设置：配色主题。
export const appearance = {
  'appearance.theme': '主题',
  'appearance.theme.system': '跟随系统（{theme, select, light {浅色} other {深色}}）',
  'appearance.theme.light': '浅色',
  'appearance.theme.dark': '深色',
};
