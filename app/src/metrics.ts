/** /metrics: the operations snapshot as Prometheus text (the default) or JSON. */
import type { OperationsSnapshot } from "@loopx/store";

function line(name: string, value: number | null, labels: Record<string, string> = {}): string {
  const l = Object.entries(labels)
    .map(([k, v]) => `${k}="${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`)
    .join(",");
  return `${name}${l ? `{${l}}` : ""} ${value ?? 0}`;
}

const HELP: [string, string, string][] = [
  ["loopx_inbox_pending", "gauge", "Webhook deliveries received and not yet processed."],
  ["loopx_inbox_failing", "gauge", "Pending deliveries that failed at least once."],
  ["loopx_inbox_oldest_age_seconds", "gauge", "Age of the oldest unprocessed delivery."],
  ["loopx_outbox_due", "gauge", "GitHub writes due now."],
  ["loopx_outbox_pending", "gauge", "GitHub writes not yet done (due, leased or deferred)."],
  ["loopx_outbox_oldest_due_age_seconds", "gauge", "How long the oldest due write has waited."],
  ["loopx_dead_letters", "gauge", "GitHub writes given up on (shown on the status comments)."],
  ["loopx_spend_usd", "gauge", "USD charged to ticks, per installation."],
  ["loopx_spend_ceiling_usd", "gauge", "USD ceiling per installation (absent: none)."],
  ["loopx_ticks", "gauge", "Ticks charged, per installation."],
  ["loopx_kill_switch", "gauge", "1 when the installation's kill switch is on."],
];

export function renderPrometheus(s: OperationsSnapshot): string {
  const out: string[] = [];
  const head = (name: string) => {
    const h = HELP.find(([n]) => n === name);
    if (h) out.push(`# HELP ${h[0]} ${h[2]}`, `# TYPE ${h[0]} ${h[1]}`);
  };
  const scalar = (name: string, value: number | null) => {
    head(name);
    out.push(line(name, value));
  };
  scalar("loopx_inbox_pending", s.inbox.count);
  scalar("loopx_inbox_failing", s.inbox.failing);
  scalar("loopx_inbox_oldest_age_seconds", s.inbox.oldestAgeSeconds);
  scalar("loopx_outbox_due", s.outbox.count);
  scalar("loopx_outbox_pending", s.outbox.pending);
  scalar("loopx_outbox_oldest_due_age_seconds", s.outbox.oldestAgeSeconds);
  scalar("loopx_dead_letters", s.deadLetters);
  const perInstallation = (
    name: string,
    pick: (i: OperationsSnapshot["spend"][number]) => number | null,
  ) => {
    head(name);
    for (const i of s.spend) {
      const v = pick(i);
      if (v !== null) out.push(line(name, v, { installation: String(i.installationId) }));
    }
  };
  perInstallation("loopx_spend_usd", (i) => i.usd);
  perInstallation("loopx_spend_ceiling_usd", (i) => i.ceilingUsd);
  perInstallation("loopx_ticks", (i) => i.ticks);
  perInstallation("loopx_kill_switch", (i) => (i.killed ? 1 : 0));
  return `${out.join("\n")}\n`;
}
