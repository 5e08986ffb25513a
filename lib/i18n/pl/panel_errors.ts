import type { panelErrors as english } from "../en/panel_errors.ts";

/** Komunikaty błędów domeny w panelu (rozpoznawane po angielskim brzmieniu, które zachowuje API). */
export const panelErrors: { readonly [K in keyof typeof english]: string } = {
  "panel.error.tooShort": "Pole „{param}” nie może być puste.",
  "panel.error.tooLong": "Pole „{param}” może mieć najwyżej {max} znaków.",
  "panel.error.numberMin": "Pole „{param}” musi wynosić co najmniej {min}.",
  "panel.error.numberMax": "Pole „{param}” może wynosić najwyżej {max}.",
  "panel.error.notEmpty": "Pole „{param}” nie może być puste.",
  "panel.error.email": "Pole „{param}” musi zawierać adres e-mail.",
  "panel.error.currency":
    "Pole „{param}” musi zawierać kod waluty ISO 4217 wielkimi literami, np. PLN lub EUR.",
  "panel.error.amount":
    "Wpisz kwotę, np. 12,50 (najwyżej {digits, plural, one {# cyfra} few {# cyfry} many {# cyfr} other {# cyfry}} po przecinku).",
  "panel.error.metadataLine":
    "Wiersz {line} metadanych nie ma postaci klucz=wartość: zapisz każdy wpis jak orderId=A-1001.",
  "panel.error.metadataTwice": "Klucz „{key}” występuje w metadanych dwukrotnie.",
  "panel.error.url": "Pole „{param}” musi zawierać pełny adres http:// lub https://.",
  "panel.error.urlHttps": "Pole „{param}” musi zawierać adres https:// w środowisku produkcyjnym.",
  "panel.error.tickEvents": "Zaznacz co najmniej jedno zdarzenie albo wybierz wszystkie zdarzenia.",
  "panel.error.allAndTicked":
    "Wybrano „Wszystkie zdarzenia” i jednocześnie zaznaczono niektóre: wybierz „Tylko zdarzenia zaznaczone poniżej”, aby otrzymywać tylko te, albo odznacz je, aby otrzymywać wszystkie.",
  "panel.error.origin":
    "„{param}” musi być originem, schemat://host[:port] bez ścieżki, np. https://shop.example (podano „{raw}”).",
  "panel.error.originScheme":
    "„{param}” musi używać https:// (http:// jest dozwolone tylko dla localhost w sandboxie).",
  "panel.error.originWildcard":
    "„{param}”: symbole wieloznaczne są niedozwolone; wpisz każdy origin, na którym osadzasz checkout.",
  "panel.error.passwordShort":
    "Użyj co najmniej {min} znaków; dobrze sprawdza się kilka niezwiązanych ze sobą słów.",
  "panel.error.passwordLong": "Użyj najwyżej {max} znaków.",
  "panel.error.passwordEmail": "Nie używaj swojego adresu e-mail jako hasła.",
  "panel.error.passwordsDiffer": "Hasła nie są takie same.",
  "panel.error.currentWrong": "Obecne hasło jest nieprawidłowe.",
  "panel.error.currentMissing": "Wpisz obecne hasło.",
  "panel.error.oneTime": "Ustaw własne hasło zamiast hasła jednorazowego.",
  "panel.error.samePassword": "To jest Twoje obecne hasło; wybierz nowe.",
  "panel.error.signInFailed":
    "Ten adres e-mail i hasło nie pasują do żadnego konta. Sprawdź oba i spróbuj ponownie.",
  "panel.error.enterEmail": "Wpisz adres e-mail, którym się logujesz.",
  "panel.error.enterPassword": "Wpisz hasło.",
  "panel.error.tooManySignIns":
    "Zbyt wiele nieudanych prób logowania. Odczekaj {minutes, plural, one {# minutę} few {# minuty} many {# minut} other {# minuty}} i spróbuj ponownie.",
  "panel.error.sessionEnded": "Sesja wygasła; zaloguj się ponownie.",
  "panel.error.signInAgain": "Zaloguj się ponownie.",
  "panel.error.choosePasswordFirst": "Najpierw ustaw własne hasło.",
  "panel.error.csrf":
    "Ta strona była otwarta zbyt długo albo formularz wysłano z innej strony. Odśwież ją i spróbuj ponownie.",
  "panel.error.sendForm": "Wyślij ten formularz z jego strony.",
  "panel.error.noPage": "Pod adresem {path} nie ma strony.",
  "panel.error.role":
    "Ta część panelu jest przeznaczona dla: {roles}; Twoja rola w {org} to {role}. Jeśli jej potrzebujesz, poproś właściciela.",
  "panel.error.plan": "Wymaga planu {plan} lub wyższego; {org} ma plan {current}.",
  "panel.error.language": "Wybierz English, Polski lub język przeglądarki.",
  "panel.error.rollDelay": "Wybierz, kiedy stary klucz ma przestać działać.",
  "panel.error.keyAlready": "Klucz „{name}” ma już status {status}; nie ma czego zmieniać.",
  "panel.error.inviteUsed": "To zaproszenie zostało już wykorzystane. Zaloguj się.",
  "panel.error.inviteExpired": "To zaproszenie wygasło. Poproś osobę, która Cię zaprosiła, o nowe.",
  "panel.error.inviteInvalid":
    "Ten link z zaproszeniem jest nieprawidłowy. Poproś osobę, która Cię zaprosiła, o nowy.",
  "panel.error.inviteGone": "To zaproszenie zostało już przyjęte lub wycofane.",
  "panel.error.hasAccount":
    "{email} ma już konto w Paystead. Zaloguj się na nie i otwórz ten link ponownie, aby przyjąć zaproszenie.",
  "panel.error.alreadyMember": "{email} jest już członkiem tej organizacji.",
  "panel.error.teamOnly": "Zespołem zarządzają tylko właściciele i administratorzy.",
  "panel.error.endpointLimit":
    "Organizacja może mieć najwyżej {max} endpointów webhooków; usuń jeden albo dodaj zdarzenia do istniejącego.",
  "panel.error.endpointDisabled": "Endpoint webhooków „{id}” jest wyłączony; najpierw go włącz.",
  "panel.error.sinceUntil": "Początek przedziału musi być wcześniejszy niż jego koniec.",
  "panel.error.refundLeft":
    "Do zwrotu pozostało {amount} {currency} (zwroty oczekujące są wliczone).",
  "panel.error.refundedInFull":
    "Płatność „{id}” została już zwrócona w całości (zwroty oczekujące są wliczone).",
  "panel.error.notSucceeded":
    "Płatność „{id}” ma status {status}; zwrócić można tylko płatność SUCCEEDED.",
  "panel.error.final":
    "Płatność „{id}” ma już ostateczny status {status}; taka płatność już się nie zmienia.",
  "panel.error.processing": "Płatność „{id}” jest przetwarzana; poczekaj na jej wynik.",
  "panel.error.configFile": "Wybierz plik konfiguracji do zaimportowania.",
  "panel.error.bodyTooLarge":
    "Ten formularz jest większy, niż może być jakikolwiek formularz panelu.",
  "panel.error.rolesOf.OWNER": "właścicieli",
  "panel.error.rolesOf.ADMIN": "administratorów",
  "panel.error.rolesOf.MEMBER": "członków zespołu",
  "panel.error.and": "{first} i {second}",
  "panel.error.noSmtp":
    "Nie wysłano: ten proces produkcyjny nie ma ustawionej zmiennej SMTP_URL, więc nie wysyła e-maili. Ustaw SMTP_URL i MAIL_FROM, uruchom serwer ponownie, a potem wyślij e-mail ponownie.",
  "panel.error.emailSending":
    "E-mail ''{id}'' jest jeszcze wysyłany (próba {attempt}); poczekaj na jej wynik.",
  "panel.error.chooseStatement": "Wybierz zestawienie {provider} (plik .csv).",
  "panel.error.exportRange": "Data „Do” nie może być wcześniejsza niż data „Od”.",
  "panel.error.exportBound":
    "Pole „{param}” musi zawierać dzień, np. 2026-11-01, lub czas w formacie ISO 8601, np. 2026-11-01T00:00:00.000Z.",
  "panel.error.statementColumns":
    "Wiersz {line}: to nie jest zestawienie {provider} — brakuje kolumn: {missing} (nagłówek zawiera: {header}).",
  "panel.error.statementDay": "Wiersz {line}: data „{value}” nie jest dniem w formacie RRRR-MM-DD.",
  "panel.error.statementKind":
    "Wiersz {line}: typ operacji „{value}” nie występuje w zestawieniach {provider} (obsługiwane są: zakup, zwrot, prowizja i wypłata).",
  "panel.error.statementCurrency": "Wiersz {line}: waluta „{value}” nie jest kodem ISO 4217.",
  "panel.error.statementAmount":
    "Wiersz {line}: {column, select, amount {kwota} balance {saldo} other {prowizja}} „{value}” nie jest kwotą w walucie {currency}.",
  "panel.error.statementTooLarge":
    "Wiersz {line}: zestawienie jest większe niż 10 MiB; pobierz z {provider} zestawienie za krótszy okres.",
  "panel.error.statementEncoding":
    "Wiersz {line}: to nie jest tekst w kodowaniu UTF-8, więc nie jest to plik CSV.",
  "panel.error.statementCsv": "Wiersz {line}: to nie jest poprawny plik CSV ({detail}).",
  "panel.error.statementEmpty": "Wiersz {line}: zestawienie jest puste.",
  "panel.error.statementNoOperations": "Wiersz {line}: zestawienie nie zawiera żadnych operacji.",
};
