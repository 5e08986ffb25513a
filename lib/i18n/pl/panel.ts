import type { PanelMessages } from "../catalogue.ts";
import { panelHome } from "./panel_home.ts";
import { panelDevelopers } from "./panel_developers.ts";
import { panelQuickstart, panelQuickstartPage } from "./panel_quickstart.ts";
import { panelReference } from "./panel_reference.ts";
import { panelConfig } from "./panel_config.ts";
import { panelErrors } from "./panel_errors.ts";
import { panelCheckout } from "./panel_checkout.ts";
import { panelWebhooks } from "./panel_webhooks.ts";
import { panelOffers } from "./panel_offers.ts";
import { panelPayments } from "./panel_payments.ts";
import { panelTeam } from "./panel_team.ts";
import { panelApiKeys } from "./panel_api_keys.ts";
import { panelEmails } from "./panel_emails.ts";
import { panelRecords } from "./panel_records.ts";
import { panelBusiness } from "./panel_business.ts";

/** Słowa, które sprzedawca czyta w panelu: jego ramka, części wspólne i strony logowania. */
const frame = {
  "panel.env.sandbox": "Sandbox",
  "panel.env.production": "Produkcja",
  "panel.env.switch": "środowisko: przełącz",
  "panel.env.heading": "Środowisko",
  "panel.env.here": "(jesteś tutaj)",
  "panel.env.goTo": "Przejdź do: {environment} →",
  "panel.env.note":
    "Przełączenie niczego nie kopiuje. Klucze API, oferty, webhooki i ustawienia checkoutu konfiguruje się osobno w każdym środowisku; przy uruchomieniu produkcji przenieś je ręcznie.",
  "panel.role.OWNER": "Właściciel",
  "panel.role.ADMIN": "Administrator",
  "panel.role.MEMBER": "Członek zespołu",
  "panel.user.roleOf": "{role} · {org}",
  "panel.user.account": "Konto i hasło",
  "panel.user.switchOrg": "Zmień organizację",
  "panel.user.signOut": "Wyloguj się",
  "panel.title": "{page} · {org} · Paystead {environment}",
  "panel.skip": "Przejdź do treści",
  "panel.sandbox.label": "Sandbox",
  "panel.sandbox.text": "Tylko dane testowe: prawdziwe pieniądze nie są przekazywane.",
  "panel.sandbox.clock":
    "Zegar sandboxa tej organizacji spieszy się o {days, plural, one {# dzień} other {# dni}}.",
  "panel.sandbox.region": "Informacja o środowisku testowym",
  "panel.plan": "Plan {plan}",
  "panel.nav.label": "Panel",
  "panel.nav.home": "Strona główna",
  "panel.nav.payments": "Płatności",
  "panel.nav.offers": "Oferty",
  "panel.nav.team": "Zespół i plan",
  "panel.nav.developers": "Dla programistów",
  "panel.nav.overview": "Przegląd",
  "panel.nav.upgrade": "Wyższy plan",
  "panel.nav.apiKeys": "Klucze API",
  "panel.nav.webhooks": "Webhooki",
  "panel.nav.checkout": "Sesje checkoutu",
  "panel.nav.configTransfer": "Kopiowanie konfiguracji",
  "panel.nav.quickstart": "Szybki start",
  "panel.nav.reference": "Dokumentacja API",
  "panel.backup.title": "Ostatnia zaplanowana kopia zapasowa nie powiodła się",
  "panel.backup.text":
    "{at}: {message} Więcej informacji jest w logach serwera; kopia jest ponawiana co kilka minut.",
} as const;

const shared = {
  "panel.copy": "Kopiuj",
  "panel.copied": "Skopiowano",
  "panel.select": "Naciśnij Ctrl+C",
  "panel.none": "—",
  "panel.passwordHint":
    "Co najmniej {min} znaków i trudne do odgadnięcia: dobrze sprawdza się kilka niezwiązanych ze sobą słów.",
  "panel.password.tooEasy": "To hasło jest zbyt łatwe do odgadnięcia.",
  "panel.password.advice":
    "Trudne do odgadnięcia są cztery lub pięć niezwiązanych ze sobą słów albo losowe hasło z menedżera haseł.",
  "panel.scroll.table": "{label} (przewijana w poziomie)",
  "panel.status.SUCCEEDED": "Opłacona",
  "panel.status.ACTIVE": "Aktywna",
  "panel.status.COMPLETED": "Zakończona",
  "panel.status.ENABLED": "Włączony",
  "panel.status.PENDING": "Oczekuje",
  "panel.status.OPEN": "Otwarta",
  "panel.status.PROCESSING": "W toku",
  "panel.status.EXPIRING": "Wygasa",
  "panel.status.PAST_DUE": "Zaległa",
  "panel.status.FAILED": "Nieudana",
  "panel.status.REVOKED": "Unieważniony",
  "panel.status.DISABLED": "Wyłączony",
  "panel.status.CANCELED": "Anulowana",
  "panel.status.EXPIRED": "Wygasła",
  "panel.status.INACTIVE": "Nieaktywna",
  "panel.status.REFUNDED": "Zwrócona",
  "panel.status.PARTIALLY_REFUNDED": "Częściowo zwrócona",
} as const;

const errors = {
  "panel.errorPage.400": "Sprawdź wprowadzone dane",
  "panel.errorPage.401": "Zaloguj się ponownie",
  "panel.errorPage.403": "Nie możesz tego zrobić",
  "panel.errorPage.404": "Nie znaleziono",
  "panel.errorPage.409": "Nie udało się",
  "panel.errorPage.413": "Za dużo naraz",
  "panel.errorPage.429": "Zbyt wiele prób",
  "panel.errorPage.other": "Coś poszło nie tak",
  "panel.errorPage.unexpected":
    "To nie Twoja wina. Spróbuj ponownie za chwilę; jeśli błąd się powtarza, podaj poniższy identyfikator.",
  "panel.errorPage.reference": "Identyfikator:",
  "panel.errorPage.home": "Wróć na stronę główną",
  "panel.errorPage.panel": "Przejdź do panelu",
} as const;

const auth = {
  "panel.signIn.title": "Logowanie",
  "panel.signIn.email": "E-mail",
  "panel.signIn.password": "Hasło",
  "panel.signIn.submit": "Zaloguj się",
  "panel.signIn.signedOut": "Wylogowano.",
  "panel.signIn.demo":
    "Pierwsze uruchomienie? Adres właściciela organizacji demonstracyjnej ({email}) i jednorazowe hasło serwer wypisał przy jej tworzeniu. Członkowie zespołu otrzymują zamiast tego link z zaproszeniem.",
  "panel.invite.title": "Dołącz do {org}",
  "panel.invite.role.OWNER": "właściciel (wszystko, łącznie z zespołem i właścicielami)",
  "panel.invite.role.ADMIN": "administrator (integracja, zwroty i zespół)",
  "panel.invite.role.MEMBER": "członek zespołu (oferty i płatności)",
  "panel.invite.lead": "{inviter} zaprasza {email} do organizacji {org}. Rola: {role}.",
  "panel.invite.anOwner": "Właściciel",
  "panel.invite.already": "Korzystasz już z Paystead jako {email}?",
  "panel.invite.signInToAccept": "Zaloguj się, aby przyjąć zaproszenie",
  "panel.invite.otherwise": "W przeciwnym razie podaj tutaj imię i nazwisko oraz hasło.",
  "panel.invite.name": "Imię i nazwisko",
  "panel.invite.password": "Ustaw hasło",
  "panel.invite.confirm": "Powtórz hasło",
  "panel.invite.create": "Załóż konto i dołącz",
  "panel.invite.otherUser":
    "Jesteś zalogowany jako {visitor}. Wyloguj się, zaloguj jako {email} i otwórz ten link ponownie, aby przyjąć zaproszenie.",
  "panel.invite.accept": "Przyjmij i otwórz {org}",
} as const;

const account = {
  "panel.account.title": "Konto",
  "panel.account.description": "Twoje dane logowania, wspólne dla wszystkich Twoich organizacji.",
  "panel.account.you": "Ty",
  "panel.account.email": "E-mail",
  "panel.account.name": "Imię i nazwisko",
  "panel.account.role": "Rola",
  "panel.account.signedIn": "Zalogowano",
  "panel.account.sessionEnds": "Sesja wygasa",
  "panel.account.sessions":
    "Sesja wygasa po {idle, plural, one {# godzinie} other {# godzinach}} bezczynności i po {absolute, plural, one {# godzinie} other {# godzinach}} od zalogowania.",
  "panel.account.changePassword": "Zmień hasło",
  "panel.account.current": "Obecne hasło",
  "panel.account.newPassword": "Nowe hasło",
  "panel.account.repeat": "Powtórz nowe hasło",
  "panel.account.saveContinue": "Zapisz i przejdź dalej",
  "panel.account.choose.title": "Ustaw hasło",
  "panel.account.choose.lead":
    "Zalogowano Cię jako {email} hasłem jednorazowym. Aby kontynuować, ustaw własne hasło; hasło jednorazowe przestanie działać.",
  "panel.account.passwordChanged": "Hasło zostało zmienione. Pozostałe sesje zostały wylogowane.",
  "panel.account.language": "Język",
  "panel.account.languageHint":
    "Język panelu dla Ciebie, we wszystkich organizacjach. Dopóki go nie wybierzesz, obowiązuje język przeglądarki.",
  "panel.account.languageAuto": "Język przeglądarki",
  "panel.account.languageSave": "Zapisz zmiany",
  "panel.account.languageChanged": "Język został zapisany.",
} as const;

export const panel: PanelMessages = {
  ...frame,
  ...shared,
  ...errors,
  ...auth,
  ...account,
  ...panelHome,
  ...panelApiKeys,
  ...panelTeam,
  ...panelPayments,
  ...panelOffers,
  ...panelWebhooks,
  ...panelCheckout,
  ...panelErrors,
  ...panelConfig,
  ...panelReference,
  ...panelQuickstart,
  ...panelQuickstartPage,
  ...panelDevelopers,
  ...panelEmails,
  ...panelRecords,
  ...panelBusiness,
};
