import { type ComponentChildren, createContext } from "preact";
import { useContext } from "preact/hooks";
import type { MessageKey, Translator } from "../../lib/i18n/mod.ts";
import { formatMoney } from "../../lib/money.ts";

/**
 * The translator of the page being rendered: the panel's frame provides it once per request, so
 * a view deep in a page writes `useT().t("panel.nav.home")` instead of passing it down by hand.
 * Islands have none (the catalogues stay on the server): they get their words as props.
 */
export const PanelTranslator = createContext<Translator | null>(null);

/** The translator of the page being rendered on the server. */
export function useT(): Translator {
  const translator = useContext(PanelTranslator);
  if (!translator) throw new Error("A panel view was rendered without its translator.");
  return translator;
}

/** The translator when rendered on the server; null inside an island in the browser. */
export function useOptionalT(): Translator | null {
  return useContext(PanelTranslator);
}

/**
 * Minor units as the page's language writes money: `12,50 zł` in Polish, and in English the
 * panel's `PLN 12.50` as before.
 */
export function moneyText(tr: Translator, amount: number, currency: string): string {
  return tr.language === "en" ? formatMoney(amount, currency) : tr.money(amount, currency);
}

/**
 * A message whose placeholders named in `nodes` are elements (a link, `<code>`), the others
 * plain `values`: the sentence stays whole in the catalogue, in each language's word order.
 */
export function rich(
  tr: Translator,
  key: MessageKey,
  nodes: Record<string, ComponentChildren>,
  values: Record<string, string | number> = {},
): ComponentChildren[] {
  const markers = Object.fromEntries(
    Object.keys(nodes).map((name) => [name, `\u0000${name}\u0000`]),
  );
  const parts = tr.t(key, { ...values, ...markers }).split("\u0000");
  // Odd parts are the names of the nodes, between the text around them.
  return parts.map((part, index) => (index % 2 === 1 ? nodes[part] : part));
}
