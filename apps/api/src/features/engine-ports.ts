import type { Services } from '../services';
import { alertOutbox, alertOutboxOf, fanOutNotifier, type AlertOutboxOptions } from './alerts/outbox';
import { dataHealthForEngine } from './data-health/engine-port';
import type { EnginePorts } from './executions/ports';
import { ledgerPorts } from './carbon/ledger-ports';
import { zoneWarningsForEngine } from './zone-warnings/evaluate';

/**
 * The engine's ports (features/executions/ports.ts) wired to the features that implement them: the alerts' outbox,
 * data health's rules, the ports the carbon ledger derives port calls against and the zone warnings. The engine imports neither; its callers hand these in.
 */

/** A worker's: the configured alert age limit, the fan-out job sent with the alerts (features/jobs.ts). */
export function enginePortsOf(services: Services): EnginePorts {
  return {
    alerts: alertOutboxOf(services),
    dataHealth: dataHealthForEngine,
    ledgerPorts,
    zoneWarnings: zoneWarningsForEngine({ notify: fanOutNotifier(services) }),
  };
}

/**
 * For a test or benchmark that runs the engine's steps itself: the alert outbox with these options (the default
 * age limit, nobody notified, unless given).
 */
export function enginePorts(alerts?: AlertOutboxOptions): EnginePorts {
  return {
    alerts: alertOutbox(alerts),
    dataHealth: dataHealthForEngine,
    ledgerPorts,
    zoneWarnings: zoneWarningsForEngine({
      notify: alerts?.notify,
      now: alerts?.now ? () => alerts.now! : undefined,
    }),
  };
}
