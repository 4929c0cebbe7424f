export type ReaderErrorCode =
  | 'EMPTY_FILE'
  | 'MISSING_HEADER'
  | 'HEADER_ONLY'
  | 'BAD_TIMESTAMP'
  | 'DUPLICATE_TIMESTAMP'
  | 'NON_NUMERIC'
  | 'ROW_LENGTH'
  | 'UNCLOSED_QUOTE'
  | 'LINE_TOO_LONG'
  | 'TOO_MANY_COLUMNS'
  | 'DUPLICATE_COLUMN'
  | 'MISSING_TIMESTAMP_COLUMN'
  | 'BAD_CONFIGURATION'
  | 'UNREADABLE_WORKBOOK';

/** A data file the reader cannot accept. The message is for the person who uploaded the file and names the row and column. */
export class ReaderError extends Error {
  readonly code: ReaderErrorCode;
  constructor(code: ReaderErrorCode, message: string) {
    super(message);
    this.name = 'ReaderError';
    this.code = code;
  }
}

/** Shortens a cell for a message so that a 10 MB cell does not end up in a notification. */
export function quoteCell(text: string, max = 40): string {
  const t = text.length > max ? `${text.slice(0, max)}…` : text;
  return `'${t}'`;
}
