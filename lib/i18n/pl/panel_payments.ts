import type { panelPayments as english } from "../en/panel_payments.ts";

/** Płatności, strona płatności, jej zwroty i subskrypcje. */
export const panelPayments: { readonly [K in keyof typeof english]: string } = {
  "panel.payments.refunded":
    "Zwrot został utworzony. Ma status PENDING, dopóki metoda płatności go nie potwierdzi — zwykle od razu.",
  "panel.payments.completed": "Płatność testowa została przeprowadzona z kodem testowym.",
  "panel.payments.canceled": "Płatność została anulowana.",
  "panel.payments.subscriptionCanceled": "Subskrypcja została anulowana.",
  "panel.payments.subscriptionScheduled": "Subskrypcja zakończy się wraz z opłaconym okresem.",
  "panel.paymentsTable.amount": "Kwota",
  "panel.paymentsTable.status": "Status",
  "panel.paymentsTable.offer": "Oferta i płatność",
  "panel.paymentsTable.customer": "Klient",
  "panel.paymentsTable.created": "Utworzono",
  "panel.paymentsTable.refunded": "zwrócono {amount}",
};
