import { ERROR_STATUS, type ErrorCode } from '@portal/contracts/errors';

/** The one error type of the API. Its code decides the HTTP status; its message is shown to the caller (never for 5xx, but
 * for 503 UNAVAILABLE, whose message says plainly what is down and what to do; the details go in its cause, logged). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.code = code;
    this.fields = fields;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what);
export const forbidden = (message = 'You may not do this') => new AppError('FORBIDDEN', message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('VALIDATION_FAILED', message, fields);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError('CONFLICT', message, fields);
