import type { EmailMessages } from "../catalogue.ts";

/** Słowa e-maili wysyłanych klientowi (potwierdzenia, zwroty, linki do odnowienia). */
export const emails: EmailMessages = {
  "email.confirmation.subject": "Potwierdzenie płatności – {shop}",
  "email.confirmation.heading": "Dziękujemy za zakupy",
  "email.confirmation.intro":
    "Otrzymaliśmy Twoją płatność BLIK na kwotę {amount}. Zachowaj tę wiadomość – to potwierdzenie zakupu.",
  "email.refund.subject": "Zwrot środków – {shop}",
  "email.refund.heading": "Zwrot środków",
  "email.refund.intro":
    "Zwracamy Ci {amount} z płatności z dnia {date}. Pieniądze wrócą na konto, z którego zapłacono kodem BLIK – zwykle w ciągu kilku dni roboczych.",
  "email.refund.details": "Szczegóły zwrotu",
  "email.refund.amount": "Kwota zwrotu",
  "email.refund.refundId": "Numer zwrotu",
  "email.order.heading": "Twoje zamówienie",
  "email.order.items":
    "{count, plural, one {# pozycja} few {# pozycje} many {# pozycji} other {# pozycji}}",
  "email.order.line":
    "{name} – {quantity, plural, one {# szt.} few {# szt.} many {# szt.} other {# szt.}} × {unitAmount}",
  "email.order.total": "Razem",
  "email.details.heading": "Szczegóły płatności",
  "email.details.date": "Data",
  "email.details.paymentId": "Numer płatności",
  "email.details.method": "Metoda płatności: BLIK",
  "email.invoice.heading": "Faktura",
  "email.invoice.requested":
    "Poproszono o fakturę na: {companyName}, NIP {taxId}. Sprzedawca wystawi ją i prześle osobno.",
  "email.seller.heading": "Sprzedawca",
  "email.seller.taxId": "NIP: {taxId}",
  "email.seller.contact": "W razie pytań napisz do nas: {email}",
  "email.seller.contactWithPhone": "W razie pytań napisz do nas: {email} lub zadzwoń: {phone}",
  "email.footer.reply": "Możesz odpowiedzieć na tę wiadomość – odpowiedź trafi do sprzedawcy.",
  "email.footer.sentBy":
    "Wiadomość od sprzedawcy {shop}, wysłana przez Paystead – serwis obsługujący płatność.",
  "email.renewal.notice.subject": "Odnów subskrypcję – {shop}",
  "email.renewal.notice.heading": "Twoja subskrypcja wygasa {date}",
  "email.renewal.notice.intro":
    "Aby nadal korzystać z: {offer}, zapłać {amount} za kolejny okres kodem BLIK. To zajmie chwilę: otwórz link i wpisz kod z aplikacji bankowej.",
  "email.renewal.reminder.subject": "Przypomnienie: odnów subskrypcję – {shop}",
  "email.renewal.reminder.heading": "Twoja subskrypcja czeka na płatność",
  "email.renewal.reminder.intro":
    "Opłacony okres zakończył się {date}. Zapłać {amount} kodem BLIK do {deadline}, aby nadal korzystać z: {offer}. Po tym terminie subskrypcja zostanie anulowana.",
  "email.renewal.action": "Zapłać teraz",
  "email.renewal.details": "Odnowienie",
  "email.renewal.period": "Kolejny okres: {start} – {end}",
  "email.renewal.deadline": "Termin płatności",
};
