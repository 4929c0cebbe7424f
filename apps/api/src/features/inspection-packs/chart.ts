import type { PortalPdf } from '../../pdf/document';

const DAY_MS = 86_400_000;

/** A point of a daily series: the day's start (UTC, ms) and its value, null for a day without one. */
export interface ChartPoint {
  t: number;
  value: number | null;
}

export interface ChartSeries {
  label: string;
  points: readonly ChartPoint[];
  color: string;
  /** A limit: drawn dashed and as steps (its value holds through the day). */
  limit?: boolean;
}

export interface LineChartOptions {
  title: string;
  /** The y axis' unit, above it. */
  unit: string;
  series: readonly ChartSeries[];
  /** The period shown: [from, to), UTC ms. */
  from: number;
  to: number;
  height?: number;
  /** Values above this are drawn at it (the SO2/CO2 chart caps at 25, as the dashboard does); the note says so. */
  cap?: number;
  /** Said under the chart. */
  note?: string;
  /** Said in the chart when no day has a value. */
  emptyText?: string;
}

/** Round steps for an axis from `min` to `max` with about `count` ticks. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max === min) {
    const pad = Math.abs(max) > 0 ? Math.abs(max) * 0.1 : 1;
    return niceTicks(min - pad, max + pad, count);
  }
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let v = first; v <= max + step * 0.999; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

/** The day ticks of the x axis: every day of a short period, every week or the first of each month of a long one. */
export function dayTicks(from: number, to: number): { t: number; label: string }[] {
  const days = Math.max(1, Math.round((to - from) / DAY_MS));
  const out: { t: number; label: string }[] = [];
  const label = (t: number, withMonth: boolean) => {
    const d = new Date(t);
    const dd = String(d.getUTCDate()).padStart(2, '0');
    const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
    return withMonth ? `${d.getUTCFullYear()}.${mm}` : `${mm}.${dd}`;
  };
  if (days > 62) {
    const start = new Date(from);
    for (let m = 0; ; m++) {
      const t = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 1);
      if (t >= to) break;
      if (t >= from) out.push({ t, label: label(t, true) });
    }
    return out;
  }
  const every = days > 20 ? 7 : days > 10 ? 2 : 1;
  for (let t = from; t < to; t += every * DAY_MS) out.push({ t, label: label(t, false) });
  return out;
}

/**
 * A line chart of daily values drawn with pdfkit as vector lines: the frame, the value axis with round steps and
 * light grid lines, day or month ticks, each series as a line broken where a day has no value (a lone day as a dot),
 * a limit dashed as steps, and the legend under it. Leaves the cursor under the chart.
 */
export function drawLineChart(pdf: PortalPdf, options: LineChartOptions): void {
  const { doc } = pdf;
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const height = options.height ?? 170;
  const needed = height + 70;
  if (doc.y + needed > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.fontSize(10).fillColor('#000000');
  pdf.text(options.title, { bold: true }, left, doc.y);
  doc.fontSize(7).fillColor('#555555');
  pdf.text(options.unit, {}, left, doc.y + 2);
  const top = doc.y + 4;
  const plot = { x: left + 34, y: top, w: width - 44, h: height };

  const capped = (v: number) => (options.cap !== undefined ? Math.min(v, options.cap) : v);
  const values = options.series.flatMap((s) =>
    s.points.filter((p) => p.value !== null && Number.isFinite(p.value)).map((p) => capped(p.value!)),
  );
  const hasValues = values.length > 0;
  const ticks = hasValues ? niceTicks(Math.min(0, ...values), Math.max(...values)) : [0, 1];
  const yMin = ticks[0]!;
  const yMax = ticks[ticks.length - 1]!;
  const span = options.to - options.from;
  const xOf = (t: number) => plot.x + ((t + DAY_MS / 2 - options.from) / span) * plot.w;
  const yOf = (v: number) => plot.y + plot.h - ((capped(v) - yMin) / (yMax - yMin)) * plot.h;

  // Grid and value axis.
  doc.save().lineWidth(0.3).strokeColor('#d9dee4');
  for (const tick of ticks) {
    const y = yOf(tick);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.w, y)
      .stroke();
  }
  doc.restore();
  doc.fontSize(6.5).fillColor('#333333');
  for (const tick of ticks)
    pdf.text(String(tick), { width: 30, align: 'right', lineBreak: false }, plot.x - 33, yOf(tick) - 3.5);
  // Time axis.
  const dayWidth = plot.w / Math.max(1, span / DAY_MS);
  for (const tick of dayTicks(options.from, options.to)) {
    const x = plot.x + ((tick.t - options.from) / span) * plot.w;
    doc
      .save()
      .lineWidth(0.3)
      .strokeColor('#8a939c')
      .moveTo(x, plot.y + plot.h)
      .lineTo(x, plot.y + plot.h + 3)
      .stroke()
      .restore();
    pdf.text(tick.label, { width: 40, align: 'left', lineBreak: false }, x + 1, plot.y + plot.h + 4);
  }
  doc.save().lineWidth(0.6).strokeColor('#5f6b76').rect(plot.x, plot.y, plot.w, plot.h).stroke().restore();

  // The series: lines through the days with a value, broken at a day without.
  for (const series of options.series) {
    doc
      .save()
      .lineWidth(series.limit ? 0.9 : 1.1)
      .strokeColor(series.color)
      .fillColor(series.color);
    if (series.limit) doc.dash(3, { space: 2 });
    let run: { x: number; y: number }[] = [];
    const flush = () => {
      if (run.length === 1 && !series.limit) doc.circle(run[0]!.x, run[0]!.y, 1.2).fill();
      else if (run.length > 1) {
        doc.moveTo(run[0]!.x, run[0]!.y);
        for (const p of run.slice(1)) doc.lineTo(p.x, p.y);
        doc.stroke();
      }
      run = [];
    };
    const sorted = [...series.points].sort((a, b) => a.t - b.t);
    for (const p of sorted) {
      if (p.t < options.from || p.t >= options.to) continue;
      if (p.value === null || !Number.isFinite(p.value)) {
        flush();
        continue;
      }
      const y = yOf(p.value);
      if (series.limit) {
        // A step: the day's limit holds from its start to its end.
        const x0 = xOf(p.t) - dayWidth / 2;
        const last = run[run.length - 1];
        if (last && Math.abs(last.y - y) > 0.01) run.push({ x: x0, y: last.y });
        run.push({ x: x0, y }, { x: x0 + dayWidth, y });
      } else run.push({ x: xOf(p.t), y });
    }
    flush();
    doc.undash().restore();
  }
  if (!hasValues) {
    doc.fontSize(9).fillColor('#555555');
    pdf.text(
      options.emptyText ?? 'No values in the period',
      { width: plot.w, align: 'center' },
      plot.x,
      plot.y + plot.h / 2 - 5,
    );
  }

  // Legend.
  let x = plot.x;
  const legendY = plot.y + plot.h + 16;
  doc.fontSize(7.5);
  for (const series of options.series) {
    doc.save().lineWidth(1.2).strokeColor(series.color);
    if (series.limit) doc.dash(3, { space: 2 });
    doc
      .moveTo(x, legendY + 4)
      .lineTo(x + 16, legendY + 4)
      .stroke()
      .undash()
      .restore();
    doc.fillColor('#000000');
    pdf.text(series.label, { lineBreak: false }, x + 20, legendY);
    x += 28 + doc.widthOfString(series.label);
  }
  doc.fillColor('#000000');
  let after = legendY + 12;
  if (options.note) {
    doc.fontSize(7).fillColor('#555555');
    pdf.text(options.note, { width: plot.w + 34 }, left, after);
    after = doc.y;
  }
  doc.fillColor('#000000');
  doc.x = left;
  doc.y = after + 12;
}
