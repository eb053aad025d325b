/** The goal page's cost chart: cumulative USD over time as a small inline SVG, no library. */
import type { TickRecord } from "@loopx/store";
import { html, type SafeHtml } from "./escape-html.ts";

const W = 480;
const H = 120;
const PAD = 24;

export function costChart(ticks: readonly TickRecord[]): SafeHtml {
  const finished = ticks.filter((t) => t.finishedAt !== null && t.cost !== null);
  if (finished.length === 0) return html`<p class="muted">No finished ticks yet, so no cost.</p>`;
  let total = 0;
  const points = finished.map((t) => {
    total += t.cost?.usd ?? 0;
    return { at: (t.finishedAt ?? t.startedAt).getTime(), usd: total };
  });
  const first = points[0]?.at ?? 0;
  const span = Math.max(1, (points[points.length - 1]?.at ?? first) - first);
  const top = Math.max(total, 0.01);
  const x = (at: number) => PAD + ((at - first) / span) * (W - 2 * PAD);
  const y = (usd: number) => H - PAD - (usd / top) * (H - 2 * PAD);
  const path = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${x(p.at).toFixed(1)},${y(p.usd).toFixed(1)}`)
    .join(" ");
  const dots = points.map(
    (p) => html`<circle cx="${x(p.at).toFixed(1)}" cy="${y(p.usd).toFixed(1)}" r="3"></circle>`,
  );
  return html`<svg class="chart" role="img" aria-label="cumulative cost in USD" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" class="axis"></line>
<line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" class="axis"></line>
<text x="${PAD + 4}" y="${PAD - 6}">$${total.toFixed(2)}</text>
<path d="${path}" fill="none"></path>${dots}</svg>`;
}
