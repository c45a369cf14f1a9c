// Words of times, days, sizes and numbers (components/messages/format.ts).
export const format = {
  'format.today': 'Today',
  'format.yesterday': 'Yesterday',
  'format.bytes': '{count, number} B',
  'format.number': '{value, number}',
};
