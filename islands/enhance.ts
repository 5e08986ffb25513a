/// <reference lib="dom" />
/**
 * Small behaviours of server-rendered panel pages that need no island: local times, forms that
 * must not be sent twice by a double click, and notices that show once.
 */

/**
 * Shows `<time data-local>` (rendered in UTC by the server) in the reader's time zone, written
 * as the page's language writes dates (`<html lang>`: the panel's language, not the browser's).
 */
export function localTimes(root: ParentNode): void {
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
  for (const element of root.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
    const at = new Date(element.dateTime);
    if (!Number.isNaN(at.getTime())) element.textContent = format.format(at);
  }
}

/** Disables a `form[data-once]`'s buttons once it is submitted, so it is sent once. */
function submitOnce(root: Document): void {
  root.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.hasAttribute("data-once") || event.defaultPrevented) return;
    // After this event: disabling a button during it would drop the button's own name/value.
    setTimeout(() => {
      for (const button of form.querySelectorAll<HTMLButtonElement>("button[type=submit]")) {
        button.disabled = true;
      }
    });
  });
}

/**
 * Drops `?notice=` (an action's redirect, see routes/panel/kit/forms.ts) from the address bar
 * once the page has shown it, so a reload or a bookmark shows no notice again.
 */
function forgetNotice(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has("notice")) return;
  url.searchParams.delete("notice");
  history.replaceState(history.state, "", url);
}

/** Ticking an event box in a webhook form chooses "Only the events ticked below" with it. */
function eventsFollowTicks(root: Document): void {
  root.addEventListener("change", (event) => {
    const box = event.target as HTMLInputElement;
    if (box.name !== "events" || !box.checked || !box.form) return;
    const some = box.form.querySelector<HTMLInputElement>('input[name="scope"][value="some"]');
    if (some) some.checked = true;
  });
}

/** Applies the behaviours to the page. */
export function enhance(): void {
  localTimes(document);
  submitOnce(document);
  eventsFollowTicks(document);
  forgetNotice();
}
