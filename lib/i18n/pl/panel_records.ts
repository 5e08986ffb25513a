import type { panelRecords as english } from "../en/panel_records.ts";

/**
 * Płatności -> Eksport i Uzgodnienie, karta kopii zapasowych poza serwerem dla właściciela i pasek
 * panelu produkcyjnego podłączonego do sandboxa dostawcy płatności.
 */
export const panelRecords: { readonly [K in keyof typeof english]: string } = {
  "panel.export.title": "Eksport",
  "panel.export.description":
    "Dni liczone są według czasu polskiego (Europe/Warsaw). Pozostaw je puste, aby wyeksportować wszystko.",
  "panel.export.payments": "Płatności",
  "panel.export.refunds": "Zwroty",
  "panel.export.from": "Od (pierwszy dzień)",
  "panel.export.to": "Do (ostatni dzień)",
  "panel.export.status": "Status",
  "panel.export.any": "Dowolny",
  "panel.export.format": "Format",
  "panel.export.xlsx": "Skoroszyt Excel (.xlsx)",
  "panel.export.csv": "CSV (.csv)",
  "panel.export.downloadPayments": "Pobierz płatności",
  "panel.export.downloadRefunds": "Pobierz zwroty",
  "panel.reconciliation.title": "Uzgodnienie",
  "panel.reconciliation.heading": "Uzgodnienie z zestawieniem {provider}",
  "panel.reconciliation.description":
    "Porównaj tutaj zestawienie operacji z {provider} z płatnościami i zwrotami.",
  "panel.reconciliation.upload": "Prześlij zestawienie",
  "panel.reconciliation.statement": "Zestawienie {provider} (.csv)",
  "panel.reconciliation.statementHint":
    "Z panelu {provider}: zestawienie operacji za wybrany okres w formacie CSV (najwyżej 10 MiB).",
  "panel.reconciliation.submit": "Uzgodnij",
  "panel.reconciliation.done": "Uzgodnione zestawienia",
  "panel.reconciliation.none": "Nie uzgodniono jeszcze żadnego zestawienia",
  "panel.reconciliation.period": "Okres",
  "panel.reconciliation.operations": "Operacje",
  "panel.reconciliation.matched": "Zgodne",
  "panel.reconciliation.fees": "Prowizje",
  "panel.reconciliation.payouts": "Wypłaty",
  "panel.reconciliation.problems": "Rozbieżności",
  "panel.reconciliation.allMatched": "Wszystko się zgadza",
  "panel.reconciliation.problemCount":
    "{count, plural, one {# rozbieżność} few {# rozbieżności} many {# rozbieżności} other {# rozbieżności}}",
  "panel.reconciliation.kindCount": "{kind}: {count, number}",
  "panel.reconciliation.problemsCut":
    "Lista pokazuje pierwsze {shown, number} z {count, number} rozbieżności; policzone są wszystkie: {counts}.",
  "panel.reconciliation.kind.unknown_order": "Nieznane zamówienie",
  "panel.reconciliation.kind.amount_mismatch": "Niezgodna kwota",
  "panel.reconciliation.kind.not_in_statement": "Brak w zestawieniu",
  "panel.reconciliation.atLine": "Wiersz {line}, {kind}: {text}",
  "panel.reconciliation.noLine": "{kind}: {text}",
  "panel.reconciliation.noOrderId":
    "{provider} nie podaje tutaj identyfikatora zamówienia, więc nie można dopasować żadnej płatności w Paystead.",
  "panel.reconciliation.unknownOrder":
    "Żadna płatność tej organizacji nie ma identyfikatora zamówienia „{orderId}”.",
  "panel.reconciliation.heldAs":
    "{provider} pobrało {amount} za płatność {payment}, która w Paystead ma status {status}.",
  "panel.reconciliation.heldAsMatched":
    "{provider} pobrało {amount} za płatność {payment}, która w Paystead ma status {status} i została już dopasowana.",
  "panel.reconciliation.wasFor":
    "{provider} pobrało {amount} za płatność {payment}, której kwota wynosiła {expected}.",
  "panel.reconciliation.refundUnmatched":
    "{provider} zwróciło {amount} z płatności {payment}; w Paystead nie ma zakończonego zwrotu tej płatności na taką kwotę.",
  "panel.reconciliation.notInStatement":
    "Płatność {payment} ({amount}) została opłacona w okresie objętym zestawieniem, ale zestawienie jej nie zawiera.",
  "panel.offsite.title": "Kopie zapasowe poza serwerem",
  "panel.offsite.failing": "Kopiowanie kopii zapasowych poza serwer się nie udaje",
  "panel.offsite.failingText":
    "Błędy od {since}; ostatnia próba {at}: {message}. Lokalne kopie zapasowe są zachowane, a kopiowanie jest ponawiane.",
  "panel.offsite.none": "W {destination} nie ma jeszcze żadnej kopii.",
  "panel.offsite.caption": "Ostatnie kopie poza serwerem",
  "panel.offsite.database": "Baza danych",
  "panel.offsite.copiedAt": "Skopiowano",
  "panel.offsite.size": "Rozmiar (po zaszyfrowaniu)",
  "panel.offsite.restoreWith": "Polecenie przywracania",
  "panel.offsite.environmentDatabase":
    "{environment, select, sandbox {baza sandboxa} production {baza produkcyjna} other {baza {environment}}}",
  "panel.offsite.accountsDatabase": "baza kont",
  "panel.offsite.backupFailed": "kopiowanie poza serwer nie powiodło się ({message})",
  "panel.testPayments.label": "Płatności testowe",
  "panel.testPayments.host":
    "{setting} wskazuje sandbox {provider} ({host}): prawdziwe pieniądze nie są przekazywane, niezależnie od tego, co pokazuje ten panel.",
  "panel.testPayments.pos":
    "{setting} {posId} to publiczny punkt płatności (POS) sandboxa {provider}: prawdziwe pieniądze nie są przekazywane, niezależnie od tego, co pokazuje ten panel.",
} as const;
