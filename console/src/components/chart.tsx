/**
 * @module console/components/chart: Chart.js on a canvas. Chart.js 4 draws on the canvas and sizes
 * it through CSSOM (`element.style.x = …`), which `style-src 'self'` allows; it injects no
 * stylesheet and evaluates no code. Every chart is paired with a table holding the same numbers
 * (the canvas is an image to assistive technology).
 */
import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

/** One series. */
export interface Series {
  readonly label: string;
  readonly values: readonly number[];
  readonly color: string;
}

/** A bar or line chart of `series` over `labels`; `summary` is its accessible name. */
export function ChartView(props: {
  kind: 'bar' | 'line';
  labels: readonly string[];
  series: readonly Series[];
  summary: string;
  horizontal?: boolean;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const config: ChartConfiguration<'bar' | 'line'> = {
      type: props.kind,
      data: {
        labels: [...props.labels],
        datasets: props.series.map((s) => ({
          label: s.label,
          data: [...s.values],
          backgroundColor: s.color,
          borderColor: s.color,
          tension: 0.2,
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        indexAxis: props.horizontal ? 'y' : 'x',
        plugins: { legend: { display: props.series.length > 1 } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    };
    const chart = new Chart(canvas, config);
    return () => chart.destroy();
  }, [props.kind, props.labels, props.series, props.horizontal]);
  return (
    <div class="chart">
      <canvas ref={ref} role="img" aria-label={props.summary} />
    </div>
  );
}
