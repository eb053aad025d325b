/**
 * How many goals one GitHub App installation sustains, each ticking every `cadenceMinutes`,
 * within every limit at 80 %. GitHub's "Rate limits for the REST API"
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api), primary
 * limit for GitHub App installations: 5,000 requests an hour; an installation with more than
 * 20 repositories "receive[s] another 50 requests per hour for each repository" (and 50 per
 * user past 20 on an organization, not counted here); "the rate limit cannot increase beyond
 * 12,500 requests per hour" (15,000 flat on an Enterprise Cloud organization, not modelled).
 * The wording leaves open whether all repositories or only those past 20 count: this counts
 * only those past 20, the smaller figure. Secondary limits, same page: "no more than 80
 * content-generating requests per minute and no more than 500 content-generating requests
 * per hour".
 */
export interface TickCount {
  /** REST requests GitHub charges (304s excluded). */
  rest: number;
  /** Conditional reads answered 304: not charged against the primary limit. */
  notModified: number;
  contentCreating: number;
  /** Of those, comments asking a person for something (a gate's question, a notice). */
  tellsPerson: number;
  byOperation: string[];
}

const SHARE = 0.8;

export function restLimitPerHour(repositories: number): number {
  return Math.min(12_500, 5_000 + 50 * Math.max(0, repositories - 20));
}

export interface Capacity {
  goals: number;
  limitedBy: "REST requests" | "content creation";
}

/** Goals that fit when `repositoriesOf(goals)` repositories hold them. */
function most(
  tick: Pick<TickCount, "rest" | "contentCreating">,
  cadenceMinutes: number,
  repositoriesOf: (goals: number) => number,
): Capacity {
  const perHour = 60 / cadenceMinutes;
  const rest = (g: number) =>
    g * tick.rest * perHour <= SHARE * restLimitPerHour(repositoriesOf(g));
  // Ticks fall evenly over the cadence, so a minute holds goals / cadence of them.
  const content = (g: number) =>
    g * tick.contentCreating * perHour <= SHARE * 500 &&
    (g * tick.contentCreating) / cadenceMinutes <= SHARE * 80;
  let goals = 0;
  while (goals < 100_000 && rest(goals + 1) && content(goals + 1)) goals++;
  return { goals, limitedBy: rest(goals + 1) ? "content creation" : "REST requests" };
}

export function capacity(
  tick: Pick<TickCount, "rest" | "contentCreating">,
  cadenceMinutes: number,
): { oneRepository: Capacity; repositoryEach: Capacity } {
  return {
    oneRepository: most(tick, cadenceMinutes, () => 1),
    repositoryEach: most(tick, cadenceMinutes, (g) => g),
  };
}
