// 服务工作线程显示的 Web 推送通知。
export const push = {
  'push.title.dm': '新私信',
  'push.title.mention': '有人提到了你',
  'push.title.reply': '你关注的话题有新回复',
  'push.title.reminder': '提醒',
  'push.title.message': '新消息',
  'push.body.reply': '在你关注的话题中回复：{body}',
  'push.body.mention': '提到了你：{body}',
};
