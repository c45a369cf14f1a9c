// 可安装的应用：离线使用、等待发送的消息、更新。
export const offline = {
  'offline.banner': '离线：正在显示保存在此设备上的消息',
  'offline.queued': '等待连接',
  'offline.cancelSend': '取消',
  'offline.updateReady': '{app} 的新版本已就绪。',
  'offline.reload': '重新加载',
};
