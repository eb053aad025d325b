/** The overview page: what needs you, what is running, what is scheduled, what is done. */
import type { GoalSummary } from "@loopx/store";
import type { Overview } from "./dashboard-data.ts";
import { html, type SafeHtml } from "./escape-html.ts";
import { page, section, usd, when } from "./render-layout.ts";

/** What a dashboard extension shows beside an open gate (the demo's buttons); null: nothing. */
export type GateControls = ((goalId: string, gateKey: string) => SafeHtml) | null;

export function goalLink(g: GoalSummary): SafeHtml {
  return html`<a href="/loopx/goals/${encodeURIComponent(g.id)}">${g.repo}#${g.issueNumber}</a> ${g.title}`;
}

export function renderOverview(
  o: Overview,
  controls: GateControls,
  notice: string,
  signedInAs: string | null,
  /** The host LoopX talks to (github.com, GHES, the sandbox): run links point there. */
  serverUrl: string,
): SafeHtml {
  const gates = o.openGates.map(
    ({ goal, gate }) =>
      html`<tr class="open"><td>${goalLink(goal)}</td><td><b>${gate.key}</b> ${gate.question}<br>
<span class="muted">scopes: ${gate.scopes.join(", ")} · opened ${when(gate.openedAt, o.now)}</span></td>
<td>${controls ? controls(goal.id, gate.key) : html`<span class="muted">comment <code>/loopx approve ${gate.key}</code> on the issue</span>`}</td></tr>`,
  );
  const stalled = o.stalled.map(
    (s) =>
      html`<tr><td>${goalLink(s.goal)}</td><td><span class="pill">${s.words}</span> ${s.reason}</td><td>${s.instruction}</td></tr>`,
  );
  const paused = o.paused.map(
    (g) =>
      html`<tr><td>${goalLink(g)}</td><td>paused: ${g.statusReason || "no reason given"}</td></tr>`,
  );
  const base = serverUrl.replace(/\/+$/, "");
  const running = o.running.map((l) => {
    const url = l.run
      ? `${base}/${l.goal.repo}/actions/runs/${l.run.id}/attempts/${l.run.attempt}`
      : null;
    const tick = url ? html`<a href="${url}">tick ${l.tick}</a>` : html`tick ${l.tick}`;
    return html`<tr><td>${goalLink(l.goal)}</td><td>${tick} on ${l.todo} · slot ${l.slot || "1"}</td><td>started ${when(l.startedAt, o.now)}, lease ends ${when(l.leaseExpiresAt, o.now)}</td></tr>`;
  });
  const scheduled = o.scheduled.map(
    (g) => html`<tr><td>${goalLink(g)}</td><td>next wake ${when(g.nextWakeAt, o.now)}</td></tr>`,
  );
  const watched = o.watched.map(
    (w) => html`<tr><td>${goalLink(w.goal)}</td><td>${w.words}</td></tr>`,
  );
  const done = o.done.map(
    (g) =>
      html`<tr><td>${goalLink(g)}</td><td>${g.status}</td><td>${g.spent.ticks} ticks · ${usd(g.spent.usd)}</td></tr>`,
  );
  return page(
    "Overview",
    html`${notice ? html`<p class="notice">${notice}</p>` : ""}<div id="overview" data-live="/loopx/live">
${section("Gates waiting for you", "No gate is open.", gates)}
${section("Stalled goals", "Nothing is stalled.", stalled)}
${section("Paused (invalid configs and pauses)", "Nothing is paused.", paused)}
${section("Running now", "No slice holds a lease.", running)}
${section("Scheduled", "No wake is scheduled.", scheduled)}
${section("Waiting on GitHub (CI, a merge, a job)", "Nothing else is waiting.", watched)}
${section("Done", "No goal has finished yet.", done)}</div>`,
    signedInAs,
  );
}
