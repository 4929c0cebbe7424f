import { NO_DATA } from './dates';
import { roundPercent } from './format';

/**
 * Gauge and chart display rules of the dashboards (spec part 1 section 9).
 * A needle shows a value: without one (no data in the period) every needle rule gives null, and the gauge draws
 * no needle and says No data; a floor (80, 90) is never a stand-in for a missing value.
 */

/** Where a needle points: a value on the dial, or null (no value: no needle). */
export type Needle = number | null;

const clamp = (v: number | null | undefined, min: number, max: number): Needle =>
  v === null || v === undefined || !Number.isFinite(v) ? null : Math.min(max, Math.max(min, v));

// --- Marpol compliance -------------------------------------------------------------------------

export const MARPOL_GAUGE = { min: 80, max: 100, stops: [80, 90, 95, 100] } as const;

/** The needle never goes below 80 (the gauge's start); it stays on the dial at 100 too. No value, no needle. */
export function marpolNeedle(percent: number | null | undefined): Needle {
  return clamp(percent, MARPOL_GAUGE.min, MARPOL_GAUGE.max);
}

/**
 * The fleet average as text with 1 decimal. From 99.5 up to (not including) 100 the value is truncated,
 * not rounded, so a fleet that is not fully compliant never reads 100.0 (99.97 -> "99.9").
 * Below 99.5 ordinary rounding cannot reach 100, so it rounds (99.46 -> "99.5").
 */
export function marpolFleetAverageDisplay(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return NO_DATA;
  return roundPercent(percent).toFixed(1);
}

// --- Operational availability ------------------------------------------------------------------

export const AVAILABILITY_GAUGE = {
  min: 90,
  max: 100,
  stops: [90, 96, 98, 100],
  shipNeedleMin: 90,
  fleetNeedleMin: 80,
} as const;

/**
 * The needle floor is 90 on a ship gauge and 80 on the fleet gauge. Availability can exceed 100
 * (the scrubber ran while not required): the needle stops at the end of the dial, the text shows the value.
 * No value, no needle.
 */
export function availabilityNeedle(percent: number | null | undefined, scope: 'ship' | 'fleet'): Needle {
  const min = scope === 'ship' ? AVAILABILITY_GAUGE.shipNeedleMin : AVAILABILITY_GAUGE.fleetNeedleMin;
  return clamp(percent, min, AVAILABILITY_GAUGE.max);
}

// --- SFOC impact -------------------------------------------------------------------------------

export const SFOC_GAUGE = {
  min: 0,
  max: 4,
  segments: 8,
  /** Industry standard SFOC impact, in %. */
  industryBand: [2.0, 2.5],
  chartAxisStep: 0.5,
} as const;

export function sfocNeedle(percent: number | null | undefined): Needle {
  return clamp(percent, SFOC_GAUGE.min, SFOC_GAUGE.max);
}

/** Axis ticks of an SFOC chart: 0, 0.5, 1, ... up to the first step at or above the largest value (at least 4). */
export function sfocAxisTicks(largestValue: number): number[] {
  const top = Math.max(
    SFOC_GAUGE.max,
    Math.ceil(largestValue / SFOC_GAUGE.chartAxisStep) * SFOC_GAUGE.chartAxisStep,
  );
  const ticks: number[] = [];
  for (let i = 0; i * SFOC_GAUGE.chartAxisStep <= top + 1e-9; i++) ticks.push(i * SFOC_GAUGE.chartAxisStep);
  return ticks;
}

// --- SO2/CO2 ratio -----------------------------------------------------------------------------

/** The ratio margin in % of the limit: 100 = no SO2 left (over-scrubbing), below 0 = over the limit. */
export const RATIO_GAUGE = { max: 100, min: -30, stops: [100, 50, 10, 0, -30] } as const;

export type RatioMarginBand = 'Over-scrubbing' | 'Optimal' | 'Risk' | 'Under-scrubbing';

/** The bands of the gauge from top to bottom; a boundary belongs to the band above it (as the bar colours). */
export const RATIO_MARGIN_BANDS: readonly { label: RatioMarginBand; from: number; to: number }[] = [
  { label: 'Over-scrubbing', from: 100, to: 50 },
  { label: 'Optimal', from: 50, to: 10 },
  { label: 'Risk', from: 10, to: 0 },
  { label: 'Under-scrubbing', from: 0, to: -30 },
];

export function ratioMarginBand(margin: number): RatioMarginBand {
  if (margin >= 50) return 'Over-scrubbing';
  if (margin >= 10) return 'Optimal';
  if (margin >= 0) return 'Risk';
  return 'Under-scrubbing';
}

export type RatioBarColour = 'grey' | 'green' | 'yellow' | 'red';

export const RATIO_BAR_COLOURS: Record<RatioBarColour, string> = {
  grey: '#9e9e9e',
  green: '#4caf50',
  yellow: '#fbc02d',
  red: '#e53935',
};

export function ratioBarColour(margin: number): RatioBarColour {
  if (margin >= 50) return 'grey';
  if (margin >= 10) return 'green';
  if (margin >= 0) return 'yellow';
  return 'red';
}

export function ratioGaugeNeedle(margin: number | null | undefined): Needle {
  return clamp(margin, RATIO_GAUGE.min, RATIO_GAUGE.max);
}

/** SO2/CO2 ratio limits: 4.3 inside an ECA (0.10 % sulfur), 21.7 outside (0.50 %). */
export const APPLICABLE_LIMITS = [4.3, 21.7] as const;

export const SHIP_RATIO_CHART_CAP = 25;
export const FLEET_RATIO_CHART_CAP = 20;

export interface CappedChartValue {
  /** What the bar or line is drawn at. */
  plotted: number;
  /** The real value, for the note. */
  actual: number;
  capped: boolean;
}

function cap(value: number, limit: number): CappedChartValue {
  return { plotted: Math.min(value, limit), actual: value, capped: value > limit };
}

export function capShipChartValue(value: number): CappedChartValue {
  return cap(value, SHIP_RATIO_CHART_CAP);
}

export function capFleetChartValue(value: number): CappedChartValue {
  return cap(value, FLEET_RATIO_CHART_CAP);
}

/**
 * The fleet SO2/CO2 chart shows each ship's margin on the gauge's scale (one measure with the gauge): a margin
 * deeper than -30 is drawn at -30, the note (tooltip) keeps the real value.
 */
export function capMarginChartValue(margin: number): CappedChartValue {
  const plotted = Math.min(RATIO_GAUGE.max, Math.max(RATIO_GAUGE.min, margin));
  return { plotted, actual: margin, capped: plotted !== margin };
}
