import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { addUser } from "../panel_helpers.ts";
import { collectErrors, launchBrowser, screenshot, startCheckoutServer } from "./helpers.ts";

const LONG_EMAIL = "very.long.first.name.lastname@subdomain.example-company.com";

/** How an element shows its text: whole (nothing scrolled away or cut by an ellipsis) or not. */
interface Shown {
  text: string;
  whole: boolean;
  ellipsis: boolean;
  insideViewport: boolean;
}

function shown(page: Page, selector: string): Promise<Shown> {
  return page.locator(selector).evaluate((element: HTMLElement) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      text: element.textContent ?? "",
      whole: element.scrollWidth <= element.clientWidth &&
        element.scrollHeight <= element.clientHeight,
      ellipsis: style.textOverflow === "ellipsis",
      insideViewport: box.width > 0 && box.left >= 0 &&
        box.right <= document.documentElement.clientWidth,
    };
  });
}

async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/panel/sign-in`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator(".user-menu summary").waitFor();
}

/** How much wider than the viewport the page is (0 when nothing sticks out sideways). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

/** Tells whether the user menu's button fits in the header's height (no third line). */
function menuFitsHeader(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const header = document.querySelector(".topbar")!.getBoundingClientRect();
    const button = document.querySelector(".user-menu summary")!.getBoundingClientRect();
    return button.top >= header.top && button.bottom <= header.bottom;
  });
}

const WHOLE: Omit<Shown, "text"> = { whole: true, ellipsis: false, insideViewport: true };

Deno.test("[e2e] the header shows a long e-mail whole, from a laptop down to a phone", async (t) => {
  let browser: Browser | undefined;
  const server = await startCheckoutServer();
  try {
    const member = await addUser(server.t, { email: LONG_EMAIL, role: "MEMBER" });
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await signIn(page, server.origin, member.email, member.password);

    await t.step("1280px: the e-mail is the menu's label, and in the open menu", async () => {
      assert.deepEqual(await shown(page, ".user-menu__name"), { text: LONG_EMAIL, ...WHOLE });
      assert.equal(await menuFitsHeader(page), true);
      await page.locator(".user-menu summary").click();
      assert.deepEqual(await shown(page, ".user-menu__email"), { text: LONG_EMAIL, ...WHOLE });
      assert.equal(await sidewaysOverflow(page), 0);
      await screenshot(page, "panel-header-long-email");
    });

    await t.step("800px: the label wraps once more, still inside the header", async () => {
      await page.setViewportSize({ width: 800, height: 900 });
      await page.reload();
      assert.deepEqual(await shown(page, ".user-menu__name"), { text: LONG_EMAIL, ...WHOLE });
      assert.equal(await menuFitsHeader(page), true);
      assert.equal(await sidewaysOverflow(page), 0);
    });

    await t.step("390px: the open menu shows the e-mail whole", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.locator(".user-menu summary").click();
      assert.deepEqual(await shown(page, ".user-menu__email"), { text: LONG_EMAIL, ...WHOLE });
      assert.equal(await sidewaysOverflow(page), 0);
      await screenshot(page, "panel-header-long-email-phone");
    });

    assert.deepEqual(errors, []);
  } finally {
    await browser?.close();
    await server.close();
  }
});

Deno.test("[e2e] the header names a member who has a name, with the e-mail in the menu", async () => {
  let browser: Browser | undefined;
  const server = await startCheckoutServer();
  try {
    const member = await addUser(server.t, {
      email: LONG_EMAIL,
      role: "ADMIN",
      name: "Ada Lovelace",
    });
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.origin, member.email, member.password);
    assert.deepEqual(await shown(page, ".user-menu__name"), { text: "Ada Lovelace", ...WHOLE });
    await page.locator(".user-menu summary").click();
    assert.deepEqual(await shown(page, ".user-menu__full-name"), {
      text: "Ada Lovelace",
      ...WHOLE,
    });
    assert.deepEqual(await shown(page, ".user-menu__email"), { text: LONG_EMAIL, ...WHOLE });
  } finally {
    await browser?.close();
    await server.close();
  }
});
