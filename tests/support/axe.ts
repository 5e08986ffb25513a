import axe from "axe-core";
import type { BrowserContext, Page } from "playwright-core";

/** WCAG 2.1 A and AA, and axe's best practices. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations, one
 * line each (`rule: selectors`). axe is evaluated through the DevTools protocol, which the page's
 * Content-Security-Policy does not restrict, so the page is tested with its real headers.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return await page.evaluate(async (tags) => {
    const engine = (globalThis as unknown as { axe: typeof axe }).axe;
    const result = await engine.run(document, { runOnly: { type: "tag", values: tags } });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`
      );
  }, TAGS);
}

/**
 * A page that renders as a browser without JavaScript shows it: the island bundle is answered
 * empty, so only the server's HTML is there. (axe itself needs JavaScript, so a context with
 * JavaScript off cannot run it.)
 */
export async function pageWithoutIslands(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.route(
    "**/static/islands.js*",
    (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
  );
  return page;
}
