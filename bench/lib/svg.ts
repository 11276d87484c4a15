/**
 * Hand-drawn SVG charts for the bench report (no dependencies): a line chart with several
 * series and a bar chart with optional target markers. Output is a self-contained SVG
 * string with a title, axes, ticks and a legend.
 */

/** One line series. */
export interface Series {
  name: string;
  points: Array<[number, number]>;
}

/** One bar, optionally with a target drawn as a dashed line. */
export interface Bar {
  label: string;
  value: number;
  target?: number;
}

const DEFAULT_W = 640;
const W = DEFAULT_W;
const H = 320;
const M = { left: 64, right: 16, top: 36, bottom: 48 };
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'];

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  const m = [1, 2, 2.5, 5, 10].find((x) => x * p >= v) ?? 10;
  return m * p;
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1000) return `${Math.round(v / 100) / 10}k`;
  return String(Math.round(v * 100) / 100);
}

function frame(
  title: string,
  xLabel: string,
  yLabel: string,
  yMax: number,
  W = DEFAULT_W,
): string[] {
  const ph = H - M.top - M.bottom;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text transform="translate(14 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const y = M.top + ph - (ph * i) / 4;
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`,
      `<text x="${M.left - 6}" y="${y + 4}" text-anchor="end">${fmt((yMax * i) / 4)}</text>`,
    );
  }
  out.push(
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#333"/>`,
  );
  return out;
}

/** A line chart; x and y axes start at 0. */
export function lineChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
}): string {
  const all = opts.series.flatMap((s) => s.points);
  const xMax = niceMax(Math.max(0, ...all.map((p) => p[0])));
  const yMax = niceMax(Math.max(0, ...all.map((p) => p[1])));
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (v: number): number => M.left + (pw * v) / xMax;
  const y = (v: number): number => M.top + ph - (ph * v) / yMax;
  const out = frame(opts.title, opts.xLabel, opts.yLabel, yMax);
  for (let i = 0; i <= 4; i++) {
    out.push(
      `<text x="${x((xMax * i) / 4)}" y="${H - M.bottom + 14}" text-anchor="middle">${fmt((xMax * i) / 4)}</text>`,
    );
  }
  opts.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length] as string;
    const d = s.points
      .map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`)
      .join(' ');
    out.push(
      `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`,
      `<rect x="${M.left + 10}" y="${M.top + 6 + i * 16}" width="10" height="10" fill="${color}"/>`,
      `<text x="${M.left + 24}" y="${M.top + 15 + i * 16}">${esc(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n');
}

/** A bar label as at most two lines (split at the first space). */
function labelLines(label: string): string[] {
  const i = label.indexOf(' ');
  return i < 0 ? [label] : [label.slice(0, i), label.slice(i + 1)];
}

/** A bar chart; targets (if any) are dashed red lines across their bar. */
export function barChart(opts: { title: string; yLabel: string; bars: Bar[] }): string {
  const yMax = niceMax(Math.max(0, ...opts.bars.flatMap((b) => [b.value, b.target ?? 0])));
  // Wide enough for every label: a label is drawn in two lines, split at its first space.
  const longest = Math.max(0, ...opts.bars.flatMap((b) => b.label.split(' ').map((p) => p.length)));
  const W = Math.max(DEFAULT_W, M.left + M.right + opts.bars.length * Math.max(40, longest * 6));
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const slot = pw / Math.max(1, opts.bars.length);
  const y = (v: number): number => M.top + ph - (ph * v) / yMax;
  const out = frame(opts.title, '', opts.yLabel, yMax, W);
  opts.bars.forEach((b, i) => {
    const x0 = M.left + slot * i + slot * 0.15;
    const w = slot * 0.7;
    const color = COLORS[i % COLORS.length] as string;
    out.push(
      `<rect x="${x0.toFixed(1)}" y="${y(b.value).toFixed(1)}" width="${w.toFixed(1)}" height="${(M.top + ph - y(b.value)).toFixed(1)}" fill="${color}"/>`,
      `<text x="${(x0 + w / 2).toFixed(1)}" y="${(y(b.value) - 4).toFixed(1)}" text-anchor="middle">${fmt(b.value)}</text>`,
      ...labelLines(b.label).map(
        (line, k) =>
          `<text x="${(x0 + w / 2).toFixed(1)}" y="${H - M.bottom + 14 + k * 11}" text-anchor="middle" font-size="9">${esc(line)}</text>`,
      ),
    );
    if (b.target !== undefined) {
      out.push(
        `<line x1="${(x0 - 4).toFixed(1)}" x2="${(x0 + w + 4).toFixed(1)}" y1="${y(b.target).toFixed(1)}" y2="${y(b.target).toFixed(1)}" stroke="#d00" stroke-width="2" stroke-dasharray="5,3"/>`,
      );
    }
  });
  out.push(
    `<text x="${W - M.right}" y="${M.top - 4}" text-anchor="end" fill="#d00">dashed: target</text>`,
    '</svg>',
  );
  return out.join('\n');
}
