export const common = {
  'app.name': 'Loquat',
  'common.cancel': '取消',
  'common.close': '关闭',
  'common.save': '保存',
  'common.delete': '删除',
  'common.loading': '加载中…',
  'common.retry': '重试',
  'settings.language': '语言',
  'settings.language.system': '跟随浏览器（{language}）',
  'common.someone': '某人',
};
