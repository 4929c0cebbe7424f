import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import { Alert, Box } from '@mui/material';
import type { Track } from '@portal/contracts/map';
import { formatDateTime } from '@portal/contracts/rules';
import { loadLand } from './basemap';
import {
  inForceText,
  MAP_COLOURS,
  ringLatLngs,
  sourceParts,
  trackModeKey,
  TRACK_MODE_NAMES,
  unwrapTrack,
  worldOffsets,
  ZONE_KIND_NAMES,
  type MapMarker,
  type MapZone,
} from './display';

export interface MapCanvasProps {
  zones: readonly MapZone[];
  track?: Track | null;
  markers?: readonly MapMarker[];
  /** The map's accessible name. */
  label: string;
  height: number | string | Record<string, number | string>;
  /** Opens a link of a popup inside the app (no page load). */
  navigate?: (href: string) => void;
  /** The ship's track ahead (dashed) and where it enters the zones it is warned of (docs/decisions/0123). */
  ahead?: {
    points: readonly [number, number][];
    warnings: readonly { entry: [number, number]; title: string; lines: string[] }[];
  } | null;
}

const WORLD_VIEW: L.LatLngTuple[] = [
  [-50, -150],
  [70, 170],
];

/** The view the map fits (the track, the markers or the world) until the user pans or zooms it. */
interface ViewState {
  home: { bounds: L.LatLngBounds; maxZoom: number } | null;
  userMoved: boolean;
  /** One of our own fits is moving the map (not the user). */
  fitting: boolean;
}

function fitHome(map: L.Map, view: ViewState) {
  if (!view.home) return;
  view.fitting = true;
  map.fitBounds(view.home.bounds, { maxZoom: view.home.maxZoom, animate: false });
  view.fitting = false;
}

/**
 * Notes the box size the map was last laid out for (data-drawn): a browser test waits for it to equal the box's
 * size before a screenshot, instead of a pause.
 */
function noteDrawn(map: L.Map) {
  const box = map.getContainer();
  box.dataset.drawn = `${box.clientWidth}x${box.clientHeight}`;
}

function goHome(map: L.Map, view: ViewState, bounds: L.LatLngBounds, maxZoom: number) {
  view.home = { bounds, maxZoom };
  view.userMoved = false;
  fitHome(map, view);
}

/** A popup's content as elements (never HTML from data: names and sources are text). */
function popupContent(
  title: string,
  lines: string[],
  link?: { href: string; text: string; external?: boolean },
  navigate?: (href: string) => void,
) {
  const root = document.createElement('div');
  root.className = 'map-popup';
  const heading = document.createElement('strong');
  heading.textContent = title;
  root.append(heading);
  for (const line of lines) {
    const p = document.createElement('div');
    p.textContent = line;
    root.append(p);
  }
  if (link) {
    const a = document.createElement('a');
    a.href = link.href;
    a.textContent = link.text;
    if (link.external) {
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
    } else if (navigate) {
      a.addEventListener('click', (event) => {
        event.preventDefault();
        navigate(link.href);
      });
    }
    root.append(a);
  }
  return root;
}

function zonePopup(zone: MapZone, now: Date) {
  const source = sourceParts(zone.source);
  return popupContent(
    zone.name,
    [
      `${ZONE_KIND_NAMES[zone.kind]} · ${zone.country}`,
      `Bans: ${zone.bans}`,
      inForceText(zone.inForceFrom, now),
      `Source: ${source.text}`,
    ],
    source.url ? { href: source.url, text: 'Source document', external: true } : undefined,
  );
}

/**
 * The map itself (Leaflet, SVG and canvas renderers: no WebGL, docs/decisions/0102-map.md): Natural Earth's land over
 * a sea-coloured background, the zones, the track coloured by scrubber mode, and point markers. Pan and zoom by
 * mouse, touch or keyboard (arrows, + and -); a zone, a stretch of track or a marker opens a popup.
 */
export function MapCanvas({ zones, track, markers = [], label, height, navigate, ahead }: MapCanvasProps) {
  const element = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [landFailed, setLandFailed] = useState(false);
  const view = useRef<ViewState>({ home: null, userMoved: false, fitting: false });
  const unwrapped = useMemo(() => (track ? unwrapTrack(track.segments) : null), [track]);
  const offsets = useMemo(
    () => worldOffsets(unwrapped?.minLon ?? Infinity, unwrapped?.maxLon ?? -Infinity).join(','),
    [unwrapped],
  );
  const aheadBounds = useMemo(
    () =>
      ahead && ahead.points.length > 1
        ? L.latLngBounds(ahead.points.map((p): L.LatLngTuple => [p[0], p[1]]))
        : null,
    [ahead],
  );

  // The map and its panes, once: land under the zones, the zones under the track, markers on top.
  useEffect(() => {
    const div = element.current;
    if (!div) return;
    const created = L.map(div, {
      zoomSnap: 0.5,
      minZoom: 1,
      maxZoom: 12,
      worldCopyJump: false,
      attributionControl: true,
    });
    created.attributionControl.setPrefix(false);
    created.attributionControl.addAttribution('Land: Natural Earth (public domain) · Leaflet');
    for (const [name, zIndex] of [
      ['land', 300],
      ['zones', 410],
      ['track', 420],
      ['markers', 430],
    ] as const)
      created.createPane(name).style.zIndex = String(zIndex);
    goHome(created, view.current, L.latLngBounds(WORLD_VIEW), 18);
    // A pan or zoom by the user (not one of ours) keeps its view when the box changes size.
    created.on('movestart', () => {
      if (!view.current.fitting) view.current.userMoved = true;
    });
    setMap(created);
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            created.invalidateSize({ animate: false });
            if (!view.current.userMoved) fitHome(created, view.current);
            noteDrawn(created);
          });
    observer?.observe(div);
    return () => {
      observer?.disconnect();
      created.remove();
      setMap(null);
    };
  }, []);

  // The land, drawn on a canvas (one element for ~1,400 coastlines), for each copy of the world the track reaches.
  useEffect(() => {
    if (!map) return;
    let layer: L.LayerGroup | null = null;
    let cancelled = false;
    loadLand()
      .then((land) => {
        if (cancelled) return;
        const renderer = L.canvas({ pane: 'land', padding: 0.5 });
        layer = L.layerGroup(
          offsets.split(',').map((o) =>
            L.geoJSON(land, {
              pane: 'land',
              interactive: false,
              coordsToLatLng: (c) => L.latLng(c[1]!, c[0]! + Number(o)),
              style: {
                renderer,
                color: MAP_COLOURS.coast,
                weight: 0.6,
                fillColor: MAP_COLOURS.land,
                fillOpacity: 1,
              },
            }),
          ),
        ).addTo(map);
        map.getContainer().dataset.land = 'drawn';
      })
      .catch(() => {
        if (!cancelled) setLandFailed(true);
      });
    return () => {
      cancelled = true;
      layer?.remove();
    };
  }, [map, offsets]);

  // The zones, as SVG paths (class map-zone map-zone-eca / -ndz), each with its popup.
  useEffect(() => {
    if (!map) return;
    const now = new Date();
    const renderer = L.svg({ pane: 'zones' });
    const layer = L.layerGroup(
      offsets.split(',').flatMap((o) =>
        zones.map((zone) =>
          L.polygon(
            zone.polygons.map((ring) => ringLatLngs(ring, Number(o))),
            {
              pane: 'zones',
              renderer,
              color: MAP_COLOURS[zone.kind],
              weight: 1.5,
              dashArray: zone.kind === 'eca' ? '6 4' : undefined,
              fillColor: MAP_COLOURS[zone.kind],
              fillOpacity: zone.kind === 'eca' ? 0.12 : 0.3,
              className: `map-zone map-zone-${zone.kind}`,
            },
          ).bindPopup(() => zonePopup(zone, now)),
        ),
      ),
    ).addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, zones, offsets]);

  // The track (class map-track map-track-open / -closed / -unknown), and the view fitted to it.
  useEffect(() => {
    if (!map || !unwrapped || !track) return;
    const renderer = L.svg({ pane: 'track' });
    const layers = unwrapped.segments.map((segment) => {
      const key = trackModeKey(segment.mode);
      const popup = () =>
        popupContent(TRACK_MODE_NAMES[key], [
          `${formatDateTime(segment.from)} – ${formatDateTime(segment.to)} UTC`,
        ]);
      const style = {
        pane: 'track',
        renderer,
        color: MAP_COLOURS[key],
        className: `map-track map-track-${key}`,
      };
      return segment.points.length === 1
        ? L.circleMarker(segment.points[0]!, { ...style, radius: 3, fillOpacity: 1 }).bindPopup(popup)
        : L.polyline(segment.points, { ...style, weight: 3, opacity: 0.9 }).bindPopup(popup);
    });
    const layer = L.featureGroup(layers).addTo(map);
    const bounds = layer.getBounds();
    if (aheadBounds) bounds.extend(aheadBounds);
    if (bounds.isValid()) goHome(map, view.current, bounds.pad(0.15), 8);
    return () => {
      layer.remove();
    };
  }, [map, track, unwrapped, aheadBounds]);

  // The track ahead (class map-track-ahead, dashed) and each warning's entry (class map-marker-zone-warning).
  useEffect(() => {
    if (!map || !ahead || ahead.points.length < 2) return;
    const renderer = L.svg({ pane: 'markers' });
    const layer = L.featureGroup([
      L.polyline(
        ahead.points.map((p): L.LatLngTuple => [p[0], p[1]]),
        {
          pane: 'track',
          renderer: L.svg({ pane: 'track' }),
          color: MAP_COLOURS.ahead,
          weight: 3,
          dashArray: '4 6',
          className: 'map-track-ahead',
        },
      ).bindPopup(() =>
        popupContent('Track ahead', ['At the course and speed over ground of the last position']),
      ),
      ...ahead.warnings.map((w) =>
        L.circleMarker(w.entry, {
          pane: 'markers',
          renderer,
          radius: 8,
          color: '#ffffff',
          weight: 2,
          fillColor: MAP_COLOURS.warning,
          fillOpacity: 1,
          className: 'map-marker map-marker-zone-warning',
        })
          .bindTooltip(w.title)
          .bindPopup(() => popupContent(w.title, w.lines)),
      ),
    ]).addTo(map);
    if (!track) {
      const bounds = layer.getBounds();
      if (bounds.isValid()) goHome(map, view.current, bounds.pad(0.3), 8);
    }
    return () => {
      layer.remove();
    };
  }, [map, ahead, track]);

  // Events and positions as dots (class map-marker map-marker-event / -position).
  useEffect(() => {
    if (!map || markers.length === 0) return;
    const renderer = L.svg({ pane: 'markers' });
    const base = unwrapped?.segments[0]?.points[0]?.[1] ?? null;
    const layer = L.featureGroup(
      markers.map((m) => {
        // Beside an unwrapped track, a marker goes on the same copy of the world.
        let lon = m.longitude;
        if (base !== null) {
          while (lon - base > 180) lon -= 360;
          while (lon - base < -180) lon += 360;
        }
        return L.circleMarker([m.latitude, lon], {
          pane: 'markers',
          renderer,
          radius: m.kind === 'position' ? 7 : 6,
          color: '#ffffff',
          weight: 2,
          fillColor: m.colour,
          fillOpacity: 1,
          className: `map-marker map-marker-${m.kind}`,
        })
          .bindTooltip(m.title)
          .bindPopup(() => popupContent(m.title, m.lines, m.link, navigate));
      }),
    ).addTo(map);
    if (!track) {
      const bounds = layer.getBounds();
      if (bounds.isValid()) goHome(map, view.current, bounds.pad(0.3), 6);
    }
    return () => {
      layer.remove();
    };
  }, [map, markers, unwrapped, track, navigate]);

  return (
    <Box>
      {landFailed ? (
        <Alert severity="warning" sx={{ mb: 1 }}>
          The coastlines could not be loaded: the zones and the track are drawn without them
        </Alert>
      ) : null}
      <Box
        ref={element}
        role="region"
        aria-label={label}
        data-testid="map-canvas"
        sx={{
          height,
          width: '100%',
          bgcolor: MAP_COLOURS.sea,
          borderRadius: 1,
          // Leaflet's own background would be grey between the coastlines.
          '&.leaflet-container': { bgcolor: MAP_COLOURS.sea, fontFamily: 'inherit' },
          '& .map-popup': { display: 'grid', gap: 0.5, maxWidth: 280, overflowWrap: 'anywhere' },
        }}
      />
    </Box>
  );
}
