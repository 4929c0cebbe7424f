import type { PortalPdf } from './document';

/** A column of a table: its heading, its share of the width (relative) and how its cells align. */
export interface TableColumn {
  header: string;
  /** Relative width: the columns share the page's width in these proportions. */
  width: number;
  align?: 'left' | 'right' | 'center';
}

export interface TableOptions {
  columns: readonly TableColumn[];
  rows: Iterable<readonly string[]>;
  fontSize?: number;
  /** Space inside each cell, points. */
  padding?: number;
  /** Drawn above the table and again above its continuation on each new page ("Events (continued)"). */
  caption?: string;
  /** Shown as the one row of an empty table. */
  empty?: string;
}

const HEADER_FILL = '#e8edf2';
const STRIPE_FILL = '#f6f8fa';
const RULE = '#c5ced8';

/**
 * Draws a table at the cursor, across the page's width between the margins: a bold heading row, then the rows
 * (every other one shaded), each as tall as its tallest cell (text wraps inside its column). A row that does not fit
 * on the page goes to the next one, where the heading row (and the caption, marked "continued") is drawn again; a
 * row is never split. Leaves the cursor under the table at the left margin.
 */
export function drawTable(pdf: PortalPdf, options: TableOptions): void {
  const { doc } = pdf;
  const fontSize = options.fontSize ?? 8;
  const padding = options.padding ?? 3;
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const total = options.columns.reduce((sum, c) => sum + c.width, 0);
  const widths = options.columns.map((c) => (c.width / total) * width);
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  const cellHeight = (text: string, i: number, bold: boolean) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(fontSize);
    // The fallback fonts (CJK, emoji) run a little taller than Noto Sans: a point of room per line.
    const lines = Math.max(1, text.split('\n').length);
    return doc.heightOfString(text || ' ', { width: widths[i]! - 2 * padding }) + lines * 0.5;
  };
  const rowHeight = (cells: readonly string[], bold: boolean) =>
    Math.max(...cells.map((c, i) => cellHeight(c, i, bold))) + 2 * padding;

  const drawRow = (cells: readonly string[], y: number, height: number, kind: 'header' | 'even' | 'odd') => {
    if (kind !== 'odd') {
      doc
        .save()
        .rect(left, y, width, height)
        .fill(kind === 'header' ? HEADER_FILL : STRIPE_FILL)
        .restore();
    }
    doc.fillColor('#000000').fontSize(fontSize);
    cells.forEach((cell, i) => {
      pdf.text(
        cell,
        {
          width: widths[i]! - 2 * padding,
          align: options.columns[i]!.align ?? 'left',
          bold: kind === 'header',
          lineGap: 0,
        },
        xs[i]! + padding,
        y + padding,
      );
    });
    doc
      .save()
      .moveTo(left, y + height)
      .lineTo(left + width, y + height)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke()
      .restore();
  };

  const headers = options.columns.map((c) => c.header);
  const headerHeight = rowHeight(headers, true);
  let y = doc.y;

  const caption = (continued: boolean) => {
    if (!options.caption) return;
    doc.fontSize(fontSize + 2).fillColor('#000000');
    pdf.text(continued ? `${options.caption} (continued)` : options.caption, { bold: true }, left, y);
    y = doc.y + 2;
  };
  const newPage = () => {
    doc.addPage();
    y = doc.page.margins.top;
    caption(true);
    drawRow(headers, y, headerHeight, 'header');
    y += headerHeight;
  };

  // The caption, the heading and at least one row stay together.
  if (y + headerHeight * 3 + fontSize * 2 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  caption(false);
  drawRow(headers, y, headerHeight, 'header');
  y += headerHeight;
  let index = 0;
  for (const row of options.rows) {
    const height = rowHeight(row, false);
    if (y + height > bottom()) newPage();
    drawRow(row, y, height, index % 2 === 0 ? 'odd' : 'even');
    y += height;
    index++;
  }
  if (index === 0 && options.empty) {
    const row = [options.empty, ...headers.slice(1).map(() => '')];
    const height = rowHeight(row, false);
    if (y + height > bottom()) newPage();
    drawRow(row, y, height, 'odd');
    y += height;
  }
  doc.font('regular');
  doc.x = left;
  doc.y = y + fontSize;
}
