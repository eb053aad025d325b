/**
 * `GET /user`: who a user token belongs to (how a web or device sign-in learns the person's
 * login). GitHub answers the private profile to the person themself; an installation token or
 * a workflow's GITHUB_TOKEN has no user to answer for.
 */
import { HttpError } from "../http-error.ts";
import type { Route } from "../router.ts";
import { ok, type RouteContext } from "./context.ts";

export function userRoutes(ctx: RouteContext): Route[] {
  const { render, store } = ctx;
  return [
    {
      method: "GET",
      template: "/user",
      operationId: "users/get-authenticated",
      auth: "token",
      handle: (req) => {
        if (req.principal.kind !== "user")
          throw new HttpError(403, "Resource not accessible by integration");
        const user = req.principal.user;
        const base = render.user(user);
        // The sandbox keeps no sign-up dates; a fixed one is as good as any.
        const created = "2020-01-01T00:00:00Z";
        const owned = [...store.repos.values()].filter((r) => r.ownerId === user.id);
        return ok({
          ...(typeof base === "object" && base !== null && !Array.isArray(base) ? base : {}),
          user_view_type: "private",
          name: user.name,
          company: null,
          blog: "",
          location: null,
          email: null,
          hireable: null,
          bio: null,
          twitter_username: null,
          notification_email: null,
          public_repos: owned.filter((r) => !r.private).length,
          public_gists: 0,
          followers: 0,
          following: 0,
          created_at: created,
          updated_at: created,
          private_gists: 0,
          total_private_repos: owned.filter((r) => r.private).length,
          owned_private_repos: owned.filter((r) => r.private).length,
          disk_usage: 0,
          collaborators: 0,
          two_factor_authentication: true,
        });
      },
    },
  ];
}
