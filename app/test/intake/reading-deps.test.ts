import { describe, expect, it } from "vitest";
import { type AppDeps, intakeDeps, type WriterDeps } from "../../src/deps.ts";
import type { Handler } from "../../src/webhooks/on.ts";

describe("the intake's deps", () => {
  it("carry no writing port, in the types and at run time", () => {
    const fail = () => Promise.reject(new Error("not in this test"));
    const writer: WriterDeps = {
      store: {} as AppDeps["store"],
      readsFor: fail,
      portFor: fail,
      outsiderPortFor: fail,
      serverUrl: "https://github.com",
      log: { info() {}, warn() {}, error() {} },
      newId: () => "id",
    };
    const reading = intakeDeps(writer);
    expect("portFor" in reading).toBe(false);
    expect("outsiderPortFor" in reading).toBe(false);
    expect(reading.readsFor).toBe(writer.readsFor);
    // A handler that tried to write would not compile: its deps have no port to write with.
    const handler: Handler = async (deps) => {
      // @ts-expect-error handlers get GitHub to read only; writes are outbox rows
      await deps.portFor(1);
      return { kind: "ignored", why: "unreachable" };
    };
    expect(typeof handler).toBe("function");
  });
});
