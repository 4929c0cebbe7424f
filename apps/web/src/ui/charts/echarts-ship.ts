import { HeatmapChart, LineChart } from 'echarts/charts';
import { MarkAreaComponent, VisualMapComponent } from 'echarts/components';
import { echarts } from './echarts-core';

echarts.use([LineChart, HeatmapChart, VisualMapComponent, MarkAreaComponent]);

export { echarts };
