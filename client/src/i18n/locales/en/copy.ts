// Copy buttons.
export const copy = {
  'copy.copy': 'Copy',
  'copy.copied': 'Copied',
  'copy.done': 'Copied to the clipboard.',
  'copy.failed': 'Could not copy: select the text and copy it by hand.',
};
