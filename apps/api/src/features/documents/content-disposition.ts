/**
 * `attachment` with a file name that cannot break the header (RFC 6266 with RFC 5987 encoding): an ASCII fallback
 * without quotes, backslashes or control characters, and the exact name percent-encoded in filename*.
 */
export function attachmentDisposition(fileName: string): string {
  const name =
    [...fileName]
      .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
      .join('')
      .trim() || 'download';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
