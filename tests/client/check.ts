// A small program against the client types `openapi-typescript` generates from
// /api/v1/openapi.json. It only compiles (`tsc --strict --noEmit`) when the document says
// what the service does: always-present fields are required (not `T | undefined`),
// nullable ones are `T | null`, enums are closed.
import type { paths } from "./schema";

type Ok<P extends keyof paths> = paths[P]["get"] extends {
  responses: { 200: { content: { "application/json": infer B } } };
}
  ? B
  : never;

type ModelList = Ok<"/api/v1/models">;
type ModelDetail = Ok<"/api/v1/models/{slug}">;
type Costs = Ok<"/api/v1/cost">;
type Indicator = Ok<"/api/v1/economy/{slug}">;
type Changes = Ok<"/api/v1/changes">;

export function cheapestListed(list: ModelList): string {
  const total: number = list.meta.total;
  const first = list.data[0];
  const slug: string = first.slug;
  const price: number | null = first.input_price;
  const basis: "first_party" | "median" | null = first.price_basis;
  const availability: "api" | "open_weights" | "research" = first.availability;
  return `${total} ${slug} ${price ?? "unknown"} ${basis ?? ""} ${availability}`;
}

export function firstPartyTiers(model: ModelDetail): number[] {
  return model.data.offerings
    .filter((o) => o.kind === "first_party")
    .flatMap((o) => o.tiers.map((t) => t.from_tokens));
}

export function totals(costs: Costs): (number | null)[] {
  return costs.data.flatMap((m) => m.offerings.map((o) => o.total));
}

export function lastPoint(i: Indicator): [string, number] | null {
  const last = i.data.series[i.data.series.length - 1];
  return last ? [last.date, last.value] : null;
}

export function priceChanges(c: Changes): string[] {
  return c.data.filter((x) => x.type === "price").map((x) => `${x.date} ${x.id}`);
}
