/// <reference lib="dom" />
/**
 * The browser entry of the island bundle (`deno task build` -> static/islands.js): hydrates
 * each server-rendered `[data-island]` element with its component and JSON props, then adds the
 * panel's small page behaviours.
 */
import { type FunctionComponent, h, hydrate } from "preact";
import { enhance } from "./enhance.ts";
import { ISLANDS } from "./mod.ts";

const components: Record<string, FunctionComponent<never>> = ISLANDS;

for (const element of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const component = components[element.dataset.island ?? ""];
  if (component) hydrate(h(component, JSON.parse(element.dataset.props ?? "{}")), element);
}
enhance();
