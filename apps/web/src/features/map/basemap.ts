import { feature } from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';
import type { Feature, FeatureCollection, Geometry, MultiPolygon } from 'geojson';
import { mendAntimeridian } from './display';
// Natural Earth's land at 1:50 million (public domain), as the world-atlas package ships it in TopoJSON (536 kB,
// about 130 kB as the build's .br): an asset of our own build, served by our own server, never fetched elsewhere.
import landUrl from 'world-atlas/land-50m.json?url';

type Land = FeatureCollection<MultiPolygon>;
let land: Promise<Land> | null = null;

/** The land's polygons, those across the antimeridian mended (display.ts), as one collection. */
function landPolygons(geojson: Feature<Geometry> | FeatureCollection<Geometry>): Land {
  const features = geojson.type === 'FeatureCollection' ? geojson.features : [geojson];
  const polygons = features.flatMap((f) =>
    f.geometry.type === 'MultiPolygon'
      ? f.geometry.coordinates
      : f.geometry.type === 'Polygon'
        ? [f.geometry.coordinates]
        : [],
  );
  return {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: {},
        geometry: { type: 'MultiPolygon', coordinates: mendAntimeridian(polygons) },
      },
    ],
  };
}

/** The land of the basemap as GeoJSON, read once per page load (docs/decisions/0102-map.md). */
export function loadLand(): Promise<Land> {
  land ??= fetch(landUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`The basemap did not load (${response.status})`);
      return response.json() as Promise<Topology<{ land: GeometryObject }>>;
    })
    .then((topology) => landPolygons(feature(topology, topology.objects.land)))
    .catch((error: unknown) => {
      land = null;
      throw error;
    });
  return land;
}
