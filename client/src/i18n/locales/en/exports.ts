// Exports of a group or of my own data.
export const exports = {
  'exports.preparing': 'Preparing the archive…',
  'exports.download': 'Download the archive',
  'exports.size': '({size})',
  'exports.failed': 'The export failed.',
};
