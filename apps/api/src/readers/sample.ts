import type { ChannelDataType } from './columns';
import type { ParsedDataFile } from './parse';

/** A channel as the sample file of a data source shows it (spec part 2, section 3: raw channel). */
export interface RawChannel {
  channel: string;
  description: string | null;
  dataType: ChannelDataType;
  unit: string | null;
  /** Most digits after the decimal separator seen in the file (0 for whole numbers and non-numeric channels). */
  decimals: number;
  /** Smallest and largest value seen (epoch ms for UTCDateTime; null for String channels or when every value is missing). */
  minSampleValue: number | null;
  maxSampleValue: number | null;
  /** A "nice" axis range around the samples, see niceScale; null where an axis makes no sense (texts, times, no values). */
  minscale: number | null;
  maxscale: number | null;
}

/** Digits after the point in the shortest text of a double, as a fallback when the reader did not count them. */
function decimalsOf(values: Float64Array): number {
  let most = 0;
  for (const v of values) {
    if (Number.isNaN(v) || Number.isInteger(v)) continue;
    const m = /^\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(v)));
    const d = m ? Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0)) : 0;
    if (d > most) most = d;
    if (most >= 10) return 10;
  }
  return most;
}

/** 1, 2, 5 or 10 times a power of ten, the nearest at or above `x` (or rounded, for steps). */
function niceNumber(x: number, round: boolean): number {
  const exponent = Math.floor(Math.log10(x));
  const fraction = x / 10 ** exponent;
  let nice: number;
  if (round) nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10;
  else nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * 10 ** exponent;
}

/**
 * The axis range a chart would pick (Heckbert's "nice numbers" with about five ticks): the step is 1, 2 or 5
 * times a power of ten, and min/max are rounded outwards to whole steps. Example: 3.2 .. 97.5 gives 0 .. 100,
 * 20.1 .. 20.4 gives 20.1 .. 20.4 in steps of 0.1 (already on steps), a constant 50 gives 44 .. 56 (padded by 10 %).
 */
export function niceScale(min: number, max: number): { minscale: number; maxscale: number } {
  if (min === max) {
    if (min === 0) return { minscale: 0, maxscale: 1 };
    const pad = Math.abs(min) * 0.1;
    return niceScale(min - pad, max + pad);
  }
  const range = niceNumber(max - min, false);
  const step = niceNumber(range / 4, true);
  const stepDecimals = Math.max(0, -Math.floor(Math.log10(step)));
  const tidy = (v: number) => Number(v.toFixed(stepDecimals)) + 0; // + 0 turns -0 into 0
  return {
    minscale: tidy(Math.floor(min / step + 1e-9) * step),
    maxscale: tidy(Math.ceil(max / step - 1e-9) * step),
  };
}

/** The raw channels of a sample file: what the channels page offers for mapping. */
export function sampleChannels(parsed: ParsedDataFile): RawChannel[] {
  return parsed.channels.map((ch) => {
    let min = Infinity;
    let max = -Infinity;
    if (ch.dataType !== 'String') {
      for (const v of ch.values) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    const seen = min <= max;
    const numeric = ch.dataType === 'Double' || ch.dataType === 'Integer';
    const scale = !seen
      ? null
      : ch.dataType === 'Boolean'
        ? { minscale: 0, maxscale: 1 }
        : numeric
          ? niceScale(min, max)
          : null;
    return {
      channel: ch.channel,
      description: ch.description,
      dataType: ch.dataType,
      unit: ch.unit,
      decimals: ch.dataType === 'Double' ? (ch.decimals ?? decimalsOf(ch.values)) : 0,
      minSampleValue: seen ? min : null,
      maxSampleValue: seen ? max : null,
      minscale: scale?.minscale ?? null,
      maxscale: scale?.maxscale ?? null,
    };
  });
}
