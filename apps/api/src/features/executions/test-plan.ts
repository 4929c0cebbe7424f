import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { defaultThreshold } from '@portal/contracts/data-health';
import type { ExecutionPlan } from './plan';

/**
 * An execution plan for the steps' unit tests: one ship ('ship') with no constants, no channels and nothing to
 * compute over [from, to), with what a test needs set in `parts`. Not used by the engine itself.
 */
export function testPlan(from: number, to: number, parts: Partial<ExecutionPlan> = {}): ExecutionPlan {
  return {
    request: { facilityId: 'ship', from, to, measurementFieldIds: 'all', reportFieldIds: 'all' },
    constants: {
      Facility_IMO: '',
      Facility_NumberOfScrubbers: 1,
      Facility_ScrubberSystemType: '',
      Facility_TotalEffectKW: 0,
    },
    primaryId: 'ds',
    dataSourceNames: new Map([['ds', 'Logger']]),
    channels: [],
    channelById: new Map(),
    fieldName: new Map(),
    measurementCalcsByField: new Map(),
    order: [],
    reportCalcsByField: new Map(),
    reportFieldNames: new Map(),
    events: { rules: DEFAULT_EVENT_RULES, dataEnd: null, thresholdOf: defaultThreshold },
    ...parts,
  };
}
