import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import {
  applyFleetFilter,
  parseStoredFleetFilter,
  restorePeriod,
  serializeFleetFilter,
  serializePeriod,
  type FleetFilter,
  type Period,
} from '@portal/contracts/rules';
import { facilitiesQuery } from './queries/facilities';
import { useSession } from './session';

// Local storage keys of the period choice and the saved fleet filter (the spec does not show them).
export const PERIOD_STORAGE_KEY = 'portal.period';
export const FLEET_FILTER_STORAGE_KEY = 'portal.fleetFilter';

export interface FleetContextValue {
  period: Period;
  setPeriod(period: Period): void;
  filter: FleetFilter;
  setFilter(filter: FleetFilter): void;
  /** Every ship the user sees (loading: undefined). */
  facilities: Facility[] | undefined;
  /** The ships that pass the fleet filter: what the dashboards request. */
  filteredFacilities: Facility[] | undefined;
  /** The first ship of the list, the "current ship" of the spec. */
  currentFacility: Facility | undefined;
}

const FleetContext = createContext<FleetContextValue | undefined>(undefined);

/** Period, fleet filter and the ship list, shared by the drawer, the dashboards and the configuration pages. */
export function FleetProvider({ children }: { children: ReactNode }) {
  const { profile } = useSession();
  const [period, setPeriodState] = useState<Period>(() =>
    restorePeriod(localStorage.getItem(PERIOD_STORAGE_KEY), new Date()),
  );
  const [filter, setFilterState] = useState<FleetFilter>(() =>
    parseStoredFleetFilter(localStorage.getItem(FLEET_FILTER_STORAGE_KEY)),
  );
  const { data: facilities } = useQuery({ ...facilitiesQuery(), enabled: Boolean(profile) });

  const setPeriod = useCallback((next: Period) => {
    localStorage.setItem(PERIOD_STORAGE_KEY, serializePeriod(next));
    setPeriodState(next);
  }, []);
  const setFilter = useCallback((next: FleetFilter) => {
    localStorage.setItem(FLEET_FILTER_STORAGE_KEY, serializeFleetFilter(next));
    setFilterState(next);
  }, []);

  const value = useMemo<FleetContextValue>(() => {
    const filteredFacilities =
      facilities && profile ? applyFleetFilter(facilities, filter, profile.roles) : undefined;
    return {
      period,
      setPeriod,
      filter,
      setFilter,
      facilities,
      filteredFacilities,
      currentFacility: facilities?.[0],
    };
  }, [period, setPeriod, filter, setFilter, facilities, profile]);
  return <FleetContext.Provider value={value}>{children}</FleetContext.Provider>;
}

/** Period, fleet filter and ships given from outside (the component tests: ui/testing/render.tsx). */
export function FixedFleetProvider({ value, children }: { value: FleetContextValue; children: ReactNode }) {
  return <FleetContext.Provider value={value}>{children}</FleetContext.Provider>;
}

export function useFleet(): FleetContextValue {
  const value = useContext(FleetContext);
  if (!value) throw new Error('useFleet outside FleetProvider');
  return value;
}
