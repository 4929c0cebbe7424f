/** How long the object URL of a saved file lives: long enough for the browser to start the download. */
export const SAVE_BLOB_REVOKE_MS = 10_000;

/** Saves a blob as a download named fileName (a link with `download`, clicked once, then removed). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), SAVE_BLOB_REVOKE_MS);
}
