import type { OrderSummary as Summary } from "../lib/checkout/pages.ts";
import type { Translator } from "../lib/i18n/mod.ts";

/** Who is paid, for what, and how much: the merchant, the line items and the total. */
export function OrderSummary(props: { summary: Summary; t: Translator["t"] }) {
  const { summary, t } = props;
  return (
    <section class="summary" aria-labelledby="summary-title">
      <p class="summary__merchant">
        <span class="monogram" aria-hidden="true">
          {summary.merchantName.trim().charAt(0).toUpperCase()}
        </span>
        {summary.merchantName}
      </p>
      <h1 class="summary__title" id="summary-title">{summary.title}</h1>
      <p class="summary__amount">{summary.totalLabel}</p>
      {summary.description && <p class="summary__description">{summary.description}</p>}
      <table class="lines">
        <caption class="visually-hidden">{t("summary.order")}</caption>
        <thead class="visually-hidden">
          <tr>
            <th scope="col">{t("summary.item")}</th>
            <th scope="col">{t("summary.amount")}</th>
          </tr>
        </thead>
        <tbody>
          {summary.lines.map((line) => (
            <tr>
              <th scope="row">
                <span class="lines__name">{line.name}</span>
                {line.quantity > 1 && (
                  <span class="lines__quantity">
                    {t("summary.quantity", { quantity: line.quantity, unit: line.unitLabel })}
                  </span>
                )}
              </th>
              <td>{line.totalLabel}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("summary.total")}</th>
            <td>{summary.totalLabel}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
