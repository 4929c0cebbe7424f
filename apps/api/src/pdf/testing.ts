import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * For tests: what a PDF reader gets from a PDF, through Debian's poppler-utils (`pdftotext`) and `qpdf --check`,
 * installed by .ci/run. Tests that need them skip with a warning where they are missing (a developer's machine).
 */
function has(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const hasPoppler = has('pdftotext', ['-v']);
export const hasQpdf = has('qpdf', ['--version']);
if (!hasPoppler || !hasQpdf)
  console.warn(
    'pdftotext or qpdf missing (apt-get install poppler-utils qpdf): PDFs are not read back in this run',
  );

function withFile<T>(bytes: Buffer, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    writeFileSync(file, bytes);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of a PDF as pdftotext reads it (layout order, UTF-8). */
export function pdfText(bytes: Buffer): string {
  return withFile(bytes, (file) =>
    execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  );
}

/** qpdf --check's verdict: throws with qpdf's output when the file has errors. */
export function qpdfCheck(bytes: Buffer): string {
  return withFile(bytes, (file) => execFileSync('qpdf', ['--check', file], { encoding: 'utf8' }));
}
