import { fileURLToPath } from 'node:url';
import { startServerProcess, type ServerProcess } from '@im/testkit';

const START = fileURLToPath(new URL('../../packages/runner/src/start.ts', import.meta.url));

/** The platform as its own process, as an operator runs it; the load generator stays outside it. */
export const startServer = (env: Record<string, string>): Promise<ServerProcess> => startServerProcess(START, env);
