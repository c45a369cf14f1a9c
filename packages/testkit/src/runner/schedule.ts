// Runs jobs in a pool of `capacity` slots: each job holds its slots while it
// runs; an `alone` job waits for an empty pool and holds all of it. Jobs
// start in the order given (longest known first pays off: the pool ends
// together instead of waiting on one late long file).
export interface Job<T> {
  slots: number;
  alone: boolean;
  run(): Promise<T>;
}

export async function runPool<T>(jobs: Job<T>[], capacity: number): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  const waiting = jobs.map((job, index) => ({ job, index }));
  let free = capacity;
  let running = 0;
  return new Promise((resolve, reject) => {
    const next = () => {
      if (waiting.length === 0 && running === 0) return resolve(results);
      for (let i = 0; i < waiting.length;) {
        const { job, index } = waiting[i]!;
        const need = job.alone ? capacity : Math.min(job.slots, capacity);
        if (need > free) {
          // An alone job blocks the queue behind it, or it would never find the pool empty.
          if (job.alone) return;
          i += 1;
          continue;
        }
        waiting.splice(i, 1);
        free -= need;
        running += 1;
        job.run().then(
          (result) => {
            results[index] = result;
            free += need;
            running -= 1;
            next();
          },
          (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        );
      }
    };
    next();
  });
}
