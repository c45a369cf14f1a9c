// What a piece of work asks of one collection, through mongoose's
// per-connection debug hook (every collection method call). The count does
// not depend on which server answers.
import type { Connection } from 'mongoose';

/** The methods `work` called on `collection`, in order. */
export async function collectionCalls(
  connection: Connection,
  collection: string,
  work: () => Promise<unknown>,
): Promise<string[]> {
  const calls: string[] = [];
  connection.set('debug', (name: string, method: string) => {
    if (name === collection) calls.push(method);
  });
  try {
    await work();
  } finally {
    connection.set('debug', false);
  }
  return calls;
}
