import { pino, type Logger, type LoggerOptions } from 'pino';
import type { AppConfig } from './config/load.ts';

export type { Logger };

/** The process's root logger: JSON lines in production, pretty in development. */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat' | 'nodeEnv'>,
  bindings: Record<string, unknown> = {},
): Logger {
  const pretty = (config.logFormat ?? (config.nodeEnv === 'development' ? 'pretty' : 'json')) === 'pretty';
  const options: LoggerOptions = {
    level: config.logLevel,
    base: { pid: process.pid, ...bindings },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'secret', '*.secret'], censor: '******' },
  };
  if (pretty) {
    options.transport = {
      target: 'pino-pretty',
      options: {
        colorize: process.stdout.isTTY,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,mod',
        messageFormat: '{if mod}{mod}: {end}{msg}',
      },
    };
  }
  return pino(options);
}
