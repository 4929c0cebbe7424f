import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import type { EnginePorts } from './ports';
import { runWindowExecution } from './live';
import { runExecution, runRecalculation, type RunOptions } from './run';
import { queueOrganizationLedgers, runLedger } from './run-ledger';

/**
 * The execution jobs' handlers (features/jobs.ts hands them to the queue): an execution row, and a recalculation,
 * run by the engine with the ports the composition gives it (alerts' outbox, data health, the ledger's ports); the
 * carbon ledger of a ship derived again, and of every ship of an organization whose ports changed.
 */
export function executionJobs(services: Services, ports: EnginePorts, options: RunOptions = {}) {
  return {
    [JOB_NAMES.execution]: (data, context) => runExecution(services, ports, data, context, options),
    [JOB_NAMES.windowExecution]: (data, context) =>
      runWindowExecution(services, ports, data, context, options),
    [JOB_NAMES.recalculation]: (data, context) => runRecalculation(services, ports, data, context, options),
    [JOB_NAMES.carbonLedger]: (data, context) => runLedger(services, ports, data, context),
    [JOB_NAMES.carbonLedgerPorts]: (data) => queueOrganizationLedgers(services, data),
  } satisfies Partial<JobHandlers>;
}
