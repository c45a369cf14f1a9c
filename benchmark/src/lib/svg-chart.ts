// A plain SVG line chart: enough for latency against N, a latency
// distribution, or time against file size, readable in a browser or a README.

export interface Series {
  name: string;
  points: Array<[number, number]>;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  logX?: boolean;
  /** A horizontal reference line, e.g. the target. */
  reference?: { y: number; label: string };
}

const PLOT_WIDTH = 550;
const H = 420;
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) =>
  Math.abs(n) >= 1e6
    ? `${+(n / 1e6).toPrecision(3)}M`
    : Math.abs(n) >= 1e3
      ? `${+(n / 1e3).toPrecision(3)}k`
      : `${+n.toPrecision(3)}`;

/** 4 to 8 round ticks covering [min, max]. */
function ticks(min: number, max: number): number[] {
  if (max <= min) max = min + 1;
  const raw = (max - min) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => (max - min) / s <= 7) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  // The top tick covers the largest value, so no line leaves the plot.
  if ((out.at(-1) ?? -Infinity) < max) out.push(+((out.at(-1) ?? min) + step).toPrecision(12));
  return out;
}

export function lineChart(spec: ChartSpec): string {
  // The legend sits right of the plot: room for its longest name.
  const longest = Math.max(0, ...spec.series.map((s) => s.name.length));
  const M = { left: 70, right: Math.max(170, 50 + Math.ceil(longest * 7)), top: 40, bottom: 55 };
  const W = PLOT_WIDTH + M.right;
  const all = spec.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const tx = (x: number) => (spec.logX ? Math.log10(Math.max(x, 1e-9)) : x);
  const xs = all.map(([x]) => tx(x));
  const ys = all.map(([, y]) => y);
  if (spec.reference) ys.push(spec.reference.y);
  const xMin = Math.min(...xs, spec.logX ? Infinity : 0);
  const xMax = Math.max(...xs);
  const yTicks = ticks(0, Math.max(...ys, 1) * 1.08);
  const yMax = yTicks[yTicks.length - 1]!;
  const xTicks = spec.logX
    ? Array.from({ length: Math.floor(xMax) - Math.ceil(xMin) + 1 }, (_, i) => Math.ceil(xMin) + i)
    : ticks(xMin, xMax);
  const x0 = spec.logX ? Math.min(xMin, xTicks[0] ?? xMin) : Math.min(xMin, xTicks[0] ?? 0);
  const x1 = Math.max(xMax, xTicks[xTicks.length - 1] ?? xMax);
  const px = (x: number) => M.left + ((x - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - (y / yMax) * (H - M.top - M.bottom);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2 - M.right / 2 + M.left / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(spec.title)}</text>`,
  ];
  for (const t of yTicks) {
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${py(t)}" y2="${py(t)}" stroke="#e5e5e5"/>`,
      `<text x="${M.left - 6}" y="${py(t) + 4}" text-anchor="end">${fmt(t)}</text>`,
    );
  }
  for (const t of xTicks) {
    parts.push(
      `<line x1="${px(t)}" x2="${px(t)}" y1="${H - M.bottom}" y2="${H - M.bottom + 5}" stroke="#333"/>`,
      `<text x="${px(t)}" y="${H - M.bottom + 18}" text-anchor="middle">${fmt(spec.logX ? 10 ** t : t)}</text>`,
    );
  }
  parts.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 14}" text-anchor="middle">${esc(spec.xLabel)}</text>`,
    `<text transform="translate(18 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text>`,
  );
  if (spec.reference) {
    const y = py(spec.reference.y);
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="#888" stroke-dasharray="6 4"/>`,
      `<text x="${W - M.right - 4}" y="${y - 5}" text-anchor="end" fill="#555">${esc(spec.reference.label)}</text>`,
    );
  }
  spec.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const pts = s.points
      .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
      .map(([x, y]) => [px(tx(x)), py(y)]);
    if (pts.length > 1) {
      parts.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map(([x, y]) => `${x!.toFixed(1)},${y!.toFixed(1)}`).join(' ')}"/>`,
      );
    }
    if (pts.length <= 40) {
      for (const [x, y] of pts)
        parts.push(`<circle cx="${x!.toFixed(1)}" cy="${y!.toFixed(1)}" r="3" fill="${color}"/>`);
    }
    const ly = M.top + 10 + i * 20;
    parts.push(
      `<line x1="${W - M.right + 12}" x2="${W - M.right + 32}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>`,
      `<text x="${W - M.right + 38}" y="${ly + 4}">${esc(s.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
