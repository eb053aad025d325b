export * from "./goals.ts";
export * from "./ledger.ts";
export * from "./projections.ts";
export * from "./records.ts";
export * from "./work.ts";
export * from "./operations.ts";
