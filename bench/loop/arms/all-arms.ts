/**
 * Every arm `bench:loop` plays, in its columns' order. One list, so a worker process that is
 * handed an arm's name (play-worker.ts) builds the very arm the table's column names.
 */
import type { Arm } from "./arm-types.ts";
import { b0Arm } from "./b0-arm.ts";
import { b1Arm } from "./b1-arm.ts";
import { loopxArm } from "./loopx-arm.ts";
import { oracleArm } from "./oracle-arm.ts";

export function benchArms(): Arm[] {
  return [
    b0Arm(),
    b1Arm(),
    oracleArm(),
    loopxArm(),
    loopxArm({ without: "budgets" }),
    loopxArm({ without: "backoff" }),
    loopxArm({ without: "gates" }),
    loopxArm({ without: "leases" }),
    loopxArm({ without: "fencing" }),
  ];
}

export function armNamed(name: string): Arm {
  const arms = benchArms();
  const arm = arms.find((a) => a.name === name);
  if (!arm) {
    throw new Error(
      `no bench:loop arm is named "${name}"; the arms are ${arms.map((a) => a.name).join(", ")} (add a new one to benchArms in bench/loop/arms/all-arms.ts)`,
    );
  }
  return arm;
}
