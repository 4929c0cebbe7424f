import { feature } from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
// Natural Earth's land at 1:50 million (public domain), as the world-atlas package ships it in TopoJSON (536 kB,
// about 130 kB as the build's .br): an asset of our own build, served by our own server, never fetched elsewhere.
import landUrl from 'world-atlas/land-50m.json?url';

type Land = Feature<Geometry> | FeatureCollection<Geometry>;
let land: Promise<Land> | null = null;

/** The land of the basemap as GeoJSON, read once per page load (docs/decisions/0102-map.md). */
export function loadLand(): Promise<Land> {
  land ??= fetch(landUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`The basemap did not load (${response.status})`);
      return response.json() as Promise<Topology<{ land: GeometryObject }>>;
    })
    .then((topology) => feature(topology, topology.objects.land))
    .catch((error: unknown) => {
      land = null;
      throw error;
    });
  return land;
}
