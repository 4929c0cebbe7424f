import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * The server's log: on a terminal one readable line per entry ("[14:02:11] INFO: GET /api/version 200 3 ms"),
 * written in this thread so it keeps its order with the banner; otherwise JSON lines (pino) for a log collector.
 * The request's fields stay in the JSON; on a terminal the line says them.
 */
export function createLogger(level: string, terminal = Boolean(process.stdout.isTTY)): Logger {
  if (!terminal) return pino({ level });
  return pino(
    { level },
    pretty({
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true,
      sync: true,
    }),
  );
}
