// What a failed file's output says about its failure, short enough to read
// in a log's tail: node's spec reporter ends with a "failing tests" section
// (each failed test with its error); a file that crashed before it has none,
// so its last lines stand in.
const MAX_LINES = 150;
const TAIL_LINES = 60;

export function failureDetails(output: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.includes('failing tests:'));
  const picked = start >= 0 ? lines.slice(start) : lines.slice(-TAIL_LINES);
  const shown = picked.slice(0, MAX_LINES);
  if (picked.length > shown.length)
    shown.push(`… (${picked.length - shown.length} more lines: the file's whole output is printed above)`);
  return shown.join('\n');
}
