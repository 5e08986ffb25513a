/**
 * Payments -> Export and Reconciliation, the owner's off-site backups card and the strip of a
 * production panel on its provider's sandbox.
 */
export const panelRecords = {
  "panel.export.title": "Export",
  "panel.export.description":
    "Days are in Polish time (Europe/Warsaw). Leave them empty for everything.",
  "panel.export.payments": "Payments",
  "panel.export.refunds": "Refunds",
  "panel.export.from": "From (first day)",
  "panel.export.to": "To (last day)",
  "panel.export.status": "Status",
  "panel.export.any": "Any",
  "panel.export.format": "Format",
  "panel.export.xlsx": "Excel workbook (.xlsx)",
  "panel.export.csv": "CSV (.csv)",
  "panel.export.downloadPayments": "Download payments",
  "panel.export.downloadRefunds": "Download refunds",
  "panel.reconciliation.title": "Reconciliation",
  "panel.reconciliation.heading": "Reconciliation with {provider}",
  "panel.reconciliation.description":
    "Match {provider}'s operation statement with the payments and refunds here.",
  "panel.reconciliation.upload": "Upload a statement",
  "panel.reconciliation.statement": "{provider} statement (.csv)",
  "panel.reconciliation.statementHint":
    "From {provider}'s panel: the operation statement of a period, as CSV (at most 10 MiB).",
  "panel.reconciliation.submit": "Reconcile",
  "panel.reconciliation.done": "Statements reconciled",
  "panel.reconciliation.none": "No statement reconciled yet",
  "panel.reconciliation.period": "Period",
  "panel.reconciliation.operations": "Operations",
  "panel.reconciliation.matched": "Matched",
  "panel.reconciliation.fees": "Fees",
  "panel.reconciliation.payouts": "Payouts",
  "panel.reconciliation.problems": "Problems",
  "panel.reconciliation.allMatched": "All matched",
  "panel.reconciliation.problemCount": "{count, plural, one {# problem} other {# problems}}",
  "panel.reconciliation.kindCount": "{kind}: {count, number}",
  "panel.reconciliation.problemsCut":
    "The first {shown, number} of {count, number} problems are listed; all of them are counted: {counts}.",
  "panel.reconciliation.kind.unknown_order": "Unknown order",
  "panel.reconciliation.kind.amount_mismatch": "Amount mismatch",
  "panel.reconciliation.kind.not_in_statement": "Not in the statement",
  "panel.reconciliation.atLine": "Line {line}, {kind}: {text}",
  "panel.reconciliation.noLine": "{kind}: {text}",
  "panel.reconciliation.noOrderId":
    "{provider} shows no order id here, so no Paystead payment can be matched.",
  "panel.reconciliation.unknownOrder":
    "No payment of this organisation has the order id ''{orderId}''.",
  "panel.reconciliation.heldAs":
    "{provider} took {amount} for payment {payment}, which Paystead holds as {status}.",
  "panel.reconciliation.heldAsMatched":
    "{provider} took {amount} for payment {payment}, which Paystead holds as {status} and already matched.",
  "panel.reconciliation.wasFor":
    "{provider} took {amount} for payment {payment}, which was for {expected}.",
  "panel.reconciliation.refundUnmatched":
    "{provider} refunded {amount} of payment {payment}; Paystead has no succeeded refund of that amount for it.",
  "panel.reconciliation.notInStatement":
    "Payment {payment} ({amount}) succeeded in the statement''s period but is not in it.",
  "panel.offsite.title": "Off-site backups",
  "panel.offsite.failing": "Copying backups off-site fails",
  "panel.offsite.failingText":
    "Failing since {since}; last try at {at}: {message}. The local backups are kept and the copy is retried.",
  "panel.offsite.none": "No copy in {destination} yet.",
  "panel.offsite.caption": "Last off-site copies",
  "panel.offsite.database": "Database",
  "panel.offsite.copiedAt": "Copied at",
  "panel.offsite.size": "Size (encrypted)",
  "panel.offsite.restoreWith": "Restore with",
  "panel.offsite.environmentDatabase": "{environment} database",
  "panel.offsite.accountsDatabase": "accounts database",
  "panel.offsite.backupFailed": "copying it off-site failed ({message})",
  "panel.testPayments.label": "Test payments",
  "panel.testPayments.host":
    "{setting} is {provider}''s sandbox ({host}): no real money moves, whatever this panel shows.",
  "panel.testPayments.pos":
    "{setting} {posId} is {provider}''s public sandbox POS: no real money moves, whatever this panel shows.",
} as const;
