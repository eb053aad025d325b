import { HttpError, notFound } from "../http-error.ts";
import { iso } from "../render/core.ts";
import type { Route, RouteRequest } from "../router.ts";
import type { Delivery } from "../webhooks/deliveries.ts";
import { intParam, ok, type RouteContext } from "./context.ts";

function item(d: Delivery) {
  return {
    id: d.id,
    guid: d.guid,
    delivered_at: iso(d.deliveredAt),
    redelivery: d.redelivery,
    duration: Math.round(d.durationMs) / 1000,
    status: d.status,
    status_code: d.statusCode,
    event: d.event,
    action: d.action,
    installation_id: d.installationId,
    repository_id: d.repositoryId,
    throttled_at: null,
  };
}

/** `/app/hook/deliveries`: how an app finds and replays the deliveries it missed. */
export function deliveryRoutes(ctx: RouteContext): Route[] {
  const { bus } = ctx;
  const mine = (req: RouteRequest): Delivery[] => {
    if (req.principal.kind !== "app")
      throw new HttpError(401, "A JSON web token could not be decoded");
    const appId = req.principal.app.id;
    return bus.log.all.filter((d) => d.appId === appId);
  };
  const one = (req: RouteRequest): Delivery => {
    const d = mine(req).find((x) => x.id === intParam(req.params.delivery_id));
    if (!d) throw notFound();
    return d;
  };
  return [
    {
      method: "GET",
      template: "/app/hook/deliveries",
      operationId: "apps/list-webhook-deliveries",
      auth: "app",
      handle: (req) => {
        const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? 30) || 30));
        const cursor = Number(req.query.get("cursor") ?? Number.POSITIVE_INFINITY);
        const status = req.query.get("status");
        const newestFirst = [...mine(req)]
          .filter((d) => d.id < cursor)
          .filter(
            (d) =>
              !status || (status === "success") === (d.statusCode >= 200 && d.statusCode < 300),
          )
          .sort((a, b) => b.id - a.id);
        const page = newestFirst.slice(0, perPage);
        const headers: Record<string, string> = {};
        const last = page[page.length - 1];
        if (last && newestFirst.length > perPage) {
          headers.link = `<${ctx.render.api}/app/hook/deliveries?per_page=${perPage}&cursor=${last.id}>; rel="next"`;
        }
        return ok(page.map(item), 200, headers);
      },
    },
    {
      method: "GET",
      template: "/app/hook/deliveries/{delivery_id}",
      operationId: "apps/get-webhook-delivery",
      auth: "app",
      handle: (req) => {
        const d = one(req);
        return ok({
          ...item(d),
          url: d.url,
          request: { headers: d.requestHeaders, payload: d.payload },
          response: { headers: d.responseHeaders, payload: d.responseBody },
        });
      },
    },
    {
      method: "POST",
      template: "/app/hook/deliveries/{delivery_id}/attempts",
      operationId: "apps/redeliver-webhook-delivery",
      auth: "app",
      handle: (req) => {
        bus.redeliver(one(req));
        return ok({}, 202);
      },
    },
  ];
}
