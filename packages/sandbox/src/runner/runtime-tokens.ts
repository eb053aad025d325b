import { randomBytes } from "node:crypto";
import type { CacheMode } from "./workflow-file.ts";

/** What a job's ACTIONS_RUNTIME_TOKEN stands for at the sandbox's Actions services. */
export interface RuntimeGrant {
  runId: number;
  jobId: number;
  repoId: number;
  cacheMode: CacheMode;
}

const CAN: Record<CacheMode, { restore: boolean; save: boolean }> = {
  write: { restore: true, save: true },
  read: { restore: true, save: false },
  "write-only": { restore: false, save: true },
  none: { restore: false, save: false },
};

export function cacheAllows(mode: CacheMode, what: "restore" | "save"): boolean {
  return CAN[mode][what];
}

/**
 * A job's cache access (Workflow syntax, "cache-mode"; changelog 2026-09-10 "Control GitHub
 * Actions cache access with cache-mode"): the job's, else the workflow's, else the event's
 * default (`read` for low-trust `pull_request_target`, `write` otherwise); a called workflow
 * never gets more than its caller granted.
 */
export function jobCacheMode(
  declared: CacheMode | undefined,
  ceiling: CacheMode | null,
  event: string,
): CacheMode {
  const wanted = declared ?? (event === "pull_request_target" ? "read" : "write");
  if (!ceiling) return wanted;
  const restore = CAN[wanted].restore && CAN[ceiling].restore;
  const save = CAN[wanted].save && CAN[ceiling].save;
  return restore ? (save ? "write" : "read") : save ? "write-only" : "none";
}

/** The runtime tokens of running jobs; each is revoked when its job ends. */
export class RuntimeTokens {
  private readonly grants = new Map<string, RuntimeGrant>();

  /**
   * A JWT-shaped token whose `scp` names the run's and job's backend ids
   * (`Actions.Results:<run>:<job>`), which @actions/artifact reads from it as from GitHub's.
   */
  issue(grant: RuntimeGrant): string {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const scp = `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${grant.runId}:${grant.jobId}`;
    const token = `${part({ typ: "JWT", alg: "RS256" })}.${part({ scp, ac: "[]" })}.${randomBytes(32).toString("base64url")}`;
    this.grants.set(token, grant);
    return token;
  }

  revoke(token: string): void {
    this.grants.delete(token);
  }

  /** The grant behind `Authorization: Bearer <token>`, or null. */
  fromHeader(header: string | undefined): RuntimeGrant | null {
    const token = /^bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
    return (token && this.grants.get(token)) || null;
  }
}
