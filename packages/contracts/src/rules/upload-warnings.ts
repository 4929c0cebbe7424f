import type { DataFileWarning, UploadedFileWarnings } from '../data-health';

/** A warning of an upload, once, with the files that gave it. */
export interface UploadWarningGroup {
  fileNames: string[];
  warning: DataFileWarning;
}

/**
 * An upload's warnings as the upload dialog lists them: each distinct warning once, with the files it is about, in
 * the order the files came. A week of a logger's files warns seven times about the same columns; listed file by
 * file, the seven alike alerts pushed the dialog's Run offer out of sight.
 */
export function groupUploadWarnings(files: UploadedFileWarnings[]): UploadWarningGroup[] {
  const groups = new Map<string, UploadWarningGroup>();
  for (const file of files)
    for (const warning of file.warnings) {
      const key = `${warning.kind}\u0000${warning.message}`;
      const group = groups.get(key);
      if (!group) groups.set(key, { fileNames: [file.fileName], warning });
      else if (!group.fileNames.includes(file.fileName)) group.fileNames.push(file.fileName);
    }
  return [...groups.values()];
}

/** Which files a grouped warning is about: one or two by name, more as a count with the first and the last. */
export function uploadWarningFiles(fileNames: string[]): string {
  if (fileNames.length <= 2) return fileNames.join(' and ');
  return `${fileNames.length} files, ${fileNames[0]} to ${fileNames.at(-1)}`;
}
