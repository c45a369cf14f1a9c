const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/**
 * A size as people read it in a message ("100 MB", "1.5 GB"; 1 KB = 1024
 * bytes, as the sizes are configured): whole numbers stay whole, others get
 * one decimal.
 */
export function sizeText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return unit === 0 ? `${bytes} bytes` : `${shown} ${UNITS[unit]}`;
}
