import type { Store } from "@loopx/store";
import { forbidden, unauthenticated } from "./api-failure.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { ActionsClaims } from "./verify-oidc.ts";

const EVENTS = new Set(["workflow_dispatch", "schedule"]);

/** Tokens remembered in this replica's memory; past it, expired ones go (the database still knows). */
const REMEMBERED = 20_000;

export interface TokenAdmission {
  /**
   * Everything decided from a verified token alone, in this order: the run's event, the
   * repository's rate, and the token's one use. A replay this replica has seen and a call
   * over the rate are refused before the first database statement; the one-use row is the
   * first statement of any call, so a replay seen only by another replica costs exactly it.
   */
  admit(claims: ActionsClaims): Promise<void>;
}

export function createTokenAdmission(deps: {
  store: Pick<Store, "useToken">;
  limiter: RateLimiter;
  now: () => Date;
}): TokenAdmission {
  // jti → the token's expiry (ms): a replayed token is refused here without a query.
  const used = new Map<string, number>();
  const remember = (claims: ActionsClaims) => {
    used.set(claims.jti, claims.exp * 1000);
    if (used.size <= REMEMBERED) return;
    const now = deps.now().getTime();
    for (const [jti, exp] of used) if (exp < now) used.delete(jti);
    // Still full of live tokens: forget the oldest; the database refuses them anyway.
    for (const jti of used.keys()) {
      if (used.size <= REMEMBERED) break;
      used.delete(jti);
    }
  };
  const replayed = () =>
    unauthenticated(
      "This OIDC token was already used: request a fresh ID token for every call (retries included).",
    );

  return {
    async admit(claims) {
      if (!EVENTS.has(claims.event_name)) {
        throw forbidden(
          `Tick API calls come only from workflows started by workflow_dispatch or schedule; this run was started by "${claims.event_name}". Pull-request and push workflows run code LoopX did not choose and never get a tick.`,
        );
      }
      deps.limiter.take(`repo:${claims.repository_id}`);
      if (used.has(claims.jti)) throw replayed();
      remember(claims);
      const fresh = await deps.store.useToken({
        jti: claims.jti,
        repoId: claims.repository_id,
        runId: claims.run_id,
        expiresAt: new Date(claims.exp * 1000),
      });
      if (!fresh) throw replayed();
    },
  };
}
