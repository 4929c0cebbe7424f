import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import {
  MATERIALITY_PERCENT,
  type ShipFigures,
  type SuggestedMisstatement,
} from '@portal/contracts/verification';
import type { Database } from '../../db/schema';
import { canonicalJson } from '../../storage';
import { DAY_MS, imoCo2 } from '../carbon/ledger';
import { listBdns, listSoundings, reconciliation } from '../carbon/records';
import { dcsForYear } from '../carbon/reports';

/** The first instant of a calendar year (UTC). */
export const yearStart = (year: number) => Date.UTC(year, 0, 1);

/**
 * The period of a year's verification, whole UTC days [from, to): the calendar year, or of a year still running
 * the days up to and including today (the reconciliation's end soundings are those around today's end).
 */
export function verificationPeriod(year: number, now: number): { from: number; to: number } {
  const from = yearStart(year);
  const end = yearStart(year + 1);
  const tomorrow = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return { from, to: Math.max(from + DAY_MS, Math.min(end, tomorrow)) };
}

export interface YearFigures {
  from: number;
  to: number;
  ships: ShipFigures[];
  suggestedMisstatements: SuggestedMisstatement[];
  /** SHA-256 of the figures as canonical JSON: what an opinion fixes. */
  fingerprint: string;
  /** What the fingerprint covers, kept with an opinion. */
  frozen: unknown;
}

const round = (value: number, digits = 6) => Number(value.toFixed(digits));

/**
 * The year's figures of an organization's own ships, as the ledger holds them now: per ship the IMO DCS totals
 * (distance, hours under way, fuel per type, CO2), the reconciliation of the flow meters against the bunker
 * delivery notes and soundings with its flags, and the evidence (the notes and soundings of the period). Their
 * fingerprint changes with any recomputation of the ledger or any note or sounding entered, changed or removed.
 */
export async function yearFigures(
  db: Kysely<Database>,
  organizationId: string,
  year: number,
  now = Date.now(),
): Promise<YearFigures> {
  const { from, to } = verificationPeriod(year, now);
  const facilities = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'imo'])
    .where('primary_organization_id', '=', organizationId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const ships: ShipFigures[] = [];
  for (const ship of facilities) {
    const [dcs, recon, bunkerNotes, tankSoundings] = await Promise.all([
      dcsForYear(db, ship.id, year),
      reconciliation(db, ship.id, from, to),
      listBdns(db, ship.id, { from, to }),
      listSoundings(db, ship.id, { from: from - DAY_MS, to: to + DAY_MS }),
    ]);
    ships.push({
      facilityId: ship.id,
      name: ship.name,
      imo: ship.imo,
      distanceNm: dcs.distanceNm,
      hoursUnderWay: dcs.hoursUnderWay,
      fuel: dcs.fuel,
      co2Tonnes: dcs.fuel.reduce((sum, f) => sum + imoCo2(f.fuelType, f.tonnes), 0),
      reconciliation: recon,
      bunkerNotes,
      tankSoundings,
    });
  }
  const frozen = ships.map((s) => ({
    facilityId: s.facilityId,
    distanceNm: round(s.distanceNm),
    hoursUnderWay: round(s.hoursUnderWay),
    fuel: s.fuel.map((f) => ({ fuelType: f.fuelType, tonnes: round(f.tonnes) })),
    reconciliation: s.reconciliation.rows.map((r) => ({
      fuelType: r.fuelType,
      flowMeterTonnes: round(r.flowMeterTonnes),
      bdnTonnes: r.bdnTonnes === null ? null : round(r.bdnTonnes),
    })),
    bunkerNotes: s.bunkerNotes.map((b) => ({
      id: b.id,
      recordBookEntryId: b.recordBookEntryId,
      fuelType: b.fuelType,
      massTonnes: b.massTonnes,
      deliveredAt: b.deliveredAt,
    })),
    tankSoundings: s.tankSoundings.map((t) => ({
      id: t.id,
      fuelType: t.fuelType,
      robTonnes: t.robTonnes,
      at: t.at,
    })),
  }));
  const fingerprint = createHash('sha256')
    .update(
      canonicalJson({ year, from: new Date(from).toISOString(), to: new Date(to).toISOString(), frozen }),
    )
    .digest('hex');
  return { from, to, ships, suggestedMisstatements: suggestedMisstatements(ships), fingerprint, frozen };
}

/** Every fuel type of a ship whose flow meters and bunker notes differ, the material ones first. */
export function suggestedMisstatements(ships: readonly ShipFigures[]): SuggestedMisstatement[] {
  const out: SuggestedMisstatement[] = [];
  for (const ship of ships)
    for (const row of ship.reconciliation.rows) {
      if (row.bdnTonnes === null || row.differencePercent === null || row.differencePercent === 0) continue;
      const notes = ship.bunkerNotes.filter((b) => b.fuelType === row.fuelType);
      const name = FUEL_TYPE_NAMES[row.fuelType];
      out.push({
        facilityId: ship.facilityId,
        shipName: ship.name,
        fuelType: row.fuelType,
        figure: `${name} burnt by the flow meters, ${ship.name}`,
        evidence: [
          notes.length
            ? `Bunker delivery notes ${notes.map((n) => n.bdnNumber ?? n.deliveredAt.slice(0, 10)).join(', ')}`
            : 'No bunker delivery note',
          'tank soundings at the start and end of the period',
        ].join('; '),
        reportedValue: row.flowMeterTonnes,
        evidenceValue: row.bdnTonnes,
        differencePercent: row.differencePercent,
        aboveThreshold: Math.abs(row.differencePercent) > MATERIALITY_PERCENT,
      });
    }
  return out.sort((a, b) => Math.abs(b.differencePercent) - Math.abs(a.differencePercent));
}
