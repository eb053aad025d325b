/**
 * The 95 % interval `bench:loop --real-model` prints: Student's t critical values against
 * published tables, and a mean's interval worked by hand.
 */
import { describe, expect, it } from "vitest";
import { meanInterval95, tCritical95 } from "../../bench/loop/confidence.ts";

describe("tCritical95", () => {
  it("matches the t table where trials live (df 4 = five trials, 9, 29)", () => {
    expect(tCritical95(4)).toBeCloseTo(2.7764, 4);
    expect(tCritical95(9)).toBeCloseTo(2.2622, 4);
    expect(tCritical95(29)).toBeCloseTo(2.0452, 4);
  });

  it("beyond the table, the expansion gives the published values", () => {
    expect(tCritical95(31)).toBeCloseTo(2.0395, 3);
    expect(tCritical95(40)).toBeCloseTo(2.0211, 3);
    expect(tCritical95(60)).toBeCloseTo(2.0003, 3);
    expect(tCritical95(120)).toBeCloseTo(1.9799, 3);
    expect(tCritical95(1000)).toBeCloseTo(1.9623, 3);
  });

  it("refuses a degree of freedom that is not a whole number of at least 1", () => {
    expect(() => tCritical95(0)).toThrow(/at least 1/);
    expect(() => tCritical95(2.5)).toThrow(/whole number/);
  });
});

describe("meanInterval95", () => {
  it("gives 3 ± 2.7764 · 1.5811 / √5 for 1, 2, 3, 4, 5", () => {
    const ci = meanInterval95([1, 2, 3, 4, 5]);
    expect(ci.mean).toBe(3);
    expect(ci.sd).toBeCloseTo(1.5811, 4);
    expect(ci.low).toBeCloseTo(1.0368, 4);
    expect(ci.high).toBeCloseTo(4.9632, 4);
  });

  it("is a point when every trial earned the same reward", () => {
    expect(meanInterval95([1, 1, 1, 1, 1])).toMatchObject({ mean: 1, low: 1, high: 1 });
  });

  it("widens as the trials disagree and narrows as they add up", () => {
    const five = meanInterval95([0, 1, 0, 1, 1]);
    const ten = meanInterval95([0, 1, 0, 1, 1, 0, 1, 0, 1, 1]);
    expect(five.high - five.low).toBeGreaterThan(ten.high - ten.low);
  });

  it("refuses fewer than two trials", () => {
    expect(() => meanInterval95([1])).toThrow(/at least two trials/);
  });
});
