import type { IncomingMessage, ServerResponse } from "node:http";
import { AskRequest, PushedRequest, ResultRequest } from "@loopx/core";
import { z } from "zod";
import { closeWhenAnswered } from "../read-capped.ts";
import { createRepoFactsCache } from "../repo-facts.ts";
import { createTokenAdmission } from "./admit-token.ts";
import { ApiFailure, notFound, unavailable } from "./api-failure.ts";
import { ask } from "./ask.ts";
import type { TickApiContext, TickApiDeps } from "./authorize-call.ts";
import { parseJson, readBody, sendFailure, sendJson } from "./http-io.ts";
import { type OnPushed, pushed } from "./pushed.ts";
import { createRateLimiter } from "./rate-limit.ts";
import { report } from "./report.ts";
import { TickApiSettings, type TickApiSettingsInput } from "./settings.ts";
import { storeUnreachable } from "./store-unreachable.ts";
import { createOidcVerifier } from "./verify-oidc.ts";
import { wake } from "./wake.ts";

export const TICK_API_PREFIX = "/api/v1/";

export interface TickApiOptions extends TickApiSettingsInput {
  /** The clock tokens are judged on (tests pass the sandbox's); leases use the database's. */
  now?: () => Date;
  /** Called after a tick's branch is pushed: the App opens or updates its pull request here. */
  onPushed?: OnPushed;
  /** Called after a call committed a transition (it queued GitHub writes): `app.outbox.kick`. */
  onCommitted?: () => void;
}

export type TickApiHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const TickPath = z.object({ id: z.uuid(), verb: z.enum(["result", "pushed"]) });
const WakeRequest = z.object({}).loose();

type Route =
  | { kind: "ask" }
  | { kind: "wake" }
  | { kind: "tick"; id: string; verb: "result" | "pushed" };

function route(path: string): Route | null {
  if (path === "/api/v1/ticks") return { kind: "ask" };
  if (path === "/api/v1/wake") return { kind: "wake" };
  const m = /^\/api\/v1\/ticks\/([^/]+)\/([a-z]+)$/.exec(path);
  const parsed = TickPath.safeParse({ id: m?.[1], verb: m?.[2] });
  return parsed.success ? { kind: "tick", ...parsed.data } : null;
}

/**
 * The tick API, as a node HTTP handler that answers only under /api/v1/ (it returns false
 * for any other path, so it composes in front of the webhook endpoint). Every call: body
 * size limit → OIDC token → its event, rate and one use (no database work before these) →
 * the route's own checks; refusals are ApiError bodies.
 */
export function createTickApi(deps: TickApiDeps, options: TickApiOptions): TickApiHandler {
  const { now = () => new Date(), onPushed, onCommitted = () => {}, ...input } = options;
  const settings = TickApiSettings.parse(input);
  const ctx: TickApiContext = {
    deps,
    settings,
    verifier: createOidcVerifier(settings, now),
    admission: createTokenAdmission({
      store: deps.store,
      limiter: createRateLimiter(settings.rateLimit, () => now().getTime()),
      now,
    }),
    facts: createRepoFactsCache(deps, settings.repoFactsTtlMs),
    now,
    committed: onCommitted,
  };

  async function serve(req: IncomingMessage, r: Route) {
    const text = await readBody(req, settings.bodyLimitBytes);
    const claims = await ctx.verifier.verify(req.headers.authorization);
    await ctx.admission.admit(claims);
    switch (r.kind) {
      case "ask":
        return ask(ctx, claims, parseJson(text, AskRequest, "ask"));
      case "wake":
        parseJson(text, WakeRequest, "wake");
        return wake(ctx, claims);
      case "tick":
        return r.verb === "result"
          ? report(ctx, claims, r.id, parseJson(text, ResultRequest, "result"))
          : pushed(ctx, claims, r.id, parseJson(text, PushedRequest, "pushed"), onPushed);
    }
  }

  return async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!path.startsWith(TICK_API_PREFIX)) return false;
    try {
      const r = route(path);
      if (!r) throw notFound(`${path} is not a tick API route.`);
      if (req.method !== "POST") {
        throw new ApiFailure(405, "invalid_request", `${path} accepts POST only.`);
      }
      sendJson(res, 200, await serve(req, r));
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 413) {
        // An oversized body is never read to its end: the connection closes after the 413.
        closeWhenAnswered(req, res);
        sendFailure(res, error);
        return true;
      }
      if (error instanceof ApiFailure) {
        sendFailure(res, error);
      } else if (storeUnreachable(error)) {
        deps.log.error(`tick API ${req.method} ${path}: the database does not answer`);
        sendFailure(
          res,
          unavailable(
            "The App's database does not answer; nothing was recorded. Retry shortly.",
            5,
          ),
        );
      } else {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.error(`tick API ${req.method} ${path}: ${message}`);
        sendJson(res, 500, {
          error: "unavailable",
          message: "The App failed on this call; retry shortly.",
        });
      }
      // Refused before the body was read: drain it so the connection can be reused or closed cleanly.
      req.resume();
    }
    return true;
  };
}
