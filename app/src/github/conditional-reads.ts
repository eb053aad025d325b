/**
 * Conditional requests for every repository read (`.github/loopx.yml` and the default branch
 * are read by most effects, and the PR monitor reads the same branch rules, branch, commit and
 * reviews every time a PR's CI moves): the last answer's ETag goes out as `If-None-Match`, and
 * GitHub's 304 is answered from the copy kept here. A 304 "does not count against your primary
 * rate limit" (GitHub's REST docs, best practices, "Use conditional requests if appropriate");
 * a changed resource answers 200 with its new content and replaces the copy, so the cache never
 * serves what GitHub no longer holds.
 */
import type { ProbotOctokit } from "probot";
import { z } from "zod";
import { createLruMap, type LruMap } from "../lru-map.ts";

type Octokit = InstanceType<typeof ProbotOctokit>;
type Answer = Awaited<ReturnType<Octokit["request"]>>;

/** A repository and anything under it. */
const CONDITIONAL = /^\/repos\/[^/]+\/[^/]+(?:\/.+)?$/;
const Status = z.object({ status: z.number() });

export type ConditionalCache = LruMap<{ etag: string; answer: Answer }>;

/** At most `limit` answers, the least recently used dropped first. */
export function createConditionalCache(limit = 2_000): ConditionalCache {
  return createLruMap(limit);
}

/** Sends this Octokit's repository reads conditionally against `cache`. */
export function withConditionalReads(octokit: Octokit, cache: ConditionalCache): Octokit {
  octokit.hook.wrap("request", async (request, options) => {
    const endpoint = octokit.request.endpoint(options);
    const path = endpoint.url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/api\/v3(?=\/)/, "");
    if (endpoint.method !== "GET" || !CONDITIONAL.test(path.split("?")[0] ?? ""))
      return request(options);
    // The media type is part of the representation: raw bytes and JSON have their own ETags.
    const key = `${endpoint.url} ${String(endpoint.headers.accept ?? "")}`;
    const hit = cache.get(key);
    // Set on the options themselves: the hooks inside this one read that same object.
    if (hit) options.headers["if-none-match"] = hit.etag;
    try {
      const answer = await request(options);
      const etag = answer.headers.etag;
      if (typeof etag === "string" && etag !== "") cache.set(key, { etag, answer });
      else cache.delete(key);
      return answer;
    } catch (error) {
      const status = Status.safeParse(error).data?.status;
      if (hit && status === 304) return hit.answer;
      cache.delete(key);
      throw error;
    }
  });
  return octokit;
}
