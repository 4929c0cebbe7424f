import { useEffect, useRef, useState } from 'react';
import { Box, type SxProps } from '@mui/material';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import type * as EChartsCore from './echarts-core';

// ECharts is not in the initial bundle: the dashboard's numbers paint first, the canvases follow. It is fetched
// when the first chart mounts, after the start-up API calls were sent (shell/startup.ts): over a satellite link its
// 170 kB would otherwise take two of the browser's six connections and the bandwidth the report answers need.
let loading: Promise<typeof EChartsCore> | null = null;
const loadECharts = () => (loading ??= import('./echarts-core'));

const afterNextPaint = (run: () => void) => {
  if (typeof requestAnimationFrame === 'undefined') return void setTimeout(run, 0);
  requestAnimationFrame(() => setTimeout(run, 0));
};

export interface EChartProps {
  option: EChartsCoreOption;
  /** CSS height; width fills the box unless given. */
  height: number | string;
  width?: number | string;
  sx?: SxProps;
  'data-testid'?: string;
  ariaLabel?: string;
}

/** An ECharts canvas that follows its option and its box size. Chart types beyond gauge and bar register in echarts-ship. */
export function EChart({ option, height, width, sx, ariaLabel, ...rest }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsType | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let instance: EChartsType | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void loadECharts().then(({ echarts }) => {
      // After the next paint: the numbers of a dashboard show first, the canvases (tens of ms each) follow.
      afterNextPaint(() => {
        if (cancelled) return;
        instance = echarts.init(element, undefined, { renderer: 'canvas' });
        // The size it last finished drawing at, animations ended (ECharts' `finished`): a browser test waits for it
        // to equal the box's size before a screenshot, instead of a pause.
        instance.on('finished', () => {
          element.dataset.drawn = `${element.clientWidth}x${element.clientHeight}`;
        });
        observer =
          typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance?.resize());
        observer?.observe(element);
        setChart(instance);
      });
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      instance?.dispose();
    };
  }, []);

  useEffect(() => {
    if (!chart) return;
    delete ref.current?.dataset.drawn;
    chart.setOption(option, { notMerge: true });
  }, [chart, option]);

  return (
    <Box
      ref={ref}
      role="img"
      aria-label={ariaLabel}
      data-testid={rest['data-testid']}
      data-ready={chart ? 'true' : 'false'}
      sx={{ height, width: width ?? '100%', ...sx }}
    />
  );
}
