import type { CarbonLedgerJob, CarbonLedgerPortsJob, JobContext, JobOutcome } from '../../jobs/contract';
import { JOB_NAMES } from '../../jobs/contract';
import type { Services } from '../../services';
import { deriveLedger, loadLedgerConfig } from './derive-ledger';
import type { EnginePorts } from './ports';
import { ceilDayExclusive, floorDay } from './series';
import { lockShipValues, readLedgerExtent } from '../../storage';
import { storeLedger } from './store-ledger';

/**
 * The carbon ledger of a ship derived again over all its data, without executing anything else: the step "port
 * calls and voyages" over the ship's stored measurement values and its store step, in one transaction that holds the
 * ship's lock (docs/decisions/0111-carbon-ledger-engine.md). Run by the carbon-ledger job when what the ledger reads
 * besides the values changed: the organization's ports, a fuel flow's mapping. Idempotent: a rerun writes nothing.
 */
export async function runLedger(
  services: Services,
  ports: Pick<EnginePorts, 'ledgerPorts'>,
  job: CarbonLedgerJob,
  context?: JobContext,
): Promise<JobOutcome> {
  void context;
  const { db } = services.database;
  const config = await loadLedgerConfig(db, job.facilityId);
  if (!config) return { status: 'skipped', reason: 'The ship no longer exists' };
  // All the ship's data, and whatever the ledger holds beyond it (data deleted since): cleared there.
  const extent = await readLedgerExtent(db, job.facilityId);
  const from = Math.min(config.dataFrom ?? Infinity, extent?.from ?? Infinity);
  const to = Math.max(config.dataTo ?? -Infinity, extent ? extent.to - 1 : -Infinity);
  if (!Number.isFinite(from) || !Number.isFinite(to))
    return { status: 'skipped', reason: 'The ship has no data' };
  await db.transaction().execute(async (trx) => {
    // Under the ship's lock: the values an execution of the ship commits meanwhile are read, not missed.
    await lockShipValues(trx, job.facilityId);
    const derivation = await deriveLedger(
      trx,
      await loadLedgerConfig(trx, job.facilityId),
      { from: floorDay(from), to: ceilDayExclusive(to), recomputed: 'all' },
      ports.ledgerPorts,
    );
    await storeLedger(trx, derivation);
  });
  return { status: 'done' };
}

/** An organization's ports changed: a carbon-ledger job for each of its ships that has data. */
export async function queueOrganizationLedgers(
  services: Services,
  job: CarbonLedgerPortsJob,
): Promise<JobOutcome> {
  const { db } = services.database;
  const ships = await db
    .selectFrom('facilities')
    .select('id')
    .where('primary_organization_id', '=', job.organizationId)
    .where('data_timestamp_max', 'is not', null)
    .execute();
  const queue = services.queue;
  if (!queue) return { status: 'failed', error: 'The job queue is not started', permanent: false };
  for (const ship of ships)
    await queue.send(JOB_NAMES.carbonLedger, { facilityId: ship.id }, { singletonKey: ship.id });
  return { status: 'done' };
}
