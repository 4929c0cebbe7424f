import PDFDocument from 'pdfkit';
import { FALLBACKS, font, type FontRole } from './fonts';
import { fontRuns } from './runs';

export type TextOptions = PDFKit.Mixins.TextOptions & {
  /** The bold face of the text's own font (the fallbacks have one weight). */
  bold?: boolean;
};

/**
 * A PDF of the portal: pdfkit with the embedded Unicode fonts of fonts.ts registered, and `text` that draws each
 * part of a string in a font that has its glyphs (runs.ts), so names in Polish, Turkish, Greek, Cyrillic, Chinese or
 * with emoji come out as written. `doc` stays open for drawing (lines, images, pages); text goes through `text`.
 */
export class PortalPdf {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(options: PDFKit.PDFDocumentOptions = {}) {
    // The built-in Helvetica is never used: its AFM is not even read (font: null would be ideal, but pdfkit's
    // constructor always sets a font; the embedded regular replaces it before anything is drawn).
    this.doc = new PDFDocument({ size: 'A4', margin: 56, ...options, font: undefined });
    for (const role of ['regular', 'bold', ...FALLBACKS] as FontRole[])
      this.doc.registerFont(role, font(role).bytes);
    this.doc.font('regular');
    this.done = new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
  }

  /** Writes `value` at the cursor (or at x, y) in runs of the fonts that have its characters. */
  text(value: string, options: TextOptions = {}, x?: number, y?: number): this {
    const { bold, ...rest } = options;
    const own: FontRole = bold ? 'bold' : 'regular';
    const runs = fontRuns(value, [own, ...FALLBACKS], (role, codePoint) =>
      font(role).coverage.hasGlyphForCodePoint(codePoint),
    );
    if (runs.length === 0) runs.push({ font: own, text: '' });
    runs.forEach((run, i) => {
      this.doc.font(run.font);
      const continued = i < runs.length - 1 ? true : (rest.continued ?? false);
      if (i === 0 && x !== undefined) this.doc.text(run.text, x, y, { ...rest, continued });
      else this.doc.text(run.text, { ...rest, continued });
    });
    this.doc.font('regular');
    return this;
  }

  /** Ends the document; resolves with its bytes. */
  finish(): Promise<Buffer> {
    this.doc.end();
    return this.done;
  }
}
