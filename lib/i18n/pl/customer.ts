import type { CustomerMessages } from "../catalogue.ts";

/** Słowa, które klient czyta na stronie płatności, w ramce checkoutu i na ekranach wyniku. */
export const customer: CustomerMessages = {
  "language.switch": "English",

  "page.hostedTitle": "Płatność dla {merchant} · {item}",
  "page.checkoutTitle": "{item} – płatność dla {merchant}",
  "page.paymentSection": "Płatność",

  "sandbox.label": "Środowisko testowe",
  "sandbox.text": "Płatności testowe: prawdziwe pieniądze nie są pobierane.",
  "sandbox.region": "Tryb testowy",
  "testCodes.title": "Testowe kody BLIK",
  "testCodes.code": "Kod",
  "testCodes.result": "Wynik",
  "testCodes.other": "dowolny inny",
  "testCodes.succeeds": "Płatność udana",
  "testCodes.fails": "Płatność nieudana",
  "testCodes.waitsThenFails": "Oczekiwanie, potem odmowa",
  "securedBy": "Płatności zabezpiecza Paystead",

  "summary.order": "Twoje zamówienie",
  "summary.item": "Pozycja",
  "summary.amount": "Kwota",
  "summary.total": "Razem",
  "summary.quantity": "{quantity} szt. × {unit}",

  "footer.seller": "Sprzedawca",
  "footer.taxId": "NIP: {taxId}",
  "footer.contact": "Kontakt",
  "footer.email": "E-mail",
  "footer.phone": "Telefon",

  "code.heading": "Zapłać kodem BLIK",
  "code.hint": "Wpisz 6-cyfrowy kod BLIK z aplikacji banku.",
  "code.label": "Kod BLIK",
  "code.submit": "Zapłać {amount}",
  "code.invalid": "Wpisz 6 cyfr kodu BLIK.",

  "details.emailLabel": "Adres e-mail (opcjonalnie)",
  "details.emailHint": "Wyślemy na niego potwierdzenie płatności.",
  "details.emailInvalid":
    "Wpisz adres e-mail, np. jan.kowalski@example.pl, albo zostaw to pole puste.",
  "details.emailLabelRequired": "Adres e-mail",
  "details.emailHintRenewal":
    "Wyślemy na niego potwierdzenie płatności, a przed końcem każdego okresu – link do odnowienia subskrypcji.",
  "details.emailMissing": "Podaj adres e-mail – wyślemy na niego link do odnowienia subskrypcji.",
  "details.invoice": "Chcę fakturę",
  "details.companyName": "Nazwa firmy",
  "details.taxId": "NIP",
  "details.companyNameMissing": "Podaj nazwę firmy do faktury.",
  "details.taxIdInvalid": "Wpisz poprawny NIP: 10 cyfr, tak jak w dokumentach firmy.",

  "wait.title": "Potwierdź płatność w aplikacji banku",
  "wait.text":
    "Otwórz aplikację banku i zatwierdź płatność BLIK na kwotę {amount} dla {merchant}. Nie zamykaj tej strony.",
  "wait.countdown": "Pozostały czas na potwierdzenie: {time}",
  "wait.late": "Wciąż czekamy na odpowiedź banku…",

  "success.title": "Płatność zakończona",
  "success.text": "Płatność na kwotę {amount} dla {merchant} została zrealizowana.",
  "success.reference": "Numer płatności: {paymentId}",
  "success.redirect": "Za chwilę wrócisz do sklepu {merchant}…",
  "success.continue": "Przejdź dalej",
  "success.close": "Możesz zamknąć tę stronę.",

  "failed.title": "Płatność nieudana",
  "failed.nothingCharged": "Żadne środki nie zostały pobrane.",
  "failed.invalid_code":
    "Nie rozpoznaliśmy tego kodu BLIK. Wygeneruj nowy kod w aplikacji banku i spróbuj ponownie.",
  "failed.declined":
    "Bank odrzucił płatność. Spróbuj ponownie z nowym kodem, a jeśli sytuacja się powtórzy, skontaktuj się z bankiem.",
  "failed.code_expired":
    "Kod BLIK wygasł, zanim został użyty. Kod jest ważny 2 minuty – wygeneruj nowy i wpisz go od razu.",
  "failed.code_canceled":
    "Kod BLIK został anulowany w aplikacji banku. Wygeneruj nowy kod, aby spróbować ponownie.",
  "failed.code_already_used":
    "Ten kod BLIK został już wykorzystany. Wygeneruj nowy kod i spróbuj ponownie.",
  "failed.timeout":
    "Bank nie potwierdził płatności na czas. Jeśli nie została zatwierdzona w aplikacji banku, spróbuj ponownie z nowym kodem.",
  "failed.provider_unavailable":
    "Nie udało się połączyć z operatorem płatności. Spróbuj ponownie za chwilę z nowym kodem.",
  "failed.provider_rejected":
    "Operator płatności odrzucił tę płatność. Spróbuj ponownie z nowym kodem albo skontaktuj się ze sklepem.",
  "failed.unknown": "Płatność nie została zrealizowana. Spróbuj ponownie z nowym kodem.",
  "failed.retry": "Spróbuj ponownie z nowym kodem",
  "failed.noRetry":
    "Tego linku do płatności nie można już użyć. Poproś sklep {merchant} o nowy link.",

  "locked.title": "Zbyt wiele prób",
  "locked.text":
    "Ze względów bezpieczeństwa wpisywanie kodów jest wstrzymane. Spróbuj ponownie za {minutes, plural, one {# minutę} few {# minuty} many {# minut} other {# minuty}}.",

  "expired.checkoutTitle": "Czas na płatność minął",
  "expired.checkoutText":
    "Żadne środki nie zostały pobrane. Wróć do sklepu {merchant}, aby zacząć od nowa.",
  "expired.linkTitle": "Link do płatności wygasł",
  "expired.linkText":
    "Żadne środki nie zostały pobrane. Poproś sklep {merchant} o nowy link do płatności.",

  "canceled.title": "Płatność została anulowana",
  "canceled.text": "Sklep {merchant} anulował tę płatność. Żadne środki nie zostały pobrane.",

  "return.waitingTitle": "Czekamy na potwierdzenie z banku",
  "return.waitingText":
    "Bank potwierdza płatność na kwotę {amount} dla {merchant}. Strona odświeży się sama.",
  "return.lateTitle": "Bank jeszcze nie potwierdził płatności",
  "return.lateText":
    "To może potrwać kilka minut. Możesz zamknąć tę stronę – sklep {merchant} dowie się o płatności, gdy tylko bank ją potwierdzi.",
  "return.notPaidTitle": "Płatność nie została dokończona",
  "return.notPaidText": "Żadne środki nie zostały pobrane. Możesz wybrać inną metodę płatności.",
  "return.chooseAgain": "Wybierz inną metodę płatności",
  "return.failedText": "Płatność została odrzucona. Żadne środki nie zostały pobrane.",
  "return.tryAgain": "Spróbuj ponownie",
  "return.check": "Sprawdź ponownie",

  "sandboxBank.title": "Bank testowy",
  "sandboxBank.text":
    "W trybie testowym ta strona zastępuje {place} – prawdziwe pieniądze nie są przesyłane. Płatność na kwotę {amount} dla {merchant}.",
  "sandboxBank.card": "stronę płatności kartą",
  "sandboxBank.google_pay": "stronę Google Pay",
  "sandboxBank.apple_pay": "stronę Apple Pay",
  "sandboxBank.pay": "Zapłać {amount}",
  "sandboxBank.decline": "Odrzuć płatność",
  "sandboxBank.leave": "Wróć do sklepu bez płacenia",
  "sandboxBank.decided": "Ta testowa płatność została już rozstrzygnięta.",
  "sandboxBank.canceled":
    "Sklep zrezygnował z tej próby płatności. Zapłata teraz to bank, który pobrał pieniądze, zanim dotarła rezygnacja – Paystead zwróci je w całości.",

  "action.cancel": "Anuluj",
  "action.back": "Wróć do sklepu {merchant}",

  "notice.offline":
    "Nie udało się połączyć z serwisem płatności. Sprawdź połączenie z internetem i spróbuj ponownie.",
  "notice.stale": "Ta strona jest nieaktualna. Odśwież ją i spróbuj ponownie.",
  "notice.serverError": "Wystąpił błąd po naszej stronie. Spróbuj ponownie za chwilę.",

  "offer.unavailableTitle": "Ta oferta nie jest już dostępna",
  "offer.unavailableText":
    "Sklep {merchant} nie sprzedaje już „{offer}” za pomocą tego kodu. Żadne środki nie zostały pobrane.",
  "embed.notAllowedTitle": "Płatność nie jest tu dostępna",
  "embed.notAllowedText":
    "Sklep {merchant} nie pozwala już na tę płatność na stronie, która ją otworzyła. Wróć do sklepu i zacznij od nowa.",
  "embed.notReady":
    "Nie udało się wczytać formularza płatności. Odśwież stronę lub spróbuj ponownie później.",

  "error.reference": "Numer zgłoszenia: {requestId}",
  "error.400.title": "Sprawdź wprowadzone dane",
  "error.400.text": "Coś w formularzu się nie zgadza. Wróć i spróbuj ponownie.",
  "error.403.title": "Ta strona jest nieaktualna",
  "error.403.text": "Wróć, odśwież stronę i spróbuj ponownie.",
  "error.404.title": "Nie możemy znaleźć tej strony",
  "error.404.text": "Link może być niepełny lub nieaktualny. Sprawdź go albo poproś sklep o nowy.",
  "error.409.title": "Stan tej płatności już się zmienił",
  "error.409.text": "Wróć i odśwież stronę płatności, aby sprawdzić jej aktualny stan.",
  "error.429.title": "Zbyt wiele prób",
  "error.429.text": "Ze względów bezpieczeństwa odczekaj kilka minut, zanim spróbujesz ponownie.",
  "error.other.title": "Coś poszło nie tak",
  "error.other.text": "To nie Twoja wina. Spróbuj ponownie za chwilę.",
};
