import type { Kysely } from 'kysely';
import type { PortArea, PortLookup } from '@portal/contracts/rules/carbon';
import type { Database } from '../../db/schema';
import type { LedgerPortsPort } from '../executions/derive-ledger';
import { buildPortIndex, portAt } from '../ports/port-at';
import { portShapesForOrganization } from '../ports/service';

/**
 * The engine's port for the carbon ledger (derive-ledger.ts's LedgerPortsPort), answered by the ports feature: the
 * UN/LOCODE reference with the organization's additions and corrections (features/ports/port-at.ts decides which
 * holds a position at a time). A call's port is keyed by its UN/LOCODE (a correction is the port it corrects), an
 * organization's own port without one by `org:<id>`. The index is built once per organization and set of ports.
 */

type Shape = Awaited<ReturnType<typeof portShapesForOrganization>>[number];

const cache = new Map<string, { reference: Shape | undefined; key: string; lookup: PortLookup }>();

export const portKeyOf = (shape: Pick<Shape, 'locode' | 'id'>): string =>
  shape.locode ?? `org:${shape.id ?? ''}`;

function lookupOf(shapes: readonly Shape[]): PortLookup {
  const index = buildPortIndex(shapes);
  const position = new Map(shapes.map((s, i) => [s, i]));
  const ports: PortArea[] = shapes.map((s) => ({
    id: portKeyOf(s),
    name: s.name,
    locode: s.locode ?? undefined,
    country: s.country,
    latitude: s.lat,
    longitude: s.lon,
    radiusNm: s.radiusNm,
    polygon: s.polygon ?? undefined,
  }));
  return {
    ports,
    portAt: (latitude, longitude, atMs) => {
      const found = portAt(index, latitude, longitude, atMs);
      return found ? (position.get(found) ?? -1) : -1;
    },
  };
}

export const ledgerPorts: LedgerPortsPort = {
  async portsFor(db: Kysely<Database>, organizationId: string): Promise<PortLookup> {
    const shapes = await portShapesForOrganization(db, organizationId);
    // The reference part is one array per loaded reference (cached by the ports feature); the own part is new.
    const own = shapes.filter((s) => s.organization);
    const reference = shapes.find((s) => !s.organization);
    const key = `${shapes.length}|${JSON.stringify(own)}`;
    const cached = cache.get(organizationId);
    if (cached && cached.reference === reference && cached.key === key) return cached.lookup;
    const lookup = lookupOf(shapes);
    if (cache.size > 1000) cache.clear();
    cache.set(organizationId, { reference, key, lookup });
    return lookup;
  },
};
