/** One goal: its running ticks, todo board, gates, receipts, tick timeline and cost. */
import {
  distinctEvidence,
  evidenceView,
  gatePreview,
  gatePreviewWords,
  outcomeAccounting,
  outcomeWords,
  receiptWords,
  runningTicks,
  stateWordsOf,
  todoDependenciesOf,
} from "@loopx/core";
import { tickRunUrl } from "@loopx/github";
import type { GoalEvent } from "@loopx/store";
import { costChart } from "./cost-chart.ts";
import type { GoalDetail } from "./dashboard-data.ts";
import { html, type SafeHtml } from "./escape-html.ts";
import { page, section, usd, when } from "./render-layout.ts";
import type { GateControls } from "./render-overview.ts";

const COLUMNS = ["proposed", "ready", "blocked", "deferred", "done", "dropped"] as const;

/**
 * One receipt: the act in a sentence, linked to where it happened, with the ledger's raw
 * data only behind a toggle (for whoever audits it). An event the kernel has no words for
 * is not listed.
 */
function receiptRow(e: GoalEvent): SafeHtml | null {
  const line = receiptWords(e);
  if (line === null) return null;
  const act = line.link ? html` · <a href="${line.link}">the act</a>` : "";
  return html`<tr data-at="${e.at.toISOString()}"><td>${line.text}${act}<details><summary>details</summary><code>${e.type} ${JSON.stringify(e.data)}</code></details></td></tr>`;
}

function issueUrl(serverUrl: string, repo: string, issueNumber: number): string {
  return `${serverUrl.replace(/\/+$/, "")}/${repo}/issues/${issueNumber}`;
}

/** One evidence item: its line (marked when only the agent says so), the raw text collapsed. */
function evidenceRow(e: GoalDetail["state"]["evidence"][number]): SafeHtml {
  const v = evidenceView(e);
  const claim = v.claimed ? html` <span class="muted">(the agent's claim, not checked)</span>` : "";
  const raw =
    v.detail === null
      ? ""
      : html`<details><summary>output</summary><pre>${v.detail}</pre></details>`;
  return html`<div>[${e.kind}] ${v.line}${claim}${raw}</div>`;
}

export function renderGoal(
  d: GoalDetail,
  controls: GateControls,
  serverUrl: string,
  signedInAs: string | null = null,
): SafeHtml {
  const { state, summary: g, now } = d;
  const prUrl = (n: number) => `${serverUrl.replace(/\/+$/, "")}/${g.repo}/pull/${n}`;
  const words = stateWordsOf(state, now);
  const dependsOn = todoDependenciesOf(state);
  // The order LoopX works the todos in, and what each open one waits on, linked to it.
  const order = new Map(
    [...state.todos].sort((a, b) => a.position - b.position).map((t, i) => [t.key, i + 1]),
  );
  const edges = (t: (typeof state.todos)[number]) => {
    const d = dependsOn(t);
    const links = [
      ...d.todos.map((k) => html`<a href="#todo-${k}">after ${k}</a>`),
      ...d.gates.map((k) => html`<a href="#gate-${k}">needs ${k}</a>`),
      ...(d.pr === null ? [] : [html`<a href="${prUrl(d.pr)}">needs #${d.pr} merged</a>`]),
    ];
    return links.length === 0
      ? ""
      : html`<br><span class="deps">${links.map((l, i) => (i === 0 ? l : html` · ${l}`))}</span>`;
  };
  const board = COLUMNS.map((status) => {
    const todos = state.todos
      .filter((t) => t.status === status)
      .sort((a, b) => a.position - b.position);
    return html`<td><b>${status}</b>${todos.map(
      (t) =>
        html`<div id="todo-${t.key}" class="card ${status === "done" ? "done" : ""}">${order.get(t.key) ?? ""}. ${t.key} ${t.title}${status === "done" ? "" : html`<br><span class="muted">${words(t)}</span>${edges(t)}`}</div>`,
    )}</td>`;
  });
  // What approving a PR-bound gate covers: the head, GitHub's counts, CI on that head.
  const covers = (gate: (typeof state.gates)[number]) => {
    const preview = gatePreview(state, gate, now);
    if (preview === null) return "";
    const files = `${prUrl(preview.pr)}/files`;
    return html`<br><span class="preview">${gatePreviewWords(preview)}</span> · <a href="${files}">the files</a>`;
  };
  const waiting = state.gates
    .filter((gate) => gate.status === "open")
    .map(
      (gate) =>
        html`<tr class="open" data-at="${gate.openedAt.toISOString()}"><td><b>${gate.key}</b></td><td>${gate.question}${covers(gate)}<br><span class="muted">scopes: ${gate.scopes.join(", ")} · opened ${when(gate.openedAt, now)}</span></td>
<td>${controls ? controls(state.goal.id, gate.key) : html`<span class="muted">comment <code>/loopx approve ${gate.key}</code> on the issue</span>`}</td></tr>`,
    );
  const gates = state.gates.map(
    (gate) =>
      html`<tr id="gate-${gate.key}" class="${gate.status}"><td><b>${gate.key}</b></td><td>${gate.question}${covers(gate)}<br><span class="muted">${gate.scopes.join(", ")}</span></td>
<td>${gate.status}${gate.resolvedBy ? html` by ${gate.resolvedBy} ${when(gate.resolvedAt, now)}` : ""}${gate.note ? html`: “${gate.note}”` : ""}</td></tr>`,
  );
  const receipts = [...d.receiptEvents]
    .reverse()
    .map(receiptRow)
    .filter((r) => r !== null);
  // Every tick holding a lease, one per slot: parallel ticks each show where they run.
  const running = runningTicks(state, now).map((t) => {
    const url = tickRunUrl(state.goal, t, serverUrl);
    const tick = url ? html`<a href="${url}">tick #${t.number}</a>` : html`tick #${t.number}`;
    return html`<tr><td>${t.todo}</td><td>${tick}</td><td>slot ${t.slot || "1"}</td>
<td>lease until ${t.leaseExpiresAt.toISOString()} (${when(t.leaseExpiresAt, now)})</td></tr>`;
  });
  const timeline = [...d.ticks].reverse().map((t) => {
    const tick = state.ticks.find((k) => k.number === t.number);
    const evidence = tick
      ? distinctEvidence(state.evidence.filter((e) => e.tickId === tick.id))
      : [];
    const handoff = tick ? state.handoffs.find((h) => h.tickId === tick.id) : undefined;
    const at = (t.finishedAt ?? t.startedAt).toISOString();
    return html`<tr class="${t.outcome ?? ""}" data-at="${at}"><td>#${t.number}</td><td>${t.todo}</td>
<td>${t.outcome ?? "running"}${t.failure ? html` (${t.failure})` : ""}<br><span class="muted">${when(t.startedAt, now)}</span></td>
<td>${evidence.map(evidenceRow)}${handoff ? html`<pre>done: ${handoff.done}\nnext: ${handoff.next}</pre>` : ""}</td>
<td>${t.cost ? `${usd(t.cost.usd)} · ${t.cost.runnerMinutes.toFixed(1)} min` : "—"}</td></tr>`;
  });
  const outcome = outcomeWords(outcomeAccounting(state.goal, state.gates, now));
  // The page updates itself while open (live-updates.ts) and marks what is newer than the
  // person's last visit, both in the layout's script; `data-now` is the database clock.
  const live = `/loopx/goals/${encodeURIComponent(state.goal.id)}/live`;
  return page(
    `${g.repo}#${g.issueNumber}`,
    html`<div id="goal" data-goal="${state.goal.id}" data-now="${now.toISOString()}" data-live="${live}">
<section><h2>${g.title}</h2><p id="since" class="muted"></p><p><a href="${issueUrl(serverUrl, g.repo, g.issueNumber)}">${g.repo}#${g.issueNumber} on GitHub</a></p><p><span class="pill">${d.stateWords}</span> ${d.reason} ${d.instruction}</p>
<p>${g.spent.ticks} ticks · ${g.spent.runnerMinutes.toFixed(1)} runner minutes · ${usd(g.spent.usd)} · next wake ${when(g.nextWakeAt, now)}</p>
<p class="outcome">${outcome.delivered} ${outcome.people}</p></section>
${section("Waiting for you", "Nothing waits for a decision.", waiting)}
${section(`Running now (${running.length} of ${state.goal.parallel} slots)`, "No tick is running.", running)}
<section><h2>Todo board</h2><table><tr>${board}</tr></table></section>
${section("Gates", "No gate was ever opened.", gates)}
${section("Receipts", "No decision has been made yet.", receipts)}
${section("Tick timeline", "No tick has run yet.", timeline)}
<section><h2>Cost over time</h2>${costChart(d.ticks)}</section></div>`,
    signedInAs,
  );
}
