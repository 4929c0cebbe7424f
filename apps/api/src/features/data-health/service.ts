import type { Kysely } from 'kysely';
import {
  HEALTH_SUMMARY_DAYS,
  HEALTHY_COVERAGE,
  healthHeadline,
  movesWithScrubber,
  type ChannelHealth,
  type DataHealth,
  type DataHealthSummary,
  type HealthStatus,
} from '@portal/contracts/data-health';
import { DAY_MS } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { readRawSamples, type RawSamples } from '../../storage';
import { organizationEventRules } from '../events/queries';
import { streamHealth } from '../live';
import { channelHealth, dataGaps, engineSeries, scrubberSeries, type ChannelSeries } from './flags';
import { mappedChannels, storeSummary, thresholdsOf } from './queries';

/** Flagged intervals answered per channel; `intervalCount` says how many there were. */
const INTERVALS_SHOWN = 20;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The health of each mapped channel of a ship over [from, to] (docs/decisions/0071-data-health.md): one read of the
 * period's raw samples of the mapped columns through the storage API, then the pure rules of flags.ts per channel.
 * Stale is measured up to the ship's latest sample in the period, not up to now.
 */
export async function computeDataHealth(
  db: Kysely<Database>,
  facility: { id: string; primary_organization_id: string },
  period: { from: Date; to: Date },
  now = Date.now(),
): Promise<DataHealth> {
  const [channels, thresholdOf, { rules }, stream] = await Promise.all([
    mappedChannels(db, facility.id),
    thresholdsOf(db, facility.primary_organization_id),
    organizationEventRules(db, facility.primary_organization_id),
    streamHealth(db, facility.id, period),
  ]);
  const from = period.from.getTime();
  const to = period.to.getTime();
  const samples =
    channels.length > 0
      ? await readRawSamples(db, facility.id, {
          from: period.from,
          to: period.to,
          channels: [...new Set(channels.map((c) => c.source))],
        })
      : [];
  const bySource = new Map<string, RawSamples>(samples.map((s) => [s.dataSourceId, s]));
  let latest = -Infinity;
  for (const s of samples) if (s.timestamps.length) latest = Math.max(latest, s.timestamps.at(-1)!);
  const seriesOf = (c: { data_source_id: string; source: string }): ChannelSeries => {
    const s = bySource.get(c.data_source_id);
    if (!s) return { timestamps: new Float64Array(), values: new Float64Array() };
    return {
      timestamps: s.timestamps,
      values: s.columns[c.source] ?? new Float64Array(s.timestamps.length).fill(NaN),
    };
  };
  // The engine's state from the ship's ENGINE_LOAD or FUEL_FLOW channel (the primary data source's first).
  const engineChannel = (name: string) => {
    const c = channels.find((m) => m.name === name);
    return c ? seriesOf(c) : null;
  };
  const engine = engineSeries(engineChannel('ENGINE_LOAD'), engineChannel('FUEL_FLOW'));
  const scrubber = scrubberSeries(engineChannel('SCRUBBER_RUNNING'));
  const until = Number.isFinite(latest) ? latest : undefined;

  const result: ChannelHealth[] = channels.map((c) => {
    const threshold = thresholdOf(c.name);
    const health = channelHealth(seriesOf(c), {
      threshold,
      engine,
      scrubber: movesWithScrubber(c.name) ? scrubber : null,
      from,
      to,
      now,
      until,
      measureFrequencySeconds: c.measure_frequency_seconds,
    });
    return {
      dataSourceId: c.data_source_id,
      dataSourceName: c.data_source_name,
      channelId: c.id,
      name: c.name,
      source: c.source,
      unit: c.unit,
      coverage: health.coverage,
      samples: health.samples,
      expectedSamples: health.expectedSamples,
      lastValueOn: health.lastValueOn === null ? null : iso(health.lastValueOn),
      flags: health.flags,
      intervals: health.intervals.slice(0, INTERVALS_SHOWN).map((i) => ({
        kind: i.kind,
        from: iso(i.from),
        to: iso(i.to),
        samples: i.samples,
        value: i.value,
      })),
      intervalCount: health.intervals.length,
      threshold,
    };
  });
  // Stretches without any row of the ship's loggers, as the data gap events find them (the organization's rules).
  const gaps = dataGaps(
    samples.map((s) => s.timestamps),
    rules.dataGapMinutes * 60_000,
  )
    .map((g) => ({ from: iso(g.from), to: iso(g.to), minutes: Math.round((g.to - g.from) / 60_000) }))
    .sort((a, b) => b.minutes - a.minutes);
  const health = {
    facilityId: facility.id,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    latestDataOn: until === undefined ? null : iso(until),
    channels: result,
    gaps: gaps.slice(0, INTERVALS_SHOWN),
    gapCount: gaps.length,
    gapMinutes: rules.dataGapMinutes,
    stream,
  };
  return { ...health, status: statusOf(health, until !== undefined) };
}

/** ok only when the headline's rules all hold (healthHeadline): no flag, no gap, no channel covering too little. */
function statusOf(
  health: Pick<DataHealth, 'channels' | 'gaps' | 'gapCount'>,
  hasData: boolean,
): HealthStatus {
  if (health.channels.length === 0) return 'noChannels';
  if (!hasData) return 'noData';
  return healthHeadline(health).healthy ? 'ok' : 'flagged';
}

/** The badge's period: the last HEALTH_SUMMARY_DAYS days up to the ship's latest data. */
export function summaryPeriod(dataTimestampMax: Date | string | null): { from: Date; to: Date } | null {
  if (!dataTimestampMax) return null;
  const to = new Date(dataTimestampMax);
  return { from: new Date(to.getTime() - HEALTH_SUMMARY_DAYS * DAY_MS), to };
}

export function summaryOf(health: DataHealth | null, facilityId: string): DataHealthSummary {
  const count = (kind: 'stale' | 'flatLined' | 'outOfRange') =>
    health?.channels.filter((c) => c.flags.includes(kind)).length ?? 0;
  return {
    facilityId,
    status: health?.status ?? 'noData',
    channels: health?.channels.length ?? 0,
    stale: count('stale'),
    flatLined: count('flatLined'),
    outOfRange: count('outOfRange'),
    gaps: health?.gapCount ?? 0,
    lowCoverage:
      health?.channels.filter((c) => c.coverage !== null && c.coverage < HEALTHY_COVERAGE).length ?? 0,
    from: health?.from ?? null,
    to: health?.to ?? null,
  };
}

/**
 * The badges of the ships the caller sees: the stored summary where its fingerprint still matches, else computed
 * again (over the last days of the ship's data) and stored.
 */
export async function dataHealthSummaries(
  db: Kysely<Database>,
  rows: {
    id: string;
    primary_organization_id: string;
    data_timestamp_max: Date | string | null;
    stored_fingerprint: string | null;
    summary: unknown;
    fingerprint: string;
  }[],
): Promise<DataHealthSummary[]> {
  const out: DataHealthSummary[] = [];
  for (const row of rows) {
    if (row.summary && row.stored_fingerprint === row.fingerprint) {
      const stored = (typeof row.summary === 'string' ? JSON.parse(row.summary) : row.summary) as Omit<
        DataHealthSummary,
        'facilityId'
      >;
      out.push({ ...stored, facilityId: row.id });
      continue;
    }
    const period = summaryPeriod(row.data_timestamp_max);
    const health = period ? await computeDataHealth(db, row, period) : null;
    const summary = summaryOf(health, row.id);
    if (!health && summary.status === 'noData') {
      // Without data the badge still says whether channels are mapped.
      const mapped = await mappedChannels(db, row.id);
      if (mapped.length === 0) summary.status = 'noChannels';
      summary.channels = mapped.length;
    }
    await storeSummary(db, row.id, row.fingerprint, summary);
    out.push(summary);
  }
  return out;
}
