import type { Handler } from "./on.ts";

/** Installations and repositories: uninstall, suspension, removal, rename, transfer, archive. */
export const LIFECYCLE_HANDLERS: Record<string, Handler> = {};
