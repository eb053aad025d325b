import type { Goal, Tick } from "@loopx/core";
import { escapeTags, neutralize } from "./neutralize.ts";

/** `$1.23`; sub-cent spends show as `<$0.01` rather than a misleading `$0.00`. */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.005) return "<$0.01";
  return `$${usd.toFixed(2)}`;
}

/** `1,234,567`, independent of the process's locale. */
export function formatCount(n: number): string {
  const [int = "0", frac] = String(Math.round(n * 100) / 100).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
}

/** Minutes with at most one decimal: runner time is billed by the minute anyway. */
export function formatMinutes(minutes: number): string {
  return `${formatCount(Math.round(minutes * 10) / 10)} min`;
}

/** An ISO instant without milliseconds: stable across renders and readable enough. */
export function formatInstant(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "in 25 min", "3 h ago": a person reads this faster than a timestamp. */
export function formatRelative(at: Date, now: Date): string {
  const minutes = Math.round((at.getTime() - now.getTime()) / 60_000);
  const abs = Math.abs(minutes);
  const span = abs < 1 ? "now" : abs < 120 ? `${abs} min` : `${Math.round(abs / 60)} h`;
  if (span === "now") return "now";
  return minutes > 0 ? `in ${span}` : `${span} ago`;
}

/** A login shown without pinging: status surfaces must never notify by themselves. */
export function formatLogin(login: string): string {
  return neutralize(`@${login}`);
}

/**
 * Multi-line text from an agent or a person, shown as a quote: neutralised, HTML tags
 * escaped (a stray `</details>` would otherwise break the surrounding layout), and bounded.
 */
export function quoteUntrusted(text: string, max = 3000): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const safe = escapeTags(neutralize(cut)).trim();
  if (safe === "") return "> _(empty)_";
  return safe
    .split(/\r\n|\n|\r/)
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/**
 * The Actions run page of a tick, or null when the tick never reached a run. The web root is
 * the host LoopX talks to (github.com, GHES, the sandbox), so every caller must name it.
 */
export function tickRunUrl(goal: Goal, tick: Tick, serverUrl: string): string | null {
  if (tick.run === null) return null;
  const base = serverUrl.replace(/\/+$/, "");
  return `${base}/${goal.repo.owner}/${goal.repo.name}/actions/runs/${tick.run.id}/attempts/${tick.run.attempt}`;
}
