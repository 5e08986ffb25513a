import type { PaymentRecord } from "../../lib/payments/mod.ts";
import { DateTime, Id, Money, StatusBadge } from "./ui.tsx";

/** A list of payments, each row leading to the payment. */
export function PaymentsTable(props: {
  payments: PaymentRecord[];
  offerNames: Map<number, string>;
  caption: string;
}) {
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Offer and payment</th>
            <th scope="col">Customer</th>
            <th scope="col">Created</th>
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
                    (<Money amount={payment.amount_refunded} currency={payment.currency} />{" "}
                    refunded)
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
    </div>
  );
}
