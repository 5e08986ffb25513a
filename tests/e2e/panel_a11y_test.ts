import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import axe from "axe-core";
import { createTestOffer, createTestPayment } from "../support/helpers.ts";
import { addUser } from "../support/panel_helpers.ts";
import {
  type CheckoutServer,
  collectErrors,
  launchBrowser,
  startCheckoutServer,
} from "../support/browser.ts";

/** What an owner's sandbox panel has on it once it is in use: a row in every table. */
async function panelInUse(server: CheckoutServer) {
  const { t } = server;
  const owner = await addUser(t, { email: "owner@acme.test", role: "OWNER", name: "Ada Lovelace" });
  await addUser(t, { email: "grace.hopper.long.address@acme.test", role: "MEMBER" });
  const offer = await createTestOffer(t, { name: "Coffee beans 1 kg", amount: 4990 });
  const payment = await createTestPayment(t, offer.qrId, {
    customer: { email: "customer.with.a.long.address@example.com" },
  });
  await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, { code: "777123" });
  const endpoint = await (await t.request("POST", "/api/v1/webhook-endpoints", {
    url: `${server.origin}/sandbox/webhook-inbox/x`,
  })).json();
  return { owner, offer, payment, endpointId: endpoint.id as string };
}

/** Every page of the panel, for the organisation `panelInUse` made. */
function panelPages(data: Awaited<ReturnType<typeof panelInUse>>): string[] {
  return [
    "/panel",
    "/panel/payments",
    `/panel/payments/${data.payment.paymentId}`,
    "/panel/offers",
    "/panel/offers/new",
    `/panel/offers/${data.offer.qrId}`,
    "/panel/team",
    "/panel/account",
    "/panel/developers",
    "/panel/developers/api-keys",
    "/panel/developers/webhooks",
    "/panel/developers/webhooks/new",
    `/panel/developers/webhooks/${data.endpointId}`,
    "/panel/developers/checkout",
    "/panel/developers/quickstart",
    "/panel/developers/config-transfer",
    "/panel/reference",
    "/panel/no-such-page",
  ];
}

/** axe-core's serious and critical violations on the page, as `rule: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (globalThis as unknown as { axe: typeof axe }).axe.run(document, {
      resultTypes: ["violations"],
    })
  );
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(" ")}`)
    );
}

/**
 * What a phone's width hides: the page scrolling sideways, and actions out of reach (neither on
 * screen nor inside a region that scrolls and takes focus).
 */
async function phoneProblems(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    }
    // An action beyond the edge is in reach inside a region that scrolls sideways: it takes
    // focus itself, and axe (run at this width too) checks every such region can be scrolled.
    const inScrollingRegion = (element: Element): boolean => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (["auto", "scroll"].includes(style.overflowX) && node.scrollWidth > node.clientWidth) {
          return true;
        }
      }
      return false;
    };
    const actions = document.querySelectorAll(
      "main a[href], main button, main summary, main input:not([type=hidden]), main select, main textarea, header a, header summary, nav a",
    );
    for (const action of actions) {
      const box = action.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // in a closed <details> or menu
      if (box.left >= -1 && box.right <= root.clientWidth + 1) continue;
      if (inScrollingRegion(action)) continue;
      problems.push(`out of reach: ${action.outerHTML.slice(0, 80)}`);
    }
    return problems;
  });
}

/** Today's bar of the home chart, the one people look for, must be in view without scrolling. */
async function lastBarProblem(page: Page): Promise<string[]> {
  const box = await page.locator("rect.chart__bar").last().boundingBox();
  const width = page.viewportSize()!.width;
  if (box === null) return ["the home chart has no bar"];
  return box.x >= 0 && box.x + box.width <= width
    ? []
    : [`today's bar is off-screen: x=${Math.round(box.x)} of ${width}`];
}

async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/panel/sign-in`);
  await page.locator("#field-email").fill(email);
  await page.locator("#field-password").fill(password);
  await page.locator("form[action='/panel/sign-in'] button[type=submit]").click();
  await page.waitForURL(`${origin}/panel`);
}

async function newContext(browser: Browser, locale: string, width: number, height: number) {
  // axe-core is injected by the test; the panel's CSP rightly refuses inline scripts.
  return await browser.newContext({
    locale,
    viewport: { width, height },
    bypassCSP: true,
  });
}

Deno.test("[e2e] every panel page in English and Polish: axe finds nothing serious, and a phone reaches every action", async () => {
  const browser = await launchBrowser();
  const server = await startCheckoutServer("sandbox");
  const contexts: BrowserContext[] = [];
  try {
    const data = await panelInUse(server);
    const report: Record<string, string[]> = {};
    for (const [language, locale] of [["en", "en-GB"], ["pl", "pl-PL"]] as const) {
      for (
        const [device, width, height] of [["desktop", 1280, 900], ["phone", 390, 844]] as const
      ) {
        const context = await newContext(browser, locale, width, height);
        contexts.push(context);
        const page = await context.newPage();
        const errors = collectErrors(page);
        await signIn(page, server.origin, data.owner.email, data.owner.password);
        for (const path of panelPages(data)) {
          await page.goto(`${server.origin}${path}`);
          assert.equal(await page.getAttribute("html", "lang"), language, path);
          const found = [
            ...await seriousViolations(page),
            ...device === "phone" ? await phoneProblems(page) : [],
            ...device === "phone" && path === "/panel" ? await lastBarProblem(page) : [],
          ];
          if (found.length > 0) report[`${language} ${device} ${path}`] = found;
        }
        // The missing page's own 404 is the one console error expected.
        assert.deepEqual(errors.filter((error) => !error.includes("/panel/no-such-page")), []);
      }
    }
    assert.deepEqual(report, {});
  } finally {
    for (const context of contexts) await context.close();
    await server.close();
    await browser.close();
  }
});

Deno.test("[e2e] a merchant in Polish: sign-in, an offer, a refused key, then English from Account -> Language", async () => {
  const browser = await launchBrowser();
  const server = await startCheckoutServer("sandbox");
  const context = await browser.newContext({
    locale: "pl-PL",
    viewport: { width: 1280, height: 900 },
  });
  try {
    const owner = await addUser(server.t, {
      email: "owner@acme.test",
      role: "OWNER",
      name: "Ada Lovelace",
    });
    const page = await context.newPage();
    const errors = collectErrors(page);

    // The browser asks for Polish: the sign-in page and the panel speak it.
    await page.goto(`${server.origin}/panel`);
    assert.equal(await page.getAttribute("html", "lang"), "pl");
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByLabel("Hasło").fill(owner.password);
    await page.getByRole("button", { name: "Zaloguj się" }).click();
    await page.getByRole("heading", { level: 1, name: "Dzień dobry, Ada Lovelace" }).waitFor();

    // An offer, with the price typed the Polish way and shown in złoty.
    await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Oferty" })
      .click();
    await page.getByRole("link", { name: "Nowa oferta" }).click();
    await page.getByLabel("Nazwa").fill("Kawa ziarnista");
    await page.getByLabel("Cena").fill("12,50");
    await page.getByRole("button", { name: "Utwórz ofertę" }).click();
    await page.getByText("Oferta została utworzona. Udostępnij jej kod QR lub link do płatności.")
      .waitFor();
    assert.equal(
      (await page.locator(".page-header__description").textContent())?.replace(/\s+/g, " "),
      "12,50 zł · Jednorazowo · Aktywna",
    );
    // Local times are written the page's way: 21 November 2026 in Polish.
    assert.match(await page.locator("time[data-local]").first().textContent() ?? "", /21 lis 2026/);

    // A key without a name is refused, in Polish.
    await page.goto(`${server.origin}/panel/developers/api-keys`);
    await page.getByLabel("Nazwa").fill("   ");
    await page.getByRole("button", { name: "Utwórz klucz" }).click();
    await page.getByText("Pole „name” nie może być puste.").waitFor();

    // Account -> Language: English, whatever the browser asks for.
    await page.locator(".user-menu__summary").click();
    await page.getByRole("link", { name: "Konto i hasło" }).click();
    await page.getByRole("combobox", { name: "Język" }).selectOption("en");
    await page.getByRole("button", { name: "Zapisz zmiany" }).click();
    await page.getByText("Your language is saved.").waitFor();
    assert.equal(await page.getAttribute("html", "lang"), "en");

    // The same flows now in English.
    await page.goto(`${server.origin}/panel/developers/api-keys`);
    await page.getByLabel("Name").fill("Shop backend");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("Key created").waitFor();
    await page.goto(`${server.origin}/panel/offers`);
    assert.match(
      await page.locator("main").textContent() ?? "",
      /Kawa ziarnistaPLN\s12\.50One-time/,
    );
    assert.match(
      await page.locator("time[data-local]").first().textContent() ?? "",
      /Nov 21, 2026/,
    );
    // The refused key's page is a 400, which the browser logs; nothing else may be.
    assert.deepEqual(errors.filter((error) => !error.includes("status of 400")), []);
  } finally {
    await context.close();
    await server.close();
    await browser.close();
  }
});

Deno.test("[e2e] production's go-live checklist in Polish, on a phone: axe-clean, and the PayU test answers", async () => {
  const browser = await launchBrowser();
  const server = await startCheckoutServer("production");
  const context = await newContext(browser, "pl-PL", 390, 844);
  try {
    const owner = await addUser(server.t, { email: "owner@acme.test", role: "OWNER", name: "Ada" });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await signIn(page, server.origin, owner.email, owner.password);
    const card = page.locator("#go-live");
    assert.deepEqual(await card.locator(".qs-step__title").allTextContents(), [
      "Krok 1: Dostawca płatności",
      "Krok 2 (wykonany): Produkcyjny klucz API",
      "Krok 3: Endpoint webhooków",
      "Krok 4: Dane firmy",
    ]);
    assert.deepEqual([...await seriousViolations(page), ...await phoneProblems(page)], []);
    await card.getByRole("button", { name: "Sprawdź połączenie z PayU" }).click();
    await page.getByText("PayU odpowiedziało").waitFor();
    assert.deepEqual(
      await page.locator("#go-live .qs-step__title").allTextContents(),
      [
        "Krok 1 (wykonany): Dostawca płatności",
        "Krok 2 (wykonany): Produkcyjny klucz API",
        "Krok 3: Endpoint webhooków",
        "Krok 4: Dane firmy",
      ],
    );
    assert.deepEqual([...await seriousViolations(page), ...await phoneProblems(page)], []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
    await browser.close();
  }
});
