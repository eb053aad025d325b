import { timestamp } from "drizzle-orm/pg-core";

/** Every instant is a timestamptz read as a Date: leases and wakes compare across replicas. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
