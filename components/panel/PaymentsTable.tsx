import type { PaymentRecord } from "../../lib/payments/mod.ts";
import { moneyText, useT } from "./i18n.ts";
import { DateTime, Id, Money, StatusBadge, TableWrap } from "./ui.tsx";

/** A list of payments, each row leading to the payment. */
export function PaymentsTable(props: {
  payments: PaymentRecord[];
  offerNames: Map<number, string>;
  caption: string;
}) {
  const tr = useT();
  const { t } = tr;
  return (
    <TableWrap label={props.caption}>
      <table class="table">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">{t("panel.paymentsTable.amount")}</th>
            <th scope="col">{t("panel.paymentsTable.status")}</th>
            <th scope="col">{t("panel.paymentsTable.offer")}</th>
            <th scope="col">{t("panel.paymentsTable.customer")}</th>
            <th scope="col">{t("panel.paymentsTable.created")}</th>
          </tr>
        </thead>
        <tbody>
          {props.payments.map((payment) => (
            <tr>
              <td class="num">
                <a href={`/panel/payments/${payment.public_id}`} class="row-link">
                  <Money amount={payment.amount} currency={payment.currency} />
                </a>
                {payment.amount_refunded > 0 && (
                  <span class="muted small">
                    {" "}
                    ({t("panel.paymentsTable.refunded", {
                      amount: moneyText(tr, payment.amount_refunded, payment.currency),
                    })})
                  </span>
                )}
              </td>
              <td>
                <StatusBadge status={payment.status} />
              </td>
              <td>
                {props.offerNames.get(payment.offer_id) ?? <Id>{payment.qr_id}</Id>}
                <span class="block">
                  <Id>{payment.public_id}</Id>
                </span>
              </td>
              <td>{payment.customer_email ?? <span class="muted">—</span>}</td>
              <td>
                <DateTime at={payment.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
