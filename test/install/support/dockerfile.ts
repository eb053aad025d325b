/**
 * A Dockerfile read into the instructions a replay needs (Dockerfile reference: line
 * continuations, `#` comments, ENV `k=v` pairs, exec-form JSON for CMD and HEALTHCHECK CMD).
 * Anything else in the file is refused by name, so the replay never skips a step silently.
 */
import { z } from "zod";

export type Step =
  | { kind: "FROM"; image: string }
  | { kind: "ENV"; vars: Record<string, string> }
  | { kind: "WORKDIR"; path: string }
  | { kind: "COPY"; sources: string[]; dest: string }
  | { kind: "RUN"; command: string }
  | { kind: "VOLUME"; paths: string[] }
  | { kind: "USER"; uid: number; gid: number }
  | { kind: "EXPOSE"; ports: number[] }
  | { kind: "HEALTHCHECK"; command: string[]; intervalSeconds: number; startPeriodSeconds: number }
  | { kind: "CMD"; command: string[] };

const ExecForm = z.array(z.string()).min(1);

function lines(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const raw of text.split("\n")) {
    if (current === "" && /^\s*(#|$)/.test(raw)) continue;
    if (/\\\s*$/.test(raw)) {
      current += `${raw.replace(/\\\s*$/, "")} `;
      continue;
    }
    out.push((current + raw).trim());
    current = "";
  }
  if (current.trim() !== "") out.push(current.trim());
  return out;
}

function seconds(flags: string, name: string, fallback: number): number {
  const m = new RegExp(`--${name}=(\\d+)s`).exec(flags);
  return m?.[1] ? Number(m[1]) : fallback;
}

export function parseDockerfile(text: string): Step[] {
  return lines(text).map((line): Step => {
    const m = /^([A-Za-z]+)\s+([\s\S]*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) throw new Error(`unreadable Dockerfile line: ${line}`);
    const kind = m[1].toUpperCase();
    const rest = m[2].trim();
    switch (kind) {
      case "FROM":
        return { kind, image: rest };
      case "ENV": {
        const vars: Record<string, string> = {};
        for (const pair of rest.split(/\s+/)) {
          const [k, ...v] = pair.split("=");
          if (!k || v.length === 0) throw new Error(`ENV wants key=value pairs: ${line}`);
          vars[k] = v.join("=");
        }
        return { kind, vars };
      }
      case "WORKDIR":
        return { kind, path: rest };
      case "COPY": {
        const parts = rest.split(/\s+/).filter((p) => !p.startsWith("--"));
        const dest = parts.pop();
        if (!dest || parts.length === 0)
          throw new Error(`COPY wants sources and a destination: ${line}`);
        return { kind, sources: parts, dest };
      }
      case "RUN":
        // Build-time mounts (a cache for npm) change nothing the image holds.
        return { kind, command: rest.replace(/^(--mount=\S+\s+)+/, "") };
      case "VOLUME":
        return { kind, paths: rest.split(/\s+/) };
      case "USER": {
        const u = /^(\d+):(\d+)$/.exec(rest);
        if (!u) throw new Error(`USER must be numeric uid:gid for the replay: ${line}`);
        return { kind, uid: Number(u[1]), gid: Number(u[2]) };
      }
      case "EXPOSE":
        return { kind, ports: rest.split(/\s+/).map(Number) };
      case "HEALTHCHECK": {
        const at = rest.indexOf("CMD ");
        if (at < 0) throw new Error(`HEALTHCHECK wants CMD: ${line}`);
        const flags = rest.slice(0, at);
        return {
          kind,
          command: ExecForm.parse(JSON.parse(rest.slice(at + 4))),
          intervalSeconds: seconds(flags, "interval", 30),
          startPeriodSeconds: seconds(flags, "start-period", 0),
        };
      }
      case "CMD":
        return { kind, command: ExecForm.parse(JSON.parse(rest)) };
      default:
        throw new Error(`the replay does not know Dockerfile instruction ${kind}: ${line}`);
    }
  });
}
