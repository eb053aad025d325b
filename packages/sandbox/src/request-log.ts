/** One line of the inspection log. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** The matched route template, or null for an unsupported route. */
  route: string | null;
  operationId: string | null;
  status: number;
  unsupported: boolean;
  contentCreating: boolean;
  /**
   * Who made it: `app:<slug>` (its JWT), `installation:<id>` (an installation token: the
   * App at work), `user:<login>` or `job:<login>`; null when unauthenticated or unrouted.
   */
  by: string | null;
  body: unknown;
  response: unknown;
  at: number;
}
