import * as echarts from 'echarts/core';
import { BarChart, GaugeChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only what the fleet dashboard draws is in the first bundle: gauges and bar charts.
// The ship dashboard's line chart and uptime heatmap register theirs in echarts-ship.ts (loaded with that page).
echarts.use([GaugeChart, BarChart, GridComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

export { echarts };
